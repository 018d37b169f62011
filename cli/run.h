// `litmus run`: the GPU runner's command line (cli/run.cpp), and its report (cli/run_report.cpp).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "gpu-runner/runner.h"
#include "litmus/outcome.h"
#include "litmus/test.h"

// argv[0] is the first argument after `run`. Returns the exit status: 0 ok, 1 a state the model
// forbids was observed, 2 bad input or usage, a refused test, or no CUDA driver or device,
// 3 a test timed out that the model says always terminates (and none failed).
int cmdRun(int argc, char** argv);
extern const char* const kRunUsage;

namespace runcli {

// What the model says about the states a run saw, for one test.
struct Verdict {
  bool modelKnown = false;             // the checker gave a complete answer
  std::vector<litmus::State> allowed;  // sorted
  std::string modelNote;               // why the model is not known
  std::string modelHang;               // how the model says an execution can hang (empty: never)
  uint64_t violations = 0;             // instances in forbidden states
  uint64_t conditionCount = 0;         // instances whose state satisfies the condition body
  bool hangExpected = false;           // stopped by the watchdog, and the model says it can hang
};

Verdict judge(const litmus::Test& test, const gpu::RunResult& r, const litmus::Outcome* model);
// herd/litmus7-style block: histogram (count, then state; *> marks states satisfying the
// condition), allowed/forbidden per state, VIOLATION lines, allowed states never observed, rates.
void printRun(std::ostream& os, const litmus::Test& test, const gpu::RunResult& r, const Verdict& v,
              uint64_t seed);
// One JSON object, no trailing newline.
void printRunJson(std::ostream& os, const litmus::Test& test, const gpu::RunResult& r, const Verdict& v,
                  uint64_t seed);
const char* statusWord(gpu::RunStatus);

}  // namespace runcli
