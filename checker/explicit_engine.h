// The explicit engine: enumerate candidate executions (thread paths x reads-from x coherence x
// Fence-SC order) and evaluate the model on each. Internal to checker/.
#pragma once

#include "checker/checker.h"

namespace checker {

Result checkExplicit(const litmus::Test& test, const Options& options);

}  // namespace checker
