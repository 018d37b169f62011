// The device side of a run (private to gpu-runner): driver, module, buffers and the launch loop.
// It runs in the watchdog's child process (runner.cpp), which owns the CUDA context.
#pragma once

#include <string>
#include <vector>

#include "gpu-runner/plan.h"
#include "gpu-runner/runner.h"

namespace gpu {

RunResult runOnDevice(const litmus::Test& test, Plan plan, const std::string& ptx, const RunOptions& options);

// The histogram table as copied back from the GPU (ptx_gen.h) into r's histogram, not-recorded
// entries and overflow; r.status becomes Error when the counts do not add up to r.instances.
void readTable(const std::vector<unsigned char>& table, const Plan& plan, RunResult& r);

}  // namespace gpu
