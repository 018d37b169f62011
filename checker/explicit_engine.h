// The explicit engine: enumerate candidate executions (thread paths x reads-from x coherence x
// Fence-SC order) and evaluate the model on each. Internal to checker/.
#pragma once

#include "checker/checker.h"
#include "checker/engine_common.h"

namespace checker {

// Gives up, with an Unknown outcome, once `deadline` has passed.
Result checkExplicit(const litmus::Test& test, const Options& options, const Deadline& deadline);

}  // namespace checker
