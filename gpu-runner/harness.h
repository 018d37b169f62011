// The device side of a run (private to gpu-runner): driver, module, buffers and the launch loop.
// It runs in the watchdog's child process (runner.cpp), which owns the CUDA context.
#pragma once

#include <string>

#include "gpu-runner/plan.h"
#include "gpu-runner/runner.h"

namespace gpu {

RunResult runOnDevice(const litmus::Test& test, Plan plan, const std::string& ptx, const RunOptions& options);

}  // namespace gpu
