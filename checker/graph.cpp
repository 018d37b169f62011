#include "checker/graph.h"
#include "checker/engine_common.h"
#include "checker/explain.h"
#include "checker/explain_sync.h"
#include "semantics/mbarrier.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <optional>
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

// An mbarrier's value is a packed state (semantics/mbarrier.h); people read its fields.
std::string valueText(const Event& e) {
  if (!e.mbarrier && !e.mbarrierInit) return std::to_string(e.value);
  const model::MbarState m = model::MbarState::unpack(e.value);
  if (!m.valid) return "(mbarrier, not initialised)";
  return "(phase " + std::to_string(m.phase) + ", pending " + std::to_string(m.pending) + "/" +
         std::to_string(m.expected) + ", tx-count " + std::to_string(m.tx) + ")";
}

std::string eventLabel(const litmus::Test& test, const Execution& x, int i, bool readsInit) {
  const Event& e = x.graph.events[i];
  std::ostringstream os;
  os << static_cast<char>('a' + i % 26) << (i >= 26 ? std::to_string(i / 26) : "") << ": ";
  auto locName = [&] { return litmus::elementName(test.locations.at(e.va).name, e.offset); };
  switch (e.kind) {
    case EventKind::Init: os << "W " << locName() << "=" << e.value << " (init)"; return os.str();
    case EventKind::Read:
      os << "R " << locName() << "=" << valueText(e);
      if (readsInit) os << " (init)";
      break;
    case EventKind::Write: os << "W " << locName() << "=" << valueText(e); break;
    case EventKind::Fence: os << "F"; break;
    case EventKind::ProxyFence: os << "PF"; break;
    case EventKind::Arrive: os << "Arrive"; break;
    case EventKind::Wait: os << "Wait"; break;
    case EventKind::GridWait: os << "GridWait"; break;
    case EventKind::Trigger: os << "Trigger"; break;
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

namespace {

// The events an edge may touch: every thread's, and an initial write only where it is a step of
// the violation (otherwise its edges would crowd every location's first read and write).
std::vector<bool> shownEvents(const Execution& x, const std::map<std::pair<int, int>, std::string>& hot) {
  const auto& ev = x.graph.events;
  std::vector<bool> shown(ev.size());
  for (size_t i = 0; i < ev.size(); ++i) shown[i] = ev[i].thread >= 0;
  for (const auto& [edge, name] : hot) shown[edge.first] = shown[edge.second] = true;
  return shown;
}

std::vector<bool> readsFromInit(const Execution& x) {
  std::vector<bool> out(x.graph.events.size());
  for (auto [w, r] : x.rf.edges())
    if (x.graph.events[w].thread < 0) out[r] = true;
  return out;
}

}  // namespace

std::vector<int> decisiveEvents(const Violation& v) {
  std::set<int> out;
  const std::function<void(const std::vector<Step>&)> add = [&](const std::vector<Step>& steps) {
    for (const Step& s : steps) {
      out.insert(s.from);
      out.insert(s.to);
      add(s.detail);
    }
  };
  add(v.steps);
  return {out.begin(), out.end()};
}

std::vector<int> decisiveEvents(const litmus::Test& test, const Result& r, size_t w) {
  const Execution& x = r.witnesses.at(w);
  std::set<int> out;
  for (int e : termEvents(test, x, satisfiedTerms(test, x.state))) {
    out.insert(e);
    for (auto [src, dst] : x.rf.edges())
      if (dst == e) out.insert(src);
  }
  if (static_cast<int>(w) == r.explainedState)
    for (const SyncGap& g : r.gaps) {
      out.insert(g.from);
      out.insert(g.to);
      for (const Bridge& b : g.bridges) {
        out.insert(b.from);
        out.insert(b.to);
      }
    }
  return {out.begin(), out.end()};
}

std::string executionDot(const litmus::Test& test, const Execution& x, const std::string& title,
                         const Violation* v, const std::vector<int>* decisive) {
  const auto& ev = x.graph.events;
  const int n = static_cast<int>(ev.size());
  std::map<std::pair<int, int>, std::string> hot;  // steps of the violation, by edge
  if (v)
    for (const auto& st : v->steps) hot[{st.from, st.to}] = st.relation;
  std::vector<bool> shown = shownEvents(x, hot);
  const std::vector<bool> initRead = readsFromInit(x);
  if (decisive) {
    shown.assign(ev.size(), false);
    for (int e : *decisive) shown[e] = true;
  }
  std::ostringstream os;
  os << "digraph execution {\n  rankdir=TB; node [shape=box, fontname=\"monospace\", fontsize=10];\n"
     << "  labelloc=t; label=\"" << dotEscape(title) << "\";\n";
  os << "  subgraph cluster_init { label=\"init\"; style=dashed;\n";
  for (int i = 0; i < n; ++i)
    if (ev[i].thread < 0 && shown[i])
      os << "    e" << i << " [label=\"" << eventLabel(test, x, i, false) << "\"];\n";
  os << "  }\n";
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const auto& th = test.threads[t];
    os << "  subgraph cluster_" << t << " { label=\"" << dotEscape(th.name) << " (cta " << th.cta
       << ", cluster " << th.cluster << ", gpu " << th.gpu << ")\";\n";
    for (int i = 0; i < n; ++i)
      if (ev[i].thread == static_cast<int>(t) && shown[i])
        os << "    e" << i << " [label=\"" << eventLabel(test, x, i, initRead[i]) << "\"];\n";
    os << "  }\n";
  }
  // The edges that decide the outcome are bold: a violation's steps, or in a witness the rf
  // edges (they fix every register's value). With a violation, the other edges fade.
  auto edge = [&](int a, int b, const std::string& name, const char* colour) {
    if (!shown[a] || !shown[b]) return;
    os << "  e" << a << " -> e" << b << " [label=\"" << name << "\", color=\"" << colour;
    const auto it = hot.find({a, b});
    if (it != hot.end() && it->second == name) {
      os << "\", fontcolor=\"" << colour << "\", penwidth=3";
      hot.erase(it);
    } else if (v) {
      os << "40\", fontcolor=\"" << colour << "80\", penwidth=0.7";
    } else {
      os << "\", fontcolor=\"" << colour << "\"" << (name == "rf" ? ", penwidth=2" : "");
    }
    os << "];\n";
  };
  model::BitRel po(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (ev[a].thread >= 0 && ev[a].thread == ev[b].thread && ev[a].po < ev[b].po && shown[a] && shown[b])
        po.set(a, b);
  for (auto [a, b] : immediate(po)) edge(a, b, "po", "#000000");
  for (auto [a, b] : x.rf.edges()) edge(a, b, "rf", "#d62728");
  for (auto [a, b] : immediate(x.co)) edge(a, b, "co", "#1f77b4");
  for (auto [a, b] : (inv(x.rf) * x.co).edges()) edge(a, b, "fr", "#ff7f0e");
  for (auto [a, b] : immediate(x.sc)) edge(a, b, "sc", "#9467bd");
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

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// "P1:r0=1; x=2;" as a file name: "P1-r0=1_x=2"; a state too long for a file name is numbered.
std::string stateFileName(const std::string& state, size_t k) {
  std::string out;
  for (char c : state) {
    if (c == ';' || c == ' ') {
      if (!out.empty() && out.back() != '_') out += '_';
    } else {
      out += std::isalnum(static_cast<unsigned char>(c)) || c == '=' || c == '-' || c == '.' ? c
             : c == ':' ? '-' : '+';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() || out.size() > 120 ? "state-" + std::to_string(k) : out;
}

}  // namespace

bool haveGraphviz() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

std::optional<std::string> renderDot(const std::string& dot, const std::string& format) {
  char tmpl[] = "/tmp/litmus-dot-XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) return std::nullopt;
  close(fd);
  const std::string in = tmpl, out = in + "." + format;
  std::optional<std::string> result;
  try {
    writeFile(in, dot);
    const std::string cmd = "dot -T" + format + " " + shellQuote(in) + " -o " + shellQuote(out) + " 2>/dev/null";
    if (std::system(cmd.c_str()) == 0) {
      std::ifstream f(out, std::ios::binary);
      std::ostringstream text;
      text << f.rdbuf();
      if (f) result = text.str();
    }
  } catch (const litmus::Error&) {
  }
  std::error_code ec;
  fs::remove(in, ec);
  fs::remove(out, ec);
  return result;
}

int writeGraphs(const std::string& dir, const litmus::Test& test, const Result& r, bool full,
                const litmus::Deadline* deadline) {
  if (deadline) deadline->check();
  fs::create_directories(dir);
  std::vector<fs::path> written;
  for (size_t i = 0; i < r.witnesses.size(); ++i) {
    if (deadline) deadline->check();
    const auto& w = r.witnesses[i];
    const std::string state = litmus::formatState(test.observed, w.state);
    const fs::path p = fs::path(dir) / (test.name + ".allowed." + stateFileName(state, i + 1) + ".dot");
    const std::vector<int> decisive = full ? std::vector<int>{} : decisiveEvents(test, r, i);
    writeFile(p, executionDot(test, w, test.name + ": allowed, " + state, nullptr, full ? nullptr : &decisive));
    written.push_back(p);
  }
  if (r.violation) {
    if (deadline) deadline->check();
    const auto& v = *r.violation;
    const std::string state = litmus::formatState(test.observed, v.execution.state);
    const fs::path p = fs::path(dir) / (test.name + ".forbidden." + stateFileName(state, 1) + ".dot");
    const std::string title = test.name + ": forbidden, " + state + "\nviolates " +
                              std::string(model::axiomName(v.axiom)) + " (" +
                              std::string(model::axiomSection(v.axiom)) + ")";
    const std::vector<int> decisive = full ? std::vector<int>{} : decisiveEvents(v);
    writeFile(p, executionDot(test, v.execution, title, &v, full ? nullptr : &decisive));
    written.push_back(p);
  }
  int files = static_cast<int>(written.size());
  if (haveGraphviz())
    for (const auto& p : written)
      for (const char* format : {"svg", "png"}) {
        fs::path img = p;
        img.replace_extension(std::string(".") + format);
        const std::string cmd = std::string("dot -T") + format + " " + shellQuote(p.string()) +
                                " -o " + shellQuote(img.string()) + " 2>/dev/null";
        if (std::system(cmd.c_str()) == 0) ++files;
      }
  return files;
}

}  // namespace checker
