// Every GPU of a host (`litmus run --gpus`; docs/gpu-runner.md, "Several GPUs"): a worker per GPU,
// run at the same time. A test on one GPU is split over them (a share of the instances each, with
// a seed of its own) and their results are summed; a test across k GPUs runs on the first k, in
// the first worker, which owns them all.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu-runner/runner.h"

namespace gpu {

// `--gpus`: "all", or distinct device ordinals separated by commas ("0,2"). nullopt, with `why`,
// for anything else.
struct GpuList {
  bool all = false;
  std::vector<int> ordinals;
};
std::optional<GpuList> parseGpuList(const std::string& text, std::string& why);
// The ordinals a list names on the machine `probe` describes ("all": every device). Empty, with
// `why`, when the probe failed or an ordinal is not a device of the machine.
std::vector<int> resolveGpus(const GpuList& list, const DeviceProbe& probe, std::string& why);

// A test split over `shares` GPUs: counts adding up to `count` (the first shares one more), and
// share i's seed (share 0 keeps the seed, so that one GPU runs what it runs without --gpus; the
// others get splitmix64 mixes of it, the same on every machine).
std::vector<uint64_t> splitCount(uint64_t count, size_t shares);
uint64_t shareSeed(uint64_t seed, size_t share);
// The shares' results as one: histograms, not-recorded entries, overflow, instances and launches
// summed, seconds those of the slowest share, gpus and gpuInstances in share order. A share that
// did not end Ok makes the whole not Ok (the most severe: no driver, no device, error, timeout),
// its message naming its GPU.
RunResult mergeResults(const std::vector<RunResult>& shares);

// The interface of Runner, over the GPUs given.
class MultiRunner {
 public:
  // gpus empty: no --gpus, one worker as Runner (device 0; a test across k GPUs on 0..k-1).
  // probe: the machine as resolveGpus saw it (saves the workers' runner a probe of its own).
  MultiRunner(bool workerPerTest, std::vector<int> gpus, const DeviceProbe* probe = nullptr);
  ~MultiRunner();
  MultiRunner(const MultiRunner&) = delete;
  MultiRunner& operator=(const MultiRunner&) = delete;
  void submit(const litmus::Test& test, const RunOptions& options);
  RunResult collect();
  void prefetch(const litmus::Test& test, const RunOptions& options);  // as Runner's
  RunResult run(const litmus::Test& test, const RunOptions& options);
  int workersStarted() const;

 private:
  std::vector<std::unique_ptr<Runner>> runners_;  // runner i: GPU gpus_[i] (runner 0: all of them)
  std::vector<int> gpus_;
  std::vector<size_t> active_;  // the runners with a share of the test in flight
  bool split_ = false;
};

}  // namespace gpu
