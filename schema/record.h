// The result records that `check --json`, `suite --json`, `run --json` and `merge` write, one JSON
// object a line, and the one place that reads and writes their common parts. Every record begins
// with {"schema": {"name": "ptx-litmus-result", "version": N}, "kind": K}; docs/result.schema.json
// is the JSON Schema of each kind, and a test validates what every writer prints against it.
// Readers (merge, report, compare, mutate, run --resume) recognise a record by its kind here, never
// by which keys it happens to have.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "judge/judge.h"
#include "judge/run_verdict.h"

namespace schema {

using Json = nlohmann::ordered_json;

inline constexpr const char* kName = "ptx-litmus-result";
inline constexpr int kVersion = 1;

enum class Kind {
  Check,      // `litmus check --json`: one checked test
  Suite,      // `litmus suite --json`: one test judged against its expectations
  Run,        // `litmus run --json`: one test run on a GPU
  MergedRun,  // `litmus merge`: several runs of one test added up
};
const char* toString(Kind);  // "check", "suite", "run", "merged-run"
std::optional<Kind> kindFromWord(const std::string& word);

// A new record of this kind: its schema and kind, the keys that follow in the order set.
Json begin(Kind);

// The kind of a record. Records written before the schema (no "schema" key) are told by their
// keys, as the readers once did; a record of another schema name, a later version or an unknown
// kind throws std::invalid_argument, saying which.
Kind kindOf(const Json& record);
// Run and MergedRun: the records of GPU runs.
inline bool isRun(Kind k) { return k == Kind::Run || k == Kind::MergedRun; }

// The part of a suite record that judges: the expectations and what became of them.
struct SuiteRecord {
  std::string path;
  judge::Decision verdict = judge::Decision::NoExpectation;
  litmus::Expect expected = litmus::Expect::None;
  std::string expectedLiveness;  // empty: none
  std::optional<bool> verdictMet, livenessMet;
  std::string message;
  Json outcome;  // litmus::toJson(Outcome)
};
Json toJson(const SuiteRecord&);
SuiteRecord suiteRecordOf(const Json&);  // throws std::invalid_argument

// A check record: test and file, the outcome's keys (litmus::toJson) flattened, the expectations
// with whether each is met, the decision and each failure.
Json toJson(const litmus::Test& test, const litmus::Outcome& outcome, const judge::Judgement& judgement);

// The judging part of a check record; its other keys are the outcome's, flattened.
struct CheckRecord {
  std::string test, file;
  judge::Decision decision = judge::Decision::NoExpectation;
  std::optional<bool> verdictMet, livenessMet;
  std::vector<std::string> failures;  // each failed expectation (decision FAIL)
};
CheckRecord checkRecordOf(const Json&);  // throws std::invalid_argument

// The head of a run record (run or merged-run), what --resume, mutate and compare read.
struct RunHead {
  std::string test, file;
  judge::RunVerdict verdict = judge::RunVerdict::Error;
  std::string reason, status;
};
RunHead runHeadOf(const Json&);  // throws std::invalid_argument

// The optional booleans as JSON: true, false or null.
Json optionalBool(const std::optional<bool>&);

}  // namespace schema
