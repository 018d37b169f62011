#include "checker/explicit_engine.h"

#include "base/limit_error.h"
#include "checker/explicit_enum.h"

#include "checker/engine_common.h"
#include "checker/explain.h"
#include "semantics/collectives.h"

#include <algorithm>
#include <functional>
#include <map>
#include <new>
#include <set>

#include "model/barriers.h"
#include "model/bitrel.h"
#include "model/ptx_model.h"
#include "model/wellformed.h"
#include "semantics/semantics.h"

namespace checker::explicit_detail {

using model::Event;
using model::EventKind;

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
      throw litmus::LimitError(test_.threads[t].loc, "test has more than " +
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
  c.scPairs = model::fenceScPairs(ev);
  c.bars = model::barrierPhases(
      ev, c.stuck, [&](int64_t key) { return model::barrierParticipants(prog_, key); }, true, opt_.readings);
  return c;
}

namespace {

// Whether a thread's code reads a register that tells it apart from a thread with the same code
// (its ids, lane, warp, CTA rank, clocks).
bool readsIdentity(const litmus::Thread& th) {
  static constexpr const char* kIds[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid",
                                         "%nwarpid", "%cluster", "%smid", "%nsmid", "%gridid",
                                         "%clock", "%globaltimer", "%lanemask", "%envreg"};
  for (const auto& in : th.code)
    for (const char* id : kIds)
      if (in.text.find(id) != std::string::npos) return true;
  return false;
}

// Symmetry between threads: two threads with the same code, placement and initial registers,
// each a warp of its own and neither reading its identity, are interchangeable: swapping them maps
// every candidate execution to one with the same axioms' verdict (the model reads threads only
// through program order, placement and scope). Per thread, the previous thread it is
// interchangeable with, or -1.
std::vector<int> twins(const litmus::Test& test) {
  const auto& ths = test.threads;
  auto aloneInWarp = [&](size_t t) {
    if (ths[t].warp < 0) return true;
    for (size_t u = 0; u < ths.size(); ++u)
      if (u != t && ths[u].cta == ths[t].cta && ths[u].warp == ths[t].warp) return false;
    return true;
  };
  auto sameCode = [&](const litmus::Thread& a, const litmus::Thread& b) {
    if (a.code.size() != b.code.size()) return false;
    for (size_t i = 0; i < a.code.size(); ++i)
      if (a.code[i].text != b.code[i].text) return false;
    return true;
  };
  std::vector<int> prev(ths.size(), -1);
  for (size_t t = 0; t < ths.size(); ++t) {
    if (!aloneInWarp(t) || readsIdentity(ths[t])) continue;
    for (size_t u = t; u-- > 0;) {
      const auto &a = ths[u], &b = ths[t];
      if (aloneInWarp(u) && a.cta == b.cta && a.cluster == b.cluster && a.gpu == b.gpu &&
          a.grid == b.grid && a.initRegs == b.initRegs && sameCode(a, b)) {
        prev[t] = static_cast<int>(u);
        break;
      }
    }
  }
  return prev;
}

}  // namespace

bool Enumerator::forEachCombination(const std::function<bool(const Candidate&)>& f) {
  for (const auto& ts : traces_)
    if (ts.traces.empty()) return true;
  // A combination in which some thread hangs says only whether the test may hang, and so does
  // its image under a swap of interchangeable threads (twins): of those, only the one whose twins
  // take non-decreasing paths is searched (with C identical consumers, about 1/C! of them).
  // Combinations that end give final states, which a swap renames: all of them are searched.
  const std::vector<int> twin = twins(test_);
  // lanes of one warp-level phase share its fate (semantics/collectives.h): skip the others
  std::vector<std::vector<std::vector<model::WarpFate>>> fates(traces_.size());
  for (size_t t = 0; t < traces_.size(); ++t)
    for (const auto& tr : traces_[t].traces) fates[t].push_back(model::warpFates(tr));
  return model::forEachAgreeingCombination(fates, [&](const std::vector<int>& pick) {
    if (overTime()) return false;
    bool hangs = false;
    for (size_t t = 0; t < pick.size(); ++t) hangs |= traces_[t].traces[pick[t]].stuck != model::Stuck::No;
    if (hangs && explaining_) return true;  // no final state to explain
    if (!hangs && finishingDone()) return true;  // the listing is cut and both sides are seen
    for (size_t t = 0; t < pick.size() && hangs; ++t)
      if (twin[t] >= 0 && pick[twin[t]] > pick[t]) return true;  // a swap of twins searches it
    if (!hangs || hang_.empty()) {  // one hanging execution is enough to report
      Candidate c = makeCandidate(pick);
      const bool feasible = !c.bars.empty() && std::none_of(c.rfChoices.begin(), c.rfChoices.end(),
                                                            [](const auto& v) { return v.empty(); });
      if (feasible) {
        c.s = model::staticRelations(c.g, opt_.readings);
        if (!f(c) && !doneWithCandidate_) return false;
        doneWithCandidate_ = false;
      }
    }
    return true;
  });
}

bool Enumerator::forEachExecution(bool prune, const Visit& f) {
  return forEachCombination([&](const Candidate& c) {
    return forEachRf(c, prune, [&](const BitRel& rf, const BitRel& co) {
      std::vector<int> source(c.g.events.size(), -1);
      for (auto [w, r] : rf.edges()) source[r] = w;
      auto settled = model::settleValues(c.g.events, c.traces, c.offset, source);
      if (!settled) return true;  // the values of this rf contradict the paths
      values_ = std::move(*settled);
      return forEachSc(c, [&](const BitRel& sc) {
        for (const BitRel& bar : c.bars) {
          const model::Derived<BitRel> d = model::derive(c.s, rf, sc, bar);
          if (!forEachCo(c, model::Choice<BitRel>{rf, co, sc, bar}, d, prune, f)) return false;
        }
        return true;
      });
    });
  });
}

// An observed register's thread and its index among the thread's registers (-1: never written).
std::pair<int, int> Enumerator::registerOf(const litmus::Term& term) const {
  int t = 0;
  while (test_.threads[t].name != term.thread) ++t;
  const auto& info = prog_.threads[t];
  auto it = info.regId.find(term.name);
  return {t, it == info.regId.end() ? -1 : it->second};
}

// The final value of a location comes from a co-maximal write; with racing writes left unordered
// there may be several, and each gives a final state.
std::vector<litmus::State> Enumerator::finalStates(const Candidate& c, const BitRel& co) const {
  std::vector<litmus::State> out(1);
  for (const auto& term : test_.observed) {
    if (term.kind == litmus::Term::Kind::Reg) {
      const auto [t, reg] = registerOf(term);
      const int64_t v = reg < 0 ? 0 : values_.regs[t][reg];
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

// A spinning thread loops forever when each read of its last iteration can read the same value
// again forever: no write after the one it read (in coherence) must ever reach it (D26). A load
// need not see a write that is not morally strong with it (§8.7: nothing makes a weak load, or one
// whose scope leaves the writer out, see another thread's write; docs/findings.md F4 and F7), so
// only the morally strong later writes count; an mbarrier wait sees every update of its object
// (D35), so every later write counts.
bool Enumerator::spinsForever(const Candidate& c, const model::Choice<BitRel>& x) const {
  for (size_t t = 0; t < c.traces.size(); ++t) {
    if (c.stuck[t] != model::Stuck::Spinning) continue;
    const auto& events = c.traces[t]->events;
    for (size_t i = c.traces[t]->spinFrom; i < events.size(); ++i) {
      const int r = c.offset[t] + static_cast<int>(i);
      if (!c.g.events[r].isRead()) continue;
      for (int w = 0; w < static_cast<int>(c.g.events.size()); ++w)
        if (x.rf.get(w, r) && laterWriteReleases(c, x.co, w, r)) return false;
    }
  }
  return true;
}


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
        return test.threads[e.thread].name + ": " + litmus::shownText(test.threads[e.thread].code[e.instr]);
      };
      litmus::Race r{text(x), text(y), model::whyNotMorallyStrong(x, y)};
      races.emplace(std::make_pair(r.first, r.second), r);
    }
}

bool Enumerator::wantedState(const litmus::State& s) const {
  return opt_.explainState ? litmus::matches(*opt_.explainState, s) : satisfiesTarget(s);
}

void Enumerator::noteListed(bool side, size_t listed) {
  sideSeen_[side] = true;
  // --explain=STATE asks about one state, which a cut listing may leave out: no cut then
  if (!cut_ && opt_.maxStates > 0 && listed >= opt_.maxStates && !opt_.explainState) cut_ = true;
  if (cut_ && !finishingDone()) seek_ = !sideSeen_[1];
  else seek_.reset();
}

// Whether the reads-from chosen so far (source) may still end in the outcome to explain, or (a
// cut listing) on the side of the condition it lacks: the observed registers it decides already,
// and the condition (or --explain's state) on them.
bool Enumerator::mayReachWanted(const Candidate& c, const std::vector<int>& source) const {
  const auto regs = model::partialRegisters(c.g.events, c.traces, c.offset, source);
  std::vector<std::optional<int64_t>> values;
  for (const auto& term : test_.observed) {
    if (term.kind == litmus::Term::Kind::Reg) {
      const auto [t, reg] = registerOf(term);
      values.push_back(reg < 0 ? std::optional<int64_t>(0) : regs[t][reg]);
    } else if (term.kind == litmus::Term::Kind::Mem) {
      values.push_back(std::nullopt);  // decided by coherence, chosen later
    } else {
      values.push_back(term.value);
    }
  }
  if (opt_.explainState && explaining_) return litmus::mayMatch(*opt_.explainState, values);
  const auto body = litmus::evalConditionPartial(test_.condition, test_.observed, values);
  if (!body) return true;
  if (!explaining_) return *body == *seek_;  // a cut listing looks for the side it lacks
  return test_.quantifier == litmus::Quantifier::Forall ? !*body : *body;
}

// Finds a candidate execution whose final state is the outcome to explain (the one the condition
// asks about, or the state --explain=STATE names), and which the model rejects: the picture of
// why that outcome is forbidden. None when some allowed state is such an outcome.
//
// Such an execution breaks some axiom, so the search prunes with all of the model but one axiom
// at a time (the one most outcomes break first), and with the outcome itself: a part whose
// observed registers already rule the outcome out is dropped. That finds the execution at the
// cost of a check. Only when no execution breaks a single axiom does it enumerate every candidate.
std::optional<Violation> Enumerator::explain(const std::vector<litmus::State>& allowed) {
  if (std::any_of(allowed.begin(), allowed.end(), [&](const auto& s) { return wantedState(s); }))
    return std::nullopt;
  if (opt_.explainPhase) opt_.explainPhase("violation");
  std::optional<Violation> found;
  auto visit = [&](const Candidate& cc, const model::Choice<BitRel>& x, const model::Derived<BitRel>& d) {
    if (cc.hangs) return true;  // no final state
    std::optional<litmus::State> target;
    for (auto& st : finalStates(cc, x.co))
      if (wantedState(st)) target = st;
    if (!target) return true;
    ExplicitCheck chk;
    if (model::axioms(cc.s, x, d, chk)) return true;
    found = explainViolation(test_, opt_, Execution{withValues(cc), x.rf, x.co, x.sc, x.bar, *target},
                             *chk.failed, chk.failedOn);
    return false;
  };
  using model::Axiom;
  explaining_ = true;
  for (Axiom a : {Axiom::Causality, Axiom::Coherence, Axiom::Atomicity, Axiom::ScPerLocation,
                  Axiom::NoThinAir, Axiom::FenceSc}) {
    relax_ = a;
    forEachExecution(true, visit);
    if (found || timedOut_) break;
  }
  relax_.reset();
  explaining_ = false;
  if (!found && !timedOut_) forEachExecution(false, visit);
  return found;
}

Result Enumerator::run() {
  prog_ = model::buildProgram(test_);
  const model::Domain dom = model::valueDomain(prog_, opt_.unroll, deadline_);
  Result res;
  for (size_t t = 0; t < test_.threads.size() && !overTime(); ++t) {
    traces_.push_back(model::enumerateTraces(prog_, static_cast<int>(t), dom, opt_.unroll, deadline_));
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
          auto it = seen.find(st);
          if (it == seen.end()) {
            const bool side = litmus::evalCondition(test_.condition, test_.observed, st);
            if (cut_ && sideSeen_[side]) continue;  // past the cut: only a state of the other side
            it = seen.emplace(st, std::pair<uint64_t, std::optional<Execution>>{}).first;
            noteListed(side, seen.size());
          }
          auto& slot = it->second;
          ++slot.first;
          if (opt_.witnesses && !slot.second) slot.second = Execution{withValues(cc), x.rf, x.co, x.sc, x.bar, st};
        }
        doneWithCandidate_ = finishingDone();
        return !doneWithCandidate_;
  });
  seek_.reset();
  auto& out = res.outcome;
  describeTest(out, test_, "explicit", res.bounded, opt_.unroll);
  out.candidates = examined;
  for (auto& [st, slot] : seen) {
    addState(out, test_, st, slot.first);
    if (opt_.witnesses && slot.second) res.witnesses.push_back(std::move(*slot.second));
  }
  for (auto& [key, race] : races) out.races.push_back(race);
  out.hang = hang_;
  if (cut_) out.statesCut = opt_.maxStates;
  if (timedOut_) {
    out.giveUp(litmus::UnknownReason::Timeout, deadline_.describe());
    return res;
  }
  if (opt_.explain) {
    try {
      res.violation = explain(out.states);
    } catch (const std::bad_alloc&) {
      res.violation.reset();
      res.explainCutOff = "out of memory";
    } catch (const litmus::Deadline::Expired&) {
      res.violation.reset();
      res.explainCutOff = deadline_.describe();
    }
    if (timedOut_) {
      res.violation.reset();
      res.explainCutOff = deadline_.describe();
    }
  }
  return res;
}

}  // namespace checker::explicit_detail

namespace checker {

Result checkExplicit(const litmus::Test& test, const Options& options, const Deadline& deadline) {
  return explicit_detail::Enumerator(test, options, deadline, true).run();
}

Result checkExplicitUnpruned(const litmus::Test& test, const Options& options,
                             const Deadline& deadline) {
  return explicit_detail::Enumerator(test, options, deadline, false).run();
}

}  // namespace checker
