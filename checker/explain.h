// Turning a failed axiom into a readable cycle of named relation edges. Internal to checker/.
#pragma once

#include "checker/checker.h"
#include "model/ptx_model.h"

namespace checker {

Violation explainViolation(Execution x, const model::Static<model::BitRel>& s,
                           const model::Derived<model::BitRel>& d, model::Axiom axiom);

}  // namespace checker
