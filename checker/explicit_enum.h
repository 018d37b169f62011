// The explicit engine's enumerator (private to checker/): candidates, the search over rf, sc and
// co (explicit_order.cpp) and the rest of the run (explicit_engine.cpp).
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "checker/engine_common.h"
#include "checker/explicit_engine.h"
#include "model/bitrel.h"
#include "model/ptx_model.h"
#include "semantics/semantics.h"

namespace checker::explicit_detail {

using model::Axiom;
using model::BitRel;

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
//
// `relax` names an axiom the part is not held to: an explanation looks for an execution that
// reaches the outcome and breaks that axiom only (Enumerator::explain).
struct PartialCheck {
  BitRel forcedCo;
  std::optional<Axiom> relax;

  // Axioms whose relations do not depend on co, which the case analysis on co (settleOrder)
  // already found to hold on the part it extends: neither checked nor built again.
  bool coOnly = false;

  bool wants(Axiom a) const {
    if (a == relax) return false;
    return !coOnly || !(a == Axiom::NoThinAir || a == Axiom::FenceSc || a == Axiom::Coherence);
  }
  bool operator()(Axiom, const model::Constraint<BitRel>& c) {
    if (c.shape != model::Shape::Subset) return model::holds(c);
    if (c.supName == "co") forcedCo |= c.r;
    return true;
  }
};

// Whether some completion of the part x (with derived relations d of a part of it) may satisfy
// the model: co must stay a strict order, and no monotone constraint may fail yet. With `forced`,
// adds the co edges Coherence forces on every completion. x is lent (its co is swapped with its
// closure while the model is asked) and given back unchanged.
bool mayComplete(const model::Static<BitRel>& s, model::Choice<BitRel>& x, const model::Derived<BitRel>& d,
                 BitRel* forced = nullptr, std::optional<Axiom> relax = {}, bool coOnly = false);

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

// Whether the spinning read r, reading w, must eventually see a write co-after w in co (a hanging
// execution has none: Enumerator::spinsForever).
bool laterWriteReleases(const Candidate& c, const BitRel& co, int w, int r);

// The co edges every execution has: each location's initial write before its other writes.
BitRel initialWritesFirst(const Candidate& c);

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
  // While explaining a forbidden outcome: the axiom the search does not prune with, and whether
  // it searches only executions that end and may still reach the outcome (explain()).
  std::optional<Axiom> relax_;
  bool explaining_ = false;
  model::Settled values_;           // the values of the execution being visited
  // Past Options::maxStates: whether a listed state leaves the condition's body false (0) or
  // true (1), and the side the search still looks for (none once both are seen: executions that
  // end are then not searched at all).
  bool cut_ = false;
  bool sideSeen_[2] = {false, false};
  std::optional<bool> seek_;
  // Notes a newly listed state on `side`; the listing is cut once it holds `listed` states.
  void noteListed(bool side, size_t listed);
  bool finishingDone() const { return cut_ && sideSeen_[0] && sideSeen_[1]; }

  // The candidate's events with the values of the execution being visited.
  model::EventGraph withValues(const Candidate& c) const {
    model::EventGraph g = c.g;
    for (size_t e = 0; e < g.events.size(); ++e) g.events[e].value = values_.values[e];
    return g;
  }

  bool overTime();
  Candidate makeCandidate(const std::vector<int>& pick) const;
  bool forEachCombination(const std::function<bool(const Candidate&)>& f);
  // f(rf, co): co holds the coherence edges every consistent completion of rf has, as far as the
  // search found them (with `prune`; forEachCo starts from them).
  bool forEachRf(const Candidate& c, bool prune, const std::function<bool(const BitRel&, const BitRel&)>& f);
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
  bool wantedState(const litmus::State& s) const;
  std::pair<int, int> registerOf(const litmus::Term& term) const;
  bool mayReachWanted(const Candidate& c, const std::vector<int>& source) const;
  bool spinsForever(const Candidate& c, const model::Choice<BitRel>& x) const;
};

}  // namespace checker::explicit_detail
