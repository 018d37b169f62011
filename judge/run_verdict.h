// What a GPU run means against the model: the verdict words of `litmus run`, their exit statuses,
// and the verdict of a finished run from its counts. `run` judges a run with it (run/run_report.cpp)
// and `merge` judges the sum of several runs with the very same function (merge/merge.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace judge {

enum class RunVerdict { Ok, Violation, Inconclusive, Hung, Timeout, Refused, Error };
inline constexpr RunVerdict kRunVerdicts[] = {RunVerdict::Ok,      RunVerdict::Violation, RunVerdict::Inconclusive,
                                              RunVerdict::Hung,    RunVerdict::Timeout,   RunVerdict::Refused,
                                              RunVerdict::Error};
const char* toString(RunVerdict);  // "ok", "violation", ...
std::optional<RunVerdict> runVerdictOf(const std::string& word);
// 0 ok or hung as the model allows; 1 violation; 3 inconclusive, timeout, refused; 4 error.
int exitCode(RunVerdict);
// The verdict a merged record takes when its runs disagree is the worse: error, violation,
// timeout, refused, inconclusive, hung, ok (0 is the worst).
int badness(RunVerdict);

// What the model says about a test, as far as judging a run needs it.
enum class ModelKind {
  Decided,      // every execution examined: the allowed states are exactly these
  Bounded,      // paths beyond the loop bound were dropped: these states are allowed, others unknown
  Unknown,      // the checker gave no answer (timeout, solver unknown)
  Unavailable,  // the checker cannot check this test
};
const char* toString(ModelKind);  // "decided", "bounded", "unknown", "unavailable"
std::optional<ModelKind> modelKindOf(const std::string& word);

// The counts of a run that finished (status ok), or of several such runs added up.
struct RunCounts {
  ModelKind model = ModelKind::Unavailable;
  std::string note;            // the model's note: why Unknown/Unavailable, or the bound
  std::string hang;            // how the model says an execution can hang (empty: none)
  bool modelAllowsSome = true;  // the model lists some allowed state
  uint64_t violations = 0;     // recorded instances in states the model forbids
  uint64_t forbiddenStates = 0;  // distinct such states
  uint64_t unlisted = 0;       // recorded instances in states a bounded model does not list
  uint64_t notRecorded = 0;    // instances whose result slots some thread did not write
  uint64_t overflow = 0;       // instances that did not fit the histogram table
};

struct RunJudgement {
  RunVerdict verdict = RunVerdict::Error;
  std::string reason;  // one line: why this verdict
};

// Violation when a forbidden state was seen; otherwise ok, or inconclusive with every doubt named.
RunJudgement judgeRun(const RunCounts& counts);

}  // namespace judge
