// Which of the model's decisions that are stronger than the PTX ISA text (docs/model.md, "Direction
// of each decision") a verdict on a test may rest on. A stronger decision forbids executions the
// text allows, so a `Never` or `Always` (or "terminates") that rests on one is no guarantee.
#pragma once

#include <vector>

#include "litmus/outcome.h"
#include "litmus/test.h"

namespace model {

// The stronger decisions whose construct the test contains (feature-based: sound, since a verdict
// can rest on a decision only where the test uses what it concerns). D19, the loop bound, is
// known only after the check: see loopBoundReliance.
std::vector<litmus::Reliance> reliances(const litmus::Test& test);
// D19: paths that took a backward branch more than `unroll` times were not explored.
litmus::Reliance loopBoundReliance(int unroll);

}  // namespace model
