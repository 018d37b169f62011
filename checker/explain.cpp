#include "checker/explain.h"
#include "checker/engine_common.h"

#include <sstream>

namespace checker {

using model::Axiom;
using model::BitRel;

namespace {

// Names the base relation an edge of a cycle belongs to (the first that holds).
struct Namer {
  std::vector<std::pair<std::string, BitRel>> rels;
  std::string operator()(int a, int b) const {
    for (const auto& [name, r] : rels)
      if (r.get(a, b)) return name;
    return "?";
  }
};

std::vector<Step> cycleSteps(const BitRel& r, const Namer& name) {
  std::vector<Step> out;
  const auto cyc = model::findCycle(r);
  for (size_t i = 0; i + 1 < cyc.size(); ++i) out.push_back({cyc[i], cyc[i + 1], name(cyc[i], cyc[i + 1])});
  return out;
}

// For irreflexive(a ; b): an event x and a middle y with a(x, y) and b(y, x).
std::vector<Step> twoSteps(const BitRel& a, const BitRel& b, const Namer& nameA, const std::string& nameB) {
  for (int x = 0; x < a.size(); ++x)
    for (int y = 0; y < a.size(); ++y)
      if (a.get(x, y) && b.get(y, x)) return {{x, y, nameA(x, y)}, {y, x, nameB}};
  return {};
}

}  // namespace

Violation explainViolation(Execution x, const model::Static<BitRel>& s,
                           const model::Derived<BitRel>& d, Axiom axiom) {
  const BitRel fr = inv(x.rf) * x.co;
  Violation v{std::move(x), axiom, "", {}};
  const Execution& e = v.execution;
  const Namer com{{{"rf", e.rf}, {"co", e.co}, {"fr", fr}}};
  switch (axiom) {
    case Axiom::ScPerLocation: {
      v.relation = "(ms & (rf | co | fr)) | po_loc";
      const Namer n{{{"po", s.po_loc}, {"rf", s.ms & e.rf}, {"co", s.ms & e.co}, {"fr", s.ms & fr}}};
      v.steps = cycleSteps((s.ms & (e.rf | e.co | fr)) | s.po_loc, n);
      break;
    }
    case Axiom::NoThinAir:
      v.relation = "rf | dep";
      v.steps = cycleSteps(e.rf | s.dep, Namer{{{"rf", e.rf}, {"dep", s.dep}}});
      break;
    case Axiom::Atomicity: {
      v.relation = "((ms & fr) ; (ms & co)) & rmw";
      const BitRel bad = ((s.ms & fr) * (s.ms & e.co)) & s.rmw;
      for (auto [r, w] : bad.edges()) {
        for (int m = 0; m < bad.size(); ++m)
          if ((s.ms & fr).get(r, m) && (s.ms & e.co).get(m, w)) {
            v.steps = {{r, m, "fr"}, {m, w, "co"}, {r, w, "rmw"}};
            break;
          }
        break;
      }
      break;
    }
    case Axiom::Coherence: {
      v.relation = "[W] ; cause ; [W] & loc must be in co";
      const BitRel bad = ((s.W * d.cause * s.W) & s.loc) - e.co;
      for (auto [a, b] : bad.edges()) {
        v.steps = {{a, b, "cause"}, {b, a, e.co.get(b, a) ? "co" : "not co"}};
        break;
      }
      break;
    }
    case Axiom::Causality:
      v.relation = "(rf | fr) ; cause";
      v.steps = twoSteps(e.rf | fr, d.cause, com, "cause");
      break;
    case Axiom::FenceSc:
      v.relation = "sc ; bc";
      v.steps = twoSteps(e.sc, d.bc, Namer{{{"sc", e.sc}}}, "bc");
      break;
  }
  return v;
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
