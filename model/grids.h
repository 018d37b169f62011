// Grids launched one after another in one stream (programmatic dependent launch, PTX ISA
// §9.7.13.13 griddepcontrol; docs/model.md D37-D39). A thread of a grid that is not the first
// starts with a *launch* event, and griddepcontrol.wait is a *grid wait* event: each waits for
// the first `count` grids of the stream to complete (Event::count), and is stuck forever
// exactly when some thread of an earlier grid never ends.
#pragma once

#include <vector>

#include "model/bitrel.h"
#include "model/event.h"

namespace model {

// The grid boundary: every event of a thread in one of the first `count` grids -> each launch or
// grid wait with that count. Program order carries it on to the events after it (D37).
BitRel gridOrder(const std::vector<Event>& events);

// Whether the launches and grid waits of one combination of traces are possible: one that
// returns needs every thread of the grids it waits for to end; one that never returns (the trace
// stuck there) needs some thread of an earlier grid that never ends (D38).
bool gridsConsistent(const std::vector<Event>& events, const std::vector<Stuck>& stuck);

}  // namespace model
