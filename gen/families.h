// The classic shapes by name (MP, SB, IRIW, ...) with their canonical diy cycles, recognition of
// a cycle's family, placements (every split of the threads into clusters and CTAs), and the
// enumeration of cycles from relax/safe edge lists (diy's -relax/-safe/-size/-nprocs).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/cycle.h"
#include "gen/spec.h"

namespace gen {

struct Family {
  std::string name;
  std::string cycle;  // edges, thread 0 first
};
const std::vector<Family>& families();
const Family* findFamily(const std::string& name);  // case-insensitive; nullptr when unknown

// The family whose shape the cycle has (fences and dependencies read as plain program order),
// or the cycle's edges joined by '+' when it is none of the table.
std::string familyOf(const std::vector<Edge>& cycle);

// Every split of `threads` threads into CTAs (within one cluster each, clusters numbered like
// CTAs); with `clusters`, every split into clusters and of each cluster into CTAs. In restricted
// growth order: deterministic.
// With `levels.gpu` the clusters (or CTAs) are split over GPUs too; with `levels.warp` the
// threads of each CTA are split into warps (lanes of one warp).
std::vector<std::vector<Place>> placements(int threads, Levels levels);

// diy's enumeration: cycles of 2..size edges drawn from relax and safe, containing at least one
// relax edge, with 2..nprocs threads, in canonical rotation, without duplicates, in a fixed
// order. Cycles that cannot be built are left out.
std::vector<std::vector<Edge>> enumerateCycles(const std::vector<Edge>& relax, const std::vector<Edge>& safe,
                                               int size, int nprocs);

}  // namespace gen
