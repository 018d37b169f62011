// --sweep N: one test run under N stress profiles in turn, each for an Nth of the test's instances
// and GPU budget, and the histograms added. Which profile exposes a weak outcome depends on the test
// and on the GPU (docs/peer-gap.md): the published harnesses count an outcome seen when any of
// their random configurations showed it, and a sweep gives each test that diversity within its own
// budget (docs/gpu-runner.md, "Sweeps").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu-runner/runner.h"
#include "litmus/test.h"

namespace gpu {

// The options of the N shares of a swept run: share 0 keeps the given profile, share k > 0 gets
// a profile drawn by randomProfile from a PRNG seeded by (seed, k), and seed + k; each has
// ceil(count / N) instances and budget / N seconds. n <= 1: the options alone.
std::vector<RunOptions> sweepShares(const RunOptions& options, int n);
// Share k (k > 0) of a sweep as a whole run: its drawn profile and seed, with the count and budget
// of `options` (a longer sweep's later shares; `run --cover` rounds are such shares).
RunOptions drawnShare(const RunOptions& options, int k);

// Adds what `part` recorded into `total` (runs of the same test): histogram, not-recorded entries,
// instances, launches and overflow; stoppedByBudget and freshWorker when either was. Times and
// devices are the caller's: shares run one after another add them (addRun), shares on several
// GPUs at once take the slowest (mergeResults, gpu-runner/multi.h).
void addOutcomes(RunResult& total, const RunResult& part);
// addOutcomes for a share that ran after `total`'s: GPU seconds, JIT and overhead added, and per
// GPU instances added where both ran on the same GPUs.
void addRun(RunResult& total, const RunResult& part);

// Recorded instances of r whose state satisfies the test's condition body.
uint64_t conditionHits(const litmus::Test& test, const RunResult& r);

// What one share of a sweep ran and saw, for the JSON report: every share, finished or not.
struct SweepShare {
  Profile profile;
  uint64_t seed = 0;
  uint64_t count = 0;      // the instances it was given (-n / N)
  uint64_t instances = 0;  // the instances it ran
  uint64_t condition = 0;  // instances satisfying the condition body
  uint64_t forbidden = 0;  // instances in states the model forbids
  double seconds = 0;
  std::string status = "not run";  // "ok", "timeout", "error", or "not run" (an earlier share failed)
  std::string stoppedBy;           // ok: "count", "budget" or "deadline"
};

}  // namespace gpu
