// Turning a failed constraint into readable steps of named relation edges. Internal to checker/.
#pragma once

#include <vector>

#include "checker/checker.h"
#include "model/axioms.h"
#include "model/bitrel.h"

namespace checker {

// The steps that break `c`, read off its shape: for acyclic, a cycle; for irreflexive(a ; b), the
// two steps from an event back to itself; for empty, a pair of the relation, its path and the
// `within` edge that closes it; for subset, a pair of the relation, its path, and the `sup` edge
// that is missing (or the one that orders the pair the other way). Every edge is named after the
// part of the constraint that has it; steps through filters ([W], loc) are left out. Empty when
// `c` holds.
std::vector<Step> witness(const model::Constraint<model::BitRel>& c);

Violation explainViolation(Execution x, model::Axiom axiom, const model::Constraint<model::BitRel>& c);

}  // namespace checker
