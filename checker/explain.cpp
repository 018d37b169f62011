#include "checker/explain.h"
#include "checker/engine_common.h"

#include <sstream>

namespace checker {

using model::BitRel;
using model::Constraint;
using model::Factor;

namespace {

// The name of the first part of `f` that has the edge a -> b.
std::string nameOf(const Factor<BitRel>& f, int a, int b) {
  for (const auto& p : f.parts)
    if (p.r.get(a, b)) return std::string(p.name);
  return "?";
}

// A path a = v0 -> v1 -> ... -> vk = b with path[i] relating v(i) and v(i+1), as named steps
// (filters left out); empty if there is none. Forward reachability, then back from b.
std::vector<Step> pathSteps(const std::vector<Factor<BitRel>>& path, int a, int b) {
  const int n = path.front().r.size();
  std::vector<BitRel::Row> reach(path.size() + 1);
  reach[0].set(a);
  for (size_t i = 0; i < path.size(); ++i)
    for (int v = 0; v < n; ++v)
      if (reach[i][v]) reach[i + 1] |= path[i].r.row(v);
  if (!reach[path.size()][b]) return {};
  std::vector<int> node(path.size() + 1, b);
  for (size_t i = path.size(); i-- > 0;) {
    int v = 0;
    while (!(reach[i][v] && path[i].r.get(v, node[i + 1]))) ++v;
    node[i] = v;
  }
  std::vector<Step> out;
  for (size_t i = 0; i < path.size(); ++i)
    if (!path[i].filter) out.push_back({node[i], node[i + 1], nameOf(path[i], node[i], node[i + 1])});
  return out;
}

std::vector<Step> cycleSteps(const Constraint<BitRel>& c) {
  std::vector<Step> out;
  const auto cyc = model::findCycle(c.r);
  for (size_t i = 0; i + 1 < cyc.size(); ++i) {
    const auto steps = pathSteps(c.path, cyc[i], cyc[i + 1]);
    out.insert(out.end(), steps.begin(), steps.end());
  }
  return out;
}

// The steps of a pair (a, b) of c.r: its path, then the edge that closes it (empty) or the one
// that is missing (subset).
std::vector<Step> pairSteps(const Constraint<BitRel>& c, int a, int b) {
  std::vector<Step> out = pathSteps(c.path, a, b);
  if (c.shape == model::Shape::Empty && !c.within.filter && !c.within.parts.empty())
    out.push_back({a, b, nameOf(c.within, a, b)});
  if (c.shape == model::Shape::Subset) {
    const std::string sup(c.supName);
    out.push_back(c.sup.get(b, a) ? Step{b, a, sup} : Step{a, b, "not " + sup});
  }
  return out;
}

}  // namespace

std::vector<Step> witness(const Constraint<BitRel>& c) {
  switch (c.shape) {
    case model::Shape::Acyclic: return cycleSteps(c);
    case model::Shape::Irreflexive:
      for (int x = 0; x < c.r.size(); ++x)
        if (c.r.get(x, x)) return pathSteps(c.path, x, x);
      return {};
    case model::Shape::Empty:
      for (auto [a, b] : c.r.edges()) return pairSteps(c, a, b);
      return {};
    case model::Shape::Subset:
      for (auto [a, b] : (c.r - c.sup).edges()) return pairSteps(c, a, b);
      return {};
  }
  return {};
}

Violation explainViolation(Execution x, model::Axiom axiom, const Constraint<BitRel>& c) {
  return Violation{std::move(x), axiom, std::string(c.text), witness(c)};
}

EventText eventText(const litmus::Test& test, const Execution& x, int event) {
  const auto& e = x.graph.events[event];
  if (e.thread < 0) return {"", "init of " + litmus::elementName(test.locations.at(e.va).name, e.offset)};
  return {test.threads[e.thread].name, instrText(test, e)};
}

std::string describe(const litmus::Test& test, const Violation& v) {
  std::ostringstream os;
  auto name = [&](int i) {
    const EventText t = eventText(test, v.execution, i);
    return t.thread.empty() ? t.text : t.thread + ": " + t.text;
  };
  os << "violates " << model::axiomName(v.axiom) << " (" << model::axiomSection(v.axiom)
     << "): " << v.relation << "\n";
  for (const auto& st : v.steps)
    os << "  " << name(st.from) << "  --" << st.relation << "-->  " << name(st.to) << "\n";
  return os.str();
}

}  // namespace checker
