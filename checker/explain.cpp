#include "checker/explain.h"
#include "checker/engine_common.h"
#include "model/formula.h"

#include <optional>
#include <sstream>

namespace checker {

using model::BitRel;
using model::Constraint;
using model::Factor;

namespace {

// The name of the first part of `f` that has the edge a -> b.
std::string nameOf(const Factor<BitRel>& f, int a, int b) {
  for (const auto& p : f.parts)
    if (p.r->get(a, b)) return std::string(p.name);
  return "?";
}

// A path a = v0 -> v1 -> ... -> vk = b with path[i] relating v(i) and v(i+1), as named steps
// (filters left out); empty if there is none. Forward reachability, then back from b.
std::vector<Step> pathSteps(const model::Path<BitRel>& path, int a, int b) {
  const int n = path.front().r->size();
  std::vector<BitRel::Row> reach(path.size() + 1);
  reach[0].set(a);
  for (size_t i = 0; i < path.size(); ++i)
    for (int v = 0; v < n; ++v)
      if (reach[i][v]) reach[i + 1] |= path[i].r->row(v);
  if (!reach[path.size()][b]) return {};
  std::vector<int> node(path.size() + 1, b);
  for (size_t i = path.size(); i-- > 0;) {
    int v = 0;
    while (!(reach[i][v] && path[i].r->get(v, node[i + 1]))) ++v;
    node[i] = v;
  }
  std::vector<Step> out;
  for (size_t i = 0; i < path.size(); ++i)
    if (!path[i].filter) out.push_back({node[i], node[i + 1], nameOf(path[i], node[i], node[i + 1])});
  return out;
}

// The shortest path v0 = from -> ... -> to along r (at least one edge), or empty; Boost's cycle
// finder picks any cycle, this one lets the explanation go through the events the user asked about.
std::vector<int> shortestPath(const BitRel& r, int from, int to) {
  const int n = r.size();
  std::vector<int> parent(n, -1);
  std::vector<int> queue;
  for (int v = 0; v < n; ++v)
    if (r.get(from, v) && parent[v] < 0) parent[v] = from, queue.push_back(v);
  for (size_t i = 0; i < queue.size(); ++i) {
    const int u = queue[i];
    if (u == to) break;
    for (int v = 0; v < n; ++v)
      if (r.get(u, v) && parent[v] < 0) parent[v] = u, queue.push_back(v);
  }
  if (parent[to] < 0) return {};
  std::vector<int> path{to};
  int v = to;
  do {
    v = parent[v];
    path.push_back(v);
  } while (v != from && path.size() <= static_cast<size_t>(n) + 1);
  return {path.rbegin(), path.rend()};
}

std::vector<Step> cycleSteps(const Constraint<BitRel>& c, const std::vector<int>& prefer) {
  std::vector<int> cyc;
  for (int v : prefer)
    if (cyc.empty()) cyc = shortestPath(c.r, v, v);
  if (cyc.empty()) cyc = model::findCycle(c.r);
  std::vector<Step> out;
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
    out.push_back(c.sup->get(b, a) ? Step{b, a, sup} : Step{a, b, "not " + sup});
  }
  return out;
}

// The first edge of r, preferring one that touches an event of `prefer` (in its order).
std::optional<std::pair<int, int>> preferredEdge(const BitRel& r, const std::vector<int>& prefer) {
  const auto edges = r.edges();
  for (int v : prefer)
    for (auto e : edges)
      if (e.first == v || e.second == v) return e;
  if (edges.empty()) return std::nullopt;
  return edges.front();
}

// The element an access names, as a condition term names it ("x", "x+4"), aliases by their root.
std::string memName(const litmus::Test& test, const model::Event& e) {
  const litmus::Location& l = test.locations.at(e.va);
  return litmus::elementName(l.aliasOf.empty() ? l.name : l.aliasOf, e.offset);
}

// The first step of a path of part names: which part of `parts` has the edge.
template <size_t N>
std::string partName(const std::array<model::Part<BitRel>, N>& parts, int a, int b) {
  for (const auto& p : parts)
    if (p.r->get(a, b)) return std::string(p.name);
  return "?";
}

// Shortest path from -> to along po and synchronizes-with (and, for asynchronous operations,
// the issuing thread's order), each edge a step; sw edges broken into their own steps.
std::vector<Step> bcSteps(const Evaluated& m, int from, int to) {
  BitRel edges = m.s.po | m.d.sw | m.s.grid;
  std::vector<int> path = shortestPath(edges, from, to);
  if (path.empty() && m.s.async) path = shortestPath(edges | m.s.poAsync, from, to);
  std::vector<Step> out;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const int a = path[i], b = path[i + 1];
    if (m.s.grid.get(a, b) && !m.s.po.get(a, b)) {  // the grid boundary (model/grids.h)
      out.push_back({a, b, "grid"});
      continue;
    }
    if (m.s.po.get(a, b) || !m.d.sw.get(a, b)) {
      out.push_back({a, b, "po"});
      continue;
    }
    const auto sw = swSteps(m, a, b);
    out.insert(out.end(), sw.begin(), sw.end());
  }
  return out;
}

}  // namespace

Evaluated evaluate(const Execution& e) {
  Evaluated m{model::staticRelations(e.graph, e.readings), {e.rf, e.co, e.sc, e.bar}, {}};
  m.d = model::derive(m.s, e.rf, e.sc, e.bar);
  return m;
}

std::vector<Step> swSteps(const Evaluated& m, int from, int to) {
  const auto& s = m.s;
  if (!m.d.sw.get(from, to) || !s.ms.get(from, to)) return m.x.sc.get(from, to) ? std::vector<Step>{{from, to, "sc"}}
                                                                                 : std::vector<Step>{};
  const auto rel = model::releasePatterns(s), acq = model::acquirePatterns(s);
  const BitRel relPat = model::unionOf(rel), acqPat = model::unionOf(acq);
  const int n = s.po.size();
  for (int c = 0; c < n; ++c) {
    if (!relPat.get(from, c)) continue;
    for (int d = 0; d < n; ++d)
      if (m.d.obs.get(c, d) && acqPat.get(d, to))
        return {{from, c, "release pattern (" + partName(rel, from, c) + ")"},
                {c, d, m.x.rf.get(c, d) ? "rf" : "obs"},
                {d, to, "acquire pattern (" + partName(acq, d, to) + ")"}};
  }
  const auto brel = model::barrierReleases(s), bacq = model::barrierAcquires(s);
  const BitRel barRel = model::unionOf(brel), barAcq = model::unionOf(bacq);
  const BitRel bar = s.ms & m.x.bar;
  for (int a = 0; a < n; ++a) {
    if (!barRel.get(from, a)) continue;
    for (int w = 0; w < n; ++w)
      if (bar.get(a, w) && barAcq.get(w, to))
        return {{from, a, "barrier release (" + partName(brel, from, a) + ")"},
                {a, w, "bar"},
                {w, to, "barrier acquire (" + partName(bacq, w, to) + ")"}};
  }
  return m.x.sc.get(from, to) ? std::vector<Step>{{from, to, "sc"}} : std::vector<Step>{};
}

std::vector<Step> causeSteps(const Evaluated& m, int from, int to) {
  if (!m.d.cause.get(from, to)) return {};
  if (m.d.bc.get(from, to)) return bcSteps(m, from, to);
  // cause = ppbc | obs ; ppbc: observation first, then base causality
  for (int v = 0; v < m.s.po.size(); ++v)
    if (m.d.obs.get(from, v) && m.d.bc.get(v, to)) {
      std::vector<Step> out{{from, v, m.x.rf.get(from, v) ? "rf" : "obs"}};
      const auto rest = bcSteps(m, v, to);
      out.insert(out.end(), rest.begin(), rest.end());
      return out;
    }
  return {};
}

std::vector<Step> witness(const Constraint<BitRel>& c, const std::vector<int>& prefer) {
  switch (c.shape) {
    case model::Shape::Acyclic: return cycleSteps(c, prefer);
    case model::Shape::Irreflexive: {
      for (int x : prefer)
        if (c.r.get(x, x)) return pathSteps(c.path, x, x);
      // the preferred event in the middle: x -a-> v -b-> x
      for (int v : prefer)
        for (int x = 0; x < c.r.size(); ++x)
          if (c.path[0].r->get(x, v) && c.path[1].r->get(v, x))
            return {{x, v, nameOf(c.path[0], x, v)}, {v, x, nameOf(c.path[1], v, x)}};
      for (int x = 0; x < c.r.size(); ++x)
        if (c.r.get(x, x)) return pathSteps(c.path, x, x);
      return {};
    }
    case model::Shape::Empty:
      if (auto e = preferredEdge(c.r, prefer)) return pairSteps(c, e->first, e->second);
      return {};
    case model::Shape::Subset:
      if (auto e = preferredEdge(c.r - *c.sup, prefer)) return pairSteps(c, e->first, e->second);
      return {};
  }
  return {};
}

std::vector<litmus::Term> focusTerms(const litmus::Test& test,
                                     const std::optional<litmus::StatePattern>& state) {
  if (!state) return litmus::conditionTerms(test.condition);
  std::vector<litmus::Term> out;
  for (size_t i = 0; i < test.observed.size() && i < state->values.size(); ++i)
    if (state->values[i]) out.push_back(test.observed[i]);
  return out;
}

std::vector<int> termEvents(const litmus::Test& test, const Execution& x, const std::vector<litmus::Term>& terms) {
  std::vector<int> out;
  const auto& ev = x.graph.events;
  for (const litmus::Term& term : terms) {
    int found = -1;
    // Racing writes leave several co-maximal writes: the one whose value the state shows.
    std::optional<int64_t> finalValue;
    for (size_t k = 0; k < test.observed.size() && k < x.state.values.size(); ++k)
      if (formatTerm(test.observed[k]) == formatTerm(term)) finalValue = x.state.values[k];
    for (int i = 0; i < static_cast<int>(ev.size()); ++i) {
      const model::Event& e = ev[i];
      if (term.kind == litmus::Term::Kind::Reg && e.isRead() && e.thread >= 0 &&
          test.threads[e.thread].name == term.thread) {
        const litmus::Instr& in = test.threads[e.thread].code[e.instr];
        for (int k = 0; k < litmus::destCount(in) && k < static_cast<int>(in.args.size()); ++k)
          if (in.args[k].kind == litmus::Operand::Kind::Reg && in.args[k].name == term.name &&
              (found < 0 || ev[found].po <= e.po))
            found = i;
      }
      if (term.kind == litmus::Term::Kind::Mem && e.isWrite() && x.co.row(i).none() &&
          memName(test, e) == term.name && (!finalValue || e.value == *finalValue))
        found = i;
    }
    if (found >= 0) out.push_back(found);
  }
  return out;
}

// Each cause step gets its steps (from the model's relations on the execution), so that an
// explanation says which release pattern, rf and acquire pattern make up the causality.
Violation explainViolation(const litmus::Test& test, const Options& opt, Execution x,
                           model::Axiom axiom, const Constraint<BitRel>& c) {
  std::vector<Step> steps = witness(c, termEvents(test, x, focusTerms(test, opt.explainState)));
  x.readings = opt.readings;
  const Evaluated m = evaluate(x);
  for (Step& st : steps)
    if (st.relation == "cause" || st.relation == "bc") st.detail = causeSteps(m, st.from, st.to);
  return Violation{std::move(x), axiom, model::axiomText(axiom, m.s.gated).relation, std::move(steps)};
}

EventText eventText(const litmus::Test& test, const Execution& x, int event) {
  const auto& e = x.graph.events[event];
  if (e.thread < 0) return {"", "init of " + litmus::elementName(test.locations.at(e.va).name, e.offset)};
  return {test.threads[e.thread].name, instrText(test, e)};
}

std::string eventName(const litmus::Test& test, const Execution& x, int event) {
  const EventText t = eventText(test, x, event);
  return t.thread.empty() ? t.text : t.thread + ": " + t.text;
}

// One line per step, and under a step the steps it is made of, indented further. A pattern that
// is one event (a release write by itself) reads "--release pattern (release)-->  (itself)".
void printSteps(std::ostream& os, const litmus::Test& test, const Execution& x,
                const std::vector<Step>& steps, const std::string& indent) {
  for (const auto& st : steps) {
    os << indent << eventName(test, x, st.from) << "  --" << st.relation << "-->  "
       << (st.from == st.to && st.relation != "sc" ? "(itself)" : eventName(test, x, st.to)) << "\n";
    printSteps(os, test, x, st.detail, indent + "    ");
  }
}

std::string describe(const litmus::Test& test, const Violation& v) {
  std::ostringstream os;
  os << "violates " << model::axiomName(v.axiom) << " (" << model::axiomSection(v.axiom)
     << "): " << v.relation << "\n";
  printSteps(os, test, v.execution, v.steps, "  ");
  return os.str();
}

}  // namespace checker
