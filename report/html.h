// The report page: one self-contained HTML file (inline CSS, JS and SVG, nothing fetched). The
// results are embedded as JSON and the page's script draws the summary, the families and each
// test's histogram from them (docs/report.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "report/graphs.h"
#include "report/input.h"

namespace report {

struct PageOptions {
  std::string title = "litmus report";
  GraphOptions graphs;
  // Called after each test's graph (done, total), for a progress line; may be empty.
  std::function<void(size_t, size_t)> progress;
};

std::string renderPage(const std::vector<Record>& records, const std::vector<std::string>& sources,
                       const PageOptions& options);

// The page's stylesheet and script (report/assets.cpp).
extern const char* const kStyle;
extern const char* const kScript;

}  // namespace report
