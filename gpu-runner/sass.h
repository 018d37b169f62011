// The machine code the CUDA driver makes of a generated module (`litmus run --emit-sass`): the
// cubin from the driver's JIT linker, with the JIT options the harness gives cuModuleLoadDataEx,
// and its disassembly by NVIDIA's nvdisasm where one is found. docs/gpu-runner.md, section 1.
#pragma once

#include <memory>
#include <string>

#include "gpu-runner/runner.h"

namespace gpu {

// What failed: status NoDriver or NoDevice stop everything (as for a run); Error is this module's.
struct MachineCodeError {
  RunStatus status;
  std::string message;
};

class MachineCode {
 public:
  // Loads the driver and makes device 0's primary context current; throws MachineCodeError.
  MachineCode();
  ~MachineCode();
  MachineCode(const MachineCode&) = delete;
  MachineCode& operator=(const MachineCode&) = delete;

  // "NVIDIA H100 80GB HBM3 (sm_90), CUDA driver 13.0" (the driver's CUDA version, not its release).
  const std::string& device() const;
  // The cubin of `ptx` through cuLinkCreate / cuLinkAddData (CU_JIT_INPUT_PTX) / cuLinkComplete.
  // Throws MachineCodeError (status Error) with the driver's error and log when it rejects it.
  std::string cubin(const std::string& ptx, const std::string& name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The nvdisasm to use: $LITMUS_NVDISASM when set (returned as given, even when it does not exist:
// the caller reports it), else the first executable `nvdisasm` on PATH, else "".
std::string findNvdisasm();

// Runs `nvdisasm -hex CUBIN` (each instruction with its two 64-bit words, the upper one holding
// the scheduling control bits) with its output going to `outPath`. Returns "" on success, else
// what went wrong (nvdisasm's stderr or exit status).
std::string disassemble(const std::string& nvdisasm, const std::string& cubinPath, const std::string& outPath);

}  // namespace gpu
