#include "judge/run_verdict.h"

#include <vector>

namespace judge {

const char* toString(RunVerdict v) {
  switch (v) {
    case RunVerdict::Ok: return "ok";
    case RunVerdict::Violation: return "violation";
    case RunVerdict::Inconclusive: return "inconclusive";
    case RunVerdict::Hung: return "hung";
    case RunVerdict::Timeout: return "timeout";
    case RunVerdict::Refused: return "refused";
    case RunVerdict::Error: return "error";
  }
  return "?";
}

std::optional<RunVerdict> runVerdictOf(const std::string& word) {
  for (RunVerdict v : kRunVerdicts)
    if (word == toString(v)) return v;
  return std::nullopt;
}

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
  switch (v) {
    case RunVerdict::Error: return 0;
    case RunVerdict::Violation: return 1;
    case RunVerdict::Timeout: return 2;
    case RunVerdict::Refused: return 3;
    case RunVerdict::Inconclusive: return 4;
    case RunVerdict::Hung: return 5;
    case RunVerdict::Ok: return 6;
  }
  return 0;
}

const char* toString(ModelKind k) {
  switch (k) {
    case ModelKind::Decided: return "decided";
    case ModelKind::Bounded: return "bounded";
    case ModelKind::Unknown: return "unknown";
    case ModelKind::Unavailable: return "unavailable";
  }
  return "?";
}

std::optional<ModelKind> modelKindOf(const std::string& word) {
  for (ModelKind k : {ModelKind::Decided, ModelKind::Bounded, ModelKind::Unknown, ModelKind::Unavailable})
    if (word == toString(k)) return k;
  return std::nullopt;
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
