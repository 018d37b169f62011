// Execution barriers (PTX ISA §9.7.13.1 bar/barrier and barrier.cluster): how the arrivals of
// one execution fill the phases of each barrier, which waits each phase completes, and what
// bar.red returns. Both engines take the barrier part of a candidate execution from here.
#pragma once

#include <functional>
#include <vector>

#include "model/bitrel.h"
#include "model/event.h"
#include "model/readings.h"

namespace model {

// The barrier object an Arrive or Wait uses, packed into Event::barrier: a CTA's named barrier
// (bar/barrier, id 0-15, Dat3M instance), its cluster's barrier (barrier.cluster), or the barrier
// of one warp of a CTA (bar.warp.sync; id: the warp).
enum class BarrierKind : uint8_t { Cta, Cluster, Warp, Collective };
struct BarrierName {
  BarrierKind kind = BarrierKind::Cta;
  int gpu = 0;
  int group = 0;         // the CTA (Cta) or the cluster (Cluster)
  int64_t id = 0;        // Cta: the barrier id
  int64_t instance = 0;  // Cta, Dat3M operands: the instance (docs/format.md)
};
// Fields must fit: gpu < 256, group, id and instance < 65536 (the caller checks id and instance).
int64_t barrierKey(const BarrierName&);
BarrierName barrierName(int64_t key);
// The key of a thread's exit: an arrival at every barrier without a count that the thread takes
// part in and did not reach (D25).
constexpr int64_t kExitBarrier = -2;

// The key of a warp-level rendezvous: its kind (Warp: bar.warp.sync; Collective), a signature
// (the collective's operation and qualifiers: only lanes executing the same instruction with the
// same member mask meet, §9.7.13.9), the warp (its first thread) and the member mask.
int64_t warpKey(BarrierKind kind, int signature, int warp, uint32_t mask);
bool isWarpKey(int64_t key);        // bar.warp.sync or a collective
bool isCollectiveKey(int64_t key);  // a collective: no memory ordering (D40)
uint32_t warpKeyMask(int64_t key);
int warpKeyWarp(int64_t key);

// For a barrier without a thread count: the threads that take part in it.
using Participants = std::function<std::vector<int>(int64_t barrier)>;

// Every way the arrivals among `events` can fill barrier phases, as the relation `bar` from each
// arrival to every wait its phase completes. A phase completes when it has `count` arrivals (one
// per thread), or, without a count, when every participant that has not exited has arrived;
// each thread's arrivals go to successive phases. `stuck[t]` says how thread t's trace ends: a
// thread that never exits keeps a count-less phase from completing unless it arrived; the last
// wait of a trace stuck AtWait must lie in a phase that does not complete, every other wait in
// one that does. With `checkValues`, the result of each bar.red wait must be the
// reduction of its phase's predicates (the symbolic engine checks values itself: see
// `reductions`). Launches and grid waits are checked first (model/grids.h, under `readings`'
// D38). An empty result: no execution of these traces is possible.
std::vector<BitRel> barrierPhases(const std::vector<Event>& events, const std::vector<Stuck>& stuck,
                                  const Participants& participants, bool checkValues = true,
                                  const Readings& readings = {});

// bar.red: whether a barrier operation reduces, and the value its wait returns for the predicates
// of its phase.
bool isReduction(litmus::BarOp op);
int64_t reduce(litmus::BarOp op, const std::vector<int64_t>& predicates);

}  // namespace model
