// gpu-runner: runs a litmus test on an NVIDIA GPU millions of times and counts the final states.
// The test becomes one PTX module (its instructions as written, inside a harness that is PTX too),
// which the CUDA driver compiles at run time; the driver library is loaded at run time as well,
// so programs linking this library start on machines without a GPU. docs/gpu-runner.md explains
// the method and the parameters.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpu-runner/wait_trace.h"
#include "litmus/outcome.h"
#include "litmus/test.h"

namespace gpu {

// The stress parameters that `litmus run --tune` searches and a profile file stores. The names
// follow GPUHarbor's where one exists (docs/gpu-runner.md has the table).
struct Profile {
  int threadsPerBlock = 256;  // testing threads per block, when the test lets blocks hold groups
  int occupancyPct = 100;     // testing clusters per launch: up to this % of what fits resident
  int memStride = 4;          // 4-byte words between neighbouring instances' slots (upper bound)
  int interleavePct = 50;     // chance that a launch puts an instance's locations side by side
  int shufflePct = 100;       // chance that a launch shuffles the roles' blocks over the grid
  int barrierPct = 100;       // chance that a launch lines the roles up with the spin barrier
  int spinLimit = 4096;       // polls before the spin barrier gives up (it never deadlocks)
  int delayMax = 0;           // clocks; each warp waits a random 0..delayMax after the barrier
  int roleSkew = 0;           // clocks; litmus thread j also waits j * roleSkew after the barrier
  int stressPct = 0;          // extra non-testing blocks, % of the testing blocks
  int stressIters = 0;        // accesses per stressing thread
  int stressLineBytes = 64;
  int stressLines = 2;    // distinct scratch lines the stressing blocks hammer
  int stressPattern = 0;  // 0 st/st, 1 st/ld, 2 ld/st, 3 ld/ld, 4 drawn per launch
  int preStressPct = 0;   // chance that a launch's testing threads pre-stress
  int preStressIters = 0;
  int globalBarrierPct = 0;  // chance that a launch's spin barrier is one counter for all lanes
  int serialPct = 0;         // chance that a launch runs the roles in turn in every lane (P4)
  int prefetchPct = 0;       // chance that a launch's testers first read some locations they load
  int lineStressPct = 0;     // chance that a launch's testers first load some of their lines
  int lineStressOps = 16;    // reductions per chosen location in such a launch

  bool operator==(const Profile&) const = default;
};

// "key = value" lines with a comment header; parseProfile throws litmus::Error
// ("file:line:col: error: ...") on an unknown key or a value out of range.
std::string formatProfile(const Profile&);
// The profile's keys and values, in the file's order.
std::vector<std::pair<std::string, int>> profileValues(const Profile&);
Profile parseProfile(const std::string& text, const std::string& file);

// A profile file with a profile per test family (`litmus run --tune --per-family`): the keys
// before any section are the default profile (a file without sections is the old format), then
// one section per family, a line `[family NAME]` and its keys, which start from the default.
struct ProfileSet {
  Profile base;
  std::map<std::string, Profile> families;
  // The profile of a family: its section, else the default. `section` gets the family's name or
  // "default".
  const Profile& forFamily(const std::string& family, std::string* section = nullptr) const;
};
std::string formatProfiles(const ProfileSet&);
ProfileSet parseProfiles(const std::string& text, const std::string& file);

struct RunOptions {
  uint64_t count = 1000000;    // instances to run (at least; whole launches are run)
  uint64_t seed = 1;           // every launch parameter comes from a PRNG seeded with it
  double timeoutSeconds = 60;  // the watchdog stops a test that has not finished by then
  double budgetSeconds = 0;    // > 0: stop launching once the test has run this long (GPU time)
  Profile profile;
  bool progress = false;  // a progress line on stderr
  // Each testing thread records the wait it entered last, so that a launch stopped by the watchdog
  // says where it was stuck (RunResult::waits; gpu-runner/wait_trace.h, docs/wait-trace.md).
  bool traceWaits = false;
  // Where the driver's compilations are kept between runs (docs/gpu-runner.md, "The JIT off the
  // critical path"); "": not kept on disk.
  std::string jitCache;
};

enum class RunStatus {
  Ok,
  NoDriver,  // libcuda.so.1 cannot be loaded
  NoDevice,  // the driver finds no usable GPU
  Timeout,   // stopped by the watchdog
  Error,     // the driver refused the module or a launch, or the runner process died
};

// Instances some of whose result slots no thread of their launch wrote (a thread that never ran,
// or never reached its end, or wrote another instance's slots): what was written, and what not.
struct NotRecorded {
  litmus::State state;          // the observed values; those not written are 0
  uint64_t missingTerms = 0;    // bit i: observed term i was not written (bit 63: it or a later one)
  uint64_t missingThreads = 0;  // bit t: thread t left no sign of reaching its end (likewise)
  uint64_t count = 0;
  auto operator<=>(const NotRecorded&) const = default;
};

struct RunResult {
  RunStatus status = RunStatus::Error;
  std::string message;                                        // for anything but Ok: what happened
  std::vector<std::pair<litmus::State, uint64_t>> histogram;  // recorded instances, sorted by state
  std::vector<NotRecorded> notRecorded;                       // sorted
  uint64_t instances = 0;                                     // instances run
  uint64_t launches = 0;
  uint64_t overflow = 0;  // instances whose outcome found no room in the histogram table
  double seconds = 0;     // wall time from the first launch to the last result
  std::string device;     // the GPU's name and SM count
  bool stoppedByBudget = false;  // the budget ended the run before `count` instances
  // The deadline (3/4 of the timeout) ended it: its launches kept finishing, but too slowly for
  // `count` (a heavy stress profile); a launch that never finishes meets the watchdog instead.
  bool stoppedByDeadline = false;
  // Where the rest of the test's time went (docs/performance.md, per-test overhead): the driver's
  // compilation of the module, and everything else the runner spent on the test outside the launch
  // loop (PTX generation, buffers, the pipe to the worker, and a fresh worker's start-up).
  double jitSeconds = 0;
  double overheadSeconds = 0;
  double workerSeconds = 0;  // the worker's wall time for the test (start-up included)
  bool freshWorker = false;  // the test started a worker (its overhead includes the context)
  // The driver's ordinals of the GPUs that ran the test, and the instances each took part in (a
  // test split over GPUs: its share; a test across GPUs: every instance). docs/gpu-runner.md,
  // "Several GPUs".
  std::vector<int> gpus;
  std::vector<uint64_t> gpuInstances;
  // With RunOptions::traceWaits, for a Timeout: where the last launch's threads were.
  WaitTrace waits;

  uint64_t notRecordedCount() const;
};

// What ended a finished run, for reports: "count", "budget" or "deadline".
const char* stoppedBy(const RunResult& r);

// The PTX module for a test. Throws litmus::Error ("file:line:col: error: the GPU runner cannot
// run '...': why") naming the first instruction, location or placement it cannot execute.
std::string generatePtx(const litmus::Test& test, bool traceWaits = false);

// What the machine has, asked in a child process that exits after it (the parent never starts the
// driver, so that its workers fork clean): the devices the driver sees, and peer[a][b]: device a
// can access device b's memory, atomics included. ok false (message: why) when there is no driver
// or device or the child gave no answer within the timeout.
struct DeviceProbe {
  bool ok = false;
  std::string message;
  int count = 0;
  std::vector<std::vector<bool>> peer;
};
DeviceProbe probeDevices(double timeoutSeconds = 60);

// Runs tests in a worker: a child process that owns the CUDA context and runs test after test,
// so that the context and the driver start once (docs/gpu-runner.md, section 4). The watchdog
// kills the worker when a test passes its timeout; a test that faults (the driver's error, a
// launch that fails) or kills the worker ends it too, and the next test starts a fresh worker on
// a clean GPU, so no test sees what an earlier one left behind. Device trouble is reported in the
// status, never thrown; refusals are thrown as by generatePtx, before anything starts.
class Runner {
 public:
  // workerPerTest: end the worker after every test, so each test gets a fresh process and
  // context (the runner before campaign mode: for measuring what the worker saves, or as a
  // fallback should tests on real hardware ever be seen to affect the next one).
  // devices: the driver's ordinals the worker uses, in order: a test runs on the first (a test
  // across k GPUs on the first k; docs/gpu-runner.md, "Several GPUs"). Empty: 0, 1, 2, ...
  explicit Runner(bool workerPerTest = false, std::vector<int> devices = {});
  ~Runner();  // ends the worker
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  RunResult run(const litmus::Test& test, const RunOptions& options);
  // run in two halves, so that the caller can work (ask the model) while the GPU runs the test:
  // submit hands the test to the worker (throws a refusal as run does), collect waits for its
  // result under the watchdog. The watchdog's clock runs from submit.
  void submit(const litmus::Test& test, const RunOptions& options);
  RunResult collect();
  // Hands a later test's module to the worker to compile while the current test runs (starting a
  // worker if there is none), so that its submit finds the machine code ready; call it in the
  // order the tests will run, ahead of their submits. Refusals are left for submit to report.
  void prefetch(const litmus::Test& test, const RunOptions& options);
  int workersStarted() const { return started_; }
  // Saves the probe submit would make for the first test across GPUs.
  void knowDevices(const DeviceProbe& probe);

 private:
  struct Worker;
  struct Pending {
    RunOptions options;
    std::chrono::steady_clock::time_point deadline;
    double prepSeconds = 0;
    bool fresh = false, sent = false;
    RunResult failed;  // no worker could be started: why
    bool traced = false;  // --trace-waits: the sites and thread names for the summary of a timeout
    WaitSites sites;
    std::vector<std::string> threads;
  };
  std::unique_ptr<TraceRegion> trace_;  // shared with every worker (wait_trace.h)
  std::unique_ptr<Worker> worker_;
  std::unique_ptr<Pending> pending_;
  int started_ = 0;
  bool workerPerTest_ = false;
  bool idleFresh_ = false;  // prefetch started the worker, and no test has run in it yet
  std::vector<int> devices_;
  std::unique_ptr<DeviceProbe> probe_;
  void checkGpus(const litmus::Test& test, int need, double timeoutSeconds);
  void stop(bool kill);
  bool spawn(RunResult& r);
};

// Where `litmus run` keeps the driver's compilations unless told (--jit-cache):
// $XDG_CACHE_HOME/ptx-litmus/cubin, else $HOME/.cache/ptx-litmus/cubin; "" without either.
std::string defaultJitCacheDir();

// One test in a worker of its own.
RunResult run(const litmus::Test& test, const RunOptions& options);

// How the runner places the test, for reports: "lane mode, 2 roles, 1 CTA per cluster".
// Throws as generatePtx does when the test cannot run.
std::string placementSummary(const litmus::Test& test);

// Can the CUDA driver library be loaded? (No device is touched.)
bool driverLoadable(std::string& why);

// --tune: seeded random search over profiles, scored by weak outcomes (states satisfying each
// test's condition) per second, as a geometric mean over the calibration tests.
struct TuneOptions {
  int trials = 16;
  RunOptions run;  // count, budget, seed, timeout, progress; run.profile is the first candidate
  std::function<void(int trial, const Profile&, double score)> onTrial;
  Runner* runner = nullptr;  // the worker to run in (null: one of tune's own)
};
struct TuneResult {
  RunStatus status = RunStatus::Ok;  // not Ok: a run failed; message says how
  std::string message;
  Profile best;
  double bestScore = 0;
};
TuneResult tune(const std::vector<litmus::Test>& calibration, const TuneOptions& options);
// The calibration set used when --tune is given no tests: MP, SB and LB with .relaxed.gpu.
std::vector<litmus::Test> calibrationTests();
// --tune --per-family: the tests grouped by family (litmus::familyOf), at most maxPerFamily each
// (the first in the order given), so that tuning a family costs at most
// trials * maxPerFamily * (the per-run budget) of GPU time.
std::map<std::string, std::vector<litmus::Test>> byFamily(const std::vector<litmus::Test>& tests,
                                                          size_t maxPerFamily);

}  // namespace gpu
