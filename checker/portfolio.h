// `--engine portfolio`: both engines at once, the first answer wins. Internal to checker/.
#pragma once

#include "checker/checker.h"
#include "checker/engine_common.h"

namespace checker {

// The explicit engine on this thread and the symbolic engine on a second one, under one deadline.
// The first to finish with an answer answers (its outcome names it), and the other is stopped
// through its deadline (Deadline::stoppedBy); when both answer, the explicit engine's answer is
// taken. When neither answers, the explicit engine's ending is the result: its Unknown, or what
// it threw. Both engines are exact over the same model text, so either answer is the model's;
// they differ in what they count (Positive and Negative: executions for the explicit engine,
// final states for the symbolic one) and in the order they list states.
Result checkPortfolio(const litmus::Test& test, const Options& options, const Deadline& deadline);

}  // namespace checker
