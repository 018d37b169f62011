#include "checker/graph.h"
#include "checker/engine_common.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace checker {

namespace fs = std::filesystem;
using model::Event;
using model::EventKind;

namespace {

// Quotes and backslashes escaped; a newline becomes DOT's centred line break.
std::string dotEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string eventLabel(const litmus::Test& test, const Execution& x, int i) {
  const Event& e = x.graph.events[i];
  std::ostringstream os;
  os << static_cast<char>('a' + i % 26) << (i >= 26 ? std::to_string(i / 26) : "") << ": ";
  auto locName = [&] { return litmus::elementName(test.locations.at(e.va).name, e.offset); };
  switch (e.kind) {
    case EventKind::Init: os << "W " << locName() << "=" << e.value << " (init)"; return os.str();
    case EventKind::Read: os << "R " << locName() << "=" << e.value; break;
    case EventKind::Write: os << "W " << locName() << "=" << e.value; break;
    case EventKind::Fence: os << "F"; break;
    case EventKind::ProxyFence: os << "PF"; break;
    case EventKind::Arrive: os << "Arrive"; break;
    case EventKind::Wait: os << "Wait"; break;
    case EventKind::GridWait: os << "GridWait"; break;
  }
  os << "\\n" << dotEscape(instrText(test, e));
  return os.str();
}

// Only the edges not implied by transitivity, so that po and co stay readable.
std::vector<std::pair<int, int>> immediate(const model::BitRel& r) {
  std::vector<std::pair<int, int>> out;
  const model::BitRel two = r * r;
  for (auto [a, b] : r.edges())
    if (!two.get(a, b)) out.emplace_back(a, b);
  return out;
}

}  // namespace

std::string executionDot(const litmus::Test& test, const Execution& x, const std::string& title,
                         const Violation* v) {
  const auto& ev = x.graph.events;
  const int n = static_cast<int>(ev.size());
  std::ostringstream os;
  os << "digraph execution {\n  rankdir=TB; node [shape=box, fontname=\"monospace\", fontsize=10];\n"
     << "  labelloc=t; label=\"" << dotEscape(title) << "\";\n";
  os << "  subgraph cluster_init { label=\"init\"; style=dashed;\n";
  for (int i = 0; i < n; ++i)
    if (ev[i].thread < 0) os << "    e" << i << " [label=\"" << eventLabel(test, x, i) << "\"];\n";
  os << "  }\n";
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const auto& th = test.threads[t];
    os << "  subgraph cluster_" << t << " { label=\"" << dotEscape(th.name) << " (cta " << th.cta
       << ", cluster " << th.cluster << ", gpu " << th.gpu << ")\";\n";
    for (int i = 0; i < n; ++i)
      if (ev[i].thread == static_cast<int>(t))
        os << "    e" << i << " [label=\"" << eventLabel(test, x, i) << "\"];\n";
    os << "  }\n";
  }
  std::map<std::pair<int, int>, std::string> hot;  // steps of the violation, by edge
  if (v)
    for (const auto& st : v->steps) hot[{st.from, st.to}] = st.relation;
  auto edge = [&](int a, int b, const std::string& name, const char* colour) {
    os << "  e" << a << " -> e" << b << " [label=\"" << name << "\", color=" << colour
       << ", fontcolor=" << colour;
    const auto it = hot.find({a, b});
    if (it != hot.end() && it->second == name) {
      os << ", penwidth=3";
      hot.erase(it);
    }
    os << "];\n";
  };
  model::BitRel po(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (ev[a].thread >= 0 && ev[a].thread == ev[b].thread && ev[a].po < ev[b].po) po.set(a, b);
  for (auto [a, b] : immediate(po)) edge(a, b, "po", "black");
  for (auto [a, b] : x.rf.edges()) edge(a, b, "rf", "red");
  for (auto [a, b] : immediate(x.co)) edge(a, b, "co", "blue");
  for (auto [a, b] : (inv(x.rf) * x.co).edges()) edge(a, b, "fr", "orange");
  for (auto [a, b] : immediate(x.sc)) edge(a, b, "sc", "purple");
  // Steps that are derived relations (cause, bc, dep, ...) rather than base ones drawn above.
  for (const auto& [edge, name] : hot)
    os << "  e" << edge.first << " -> e" << edge.second << " [label=\"" << dotEscape(name)
       << "\", style=dashed, penwidth=3, color=darkgreen, fontcolor=darkgreen];\n";
  os << "}\n";
  return os.str();
}

namespace {

void writeFile(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
  if (!out) throw litmus::Error({p.string(), 0, 0}, "cannot write graph file");
}

bool haveDot() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

}  // namespace

int writeGraphs(const std::string& dir, const litmus::Test& test, const Result& r) {
  fs::create_directories(dir);
  std::vector<fs::path> written;
  for (size_t i = 0; i < r.witnesses.size(); ++i) {
    const auto& w = r.witnesses[i];
    const fs::path p = fs::path(dir) / (test.name + ".state-" + std::to_string(i + 1) + ".dot");
    writeFile(p, executionDot(test, w, test.name + ": allowed, " +
                                           litmus::formatState(test.observed, w.state)));
    written.push_back(p);
  }
  if (r.violation) {
    const auto& v = *r.violation;
    const fs::path p = fs::path(dir) / (test.name + ".forbidden.dot");
    const std::string title = test.name + ": forbidden, " +
                              litmus::formatState(test.observed, v.execution.state) + "\nviolates " +
                              std::string(model::axiomName(v.axiom)) + " (" +
                              std::string(model::axiomSection(v.axiom)) + ")";
    writeFile(p, executionDot(test, v.execution, title, &v));
    written.push_back(p);
  }
  int files = static_cast<int>(written.size());
  if (haveDot())
    for (const auto& p : written) {
      fs::path svg = p;
      svg.replace_extension(".svg");
      const std::string cmd = "dot -Tsvg '" + p.string() + "' -o '" + svg.string() + "' 2>/dev/null";
      if (std::system(cmd.c_str()) == 0) ++files;
    }
  return files;
}

}  // namespace checker
