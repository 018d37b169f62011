// `litmus run --emit-sass DIR`: for each test, the cubin that the CUDA driver's JIT makes of its
// generated module (DIR/NAME.cubin), the module itself (DIR/NAME.ptx) and, where nvdisasm is found
// ($LITMUS_NVDISASM, else PATH; scripts/get-nvdisasm.sh fetches one; LITMUS_NVDISASM=none: none),
// its disassembly with the control words (DIR/NAME.sass). Runs no test. docs/gpu-runner.md, section 1.
#pragma once

#include <string>
#include <vector>

#include "litmus/test.h"

namespace runcli {

// Returns the exit status: 0 all written; 3 some test refused by the runner; 4 the driver or
// nvdisasm failed on a test; 2 no driver or device, a bad $LITMUS_NVDISASM, or DIR not writable
// (the most severe wins). A test's files appear together or not at all.
int emitSass(const std::string& dir, const std::vector<litmus::Test>& tests);

}  // namespace runcli
