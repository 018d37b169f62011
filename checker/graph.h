// Execution graphs as Graphviz DOT: one cluster per thread, a fixed colour per relation
// (po black, rf red, co blue, fr orange, sc purple); a violated axiom's cycle drawn bold.
#pragma once

#include <string>

#include "checker/checker.h"

namespace checker {

std::string executionDot(const litmus::Test& test, const Execution& x, const std::string& title,
                         const Violation* violation = nullptr);

// Writes DIR/NAME.state-K.dot for each witness and DIR/NAME.forbidden.dot for the violation, and
// an .svg beside each when Graphviz `dot` is installed. Returns the number of files written.
int writeGraphs(const std::string& dir, const litmus::Test& test, const Result& result);

}  // namespace checker
