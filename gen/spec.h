// A generated test before it is text: a cycle, the annotation of each of its accesses (memory
// order and scope), where each thread runs, and the state space of the locations; and its
// YAML text and herd-style name (gen/emit.cpp).
#pragma once

#include <string>
#include <vector>

#include "gen/cycle.h"

namespace gen {

// Memory order of one access: weak (no scope), rlx, acq (reads), rel (writes), or sc: what
// libcu++ emits for a seq_cst access (fence.sc.S, then ld.acquire.S or st.relaxed.S).
struct Access {
  std::string order = "weak";
  std::string scope;  // cta cluster gpu sys; empty for weak
  bool operator==(const Access&) const = default;
};

struct Place {
  int cta = 0;
  int cluster = 0;
  int gpu = 0;
  int warp = -1;  // -1: a warp of its own
  bool operator==(const Place&) const = default;
};

// Which levels of the scope tree a placement splits (CTAs always).
struct Levels {
  bool gpu = false, cluster = false, warp = false;
};

enum class Space {
  Global,
  Shared,  // each location in the shared memory of one CTA; other CTAs of its cluster reach it
           // through mapa (distributed shared memory)
};

struct Spec {
  std::string family;
  std::vector<Edge> cycle;    // thread 0 starts at event 0 (its last edge is external)
  std::vector<Access> access;  // per event
  std::vector<Place> place;    // per thread
  bool clusters = false;       // placements name clusters (the test writes `cluster:`)
  bool gpus = false;           // .. GPUs (`gpu:`)
  bool warps = false;          // .. warps (`warp:`: threads of one warp are its lanes)
 Space space = Space::Global;
  std::string peer;            // the corresponding test of another campaign, if any
  std::string note;            // one line for the description
  // generic; alias: threads other than a location's first accessor reach it through a second
  // virtual address (`xa: {alias-of: x}`); alias-fence: the same with fence.proxy.alias before
  // each such access.
  std::string proxy = "generic";
};

struct Generated {
  std::string name, family, yaml, peer;
};

// The test's text and name. Throws Error when the combination cannot be written (a shared
// location reached from another cluster, a sync edge between threads its primitive cannot join,
// an address dependency).
Generated emit(const Spec& spec);

// The name alone (as emit gives it).
std::string nameOf(const Spec& spec);

// "cta01_2": the threads grouped by CTA, in the order of their first thread.
std::string partitionName(const std::vector<int>& groupOfThread);

// A key equal for specs that differ only by rotation of the cycle (with its annotations and
// placement) or renaming of CTAs and clusters: one test per key.
std::string canonicalKey(const Spec& spec);

}  // namespace gen
