// `litmus run`'s command line: the options, checked and converted (run/run_args.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu-runner/runner.h"  // defaultJitCacheDir
#include "suite/shard.h"

namespace runcli {

inline constexpr const char* kDefaultProfile = "litmus-gpu.profile";

struct RunArgs {
  std::vector<std::string> paths;
  uint64_t count = 10000000, seed = 1;
  double timeout = 60, modelTimeout = 0;
  int trials = 16, unroll = 2, sweep = 1;
  bool tune = false, selfTest = false, profileGiven = false;
  std::string json, profile = kDefaultProfile, emitDir;
  std::string sassDir;  // --emit-sass (run/emit_sass.cpp)
  // campaigns (docs/gpu-runner.md, "Campaigns")
  double budget = 0, maxTime = 0;
  double cover = 0;  // --cover S (run/run_cover.h)
  bool resume = false, perFamily = false, workerPerTest = false, traceWaits = false;
  suite::Shard shard;  // --shard K/N (docs/scale.md)
  std::string gpus;    // --gpus all|LIST (docs/gpu-runner.md, "Several GPUs")
  std::string jitCache = gpu::defaultJitCacheDir();  // docs/gpu-runner.md, "The JIT off the critical path"
  int jitAhead = 3;
};

// A command line that cannot run: the message `litmus run` prints before exiting 2.
struct UsageError {
  std::string message;
};

// Fills `a`; returns false when the help was printed. Throws UsageError.
bool parseRunArgs(int argc, char** argv, RunArgs& a);

}  // namespace runcli
