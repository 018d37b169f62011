// The explicit engine: enumerate candidate executions (thread paths x reads-from x coherence x
// Fence-SC order) and evaluate the model on each. Internal to checker/.
#pragma once

#include "checker/checker.h"
#include "checker/engine_common.h"

namespace checker {

// Gives up, with an Unknown outcome, once `deadline` has passed.
Result checkExplicit(const litmus::Test& test, const Options& options, const Deadline& deadline);

// The same enumeration without pruning: every candidate execution is built and the whole model
// decides. For tests that the pruning loses no allowed state (tests/model/axioms_test.cpp).
Result checkExplicitUnpruned(const litmus::Test& test, const Options& options,
                             const Deadline& deadline);

}  // namespace checker
