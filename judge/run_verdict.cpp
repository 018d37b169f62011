#include "judge/run_verdict.h"

#include <vector>

#include "base/words.h"

namespace judge {

namespace {
constexpr words::Word<RunVerdict> kRunWords[] = {
    {RunVerdict::Ok, "ok"},     {RunVerdict::Violation, "violation"}, {RunVerdict::Inconclusive, "inconclusive"},
    {RunVerdict::Hung, "hung"}, {RunVerdict::Timeout, "timeout"},     {RunVerdict::Refused, "refused"},
    {RunVerdict::Error, "error"}};
constexpr words::Word<ModelKind> kModelWords[] = {{ModelKind::Decided, "decided"},
                                                  {ModelKind::Bounded, "bounded"},
                                                  {ModelKind::Unknown, "unknown"},
                                                  {ModelKind::Unavailable, "unavailable"}};
}  // namespace

const char* toString(RunVerdict v) { return words::wordOf(kRunWords, v); }
std::optional<RunVerdict> runVerdictOf(const std::string& word) { return words::valueOf(kRunWords, word); }
const char* toString(ModelKind k) { return words::wordOf(kModelWords, k); }
std::optional<ModelKind> modelKindOf(const std::string& word) { return words::valueOf(kModelWords, word); }

int exitCode(RunVerdict v) {
  switch (v) {
    case RunVerdict::Ok:
    case RunVerdict::Hung: return 0;
    case RunVerdict::Violation: return 1;
    case RunVerdict::Inconclusive:
    case RunVerdict::Timeout:
    case RunVerdict::Refused: return 3;
    case RunVerdict::Error: return 4;
  }
  return 4;
}

int badness(RunVerdict v) {
  constexpr RunVerdict kWorstFirst[] = {RunVerdict::Error,   RunVerdict::Violation,    RunVerdict::Timeout, RunVerdict::Refused,
                                        RunVerdict::Inconclusive, RunVerdict::Hung, RunVerdict::Ok};
  for (int i = 0; i < 7; ++i)
    if (kWorstFirst[i] == v) return i;
  return 0;
}

namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string violationReason(const RunCounts& c) {
  std::string why = !c.modelAllowsSome
                        ? "the model says no execution finishes (" + c.hang + "); the GPU finished " +
                              std::to_string(c.violations) + " instances"
                        : std::to_string(c.violations) + " instances in " + std::to_string(c.forbiddenStates) +
                              " states the model forbids";
  if (c.notRecorded) why += "; " + std::to_string(c.notRecorded) + " instances not recorded";
  return why;
}

// Why a run that showed no forbidden state still cannot be called ok (empty: it can).
std::vector<std::string> doubts(const RunCounts& c) {
  std::vector<std::string> why;
  if (c.model == ModelKind::Unknown) why.push_back("the model gave no answer (" + c.note + ")");
  if (c.model == ModelKind::Unavailable) why.push_back("the model cannot check this test (" + c.note + ")");
  if (c.unlisted)
    why.push_back(std::to_string(c.unlisted) + " instances in states the model does not list within its " +
                  c.note + " (they may need more unrolling)");
  if (c.notRecorded)
    why.push_back(std::to_string(c.notRecorded) + " instances not recorded (result slots their threads did not write)");
  if (c.overflow) why.push_back(std::to_string(c.overflow) + " instances did not fit the histogram table");
  return why;
}

}  // namespace

RunJudgement judgeRun(const RunCounts& c) {
  if (c.violations) return {RunVerdict::Violation, violationReason(c)};
  const std::vector<std::string> why = doubts(c);
  if (!why.empty()) return {RunVerdict::Inconclusive, joined(why)};
  return {RunVerdict::Ok, c.model == ModelKind::Bounded
                              ? "every observed state is one the model lists within its " + c.note
                              : std::string("every observed state is allowed")};
}

}  // namespace judge
