// Explanations: why a state is forbidden (the failed constraint, read as steps of named relation
// edges, with each causality step broken into what it is made of), and why one is allowed (its
// witness execution, and the synchronization that is missing or too narrow in it:
// checker/explain_sync.cpp). Everything is read off the model's own relations (model/ptx_model.h)
// evaluated on the execution; nothing here restates a definition of the model.
#pragma once

#include <vector>

#include "checker/checker.h"
#include "model/axioms.h"
#include "model/bitrel.h"
#include "model/ptx_model.h"

namespace checker {

// The model's relations on one execution: the static ones, the choice, the derived orders.
struct Evaluated {
  model::Static<model::BitRel> s;
  model::Choice<model::BitRel> x;
  model::Derived<model::BitRel> d;
};
Evaluated evaluate(const Execution& e);

// The steps that break `c`, read off its shape: for acyclic, a cycle; for irreflexive(a ; b), the
// two steps from an event back to itself; for empty, a pair of the relation, its path and the
// `within` edge that closes it; for subset, a pair of the relation, its path, and the `sup` edge
// that is missing (or the one that orders the pair the other way). Every edge is named after the
// part of the constraint that has it; steps through filters ([W], loc) are left out. Where there
// is a choice, the cycle or pair goes through an event of `prefer` (in its order) if one can.
// Empty when `c` holds.
std::vector<Step> witness(const model::Constraint<model::BitRel>& c, const std::vector<int>& prefer = {});

// The terms an explanation is about: those of the condition, or those --explain=STATE names.
std::vector<litmus::Term> focusTerms(const litmus::Test& test,
                                     const std::optional<litmus::StatePattern>& state);
// The events behind terms in an execution: per register, the last read of the thread into it; per
// location, its final (co-maximal) write. In the order of the terms.
std::vector<int> termEvents(const litmus::Test& test, const Execution& x, const std::vector<litmus::Term>& terms);

// A causality-order edge from -> to of the evaluated execution as a path of steps: an `obs`
// first where causality starts with observation, then base causality as po and synchronizes-with
// edges, each synchronizes-with as `release pattern (<form>)`, the `rf` (or `obs`, through RMWs)
// that synchronizes and `acquire pattern (<form>)`; a barrier as `barrier release (<form>)`,
// `bar`, `barrier acquire (<form>)`; Fence-SC order as `sc`. A pattern that is one event (a
// release write) is a step from the event to itself. Empty when there is no such edge.
std::vector<Step> causeSteps(const Evaluated& m, int from, int to);
// One synchronizes-with edge X -> Y broken into its steps as above; empty when it is none.
std::vector<Step> swSteps(const Evaluated& m, int from, int to);

Violation explainViolation(const litmus::Test& test, const Options& opt, Execution x,
                           model::Axiom axiom, const model::Constraint<model::BitRel>& c);

}  // namespace checker
