#include "checker/smt_relations.h"

#include <algorithm>

#include "model/wellformed.h"

namespace checker {

using model::EventKind;

std::optional<SymRel> readsFrom(Smt& smt, const Deadline& deadline, const model::EventGraph& g,
                                const std::vector<z3::expr>& value,
                                const std::vector<std::set<int64_t>>& possible) {
  z3::context& c = smt.ctx();
  const auto& ev = g.events;
  const int n = static_cast<int>(ev.size());
  SymRel rf(&c, &deadline, n);
  for (int r = 0; r < n; ++r) {
    if (!ev[r].isRead()) continue;
    deadline.check();
    z3::expr_vector choices(c);
    for (int w = 0; w < n; ++w) {
      if (!ev[w].isWrite() || ev[w].loc != ev[r].loc) continue;
      if (std::none_of(possible[r].begin(), possible[r].end(),
                       [&](int64_t v) { return possible[w].count(v) > 0; }))
        continue;  // no trace lets r read w's value
      z3::expr x = smt.fresh("rf");
      smt.add(z3::implies(x, value[w] == value[r]));
      rf.at(w, r) = Term::of(x);
      choices.push_back(x);
    }
    if (choices.empty()) return std::nullopt;
    smt.add(z3::atleast(choices, 1) && z3::atmost(choices, 1));
  }
  return rf;
}

SymRel coherence(Smt& smt, const Deadline& deadline, const model::Static<SymRel>& s,
                 const std::vector<std::vector<int>>& byLoc, const std::vector<int>& initOf) {
  z3::context& c = smt.ctx();
  SymRel co(&c, &deadline, s.M.size());
  for (const auto& [i, w] : model::initialWritesFirst(byLoc, initOf)) co.at(i, w) = Term::constant(true);
  const auto ms = [&](int a, int b) { return s.ms.at(a, b).isTrue(); };
  for (size_t l = 0; l < byLoc.size(); ++l) {
    const auto& ws = byLoc[l];
    for (const model::WritePair& p : model::writePairs(ws, ms)) {
      z3::expr ab = smt.fresh("co"), ba = smt.fresh("co");
      smt.add(!(ab && ba));
      if (p.forced) smt.add(ab || ba);
      co.at(p.a, p.b) = Term::of(ab);
      co.at(p.b, p.a) = Term::of(ba);
    }
    for (int a : ws) {
      deadline.check();  // |ws|^2 terms per write
      for (int b : ws)
        for (int d : ws)
          if (a != b && b != d && a != d) smt.add(!(co.at(a, b) && co.at(b, d)) || co.at(a, d));
    }
  }
  return co;
}

SymRel fenceScOrder(Smt& smt, const Deadline& deadline, const model::EventGraph& g) {
  z3::context& c = smt.ctx();
  const auto& ev = g.events;
  const int n = static_cast<int>(ev.size());
  SymRel orient(&c, &deadline, n);
  for (const auto& [a, b] : model::fenceScPairs(ev)) {
    z3::expr o = smt.fresh("sc");
    orient.at(a, b) = Term::of(o);
    orient.at(b, a) = Term::of(!o);
  }
  SymRel sc = plus(orient);
  for (int i = 0; i < n; ++i) smt.add(!sc.at(i, i));
  return sc;
}

}  // namespace checker
