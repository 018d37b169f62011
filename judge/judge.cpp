#include "judge/judge.h"

#include "base/exit_code.h"
#include "base/words.h"

namespace judge {

namespace {
constexpr words::Word<Decision> kDecisions[] = {
    {Decision::Pass, "pass"},       {Decision::Fail, "FAIL"}, {Decision::Error, "ERROR"},
    {Decision::Unknown, "UNKNOWN"}, {Decision::NoExpectation, "no-expectation"}};
}  // namespace

const char* toString(Decision d) { return words::wordOf(kDecisions, d); }
std::optional<Decision> decisionOf(const std::string& word) { return words::valueOf(kDecisions, word); }

int exitCode(Decision d) {
  switch (d) {
    case Decision::Pass:
    case Decision::NoExpectation: return cli::kOk;
    case Decision::Fail: return cli::kFailed;
    case Decision::Error: return cli::kBadInput;
    case Decision::Unknown: return cli::kUnknown;
  }
  return cli::kInternal;
}

std::string Judgement::message() const {
  std::string out;
  for (const std::string& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

namespace {

std::string describe(const litmus::Outcome& o) {
  return std::string("observation ") + litmus::toString(o.observation()) + " (" + std::to_string(o.positive) +
         " positive, " + std::to_string(o.negative) + " negative)";
}

// The failures of a finished check whose executions say something (not every path cut off).
void judgeDecided(const litmus::Outcome& o, const Expectation& x, const Options& opt, Judgement& j) {
  const std::string hang = o.hang.empty() ? "" : " (" + o.hang + ")";
  if (x.verdict != litmus::Expect::None) {
    j.verdictMet = o.meets(x.verdict);
    if (!*j.verdictMet)
      j.reasons.push_back(std::string("expected ") + litmus::toString(x.verdict) + ", got " + describe(o));
  }
  j.livenessMet = x.liveness.empty() ? o.hang.empty() : x.liveness == o.liveness();
  if (!*j.livenessMet)
    j.reasons.push_back(x.liveness.empty() ? "may hang" + hang + " and no liveness expectation says may-hang"
                                           : "expected " + x.liveness + ", got " + o.liveness() + hang);
  if (x.raceFree && !o.races.empty())
    j.reasons.push_back("a data race (" + o.races[0].first + " <-> " + o.races[0].second +
                        ") and the test declares 'races: none'");
  // Every execution blocked with no hang named: a verdict would hold vacuously.
  if (o.positive + o.negative == 0 && o.hang.empty()) {
    j.verdictMet = j.livenessMet = false;
    j.reasons.push_back("no execution finishes");
  }
  if (opt.failOnRelies && !o.reliesOn.empty()) {
    std::string d;
    for (const auto& r : o.reliesOn) d += (d.empty() ? "" : ", ") + r.decision;
    j.reasons.push_back("the verdict relies on " + d + ", stronger than the PTX text (--fail-on-relies)");
  }
}

}  // namespace

Judgement judgeOutcome(const litmus::Outcome& o, const Expectation& x, const std::string& mismatch,
                       const Options& opt) {
  Judgement j;
  if (!mismatch.empty()) {
    j.decision = Decision::Fail;
    j.reasons.push_back(mismatch);
    return j;
  }
  // No execution ran to its end only because the loop bound cut the paths off: the check says
  // nothing about the test (a larger --unroll may find states).
  const bool boundedOut = o.positive + o.negative == 0 && o.hang.empty() && o.loopBound >= 0;
  if (o.status != litmus::Status::Done || boundedOut) {
    j.decision = Decision::Unknown;
    j.reasons.push_back(o.status != litmus::Status::Done
                            ? (o.statusDetail.empty() ? std::string("unknown") : o.statusDetail)
                            : "no execution finishes within the loop bound (--unroll " +
                                  std::to_string(o.loopBound) + ")");
    return j;
  }
  judgeDecided(o, x, opt, j);
  // A cut listing examined only some executions: no race among them proves nothing.
  if (j.reasons.empty() && x.raceFree && o.statesCut > 0 && o.races.empty()) {
    j.decision = Decision::Unknown;
    j.reasons.push_back("race freedom not established: the listing stopped at " +
                        std::to_string(o.statesCut) + " states (--max-states 0 lists every one)");
    return j;
  }
  const bool expected = x.verdict != litmus::Expect::None || !x.liveness.empty() || x.raceFree;
  j.decision = !j.reasons.empty() ? Decision::Fail : expected ? Decision::Pass : Decision::NoExpectation;
  return j;
}

Judgement error(const std::string& why) {
  Judgement j;
  j.decision = Decision::Error;
  j.reasons.push_back(why);
  return j;
}

}  // namespace judge
