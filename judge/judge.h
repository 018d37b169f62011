// The one judge: what a checked test's outcome means against its expectations (`check`, `suite`),
// what a GPU run's counts mean against the model (`run`, `merge`), and the exit status each
// decision maps to. Every command and every reader of result files asks here, so that `check`
// and `suite` exit alike on a test and a merged run reads as one run would.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "litmus/outcome.h"
#include "litmus/test.h"

namespace judge {

// ---- a checked test ------------------------------------------------------------------------

enum class Decision {
  Pass,           // every expectation met
  Fail,           // some expectation failed, or the engines disagree
  Error,          // bad input: the test could not be read
  Unknown,        // no verdict: timeout, memory or solver limit, or every path cut by the loop bound
  NoExpectation,  // checked, nothing expected, nothing suspicious
};
const char* toString(Decision);  // "pass", "FAIL", "ERROR", "UNKNOWN", "no-expectation"
std::optional<Decision> decisionOf(const std::string& word);
int exitCode(Decision);

// What a test is expected to do: its `expect`, `liveness` and `races` keys, or a corpus's TSV rows.
struct Expectation {
  litmus::Expect verdict = litmus::Expect::None;
  std::string liveness;  // "terminates", "may-hang", or empty: no liveness expectation
  bool raceFree = false;  // `races: none`: a data race fails the test
};

struct Options {
  // A verdict that rests on a decision stronger than the PTX text (Outcome::reliesOn) fails.
  bool failOnRelies = false;
};

struct Judgement {
  Decision decision = Decision::NoExpectation;
  // Met or not where the outcome decides it; empty where nothing is expected of that aspect
  // (verdict) or the check gave no answer.
  std::optional<bool> verdictMet;
  std::optional<bool> livenessMet;
  // One line per failure (Fail), or why there is no verdict (Unknown); empty otherwise.
  std::vector<std::string> reasons;

  std::string message() const;  // the reasons joined by "; "
  int exitCode() const { return judge::exitCode(decision); }
};

// `mismatch`: the engines' disagreement (checker::Result::mismatch), empty when they agree. A hang
// is never taken for success: a test that may hang fails unless may-hang is expected, even with
// no other expectation. A test with no execution that finishes and no hang to show for it (every
// path cut by the loop bound) is Unknown: a larger --unroll may find its states.
Judgement judgeOutcome(const litmus::Outcome& outcome, const Expectation& expected,
                       const std::string& mismatch, const Options& options = {});

// A test that could not be checked (bad input).
Judgement error(const std::string& why);

}  // namespace judge
