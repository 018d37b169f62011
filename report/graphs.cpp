#include "report/graphs.h"

#include <filesystem>

#include "checker/checker.h"
#include "checker/graph.h"
#include "litmus/parse.h"

namespace report {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string locate(const std::string& file, const std::string& root) {
  if (file.empty()) return "";
  if (fs::exists(file)) return file;
  if (!root.empty() && fs::exists(fs::path(root) / file)) return (fs::path(root) / file).string();
  return "";
}

// "P1:r0=1; x=2" from a histogram state object.
std::string stateText(const Json& state) {
  std::string out;
  for (const auto& [k, v] : state.items()) {
    if (!v.is_number_integer()) return "";  // a term the run did not record
    out += (out.empty() ? "" : "; ") + k + "=" + std::to_string(v.get<int64_t>());
  }
  return out;
}

// The forbidden state a run observed first, if any.
std::string observedForbidden(const Json& run) {
  if (!run.contains("histogram") || !run["histogram"].is_array()) return "";
  for (const auto& row : run["histogram"])
    if (row.value("allowed", true) == false && row.contains("state")) return stateText(row["state"]);
  return "";
}

// Only the SVG element: inline in HTML, the XML prolog and doctype are noise.
// Only the SVG element, without Graphviz's comments: inline in HTML, they are noise.
std::string svgElement(const std::string& svg) {
  const size_t at = svg.find("<svg");
  if (at == std::string::npos) return "";
  std::string out = svg.substr(at);
  for (size_t c; (c = out.find("<!--")) != std::string::npos;) {
    const size_t end = out.find("-->", c);
    if (end == std::string::npos) break;
    size_t stop = end + 3;
    if (stop < out.size() && out[stop] == '\n') ++stop;
    out.erase(c, stop - c);
  }
  return out;
}

}  // namespace

Graph forbiddenGraph(const Record& record, const GraphOptions& options) {
  Graph g;
  const Json& d = record.data;
  std::string pattern;
  if (record.kind == "run") {
    pattern = observedForbidden(d);
    if (pattern.empty() && d.value("conditionAllowed", Json(true)) != Json(false)) return g;
  } else if (d.value("status", "") != "done" || d.value("positive", Json(1)) != Json(0)) {
    return g;  // the condition is allowed (or unknown): no forbidden outcome to draw
  }
  if (!options.enabled) return g.note = "graphs not drawn (--no-graphs)", g;
  const std::string file = locate(d.value("file", ""), options.root);
  if (file.empty()) return g.note = "test file " + d.value("file", "?") + " not found (--root)", g;
  try {
    const litmus::Test test = litmus::parseFile(file);
    checker::Options opt;
    opt.explain = true;
    opt.timeoutSeconds = options.timeoutSeconds;
    if (!pattern.empty()) opt.explainState = litmus::parseStatePattern(pattern, test, {"histogram", 1, 1});
    const checker::Result r = checker::check(test, opt);
    if (!r.violation) {
      g.note = r.outcome.status != litmus::Status::Done
                   ? "no graph: the model did not finish (" + r.outcome.statusDetail + "; --graph-timeout)"
                   : "no graph: the checker has no candidate execution with this outcome to draw (none "
                     "reaches it: e.g. a value no write produces, or a thread that never finishes)";
      return g;
    }
    const auto& v = *r.violation;
    g.state = litmus::formatState(test.observed, v.execution.state);
    const std::string title = test.name + ": forbidden, " + g.state + "\nviolates " +
                              std::string(model::axiomName(v.axiom)) + " (" +
                              std::string(model::axiomSection(v.axiom)) + ")";
    const std::string dot = checker::executionDot(test, v.execution, title, &v);
    if (!checker::haveGraphviz()) return g.note = "Graphviz (dot) is not installed: no drawing", g;
    const auto svg = checker::renderDot(dot, "svg");
    if (!svg) return g.note = "Graphviz failed on the graph", g;
    g.svg = svgElement(*svg);
  } catch (const std::exception& e) {
    g.note = std::string("no graph: ") + e.what();
  }
  return g;
}

}  // namespace report
