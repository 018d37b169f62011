// The symbolic engine: the same model text (model/ptx_model.h) evaluated over Boolean terms, with
// reads-from, coherence order, Fence-SC order and the values read as Z3 variables. Internal to
// checker/.
#pragma once

#include "checker/checker.h"
#include "checker/engine_common.h"

namespace checker {

// Gives up, with an Unknown outcome, once `deadline` has passed.
Result checkSmt(const litmus::Test& test, const Options& options, const Deadline& deadline);

}  // namespace checker
