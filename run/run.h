// `litmus run`: the GPU runner's command line (run/run.cpp), and its verdicts and report
// (run/run_report.cpp).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu-runner/multi.h"
#include "gpu-runner/runner.h"
#include "gpu-runner/sweep.h"
#include "judge/run_verdict.h"
#include "litmus/outcome.h"
#include "litmus/test.h"

// argv[0] is the first argument after `run`. Returns the exit status (docs/gpu-runner.md): 0 every
// test ok or hung as the model allows; 1 a violation; 2 bad input or usage, or no CUDA driver or
// device; 3 a test inconclusive, timed out or refused (and none of the above); 4 internal error.
int cmdRun(int argc, char** argv);

namespace runcli {

// What the model says about a test, as far as a run needs it.
struct Model {
  using Kind = judge::ModelKind;
  Kind kind = Kind::Unavailable;
  std::vector<litmus::State> allowed;  // sorted
  std::string hang;                    // how an execution can hang (empty: none found)
  std::string note;                    // Unknown/Unavailable: why; Bounded: the bound
};
Model modelOf(const litmus::Test& test, const litmus::Outcome* outcome, const std::string& refusal);
// Asks the model (checker::check with `unroll` and the timeout); a refusal becomes Unavailable.
Model askModel(const litmus::Test& test, int unroll, double timeoutSeconds);

// The verdict words, their exit statuses and their ranking are the judge's (judge/run_verdict.h).
using Verdict = judge::RunVerdict;

// A run judged against the model.
struct Judgement {
  Verdict verdict = Verdict::Error;
  std::string reason;                 // one line: why this verdict
  uint64_t violations = 0;            // recorded instances in states the model forbids
  uint64_t unlisted = 0;              // recorded instances in states a bounded model does not list
  uint64_t conditionCount = 0;        // recorded instances whose state satisfies the condition body
  bool hangExpected = false;          // stopped by the watchdog, and the model says it can hang
};

// Ok runs: the histogram against the model. Timeout runs: hung or timeout by the model's hang.
// Error runs: error.
Judgement judge(const litmus::Test& test, const gpu::RunResult& r, const Model& model);

// herd/litmus7-style block: histogram (count, then state; *> marks states satisfying the
// condition), allowed/forbidden per state, VIOLATION lines, not-recorded instances, allowed states
// never observed, rates, `note` (whole lines), and the verdict line.
void printRun(std::ostream& os, const litmus::Test& test, const gpu::RunResult& r, const Model& model,
              const Judgement& j, uint64_t seed, const std::string& note = {});
// One JSON object per test (docs/gpu-runner.md lists the keys).
nlohmann::ordered_json runJson(const litmus::Test& test, const gpu::RunResult& r, const Model& model,
                       const Judgement& j, uint64_t seed);
// A launch that faulted (run/run_fault.cpp): the arrivals that, in some execution of the model,
// find fewer arrivals pending in their phase than they make (undefined in the ISA).
struct FaultSite {
  std::string thread, instruction;
  int line = 0;
  int64_t pending = 0, count = 1;
};
struct Fault {
  bool undefined = false;  // some site found: the ISA calls what it does undefined
  std::vector<FaultSite> sites;
  std::string summary;  // one line for the report
};
// Did the driver report that the kernel faulted (a failed launch, an illegal address ...)?
bool launchFault(const gpu::RunResult& r);
// Asks the model (within timeoutSeconds, 0: none) which instruction can have faulted.
Fault diagnoseFault(const litmus::Test& test, double timeoutSeconds);
nlohmann::ordered_json faultJson(const Fault& f);

// Can the condition's body hold in a state the model allows (a weak outcome worth looking for)?
// nullopt when the model cannot say.
std::optional<bool> conditionReachable(const litmus::Test& test, const Model& model);

// --resume (run/run_campaign.cpp): the results a JSON file of an earlier run holds, by test name
// and file.
class Earlier {
 public:
  std::optional<Verdict> find(const litmus::Test& test) const;
  // A test with several records (--cover's rounds after its own) keeps the worst verdict.
  void add(const std::string& test, const std::string& file, Verdict v) {
    const auto [it, fresh] = done_.try_emplace({test, file}, v);
    if (!fresh && judge::badness(v) < judge::badness(it->second)) it->second = v;
  }
  size_t size() const { return done_.size(); }

 private:
  std::map<std::pair<std::string, std::string>, Verdict> done_;
};
// Reads the JSON lines of `path` (none when it does not exist). A last line without its newline
// or that is not JSON (a run killed while writing it) is cut off the file, so that its test runs
// again and appending continues after the last whole line. Throws litmus::Error
// ("FILE:LINE:1: error: ...") for a bad line elsewhere.
Earlier readEarlier(const std::string& path);

// --sweep (run/run_campaign.cpp): runs shares 1.. of a sweep after share 0 (`first`), adding their
// results into it; records each share in `swept`. Stops at the first share that is not Ok, whose
// status and message (naming the share) the result takes.
gpu::RunResult sweepRest(gpu::MultiRunner& runner, const litmus::Test& test, const Model& model,
                         const std::vector<gpu::RunOptions>& shares,
                         gpu::RunResult first, std::vector<gpu::SweepShare>& swept);
// A profile under which a run showed forbidden states (or ended in a timeout): saved beside the
// JSON results as JSON.TEST.TAG.profile when there are any, and the lines that say so and give
// the command that replays it. `what` opens the message; `placeholder` is the file name offered
// when there is no JSON to save beside.
struct Replay {
  std::string what, tag, placeholder;
  uint64_t seed = 0, count = 0;
  bool traceWaits = false;
};
std::string replayAdvice(const litmus::Test& test, const gpu::Profile& profile, const Replay& r, const std::string& json);
// For a sweep with a share that timed out, failed or saw states the model forbids: the first such
// share's profile, saved next to the JSON file `json` (when given) for `--profile`, and the
// command that replays it; "" otherwise.
std::string sweepReplay(const litmus::Test& test, const std::vector<gpu::SweepShare>& swept, const std::string& json);
// The "Sweep: ..." line: the profiles under which the condition held; JSON: one object per share.
std::string sweepLine(const std::vector<gpu::SweepShare>& swept);
nlohmann::ordered_json sweepJson(const std::vector<gpu::SweepShare>& swept);

// Where the time of a run's tests went (docs/performance.md, per-test overhead): GPU time, the
// driver's JIT and the rest, as means over the tests that ran to the end; and the model's time.
struct Timing {
  int tests = 0, fresh = 0;
  double gpu = 0, jit = 0, overhead = 0, overheadFresh = 0, model = 0;
  void add(const gpu::RunResult& r, double modelSeconds);
  // "Timing: ..." (nothing when no test ran).
  void print(std::ostream& os, int workers) const;
};

// Coverage of a campaign (docs/gpu-runner.md, "Coverage"): the final states the model allows, and
// which of them the GPU showed. An allowed state not seen is `rare` when its test ran to the end
// (not seen in n instances: its rate is below 3/n with 95% confidence), `unreachable` (by the
// harness) when its test hung as the model allows (a launch is read only when all its instances
// end), and `not tried` when its test did not end otherwise (a timeout the model does not expect,
// a fault, a share that failed); refused tests are counted apart, as the model is not asked.
struct Coverage {
  uint64_t allowed = 0, observed = 0, rare = 0, unreachable = 0, notTried = 0;
  int refused = 0;
  void add(const gpu::RunResult& r, const Model& model);
  // "Coverage: ..." (nothing when no state was counted).
  void print(std::ostream& os) const;
};
// Why an allowed state was not seen in this run: "rare", "unreachable" or "not tried" (Coverage).
const char* unseenReason(const gpu::RunResult& r, const Model& model);

// Runs the test; false when the runner refused it (`refusal` says why). NoDriver and NoDevice
// come back in r.status, which `fatal` tells.
bool runOrRefuse(gpu::Runner& runner, const litmus::Test& t, const gpu::RunOptions& o, gpu::RunResult& r,
                 std::string& refusal);
bool fatal(const gpu::RunResult& r);
// "Summary: N tests: ..." on stdout.
void printSummary(size_t tests, std::map<Verdict, int>& verdicts);

// A test the runner refused: its verdict object.
nlohmann::ordered_json refusedJson(const litmus::Test& test, const std::string& reason);
const char* statusWord(gpu::RunStatus);
// "P1:r0=?; P1:r1=1;" for a not-recorded entry, with "(P0 did not finish)" when a done slot is
// missing.
std::string formatNotRecorded(const litmus::Test& test, const gpu::NotRecorded& n);

}  // namespace runcli
