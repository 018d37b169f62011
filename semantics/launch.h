// Grids launched one after another in one stream, as the interpreter starts them (docs/model.md
// D37-D39); the grid boundary and which launches are possible are the model's (model/grids.h).
#pragma once

#include "litmus/test.h"
#include "semantics/semantics.h"

namespace model {

// Sets each thread's position in the launch order and the grids complete at its start.
void placeGrids(const litmus::Test& test, Program& prog);

}  // namespace model
