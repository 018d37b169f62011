// Grids launched one after another in one stream (programmatic dependent launch, PTX ISA
// §9.7.13.13 griddepcontrol; docs/model.md D37-D39). A thread of a grid that is not the first
// starts with a *launch* event, and griddepcontrol.wait is a *grid wait* event: each waits for
// the first `count` grids of the stream to complete (Event::count), and is stuck forever
// exactly when some thread of an earlier grid never ends. griddepcontrol.launch_dependents, and
// the end of a thread whose grid a programmatic launch follows, are *trigger* events: under
// D38's reading `gates` they decide when the dependent grid may start.
#pragma once

#include <utility>
#include <vector>

#include "model/bitrel.h"
#include "model/event.h"

namespace model {

// The grid boundary: every event of a thread in one of the first `count` grids -> each launch or
// grid wait with that count. Program order carries it on to the events after it (D37).
BitRel gridOrder(const std::vector<Event>& events);

// Whether the launches and grid waits of one combination of traces are possible: one that
// returns needs every thread of the grids it waits for to end; one that never returns (the trace
// stuck there) needs some thread of an earlier grid that never ends (D38). With `gates` (D38's
// reading), a programmatic launch that returns also needs every CTA of the grid before it to have
// executed launch_dependents or ended.
bool gridsConsistent(const std::vector<Event>& events, const std::vector<Stuck>& stuck, bool gates = false);

// D38 `gates` as a scheduling order for No thin air (model/ptx_model.h): each read that the
// opening of a gate depends on (in its CTA, every launch_dependents, or without one an exit),
// paired with every event of the dependent grid. It adds no causality: a read that the trigger
// does not depend on may still read the dependent's writes (load buffering).
std::vector<std::pair<int, int>> gateOrder(const std::vector<Event>& events,
                                           const std::vector<std::pair<int, int>>& dep);

}  // namespace model
