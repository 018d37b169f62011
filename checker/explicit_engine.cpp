#include "checker/explicit_engine.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>

#include "model/bitrel.h"
#include "model/ptx_model.h"
#include "model/semantics.h"

namespace checker {

using model::Axiom;
using model::BitRel;
using model::Event;
using model::EventKind;

namespace {

// Decides constraints on concrete relations and remembers the first that fails.
struct ExplicitCheck {
  std::optional<Axiom> failed;
  model::Constraint<BitRel> failedOn{model::Shape::Empty, {}, {}};

  static bool holds(const model::Constraint<BitRel>& c) {
    switch (c.shape) {
      case model::Shape::Acyclic: return plus(c.r).irreflexive();
      case model::Shape::Irreflexive: return c.r.irreflexive();
      case model::Shape::Empty: return c.r.empty();
      case model::Shape::Subset: return c.r.subsetOf(c.sup);
    }
    return false;
  }
  bool operator()(Axiom a, const model::Constraint<BitRel>& c) {
    if (holds(c)) return true;
    failed = a;
    failedOn = c;
    return false;
  }
};

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
};

class Enumerator {
 public:
  Enumerator(const litmus::Test& test, const Options& opt) : test_(test), opt_(opt) {}

  Result run();

 private:
  using Visit = std::function<bool(const Candidate&, const model::Choice<BitRel>&)>;
  const litmus::Test& test_;
  const Options& opt_;
  model::Program prog_;
  std::vector<model::TraceSet> traces_;
  std::chrono::steady_clock::time_point start_;
  bool timedOut_ = false;
  uint64_t candidates_ = 0;

  bool overTime();
  Candidate makeCandidate(const std::vector<int>& pick) const;
  bool forEachCombination(const std::function<bool(const Candidate&)>& f);
  bool forEachRf(const Candidate& c, bool prune, const std::function<bool(const BitRel&)>& f);
  bool forEachCo(const Candidate& c, const BitRel& rf, const Visit& f);
  std::vector<litmus::State> finalStates(const Candidate& c, const BitRel& co) const;
  bool satisfiesTarget(const litmus::State& s) const;
  std::optional<Violation> explain();
};

bool Enumerator::overTime() {
  if (opt_.timeoutSeconds <= 0 || (++candidates_ & 255)) return timedOut_;
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  timedOut_ = el > opt_.timeoutSeconds;
  return timedOut_;
}

Candidate Enumerator::makeCandidate(const std::vector<int>& pick) const {
  Candidate c;
  auto& ev = c.g.events;
  for (size_t l = 0; l < prog_.locNames.size(); ++l) {
    Event e;
    e.kind = EventKind::Init;
    e.loc = static_cast<int>(l);
    e.va = prog_.vaOf(prog_.locNames[l]);
    e.value = prog_.locInit[l];
    e.scope = litmus::Scope::Sys;
    c.initOf.push_back(static_cast<int>(ev.size()));
    ev.push_back(e);
  }
  for (size_t t = 0; t < pick.size(); ++t) {
    const model::Trace& tr = traces_[t].traces[pick[t]];
    const int off = static_cast<int>(ev.size());
    if (off + static_cast<int>(tr.events.size()) > model::kMaxEvents)
      throw litmus::Error({test_.file, 0, 0}, "test has more than " +
                          std::to_string(model::kMaxEvents) + " events: too large for the explicit engine");
    c.traces.push_back(&tr);
    c.offset.push_back(off);
    ev.insert(ev.end(), tr.events.begin(), tr.events.end());
    for (auto [a, b] : tr.rmw) c.g.rmw.emplace_back(a + off, b + off);
    for (auto [a, b] : tr.dep) c.g.dep.emplace_back(a + off, b + off);
  }
  c.writesByLoc.resize(prog_.locNames.size());
  for (size_t i = 0; i < ev.size(); ++i)
    if (ev[i].kind == EventKind::Write) c.writesByLoc[ev[i].loc].push_back(static_cast<int>(i));
  for (size_t i = 0; i < ev.size(); ++i) {
    if (!ev[i].isRead()) continue;
    std::vector<int> ws;
    if (ev[c.initOf[ev[i].loc]].value == ev[i].value) ws.push_back(c.initOf[ev[i].loc]);
    for (int w : c.writesByLoc[ev[i].loc])
      if (ev[w].value == ev[i].value) ws.push_back(w);
    c.reads.push_back(static_cast<int>(i));
    c.rfChoices.push_back(std::move(ws));
  }
  for (size_t a = 0; a < ev.size(); ++a)
    for (size_t b = a + 1; b < ev.size(); ++b)
      if (ev[a].isFence() && ev[b].isFence() && ev[a].sem == litmus::Sem::Sc &&
          ev[b].sem == litmus::Sem::Sc && model::morallyStrong(ev[a], ev[b]))
        c.scPairs.emplace_back(static_cast<int>(a), static_cast<int>(b));
  return c;
}

bool Enumerator::forEachCombination(const std::function<bool(const Candidate&)>& f) {
  std::vector<int> pick(traces_.size(), 0);
  for (const auto& ts : traces_)
    if (ts.traces.empty()) return true;
  while (true) {
    Candidate c = makeCandidate(pick);
    bool feasible = std::none_of(c.rfChoices.begin(), c.rfChoices.end(),
                                 [](const auto& v) { return v.empty(); });
    if (feasible) {
      c.s = model::staticRelations(c.g);
      if (!f(c)) return false;
    }
    size_t t = 0;
    for (; t < pick.size(); ++t) {
      if (++pick[t] < static_cast<int>(traces_[t].traces.size())) break;
      pick[t] = 0;
    }
    if (t == pick.size()) return true;
  }
}

// With `prune`, rf choices are dropped early when they already break a necessary condition of the
// model (SC per location restricted to po and morally strong rf; No-Thin-Air): both are parts of
// acyclicity constraints of ptxModel, so no consistent execution is lost.
bool Enumerator::forEachRf(const Candidate& c, bool prune, const std::function<bool(const BitRel&)>& f) {
  const int n = static_cast<int>(c.g.events.size());
  std::vector<size_t> idx(c.reads.size(), 0);
  while (true) {
    BitRel rf(n);
    for (size_t i = 0; i < c.reads.size(); ++i) rf.set(c.rfChoices[i][idx[i]], c.reads[i]);
    const bool ok = !prune || (plus((c.s.ms & rf) | c.s.po_loc).irreflexive() &&
                               plus(rf | c.s.dep).irreflexive());
    if (ok && !f(rf)) return false;
    size_t i = 0;
    for (; i < idx.size(); ++i) {
      if (++idx[i] < c.rfChoices[i].size()) break;
      idx[i] = 0;
    }
    if (i == idx.size()) return true;
  }
}

// Coherence order (§8.9.6) is a strict partial order per location with the initial write first.
// Morally strong pairs must be ordered; other pairs (racing writes) may stay unordered (decision
// in docs/model.md). Causality-related pairs are left to the Coherence axiom. Fence-SC order is an
// acyclic orientation of every morally strong pair of fence.sc, closed transitively.
bool Enumerator::forEachCo(const Candidate& c, const BitRel& rf, const Visit& f) {
  const int n = static_cast<int>(c.g.events.size());
  struct Pair { int a, b; bool forced; };
  std::vector<Pair> pairs;
  for (const auto& ws : c.writesByLoc)
    for (size_t i = 0; i < ws.size(); ++i)
      for (size_t j = i + 1; j < ws.size(); ++j)
        pairs.push_back({ws[i], ws[j], c.s.ms.get(ws[i], ws[j])});
  BitRel base(n);
  for (size_t l = 0; l < c.writesByLoc.size(); ++l)
    for (int w : c.writesByLoc[l]) base.set(c.initOf[l], w);
  auto visitSc = [&](const BitRel& co) {
    const size_t k = c.scPairs.size();
    for (uint64_t mask = 0; mask < (uint64_t{1} << k); ++mask) {
      BitRel sc(n);
      for (size_t i = 0; i < k; ++i) {
        auto [a, b] = c.scPairs[i];
        if (mask >> i & 1) std::swap(a, b);
        sc.set(a, b);
      }
      sc = plus(sc);
      if (!sc.irreflexive()) continue;
      if (overTime()) return false;
      if (!f(c, model::Choice<BitRel>{rf, co, sc})) return false;
    }
    return true;
  };
  std::function<bool(size_t, BitRel&)> assign = [&](size_t i, BitRel& co) -> bool {
    if (i == pairs.size()) {
      // Only transitive, acyclic assignments are orders.
      const BitRel closed = plus(co);
      if (!(closed == co) || !co.irreflexive()) return true;
      return visitSc(co);
    }
    const auto [a, b, forced] = pairs[i];
    // A same-thread pair against program order breaks SC per location at once.
    const bool fwdOk = !c.s.po_loc.get(b, a), bwdOk = !c.s.po_loc.get(a, b);
    if (fwdOk) {
      co.set(a, b);
      if (!assign(i + 1, co)) return false;
      co.set(a, b, false);
    }
    if (bwdOk) {
      co.set(b, a);
      if (!assign(i + 1, co)) return false;
      co.set(b, a, false);
    }
    return forced || assign(i + 1, co);
  };
  BitRel co = base;
  return assign(0, co);
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
      const int64_t v = it == info.regId.end() ? 0 : c.traces[t]->regs[it->second];
      for (auto& s : out) s.values.push_back(v);
    } else if (term.kind == litmus::Term::Kind::Mem) {
      const int loc = prog_.vaLoc[prog_.vaOf(term.name)];
      std::set<int64_t> finals;
      for (int w : c.writesByLoc[loc])
        if (co.row(w).none()) finals.insert(c.g.events[w].value);
      if (finals.empty()) finals.insert(c.g.events[c.initOf[loc]].value);
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

std::string relationText(Axiom a) {
  switch (a) {
    case Axiom::Coherence: return "[W];cause;[W] & loc must be in co";
    case Axiom::FenceSc: return "sc;bc";
    case Axiom::Atomicity: return "((ms & fr);(ms & co)) & rmw";
    case Axiom::NoThinAir: return "rf | dep";
    case Axiom::ScPerLocation: return "(ms & (rf | co | fr)) | po_loc";
    case Axiom::Causality: return "(rf | fr);cause";
  }
  return "";
}

// Finds a candidate execution whose final state is the outcome the condition asks about, and
// which the model rejects: the picture of why that outcome is forbidden.
std::optional<Violation> Enumerator::explain() {
  std::optional<Violation> found;
  forEachCombination([&](const Candidate& c) {
    return forEachRf(c, false, [&](const BitRel& rf) {
      return forEachCo(c, rf, [&](const Candidate& cc, const model::Choice<BitRel>& x) {
        std::optional<litmus::State> target;
        for (auto& st : finalStates(cc, x.co))
          if (satisfiesTarget(st)) target = st;
        if (!target) return true;
        const litmus::State st = *target;
        ExplicitCheck chk;
        if (model::ptxModel(cc.s, x, chk)) return true;
        Violation v{Execution{cc.g, x.rf, x.co, x.sc, st}, *chk.failed, relationText(*chk.failed), {}};
        const auto& con = chk.failedOn;
        if (con.shape == model::Shape::Subset) {
          for (auto [a, b] : (con.r - con.sup).edges()) { v.cycle = {a, b}; break; }
        } else if (con.shape == model::Shape::Empty) {
          for (auto [a, b] : con.r.edges()) { v.cycle = {a, b}; break; }
        } else {
          v.cycle = model::findCycle(con.r);
        }
        found = std::move(v);
        return false;
      });
    });
  });
  return found;
}

Result Enumerator::run() {
  start_ = std::chrono::steady_clock::now();
  prog_ = model::buildProgram(test_);
  const model::Domain dom = model::valueDomain(prog_, opt_.unroll);
  Result res;
  for (size_t t = 0; t < test_.threads.size(); ++t) {
    traces_.push_back(model::enumerateTraces(prog_, static_cast<int>(t), dom, opt_.unroll));
    res.bounded |= traces_.back().bounded;
  }
  std::map<litmus::State, std::pair<uint64_t, std::optional<Execution>>> seen;
  uint64_t examined = 0;
  std::map<std::pair<std::string, std::string>, litmus::Race> races;
  forEachCombination([&](const Candidate& c) {
    return forEachRf(c, true, [&](const BitRel& rf) {
      return forEachCo(c, rf, [&](const Candidate& cc, const model::Choice<BitRel>& x) {
        ++examined;
        ExplicitCheck chk;
        model::Derived<BitRel> d;
        if (!model::ptxModel(cc.s, x, chk, &d)) return true;
        recordRaces(cc, d.cause, races, test_);
        for (auto& st : finalStates(cc, x.co)) {
          auto& slot = seen[st];
          ++slot.first;
          if (opt_.witnesses && !slot.second) slot.second = Execution{cc.g, x.rf, x.co, x.sc, st};
        }
        return true;
      });
    });
  });
  auto& out = res.outcome;
  out.test = test_.name;
  out.engine = "explicit";
  out.observed = test_.observed;
  out.quantifier = test_.quantifier;
  out.condition = litmus::formatCondition(test_.condition);
  out.candidates = examined;
  for (auto& [st, slot] : seen) {
    const bool sat = litmus::evalCondition(test_.condition, test_.observed, st);
    out.states.push_back(st);
    out.satisfies.push_back(sat);
    (sat ? out.positive : out.negative) += slot.first;
    if (opt_.witnesses && slot.second) res.witnesses.push_back(std::move(*slot.second));
  }
  for (auto& [key, race] : races) out.races.push_back(race);
  if (timedOut_) {
    out.status = litmus::Status::Unknown;
    out.statusDetail = "timeout after " + std::to_string(opt_.timeoutSeconds) + " s";
    return res;
  }
  const bool targetSeen = std::any_of(out.states.begin(), out.states.end(),
                                      [&](const litmus::State& s) { return satisfiesTarget(s); });
  if (opt_.explain && !targetSeen) res.violation = explain();
  return res;
}

}  // namespace

Result checkExplicit(const litmus::Test& test, const Options& options) {
  const auto t0 = std::chrono::steady_clock::now();
  Result r = Enumerator(test, options).run();
  r.outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace checker
