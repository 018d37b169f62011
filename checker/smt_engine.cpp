#include "checker/smt_engine.h"

#include "base/limit_error.h"
#include "checker/engine_common.h"
#include "litmus/outcome.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "checker/smt_relations.h"
#include "checker/smt_solver.h"
#include "checker/smt_values.h"
#include "checker/symrel.h"
#include "model/barriers.h"
#include "model/ptx_model.h"
#include "model/relations.h"
#include "semantics/collectives.h"
#include "semantics/semantics.h"

namespace checker {

using model::Axiom;
using model::BitRel;
using model::Event;
using model::EventKind;

namespace {

model::Static<SymRel> lift(z3::context* c, const Deadline* d, const model::Static<BitRel>& s) {
  auto k = [&](const BitRel& r) { return SymRel::constant(c, d, r); };
  model::Static<SymRel> o;
  o.W = k(s.W); o.M = k(s.M); o.RelW = k(s.RelW); o.StrongW = k(s.StrongW);
  o.StrongR = k(s.StrongR); o.AcqR = k(s.AcqR); o.FRel = k(s.FRel); o.FAcq = k(s.FAcq);
  o.Arrive = k(s.Arrive); o.ArriveRel = k(s.ArriveRel); o.Wait = k(s.Wait); o.WaitAcq = k(s.WaitAcq);
  o.po = k(s.po); o.po_loc = k(s.po_loc); o.loc = k(s.loc); o.ms = k(s.ms); o.rmw = k(s.rmw);
  o.msSync = k(s.msSync);
  o.dep = k(s.dep); o.ppStatic = k(s.ppStatic);
  o.gate = k(s.gate); o.gated = s.gated;
  o.poAsync = k(s.poAsync);
  o.async = s.async;
  for (const auto& v : s.views) o.views.push_back(k(v));
  o.PF = k(s.PF);
  o.viewGeneric = s.viewGeneric;
  o.sameCta = k(s.sameCta);
  for (const auto& st : s.viewSteps) o.viewSteps.push_back({st.from, st.to, k(st.fences)});
  o.chain = s.chain;
  o.grid = k(s.grid);
  o.grids = s.grids;
  o.gridAllProxies = s.gridAllProxies;
  o.FRelU = k(s.FRelU);
  o.FAcqU = k(s.FAcqU);
  for (const auto& key : s.restrictKeys) {
    o.restrictKeys.emplace_back();
    auto& ok = o.restrictKeys.back();
    ok.from = k(key.from), ok.rel = k(key.rel), ok.acq = k(key.acq);
    ok.relPat = k(key.relPat), ok.acqPat = k(key.acqPat), ok.barRel = k(key.barRel), ok.barAcq = k(key.barAcq);
  }
  o.restricted = s.restricted;
  o.relPat = k(s.relPat); o.acqPat = k(s.acqPat); o.barRel = k(s.barRel); o.barAcq = k(s.barAcq);
  return o;
}

// Asserts each constraint of the model: acyclicity through bit-vector ranks. Building the terms of
// a large test takes seconds; past the deadline, Deadline::Expired ends the evaluation.
struct SymbolicCheck {
  Smt& smt;
  const Deadline& deadline;
  bool operator()(Axiom, const model::Constraint<SymRel>& c) {
    deadline.check();
    const int n = c.r.size();
    switch (c.shape) {
      case model::Shape::Acyclic: {
        std::vector<z3::expr> rank;
        for (int i = 0; i < n; ++i) rank.push_back(smt.freshRank(n));
        for (int i = 0; i < n; ++i, deadline.check())
          for (int j = 0; j < n; ++j)
            if (!c.r.at(i, j).isFalse())
              smt.add(z3::implies(c.r.at(i, j).expr(smt.ctx()), z3::ult(rank[i], rank[j])));
        break;
      }
      case model::Shape::Irreflexive:
        for (int i = 0; i < n; ++i) smt.add(!c.r.at(i, i));
        break;
      case model::Shape::Empty:
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) smt.add(!c.r.at(i, j));
        break;
      case model::Shape::Subset:
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) smt.add(!c.r.at(i, j) || c.sup->at(i, j));
        break;
    }
    return true;
  }
};

// Traces of one thread that execute the same instructions: they share their events and differ in
// the values read and written, which become variables.
struct PathGroup {
  std::vector<const model::Trace*> traces;
};

std::vector<PathGroup> groupByPath(const model::TraceSet& ts) {
  std::map<std::vector<int64_t>, size_t> index;
  std::vector<PathGroup> groups;
  for (const auto& tr : ts.traces) {
    std::vector<int64_t> key;
    for (const auto& e : tr.events) {
      key.push_back(e.instr);
      key.push_back(static_cast<int64_t>(e.kind));
      // attributes that a value read may decide: an mbarrier wait acquires only when it returns
      // true; an address in a register names the location
      key.push_back(static_cast<int64_t>(e.sem));
      key.push_back(e.loc);
      // barriers are part of the structure (a register may name the barrier or its count)
      if (e.isBarrier()) key.insert(key.end(), {e.barrier, e.count});
    }
    key.push_back(static_cast<int64_t>(tr.stuck) - 8);  // a hanging wait is not a completed one
    auto [it, fresh] = index.emplace(key, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].traces.push_back(&tr);
  }
  return groups;
}

class SmtEnumerator {
 public:
  SmtEnumerator(const litmus::Test& t, const Options& o, const Deadline& d)
      : test_(t), opt_(o), deadline_(d) {}
  Result run();

 private:
  const litmus::Test& test_;
  const Options& opt_;
  const Deadline& deadline_;
  model::Program prog_;
  model::Domain dom_;
  std::set<litmus::State> states_;
  // Past Options::maxStates: the sides of the condition's body the listed states show (as in the
  // explicit engine); the solver then asks only for a state of the side not seen.
  bool cut_ = false;
  bool sideSeen_[2] = {false, false};
  bool finishingDone() const { return cut_ && sideSeen_[0] && sideSeen_[1]; }
  void list(const litmus::State& st);
  bool unknown_ = false;
  litmus::UnknownReason unknownWhy_ = litmus::UnknownReason::None;  // of the first unknown answer
  void noteUnknown(const Smt& smt) {
    if (!unknown_) unknownWhy_ = smt.lastUnknown();
    unknown_ = true;
  }
  std::string hang_;  // how some execution hangs (empty: none found)

  void enumerate(const std::vector<std::vector<PathGroup>>& groups);
  void collectValues(const std::vector<std::vector<TraceTables>>& tables,
                     const model::EventGraph& init, ValueCode& code) const;
  void addGuards(Smt& smt, const ValueCode& code, const std::vector<z3::expr>& sel,
                 const std::vector<TraceTables>& tables, const std::function<z3::expr(int)>& readVar);
  void solveCombination(const std::vector<const PathGroup*>& pick);
  std::optional<SymRel> barrierChoice(Smt& smt, const model::EventGraph& g,
                                      const std::vector<model::Stuck>& stuck,
                                      const std::vector<z3::expr>& value, const ValueCode& code);
  bool collectiveResults(Smt& smt, const model::EventGraph& g, const std::vector<model::Stuck>& stuck,
                         const std::vector<z3::expr>& value,
                         const std::vector<std::set<int64_t>>& possible, const ValueCode& code);
  void assertSpinning(Smt& smt, const std::vector<const PathGroup*>& pick,
                      const std::vector<int>& offset, const model::EventGraph& g,
                      const SymRel& rf, const SymRel& co);
};

// The barrier phases (model/barriers.h) as a choice among the fillings: one selector each. The
// results of bar.red are constrained here, over the symbolic values of the predicates. nullopt:
// no filling is possible.
std::optional<SymRel> SmtEnumerator::barrierChoice(Smt& smt, const model::EventGraph& g,
                                                   const std::vector<model::Stuck>& stuck,
                                                   const std::vector<z3::expr>& value,
                                                   const ValueCode& code) {
  z3::context& c = smt.ctx();
  const auto& ev = g.events;
  const int n = static_cast<int>(ev.size());
  const std::vector<BitRel> bars = model::barrierPhases(
      ev, stuck, [&](int64_t key) { return model::barrierParticipants(prog_, key); }, false, opt_.readings);
  if (bars.empty()) return std::nullopt;
  SymRel bar(&c, &deadline_, n);
  z3::expr_vector sels(c);
  for (const BitRel& b : bars) {
    const z3::expr sel = bars.size() == 1 ? c.bool_val(true) : smt.fresh("bar");
    sels.push_back(sel);
    for (auto [a, w] : b.edges()) bar.at(a, w) = bar.at(a, w) || Term::of(sel);
    for (int w = 0; w < n; ++w) {
      if (ev[w].kind != EventKind::Wait || !model::isReduction(ev[w].barOp)) continue;
      z3::expr_vector truth(c);  // the predicates of w's phase that hold
      for (int a = 0; a < n; ++a)
        if (b.get(a, w) && ev[a].barrier != model::kExitBarrier) truth.push_back(value[a] != code.of(c, 0));
      const int k = static_cast<int>(truth.size());
      // A completed wait's phase holds its own arrival; none means the wait hangs and returns
      // no result (its value is no reduction of anything).
      if (k == 0) continue;
      for (int m = 0; m <= k; ++m) {
        const int64_t result = ev[w].barOp == litmus::BarOp::RedPopc ? m
                               : ev[w].barOp == litmus::BarOp::RedAnd ? m == k
                                                                        : m > 0;
        const z3::expr exactly = z3::atleast(truth, m) && z3::atmost(truth, m);
        smt.add(z3::implies(sel && exactly, code.has(result) ? value[w] == code.of(c, result)
                                                             : c.bool_val(false)));
      }
    }
  }
  if (bars.size() > 1) smt.add(z3::atleast(sels, 1) && z3::atmost(sels, 1));
  return bar;
}

// The result of each warp collective (D41): for every operands its phase's arrivals may carry,
// the value they give (semantics/collectives.h). False: too many combinations to state.
bool SmtEnumerator::collectiveResults(Smt& smt, const model::EventGraph& g, const std::vector<model::Stuck>& stuck,
                                      const std::vector<z3::expr>& value,
                                      const std::vector<std::set<int64_t>>& possible, const ValueCode& code) {
  z3::context& c = smt.ctx();
  const auto& ev = g.events;
  for (int w = 0; w < static_cast<int>(ev.size()); ++w) {
    if (!ev[w].isCollectiveResult()) continue;
    const bool last = w + 1 == static_cast<int>(ev.size()) || ev[w + 1].thread != ev[w].thread;
    if (last && stuck[ev[w].thread] == model::Stuck::AtWait) continue;  // it hangs: no result
    const std::vector<int> arr = model::phaseArrivals(ev, w);
    std::vector<std::vector<int64_t>> vals;
    size_t combos = 1;
    for (int a : arr) {
      vals.emplace_back(possible[a].begin(), possible[a].end());
      combos *= vals.back().size();
    }
    if (combos > (1u << 16)) throw litmus::LimitError({test_.file, 1, 1}, "a warp collective's operands take too many values");
    for (size_t n = 0; n < combos; ++n) {
      z3::expr when = c.bool_val(true);
      std::vector<std::pair<int, int64_t>> ops;
      for (size_t i = 0, rest = n; i < arr.size(); ++i, rest /= vals[i - 1].size()) {
        const int64_t v = vals[i][rest % vals[i].size()];
        ops.emplace_back(ev[arr[i]].lane, v);
        rebind(when, when && value[arr[i]] == code.of(c, v));
      }
      const int64_t r = model::collectiveResult(*ev[w].warpInstr, ev[w].lane, ops);
      smt.add(z3::implies(when, code.has(r) ? value[w] == code.of(c, r) : c.bool_val(false)));
    }
  }
  return true;
}

// A spinning thread loops forever when the reads of its last iteration read writes after which
// (in coherence) no write must reach them (Enumerator::spinsForever says which must).
void SmtEnumerator::assertSpinning(Smt& smt, const std::vector<const PathGroup*>& pick,
                                   const std::vector<int>& offset, const model::EventGraph& g,
                                   const SymRel& rf, const SymRel& co) {
  const int n = static_cast<int>(g.events.size());
  for (size_t t = 0; t < pick.size(); ++t) {
    const model::Trace& rep = *pick[t]->traces.front();
    if (rep.stuck != model::Stuck::Spinning) continue;
    for (size_t i = rep.spinFrom; i < rep.events.size(); ++i) {
      const int r = offset[t] + static_cast<int>(i);
      if (!g.events[r].isRead()) continue;
      for (int w = 0; w < n; ++w)
        for (int w2 = 0; w2 < n; ++w2)  // only writes that must reach r (spinsForever, D26)
          if (!rf.at(w, r).isFalse() && !co.at(w, w2).isFalse() &&
              (g.events[r].mbarrier || model::morallyStrong(g.events[w2], g.events[r])))
            smt.add(!(rf.at(w, r) && co.at(w, w2)));
    }
  }
}

// Every value the combination's events, observed registers and observed constants can take.
void SmtEnumerator::collectValues(const std::vector<std::vector<TraceTables>>& tables,
                                  const model::EventGraph& init, ValueCode& code) const {
  code.add(0);  // an unwritten register
  for (const auto& e : init.events) code.add(e.value);
  for (const auto& group : tables)
    for (const auto& t : group) addValues(t, code);
  for (const auto& term : test_.observed) code.add(term.value);
  code.seal();
}

// The decisions of each trace: the assignments that break one exclude the trace.
void SmtEnumerator::addGuards(Smt& smt, const ValueCode& code, const std::vector<z3::expr>& sel,
                              const std::vector<TraceTables>& tables,
                              const std::function<z3::expr(int)>& readVar) {
  z3::context& c = smt.ctx();
  for (size_t k = 0; k < tables.size(); ++k)
    for (const auto& [table, truth] : tables[k].guards)
      for (const z3::expr& broken : brokenAssignments(c, code, table, truth, readVar))
        smt.add(z3::implies(sel[k], !broken));
}

void SmtEnumerator::solveCombination(const std::vector<const PathGroup*>& pick) {
  Smt smt;
  z3::context& c = smt.ctx();
  model::EventGraph g;
  const std::vector<int> initOf = addInitialWrites(prog_, g);
  // Per event: its value as a term over the thread's trace selector, and the values it can take.
  // A read's value is a variable (its trace fixes it, or reads-from settles it); other values are
  // tables over the reads of their trace (checker/smt_values.h).
  std::vector<const model::Trace*> all;
  for (const auto* group : pick) all.insert(all.end(), group->traces.begin(), group->traces.end());
  // both are sound; the test's domain bounds chains better, the combination's has fewer writes
  model::Domain dom = combinationDomain(all, prog_.locInit, dom_, &deadline_);
  for (size_t l = 0; l < dom.size(); ++l)
    std::erase_if(dom[l], [&](int64_t v) { return !dom_[l].count(v); });
  std::vector<std::vector<TraceTables>> tables(pick.size());
  for (size_t t = 0; t < pick.size(); ++t)
    for (const auto* tr : pick[t]->traces) {
      deadline_.check();
      tables[t].push_back(tabulate(*tr, dom));
    }
  ValueCode code;
  collectValues(tables, g, code);
  std::vector<z3::expr> value;
  std::vector<std::set<int64_t>> possible;
  for (const auto& e : g.events) {
    value.push_back(code.of(c, e.value));
    possible.push_back({e.value});
  }
  std::vector<std::vector<z3::expr>> sel(pick.size());
  std::vector<int> offset;
  for (size_t t = 0; t < pick.size(); ++t) {
    const auto& traces = pick[t]->traces;
    for (size_t k = 0; k < traces.size(); ++k) sel[t].push_back(smt.fresh("sel"));
    z3::expr_vector one(c);
    for (auto& s : sel[t]) one.push_back(s);
    smt.add(z3::atleast(one, 1) && z3::atmost(one, 1));
    const model::Trace& rep = *traces.front();
    const int off = static_cast<int>(g.events.size());
    offset.push_back(off);
    for (size_t i = 0; i < rep.events.size(); ++i) {
      g.events.push_back(rep.events[i]);
      possible.emplace_back();
      if (rep.events[i].isRead() || rep.events[i].isCollectiveResult())  // settled later
        value.push_back(smt.freshValue(code.bits()));
      else value.push_back(c.bool_val(false));  // set below, once every read has its variable
    }
    const auto readVar = [&value, off](int r) { return value[off + r]; };
    for (size_t i = 0; i < rep.events.size(); ++i) {
      deadline_.check();  // a term per trace of the group
      const bool read = rep.events[i].isRead() || rep.events[i].isCollectiveResult();
      z3::expr v = read ? value[off + i] : tableTerm(c, code, tables[t].back().events[i], readVar);
      for (size_t k = traces.size(); k-- > 0;) {
        const ValueTable& table = tables[t][k].events[i];
        for (const auto& row : table.rows) possible[off + i].insert(row.second);
        if (read) {  // the read's variable takes a value its trace allows
          z3::expr_vector may(c);
          for (const auto& row : table.rows) may.push_back(v == code.of(c, row.second));
          smt.add(z3::implies(sel[t][k], z3::mk_or(may)));
        } else if (k + 1 < traces.size()) {
          rebind(v, z3::ite(sel[t][k], tableTerm(c, code, table, readVar), v));
        }
      }
      value[off + i] = v;
    }
    addGuards(smt, code, sel[t], tables[t], readVar);
    for (auto [a, b] : rep.rmw) g.rmw.emplace_back(a + off, b + off);
    for (auto [a, b] : rep.dep) g.dep.emplace_back(a + off, b + off);
  }
  const int n = static_cast<int>(g.events.size());
  if (n > model::kMaxEvents) throw litmus::LimitError({test_.file, 1, 1}, "test has more than " + std::to_string(model::kMaxEvents) + " events: too large for the SMT engine");
  const model::Static<SymRel> s = lift(&c, &deadline_, model::staticRelations(g, opt_.readings));
  const auto& ev = g.events;
  std::vector<model::Stuck> stuck;
  bool hangs = false;
  for (const auto* group : pick) {
    stuck.push_back(group->traces.front()->stuck);
    hangs |= stuck.back() != model::Stuck::No;
  }
  const std::optional<SymRel> bar = barrierChoice(smt, g, stuck, value, code);
  if (!bar) return;
  if (!collectiveResults(smt, g, stuck, value, possible, code)) return;

  const std::optional<SymRel> rf = readsFrom(smt, deadline_, g, value, possible);
  if (!rf) return;
  std::vector<std::vector<int>> byLoc(prog_.locNames.size());
  for (int w = 0; w < n; ++w)
    if (ev[w].kind == EventKind::Write) byLoc[ev[w].loc].push_back(w);
  const SymRel co = coherence(smt, deadline_, s, byLoc, initOf);
  const SymRel sc = fenceScOrder(smt, deadline_, g);

  SymbolicCheck check{smt, deadline_};
  model::ptxModel(s, model::Choice<SymRel>{*rf, co, sc, *bar}, check);
  if (hangs) {  // no final state: one consistent execution that really hangs is enough
    assertSpinning(smt, pick, offset, g, *rf, co);
    const auto answer = smt.check(deadline_);
    if (answer == Smt::Answer::Unknown) noteUnknown(smt);
    if (answer == Smt::Answer::Sat) {
      std::vector<const model::Trace*> reps;
      for (const auto* group : pick) reps.push_back(group->traces.front());
      hang_ = describeHang(test_, reps);
    }
    return;
  }

  // Observed values: registers from the selected trace, memory from a co-maximal write.
  std::vector<z3::expr> observed;
  for (const auto& term : test_.observed) {
    if (term.kind == litmus::Term::Kind::Const) {
      observed.push_back(code.of(c, term.value));
    } else if (term.kind == litmus::Term::Kind::Reg) {
      size_t t = 0;
      while (test_.threads[t].name != term.thread) ++t;
      const auto& info = prog_.threads[t];
      const auto it = info.regId.find(term.name);
      const auto& traces = pick[t]->traces;
      const int off = offset[t];
      const auto readVar = [&value, off](int r) { return value[off + r]; };
      auto reg = [&](size_t k) {
        return it == info.regId.end() ? code.of(c, 0) : tableTerm(c, code, tables[t][k].regs[it->second], readVar);
      };
      z3::expr v = reg(traces.size() - 1);
      for (size_t k = traces.size() - 1; k-- > 0;) rebind(v, z3::ite(sel[t][k], reg(k), v));
      observed.push_back(v);
    } else {
      const int l = prog_.vaLoc[prog_.vaOf(term.name)];
      std::vector<int> cand = byLoc[l];
      cand.push_back(initOf[l]);
      z3::expr_vector fins(c);
      z3::expr v = code.of(c, 0);
      for (int w : cand) {
        z3::expr fin = smt.fresh("fin");
        for (int w2 : cand)
          if (w2 != w) smt.add(!fin || !co.at(w, w2).expr(c));
        fins.push_back(fin);
        rebind(v, z3::ite(fin, value[w], v));
      }
      smt.add(z3::atleast(fins, 1) && z3::atmost(fins, 1));
      observed.push_back(v);
    }
  }
  // Every allowed final state, one model at a time, each then blocked. Z3 checks its own timeout
  // only now and then, so the deadline is also checked here between models (in smt.check). Once
  // the listing is cut, only a state on the side of the condition not seen yet.
  const z3::expr body = conditionTerm(c, code, test_.condition, test_.observed, observed);
  for (bool seeking = false;;) {
    if (cut_ && !seeking) {
      if (finishingDone()) return;
      smt.add(sideSeen_[1] ? !body : body);
      seeking = true;
    }
    const auto answer = smt.check(deadline_);
    if (answer == Smt::Answer::Unknown) {
      noteUnknown(smt);
      return;
    }
    if (answer == Smt::Answer::Unsat) return;
    z3::model m = smt.model();
    litmus::State st;
    z3::expr block = c.bool_val(false);
    for (const auto& o : observed) {
      const z3::expr v = m.eval(o, true);
      st.values.push_back(code.decode(v));
      rebind(block, block || (o != v));
    }
    list(st);
    if (observed.empty()) return;
    smt.add(block);
  }
}

void SmtEnumerator::list(const litmus::State& st) {
  const bool side = litmus::evalCondition(test_.condition, test_.observed, st);
  if (cut_ && sideSeen_[side]) return;
  states_.insert(st);
  sideSeen_[side] = true;
  if (opt_.maxStates > 0 && states_.size() >= opt_.maxStates && !opt_.explainState) cut_ = true;
}

// Every combination of one path group per thread, each solved on its own context.
void SmtEnumerator::enumerate(const std::vector<std::vector<PathGroup>>& groups) {
  if (std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.empty(); })) return;
  // lanes of one warp-level phase share its fate (semantics/collectives.h): skip the others
  std::vector<std::vector<std::vector<model::WarpFate>>> fates(groups.size());
  for (size_t t = 0; t < groups.size(); ++t)
    for (const auto& g : groups[t]) fates[t].push_back(model::warpFates(*g.traces.front()));
  model::forEachAgreeingCombination(fates, [&](const std::vector<int>& idx) {
    std::vector<const PathGroup*> pick;
    bool hangs = false;
    for (size_t t = 0; t < groups.size(); ++t) {
      pick.push_back(&groups[t][idx[t]]);
      hangs |= pick.back()->traces.front()->stuck != model::Stuck::No;
    }
    if (hangs ? hang_.empty() : !finishingDone()) solveCombination(pick);
    return !unknown_;
  });
}

Result SmtEnumerator::run() {
  prog_ = model::buildProgram(test_);
  dom_ = model::valueDomain(prog_, opt_.unroll, deadline_);
  Result res;
  bool timedOut = false;
  try {
    std::vector<std::vector<PathGroup>> groups;
    std::vector<model::TraceSet> traces;
    for (size_t t = 0; t < test_.threads.size(); ++t) {
      deadline_.check();
      traces.push_back(model::enumerateTraces(prog_, static_cast<int>(t), dom_, opt_.unroll, deadline_));
      res.bounded |= traces.back().bounded;
    }
    for (const auto& ts : traces) groups.push_back(groupByPath(ts));
    enumerate(groups);
  } catch (const Deadline::Expired&) {
    timedOut = true;
  }
  // Z3 answers unknown when its timeout (the deadline) interrupts it.
  timedOut |= unknown_ && deadline_.passed();
  auto& out = res.outcome;
  describeTest(out, test_, "smt", res.bounded, opt_.unroll);
  // The symbolic engine counts final states, not executions (docs/performance.md).
  for (const auto& st : states_) addState(out, test_, st, 1);
  out.hang = hang_;
  if (cut_) out.statesCut = opt_.maxStates;
  if (timedOut || unknownWhy_ == litmus::UnknownReason::Timeout)
    out.giveUp(litmus::UnknownReason::Timeout, deadline_.describe());
  else if (unknownWhy_ == litmus::UnknownReason::Memory)
    out.giveUp(litmus::UnknownReason::Memory, "out of memory");  // checker::check names the limit
  else if (unknown_)
    out.giveUp(litmus::UnknownReason::SolverUnknown, "solver returned unknown");
  return res;
}

}  // namespace

Result checkSmt(const litmus::Test& test, const Options& options, const Deadline& deadline) {
  return SmtEnumerator(test, options, deadline).run();
}

}  // namespace checker
