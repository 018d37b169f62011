// Execution barriers (PTX ISA §9.7.13.1 bar/barrier and barrier.cluster): how the arrivals of
// one execution fill the phases of each barrier, which waits each phase completes, and what
// bar.red returns. Both engines take the barrier part of a candidate execution from here.
#pragma once

#include <functional>
#include <vector>

#include "model/bitrel.h"
#include "model/event.h"

namespace model {

// For a barrier without a thread count: the threads that take part in it.
using Participants = std::function<std::vector<int>(int64_t barrier)>;

// Every way the arrivals among `events` can fill barrier phases, as the relation `bar` from each
// arrival to every wait its phase completes. A phase completes when it has `count` arrivals (one
// per thread), or, without a count, when every participant that has not exited has arrived;
// each thread's arrivals go to successive phases. `blocked[t]` says that thread t's trace stops
// at a wait that never completes: such a wait must lie in a phase that does not complete, every
// other wait in one that does. With `checkValues`, the result of each bar.red wait must be the
// reduction of its phase's predicates (the symbolic engine checks values itself: see
// `reductions`). An empty result: no execution of these traces is possible.
std::vector<BitRel> barrierPhases(const std::vector<Event>& events, const std::vector<bool>& blocked,
                                  const Participants& participants, bool checkValues = true);

// bar.red: whether a barrier operation reduces, and the value its wait returns for the predicates
// of its phase.
bool isReduction(litmus::BarOp op);
int64_t reduce(litmus::BarOp op, const std::vector<int64_t>& predicates);

}  // namespace model
