// The execution graph of a forbidden outcome, for the report: the test file is read again and
// checked (checker/), the violation drawn with checker/graph.h and rendered to SVG by Graphviz.
#pragma once

#include <string>

#include "report/input.h"

namespace report {

struct GraphOptions {
  bool enabled = true;
  double timeoutSeconds = 10;  // per test; a check that takes longer gets a note instead
  std::string root;            // where a result's relative `file` is looked up besides the cwd
};

// What the report shows for a test: an inline <svg> (empty when none) and why there is none.
struct Graph {
  std::string svg, note, state;  // state: the forbidden state drawn ("P1:r0=1; P1:r1=0;")
};

// The forbidden outcome of a record: for a run, the first forbidden state it observed, else its
// condition when the model forbids it; for a check, the condition when forbidden. Never throws.
Graph forbiddenGraph(const Record& record, const GraphOptions& options);

}  // namespace report
