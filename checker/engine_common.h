// Pieces both engines share: the initial writes of a candidate, and the parts of an Outcome that
// come from the test rather than from the search. Internal to checker/.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/deadline.h"
#include "litmus/outcome.h"
#include "model/relations.h"
#include "semantics/semantics.h"

namespace checker {

// The deadline of a test (litmus/deadline.h), under the name the engines have always used.
using Deadline = litmus::Deadline;

// Appends one initial write per physical location (§8.2.6) to g; returns their event indices.
std::vector<int> addInitialWrites(const model::Program& prog, model::EventGraph& g);

// Records an allowed final state and the executions (or, for the symbolic engine, 1) that end in it.
void addState(litmus::Outcome& out, const litmus::Test& test, const litmus::State& st,
              uint64_t executions);

// The instruction an event of a thread comes from, as written; "(exit)" for a thread's exit.
std::string instrText(const litmus::Test& test, const model::Event& e);

// How the threads of a hanging execution are stuck, e.g. "P1 waits forever at 'bar.sync 1'".
std::string describeHang(const litmus::Test& test, const std::vector<const model::Trace*>& traces);

// Name, observed terms, quantifier, condition, engine, loop-bound note.
void describeTest(litmus::Outcome& out, const litmus::Test& test, const char* engine, bool bounded,
                  int unroll);

}  // namespace checker
