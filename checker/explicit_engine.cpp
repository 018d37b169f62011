#include "checker/explicit_engine.h"

#include "model/collectives.h"
#include "checker/engine_common.h"
#include "checker/explain.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "model/barriers.h"
#include "model/bitrel.h"
#include "model/ptx_model.h"
#include "model/semantics.h"

namespace checker {

using model::Axiom;
using model::BitRel;
using model::Event;
using model::EventKind;

namespace {

// Decides constraints on concrete relations and remembers the first that fails: the constraint
// an explanation is read from (checker/explain.cpp).
struct ExplicitCheck {
  std::optional<Axiom> failed;
  model::Constraint<BitRel> failedOn{};

  bool operator()(Axiom a, const model::Constraint<BitRel>& c) {
    if (model::holds(c)) return true;
    failed = a;
    failedOn = c;
    return false;
  }
};

// The model evaluated on part of an execution, for pruning: relations that are included in those
// of every completion the search may still build (rf and co chosen so far, co edges every
// completion has, sc and bar empty or chosen, derived relations of the part). The model builds
// every relation from the choice without difference or complement (model/ptx_model.h), so they
// only grow as the choice is completed, and an acyclic, irreflexive or empty constraint that
// fails on the part fails on every completion: the part is refuted. A subset constraint r ⊆ sup
// cannot fail early (sup grows too), but every consistent completion's sup contains r: when sup
// is co (Coherence), r is recorded as co edges the search must add.
struct PartialCheck {
  BitRel forcedCo;

  bool operator()(Axiom, const model::Constraint<BitRel>& c) {
    if (c.shape != model::Shape::Subset) return model::holds(c);
    if (c.supName == "co") forcedCo |= c.r;
    return true;
  }
};

// Whether some completion of the part x (with derived relations d of a part of it) may satisfy
// the model: co must stay a strict order, and no monotone constraint may fail yet. With `forced`,
// adds the co edges Coherence forces on every completion.
bool mayComplete(const model::Static<BitRel>& s, model::Choice<BitRel> x,
                 const model::Derived<BitRel>& d, BitRel* forced = nullptr) {
  x.co = plus(x.co);
  if (!x.co.irreflexive()) return false;
  PartialCheck chk{BitRel(x.co.size())};
  if (!model::axioms(s, x, d, chk)) return false;
  if (forced) *forced |= chk.forcedCo;
  return true;
}

// One combination of thread paths, with everything that does not depend on rf/co/sc.
struct Candidate {
  model::EventGraph g;
  model::Static<BitRel> s;
  std::vector<const model::Trace*> traces;
  std::vector<int> offset;                    // index of each thread's first event
  std::vector<int> reads;
  std::vector<std::vector<int>> rfChoices;    // per read: writes with the value it returned
  std::vector<std::vector<int>> writesByLoc;  // non-initial writes per physical location
  std::vector<int> initOf;                    // physical location -> its initial write
  std::vector<std::pair<int, int>> scPairs;   // morally strong pairs of fence.sc
  std::vector<BitRel> bars;                   // the ways barrier phases can fill (barriers.h)
  std::vector<model::Stuck> stuck;            // per thread: how its trace ends
  bool hangs = false;                         // some thread never exits
};

// The co edges every execution has: each location's initial write before its other writes.
BitRel initialWritesFirst(const Candidate& c) {
  BitRel co(static_cast<int>(c.g.events.size()));
  for (size_t l = 0; l < c.writesByLoc.size(); ++l)
    for (int w : c.writesByLoc[l]) co.set(c.initOf[l], w);
  return co;
}

class Enumerator {
 public:
  // `prune`: drop partial candidates the model refutes; without it every candidate is built and
  // the whole model decides (explanations, and tests of the pruning).
  Enumerator(const litmus::Test& test, const Options& opt, const Deadline& deadline, bool prune)
      : test_(test), opt_(opt), prune_(prune), deadline_(deadline) {}

  Result run();

 private:
  using Visit = std::function<bool(const Candidate&, const model::Choice<BitRel>&,
                                  const model::Derived<BitRel>&)>;
  const litmus::Test& test_;
  const Options& opt_;
  const bool prune_;
  model::Program prog_;
  std::vector<model::TraceSet> traces_;
  const Deadline& deadline_;
  bool timedOut_ = false;
  std::string hang_;                // how some execution hangs (empty: none found)
  bool doneWithCandidate_ = false;  // a visitor stopped the search of this candidate only
  model::Settled values_;           // the values of the execution being visited

  // The candidate's events with the values of the execution being visited.
  model::EventGraph withValues(const Candidate& c) const {
    model::EventGraph g = c.g;
    for (size_t e = 0; e < g.events.size(); ++e) g.events[e].value = values_.values[e];
    return g;
  }

  bool overTime();
  Candidate makeCandidate(const std::vector<int>& pick) const;
  bool forEachCombination(const std::function<bool(const Candidate&)>& f);
  bool forEachRf(const Candidate& c, bool prune, const std::function<bool(const BitRel&)>& f);
  bool forEachSc(const Candidate& c, const std::function<bool(const BitRel&)>& f);
  bool forEachCo(const Candidate& c, const model::Choice<BitRel>& x,
                 const model::Derived<BitRel>& d, bool prune, const Visit& f);
  bool totalOrders(const std::vector<int>& ws, bool prune,
                   const std::function<bool(const BitRel&)>& viable, BitRel& co,
                   const std::function<bool(BitRel&)>& next);
  bool partialOrders(const Candidate& c, const std::vector<int>& ws, bool prune,
                     const std::function<bool(const BitRel&)>& viable, BitRel& co,
                     const std::function<bool(BitRel&)>& next);
  // Every candidate execution, in order: thread paths, rf, Fence-SC order, co.
  bool forEachExecution(bool prune, const Visit& f);
  std::vector<litmus::State> finalStates(const Candidate& c, const BitRel& co) const;
  bool satisfiesTarget(const litmus::State& s) const;
  std::optional<Violation> explain(const std::vector<litmus::State>& allowed);
  bool spinsForever(const Candidate& c, const model::Choice<BitRel>& x) const;
};

// Every step it guards (a candidate, a reads-from or coherence choice with its closures) costs far
// more than reading the clock, so the clock is read every time.
bool Enumerator::overTime() {
  timedOut_ = timedOut_ || deadline_.passed();
  return timedOut_;
}

Candidate Enumerator::makeCandidate(const std::vector<int>& pick) const {
  Candidate c;
  auto& ev = c.g.events;
  c.initOf = addInitialWrites(prog_, c.g);
  for (size_t t = 0; t < pick.size(); ++t) {
    const model::Trace& tr = traces_[t].traces[pick[t]];
    const int off = static_cast<int>(ev.size());
    if (off + static_cast<int>(tr.events.size()) > model::kMaxEvents)
      throw litmus::Error({test_.file, 0, 0}, "test has more than " +
                          std::to_string(model::kMaxEvents) + " events: too large for the explicit engine");
    c.traces.push_back(&tr);
    c.offset.push_back(off);
    c.stuck.push_back(tr.stuck);
    c.hangs |= tr.stuck != model::Stuck::No;
    ev.insert(ev.end(), tr.events.begin(), tr.events.end());
    for (auto [a, b] : tr.rmw) c.g.rmw.emplace_back(a + off, b + off);
    for (auto [a, b] : tr.dep) c.g.dep.emplace_back(a + off, b + off);
  }
  c.writesByLoc.resize(prog_.locNames.size());
  for (size_t i = 0; i < ev.size(); ++i)
    if (ev[i].kind == EventKind::Write) c.writesByLoc[ev[i].loc].push_back(static_cast<int>(i));
  for (size_t i = 0; i < ev.size(); ++i) {
    if (!ev[i].isRead()) continue;
    // A lazy read may read any write of its location (settling its value checks the rest); a
    // read whose value its path fixed, the writes that may have that value.
    const auto known = [&](int e) -> std::optional<int64_t> {
      const int t = ev[e].thread;
      if (t < 0) return ev[e].value;
      const model::Val& v = c.traces[t]->vals[e - c.offset[t]];
      return v.known() ? std::optional<int64_t>(v.k) : std::nullopt;
    };
    const auto r = known(static_cast<int>(i));
    auto may = [&](int w) {
      const auto v = known(w);
      return !r || !v || *v == *r;
    };
    std::vector<int> ws;
    if (may(c.initOf[ev[i].loc])) ws.push_back(c.initOf[ev[i].loc]);
    for (int w : c.writesByLoc[ev[i].loc])
      if (may(w)) ws.push_back(w);
    c.reads.push_back(static_cast<int>(i));
    c.rfChoices.push_back(std::move(ws));
  }
  for (size_t a = 0; a < ev.size(); ++a)
    for (size_t b = a + 1; b < ev.size(); ++b)
      if (ev[a].isFence() && ev[b].isFence() && ev[a].sem == litmus::Sem::Sc &&
          ev[b].sem == litmus::Sem::Sc && model::morallyStrong(ev[a], ev[b]))
        c.scPairs.emplace_back(static_cast<int>(a), static_cast<int>(b));
  c.bars = model::barrierPhases(ev, c.stuck, [&](int64_t key) {
    return model::barrierParticipants(prog_, key);
  });
  return c;
}

bool Enumerator::forEachCombination(const std::function<bool(const Candidate&)>& f) {
  for (const auto& ts : traces_)
    if (ts.traces.empty()) return true;
  // lanes of one warp-level phase share its fate (model/collectives.h): skip the others
  std::vector<std::vector<std::vector<model::WarpFate>>> fates(traces_.size());
  for (size_t t = 0; t < traces_.size(); ++t)
    for (const auto& tr : traces_[t].traces) fates[t].push_back(model::warpFates(tr));
  return model::forEachAgreeingCombination(fates, [&](const std::vector<int>& pick) {
    if (overTime()) return false;
    bool hangs = false;
    for (size_t t = 0; t < pick.size(); ++t) hangs |= traces_[t].traces[pick[t]].stuck != model::Stuck::No;
    if (!hangs || hang_.empty()) {  // one hanging execution is enough to report
      Candidate c = makeCandidate(pick);
      const bool feasible = !c.bars.empty() && std::none_of(c.rfChoices.begin(), c.rfChoices.end(),
                                                            [](const auto& v) { return v.empty(); });
      if (feasible) {
        c.s = model::staticRelations(c.g);
        if (!f(c) && !doneWithCandidate_) return false;
        doneWithCandidate_ = false;
      }
    }
    return true;
  });
}

// Per location, the morally strong pairs of its writes: every execution orders each of them in co
// (§8.9.6), one way or the other.
std::vector<std::vector<std::pair<int, int>>> mustOrder(const Candidate& c) {
  std::vector<std::vector<std::pair<int, int>>> out(c.writesByLoc.size());
  for (size_t l = 0; l < c.writesByLoc.size(); ++l) {
    const auto& ws = c.writesByLoc[l];
    for (size_t i = 0; i < ws.size(); ++i)
      for (size_t j = i + 1; j < ws.size(); ++j)
        if (c.s.ms.get(ws[i], ws[j])) out[l].emplace_back(ws[i], ws[j]);
  }
  return out;
}

// Case analysis on pairs co must order, with the model as the judge: if the model refutes the
// part with a -> b added to co, every completion has b -> a (and what Coherence then forces); if
// it refutes both ways, it refutes the part. Repeats until nothing more is forced. Returns false
// when the part is refuted; otherwise x.co gains the forced edges.
bool settleOrder(const model::Static<BitRel>& s, model::Choice<BitRel>& x, const model::Derived<BitRel>& d,
                 const std::vector<std::pair<int, int>>& pairs, const BitRel::Row& near) {
  for (bool changed = true; changed;) {
    changed = false;
    BitRel closed = plus(x.co);
    for (auto [a, b] : pairs) {
      if (!near[a] && !near[b]) continue;
      if (closed.get(a, b) || closed.get(b, a)) continue;
      BitRel forcedAb(x.co.size()), forcedBa(x.co.size());
      model::Choice<BitRel> ab = x, ba = x;
      ab.co.set(a, b);
      ba.co.set(b, a);
      const bool okAb = mayComplete(s, ab, d, &forcedAb);
      const bool okBa = mayComplete(s, ba, d, &forcedBa);
      if (!okAb && !okBa) return false;
      if (okAb && okBa) continue;
      x.co = okAb ? ab.co | forcedAb : ba.co | forcedBa;
      closed = plus(x.co);
      changed = true;
    }
  }
  return true;
}

// Reads-from is chosen one read at a time. With `prune`, a partial choice is dropped as soon as
// the model refutes it (mayComplete, settleOrder): the part it sees is the rf chosen so far, the
// co edges every completion of it has (initial writes first, what Coherence forces, what the case
// analysis on co forces), empty sc and bar, and the relations derived from the part with empty
// rf, all of them included in those of every completion. (Deriving from the rf chosen so far
// would see more, at the price of a derivation per step.)
//
// The case analysis costs two evaluations of the model per pair, so after a read r is given its
// write w it looks only at the pairs of r's location with an end near the new edge: w itself, or
// the first write after r in its thread (e.g. the write half of r's RMW). Any choice of pairs is sound; this
// one finds what the new edge makes decidable in the tests we have (bench/corpus.sh).
bool Enumerator::forEachRf(const Candidate& c, bool prune, const std::function<bool(const BitRel&)>& f) {
  const int n = static_cast<int>(c.g.events.size());
  const BitRel none(n);
  const model::Derived<BitRel> d0 = model::derive(c.s, none, none, none);
  const auto pairs = mustOrder(c);
  // Whether the part x may still complete, after read r (-1: none yet) was given write w; x.co
  // gains the edges every completion has.
  auto refine = [&](model::Choice<BitRel>& x, int r, int w) {
    BitRel forced(n);
    if (!mayComplete(c.s, x, d0, &forced)) return false;
    x.co |= forced;
    BitRel::Row near;
    if (r < 0) near.set();
    else near.set(w);
    for (int e = r + 1; r >= 0 && e < n && c.g.events[e].thread == c.g.events[r].thread; ++e)
      if (c.g.events[e].isWrite()) {
        near.set(e);
        break;
      }
    for (size_t l = 0; l < pairs.size(); ++l)
      if ((r < 0 || static_cast<int>(l) == c.g.events[r].loc) && !settleOrder(c.s, x, d0, pairs[l], near))
        return false;
    return true;
  };
  // The writes chosen so far, per read: the values they decide must agree with the paths (the
  // lazy values' counterpart of reading only writes of the value read).
  std::vector<int> source(n, -1);
  std::function<bool(size_t, model::Choice<BitRel>&)> pick = [&](size_t i, model::Choice<BitRel>& x) -> bool {
    if (overTime()) return false;
    if (i == c.reads.size()) return f(x.rf);
    const int r = c.reads[i];
    for (int w : c.rfChoices[i]) {
      source[r] = w;
      if (!model::valuesMayHold(c.g.events, c.traces, c.offset, source)) continue;
      model::Choice<BitRel> next = x;
      next.rf.set(w, r);
      if ((!prune || refine(next, r, w)) && !pick(i + 1, next)) return false;
    }
    source[r] = -1;
    return true;
  };
  model::Choice<BitRel> x{none, initialWritesFirst(c), none, none};
  if (prune && !refine(x, -1, -1)) return true;
  return pick(0, x);
}

// Fence-SC order: an acyclic orientation of every morally strong pair of fence.sc, closed
// transitively.
bool Enumerator::forEachSc(const Candidate& c, const std::function<bool(const BitRel&)>& f) {
  const int n = static_cast<int>(c.g.events.size());
  const size_t k = c.scPairs.size();
  for (uint64_t mask = 0; mask < (uint64_t{1} << k); ++mask) {
    BitRel sc(n);
    for (size_t i = 0; i < k; ++i) {
      auto [a, b] = c.scPairs[i];
      if (mask >> i & 1) std::swap(a, b);
      sc.set(a, b);
    }
    sc = plus(sc);
    if (sc.irreflexive() && !f(sc)) return false;
  }
  return true;
}

// Coherence order (§8.9.6) is a strict partial order per location with the initial write first.
// Morally strong pairs must be ordered; other pairs (racing writes) may stay unordered (decision
// in docs/model.md). With `prune`, the search starts from the co edges the Coherence axiom forces
// and drops a partial order as soon as the model refutes it (mayComplete). Locations whose writes
// are pairwise morally strong get a total order, built one write at a time.
bool Enumerator::forEachCo(const Candidate& c, const model::Choice<BitRel>& x,
                           const model::Derived<BitRel>& d, bool prune, const Visit& f) {
  const BitRel& rf = x.rf;
  BitRel co = initialWritesFirst(c);
  auto viable = [&](const BitRel& co) {
    return prune ? mayComplete(c.s, {rf, co, x.sc, x.bar}, d) : acyclic(co);
  };
  if (prune) {
    BitRel forced(co.size());
    if (!mayComplete(c.s, {rf, co, x.sc, x.bar}, d, &forced)) return true;
    co |= forced;
  }
  if (!viable(co)) return true;
  std::function<bool(size_t, BitRel&)> perLoc = [&](size_t l, BitRel& co) -> bool {
    if (overTime()) return false;
    if (l == c.writesByLoc.size()) {
      // pruned: every step was viable, and the least order containing the choices is the one
      const BitRel closed = plus(co);
      if (prune) return f(c, model::Choice<BitRel>{rf, closed, x.sc, x.bar}, d);
      if (!(closed == co)) return true;  // only transitive assignments are orders
      return f(c, model::Choice<BitRel>{rf, co, x.sc, x.bar}, d);
    }
    const auto& ws = c.writesByLoc[l];
    bool total = true;
    for (size_t i = 0; i < ws.size(); ++i)
      for (size_t j = i + 1; j < ws.size(); ++j) total = total && c.s.ms.get(ws[i], ws[j]);
    if (ws.empty()) return perLoc(l + 1, co);
    auto next = [&](BitRel& co) { return perLoc(l + 1, co); };
    return total ? totalOrders(ws, prune, viable, co, next) : partialOrders(c, ws, prune, viable, co, next);
  };
  return perLoc(0, co);
}

// Linear orders of `ws` extending co, built by appending one write at a time. With `prune`, the
// part the model sees also has the edges from each placed write to each write not yet placed:
// every order built from here has them.
bool Enumerator::totalOrders(const std::vector<int>& ws, bool prune,
                             const std::function<bool(const BitRel&)>& viable, BitRel& co,
                             const std::function<bool(BitRel&)>& next) {
  std::vector<int> placed;
  std::vector<bool> used(ws.size(), false);
  std::function<bool()> extend = [&]() -> bool {
    if (placed.size() == ws.size()) return next(co);
    for (size_t i = 0; i < ws.size(); ++i) {
      if (used[i]) continue;
      const int x = ws[i];
      BitRel saved = co;
      for (int p : placed) co.set(p, x);
      used[i] = true;
      placed.push_back(x);
      BitRel part = co;
      for (size_t j = 0; j < ws.size() && prune; ++j)
        if (!used[j])
          for (int p : placed) part.set(p, ws[j]);
      if (viable(part) && !extend()) return false;
      placed.pop_back();
      used[i] = false;
      co = saved;
    }
    return true;
  };
  return extend();
}

// Partial orders of `ws` extending co: each pair ordered either way, or (if not morally strong)
// left unordered; transitivity is checked once every location is done.
//
// With `prune`, only the least orders are built: morally strong pairs ordered either way, every
// other pair left to what transitivity and the Coherence axiom force (co is closed in forEachCo).
// No final state is lost. Every axiom but Coherence only gets harder as co grows, and Coherence
// asks only for the forced pairs, so the least order inside a consistent co is consistent too; and
// removing co edges keeps every co-maximal write co-maximal, so its final states include those of
// the larger order. (Execution counts then count least orders.)
bool Enumerator::partialOrders(const Candidate& c, const std::vector<int>& ws, bool prune,
                               const std::function<bool(const BitRel&)>& viable, BitRel& co,
                               const std::function<bool(BitRel&)>& next) {
  struct Pair { int a, b; bool forced; };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < ws.size(); ++i)
    for (size_t j = i + 1; j < ws.size(); ++j)
      if (!co.get(ws[i], ws[j]) && !co.get(ws[j], ws[i]) && (!prune || c.s.ms.get(ws[i], ws[j])))
        pairs.push_back({ws[i], ws[j], c.s.ms.get(ws[i], ws[j])});
  std::function<bool(size_t)> assign = [&](size_t i) -> bool {
    if (overTime()) return false;
    if (i == pairs.size()) return next(co);
    const auto [a, b, forced] = pairs[i];
    for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      co.set(x, y);
      if (viable(co) && !assign(i + 1)) return false;
      co.set(x, y, false);
    }
    if (forced) return true;
    // Leaving the pair unordered is hopeless once the order chosen so far already implies it.
    const BitRel closed = plus(co);
    if (closed.get(a, b) || closed.get(b, a)) return true;
    return assign(i + 1);
  };
  return assign(0);
}

bool Enumerator::forEachExecution(bool prune, const Visit& f) {
  return forEachCombination([&](const Candidate& c) {
    return forEachRf(c, prune, [&](const BitRel& rf) {
      std::vector<int> source(c.g.events.size(), -1);
      for (auto [w, r] : rf.edges()) source[r] = w;
      auto settled = model::settleValues(c.g.events, c.traces, c.offset, source);
      if (!settled) return true;  // the values of this rf contradict the paths
      values_ = std::move(*settled);
      return forEachSc(c, [&](const BitRel& sc) {
        for (const BitRel& bar : c.bars) {
          const model::Derived<BitRel> d = model::derive(c.s, rf, sc, bar);
          if (!forEachCo(c, model::Choice<BitRel>{rf, BitRel(0), sc, bar}, d, prune, f)) return false;
        }
        return true;
      });
    });
  });
}

// The final value of a location comes from a co-maximal write; with racing writes left unordered
// there may be several, and each gives a final state.
std::vector<litmus::State> Enumerator::finalStates(const Candidate& c, const BitRel& co) const {
  std::vector<litmus::State> out(1);
  for (const auto& term : test_.observed) {
    if (term.kind == litmus::Term::Kind::Reg) {
      int t = 0;
      while (test_.threads[t].name != term.thread) ++t;
      const auto& info = prog_.threads[t];
      auto it = info.regId.find(term.name);
      const int64_t v = it == info.regId.end() ? 0 : values_.regs[t][it->second];
      for (auto& s : out) s.values.push_back(v);
    } else if (term.kind == litmus::Term::Kind::Mem) {
      const int loc = prog_.vaLoc[prog_.vaOf(term.name)];
      std::set<int64_t> finals;
      for (int w : c.writesByLoc[loc])
        if (co.row(w).none()) finals.insert(values_.values[w]);
      if (finals.empty()) finals.insert(values_.values[c.initOf[loc]]);
      std::vector<litmus::State> next;
      for (const auto& s : out)
        for (int64_t v : finals) {
          next.push_back(s);
          next.back().values.push_back(v);
        }
      out = std::move(next);
    } else {
      for (auto& s : out) s.values.push_back(term.value);
    }
  }
  return out;
}

// A spinning thread loops forever when the reads of its last iteration read the final value of
// their locations (co-maximal writes): every later iteration can read the same.
bool Enumerator::spinsForever(const Candidate& c, const model::Choice<BitRel>& x) const {
  for (size_t t = 0; t < c.traces.size(); ++t) {
    if (c.stuck[t] != model::Stuck::Spinning) continue;
    const auto& events = c.traces[t]->events;
    for (size_t i = c.traces[t]->spinFrom; i < events.size(); ++i) {
      const int r = c.offset[t] + static_cast<int>(i);
      if (!c.g.events[r].isRead()) continue;
      for (int w = 0; w < static_cast<int>(c.g.events.size()); ++w)
        if (x.rf.get(w, r) && x.co.row(w).any()) return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace checker

namespace checker {
namespace {

bool Enumerator::satisfiesTarget(const litmus::State& s) const {
  const bool body = litmus::evalCondition(test_.condition, test_.observed, s);
  return test_.quantifier == litmus::Quantifier::Forall ? !body : body;
}

// §8.7.1: conflicting accesses, neither morally strong nor ordered by causality, form a data race.
void recordRaces(const Candidate& c, const BitRel& cause,
                 std::map<std::pair<std::string, std::string>, litmus::Race>& races,
                 const litmus::Test& test) {
  const auto& ev = c.g.events;
  const BitRel order = cause | inv(cause) | c.s.ms;
  for (size_t a = 0; a < ev.size(); ++a)
    for (size_t b = a + 1; b < ev.size(); ++b) {
      const Event &x = ev[a], &y = ev[b];
      if (x.thread < 0 || y.thread < 0 || x.thread == y.thread || !x.isMem() || !y.isMem() ||
          x.loc != y.loc || !(x.isWrite() || y.isWrite()) || order.get(a, b))
        continue;
      auto text = [&](const Event& e) {
        return test.threads[e.thread].name + ": " + test.threads[e.thread].code[e.instr].text;
      };
      litmus::Race r{text(x), text(y), model::whyNotMorallyStrong(x, y)};
      races.emplace(std::make_pair(r.first, r.second), r);
    }
}

// Finds a candidate execution whose final state is the outcome to explain (the one the condition
// asks about, or the state --explain=STATE names), and which the model rejects: the picture of
// why that outcome is forbidden. None when some allowed state is such an outcome.
std::optional<Violation> Enumerator::explain(const std::vector<litmus::State>& allowed) {
  auto wanted = [&](const litmus::State& s) {
    return opt_.explainState ? litmus::matches(*opt_.explainState, s) : satisfiesTarget(s);
  };
  if (std::any_of(allowed.begin(), allowed.end(), wanted)) return std::nullopt;
  std::optional<Violation> found;
  forEachExecution(false, [&](const Candidate& cc, const model::Choice<BitRel>& x,
                             const model::Derived<BitRel>& d) {
        if (cc.hangs) return true;  // no final state
        std::optional<litmus::State> target;
        for (auto& st : finalStates(cc, x.co))
          if (wanted(st)) target = st;
        if (!target) return true;
        const litmus::State st = *target;
        ExplicitCheck chk;
        if (model::axioms(cc.s, x, d, chk)) return true;
        found = explainViolation(test_, opt_, Execution{withValues(cc), x.rf, x.co, x.sc, x.bar, st},
                                 *chk.failed, chk.failedOn);
        return false;
  });
  return found;
}

Result Enumerator::run() {
  prog_ = model::buildProgram(test_);
  const model::Domain dom = model::valueDomain(prog_, opt_.unroll);
  Result res;
  for (size_t t = 0; t < test_.threads.size() && !overTime(); ++t) {
    traces_.push_back(model::enumerateTraces(prog_, static_cast<int>(t), dom, opt_.unroll));
    res.bounded |= traces_.back().bounded;
  }
  std::map<litmus::State, std::pair<uint64_t, std::optional<Execution>>> seen;
  uint64_t examined = 0;
  std::map<std::pair<std::string, std::string>, litmus::Race> races;
  forEachExecution(prune_, [&](const Candidate& cc, const model::Choice<BitRel>& x,
                            const model::Derived<BitRel>& d) {
        ++examined;
        ExplicitCheck chk;
        if (!model::axioms(cc.s, x, d, chk)) return true;
        if (cc.hangs) {  // no final state: does this execution really hang?
          if (!spinsForever(cc, x)) return true;
          hang_ = describeHang(test_, cc.traces);
          doneWithCandidate_ = true;
          return false;
        }
        recordRaces(cc, d.cause, races, test_);
        for (auto& st : finalStates(cc, x.co)) {
          auto& slot = seen[st];
          ++slot.first;
          if (opt_.witnesses && !slot.second) slot.second = Execution{withValues(cc), x.rf, x.co, x.sc, x.bar, st};
        }
        return true;
  });
  auto& out = res.outcome;
  describeTest(out, test_, "explicit", res.bounded, opt_.unroll);
  out.candidates = examined;
  for (auto& [st, slot] : seen) {
    addState(out, test_, st, slot.first);
    if (opt_.witnesses && slot.second) res.witnesses.push_back(std::move(*slot.second));
  }
  for (auto& [key, race] : races) out.races.push_back(race);
  out.hang = hang_;
  if (timedOut_) {
    out.status = litmus::Status::Unknown;
    out.statusDetail = deadline_.describe();
    return res;
  }
  if (opt_.explain) res.violation = explain(out.states);
  return res;
}

}  // namespace

Result checkExplicit(const litmus::Test& test, const Options& options, const Deadline& deadline) {
  return Enumerator(test, options, deadline, true).run();
}

Result checkExplicitUnpruned(const litmus::Test& test, const Options& options,
                             const Deadline& deadline) {
  return Enumerator(test, options, deadline, false).run();
}

}  // namespace checker
