// The other readings of the decisions a test touches (model/readings.h): each is checked as the
// test was, and a verdict that changes under one is reported as resting on the reading in force.
#pragma once

#include <vector>

#include "checker/checker.h"

namespace checker {

// For each decision the test touches that `options` did not choose, each other reading: the
// test checked under it (no explanation, no witnesses), within what is left of the deadline
// (`secondsLeft`, 0: none). A reliance for each reading under which the observation differs from
// `base`'s, and for each whose check ended Unknown (then it says so and what stopped it).
std::vector<litmus::Reliance> readingReliances(const litmus::Test& test, const Options& options,
                                               const litmus::Outcome& base, double secondsLeft);

}  // namespace checker
