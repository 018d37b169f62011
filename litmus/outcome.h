// The result of checking (or running) one litmus test, and its printers. The checker and the GPU
// runner fill an Outcome; this file is the only place that turns one into text.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "litmus/test.h"

namespace litmus {

// One final state: the values of Test::observed, in that order.
struct State {
  std::vector<int64_t> values;
  auto operator<=>(const State&) const = default;
};

enum class Status {
  Done,     // every candidate execution was examined
  Unknown,  // a limit or the solver stopped the check: no verdict (UnknownReason says which)
};

// Why a check ended Unknown. Outcome::statusDetail says the same for people ("timeout after
// 5 s"); code decides on this, never on the text.
enum class UnknownReason {
  None,           // Status::Done
  Timeout,        // the deadline (--timeout) passed
  Memory,         // the memory limit (--max-memory) or the machine's memory ran out
  TooLarge,       // the test exceeds a fixed bound of the engines (events per test or per path)
  SolverUnknown,  // Z3 answered unknown for a reason of its own
  NotRun,         // never checked (suite: a test that a TSV lists and that does not exist)
};

enum class Observation { Never, Sometimes, Always };

// A data race seen in some allowed execution (§8.7.1): two conflicting accesses that are not
// morally strong and not ordered by causality.
struct Race {
  std::string first, second;  // "P0: st.weak.global.u32 [x], 1" (thread: instruction text)
  std::string why;            // why they are not morally strong
};

// A decision of the model that a verdict may rest on: one stronger than the PTX ISA text
// (model/reliance.h): {"D29", "restricted fence treated as unrestricted"}; or a reading of the
// text (model/readings.h) under whose alternative the verdict changes: {"D36", "proxy-fence;
// under release-orders the outcome is Never (...)", "proxy-fence", "release-orders", "Never"}.
struct Reliance {
  std::string decision, text;
  std::string reading, alternative;  // readings only: the one in force, the other
  std::string alternativeObservation;  // Never, Sometimes, Always, or Unknown
};

struct Outcome {
  std::string test;
  Status status = Status::Done;
  UnknownReason unknownReason = UnknownReason::None;
  std::string statusDetail;         // e.g. "timeout after 5 s"
  std::vector<Term> observed;       // copied from the test
  std::vector<State> states;        // allowed final states, sorted, unique
  std::vector<bool> satisfies;      // per state: does it satisfy the condition body
  uint64_t positive = 0;            // allowed executions whose final state satisfies the body
  uint64_t negative = 0;            // allowed executions whose final state does not
  uint64_t candidates = 0;          // candidate executions examined
  Quantifier quantifier = Quantifier::Exists;
  std::string condition;            // as printed in herd style
  std::vector<Race> races;          // empty: race free
  // Empty: every execution runs to its end. Otherwise how one can hang, e.g. "P1 waits forever at
  // 'bar.sync 1'" (a barrier phase that never completes, a spin loop that never exits).
  std::string hang;
  double seconds = 0;
  int loopBound = -1;               // >= 0: some paths took more backward jumps and were dropped
  // > 0: the listing of states stopped at this many (--max-states), and the search went on only
  // for what the Observation and liveness need. Those stay exact; `states` holds the ones listed
  // (and at most one more, of the condition's other side), while positive, negative and races
  // count only the executions examined: no race found then says nothing.
  size_t statesCut = 0;
  std::string engine;               // "explicit" / "smt"
  // Stronger-than-text decisions the verdict may rest on: set for a Never or Always observation
  // (a Sometimes holds under the text's weaker reading too); then the readings under whose
  // alternatives the verdict changes, whatever the observation.
  std::vector<Reliance> reliesOn;

  // Ends the outcome Unknown, for `why`, with `detail` as the text people read.
  void giveUp(UnknownReason why, std::string detail) {
    status = Status::Unknown;
    unknownReason = why;
    statusDetail = std::move(detail);
  }
  bool validated() const;           // herd's Ok/No
  Observation observation() const;  // Never/Sometimes/Always over the body
  // Does the outcome satisfy an expectation (Expect::None -> true)?
  bool meets(Expect e) const;
  // "terminates" or "may-hang" (a finished check only).
  const char* liveness() const { return hang.empty() ? "terminates" : "may-hang"; }
  // No allowed execution runs to its end: every one may hang, or every path exceeds the loop
  // bound. States, Positive/Negative and the Observation then count nothing.
  bool vacuous() const { return status == Status::Done && states.empty(); }
};

const char* toString(Observation);
const char* toString(UnknownReason);  // "timeout", "memory", "too-large", "solver-unknown", "not-run"
std::string formatState(const std::vector<Term>& observed, const State& s);  // "P0:r0=1; x=2;"

// herd-compatible block: Test/States/.../Ok|No/Witnesses/Positive/Condition/Observation/Time.
void printHerd(std::ostream&, const Outcome&);
// The outcome as one JSON object, keys in camelCase and in a fixed order.
nlohmann::ordered_json toJson(const Outcome&);
// toJson on one line (no trailing newline).
void printJson(std::ostream&, const Outcome&);

// A final state, or part of one, that the user names (`litmus check --explain=STATE`), in the
// syntax formatState prints: `P1:r0=1; x=2;` (the last ';' optional, spaces free). Per observed
// term its value, or none where the text leaves the term out (any value matches).
struct StatePattern {
  std::vector<std::optional<int64_t>> values;
};
// Throws litmus::Error at `origin` (its column moved to the offending character) for a term that
// is not observed, a term named twice, a value that is not a number, or an empty pattern.
StatePattern parseStatePattern(std::string_view text, const Test& test, const SourceLoc& origin);
bool matches(const StatePattern&, const State&);
std::string formatPattern(const std::vector<Term>& observed, const StatePattern&);

// Evaluate a condition body on a final state (observed values in `observed` order).
bool evalCondition(const Cond&, const std::vector<Term>& observed, const State&);
// The same on part of a state (nullopt: a value not known yet), in three-valued logic: true or
// false when every completion of the part gives that, nullopt when completions may differ.
std::optional<bool> evalConditionPartial(const Cond&, const std::vector<Term>& observed,
                                         const std::vector<std::optional<int64_t>>& values);
// Whether some completion of the part may match the pattern.
bool mayMatch(const StatePattern&, const std::vector<std::optional<int64_t>>& values);

}  // namespace litmus
