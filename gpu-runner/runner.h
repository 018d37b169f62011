// gpu-runner: runs a litmus test on an NVIDIA GPU millions of times and counts the final states.
// The test becomes one PTX module (its instructions as written, inside a harness that is PTX too),
// which the CUDA driver compiles at run time; the driver library is loaded at run time as well,
// so programs linking this library start on machines without a GPU. docs/gpu-runner.md explains
// the method and the parameters.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

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
  int stressPct = 0;          // extra non-testing blocks, % of the testing blocks
  int stressIters = 0;        // accesses per stressing thread
  int stressLineBytes = 64;
  int stressLines = 2;    // distinct scratch lines the stressing blocks hammer
  int stressPattern = 0;  // 0 st/st, 1 st/ld, 2 ld/st, 3 ld/ld, 4 drawn per launch
  int preStressPct = 0;   // chance that a launch's testing threads pre-stress
  int preStressIters = 0;

  bool operator==(const Profile&) const = default;
};

// "key = value" lines with a comment header; parseProfile throws litmus::Error
// ("file:line:col: error: ...") on an unknown key or a value out of range.
std::string formatProfile(const Profile&);
Profile parseProfile(const std::string& text, const std::string& file);

struct RunOptions {
  uint64_t count = 1000000;    // instances to run (at least; whole launches are run)
  uint64_t seed = 1;           // every launch parameter comes from a PRNG seeded with it
  double timeoutSeconds = 60;  // the watchdog stops a test that has not finished by then
  Profile profile;
  bool progress = false;  // a progress line on stderr
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

  uint64_t notRecordedCount() const;
};

// The PTX module for a test. Throws litmus::Error ("file:line:col: error: the GPU runner cannot
// run '...': why") naming the first instruction, location or placement it cannot execute.
std::string generatePtx(const litmus::Test& test);

// Runs the test in a child process that owns the CUDA context; the parent kills it when the
// timeout passes, so a test that cannot finish (a barrier that never fills) leaves the GPU usable
// for the next one. Device trouble is reported in the status, never thrown; refusals are thrown
// as by generatePtx, before anything starts.
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
  RunOptions run;  // count, seed, timeout, progress; run.profile is the first candidate
  std::function<void(int trial, const Profile&, double score)> onTrial;
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

}  // namespace gpu
