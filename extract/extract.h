// `litmus extract`: the litmus tests of a PTX module's kernels (docs/extract.md). A kernel, a launch
// shape and parameter values give one test: the launch's threads evaluated concretely, identical
// threads merged, each kept instruction naming its PTX line.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "extract/ptx_module.h"
#include "litmus/test.h"

namespace extract {

struct ParamValue {
  std::string name;  // the parameter's PTX name, `param_N`, or N; with `+OFF` for a field
  int64_t offset = 0;
  int64_t value = 0;
};

struct ExtractOptions {
  // Not given: the kernel's .reqntid / .reqnctapercluster, else 1 CTA of... (block is required
  // then); the grid defaults to one cluster.
  std::optional<std::array<int, 3>> block, cluster, grid;
  std::vector<ParamValue> params;
  int64_t defaultScalar = 3;  // integer parameters not given (loop counts: a few iterations)
  bool merge = true;          // merge identical threads (docs/extract.md)
  bool lockstep = true;       // threads that only wait follow the thread they shadow (docs/extract.md)
  std::string source;         // the file events name (default: the module's)
};

struct Extracted {
  std::string kernel;  // the PTX name
  std::string file;    // the test's file name, NAME.yaml
  litmus::Test test;
  std::string yaml;                // the test as written (read back and validated)
  std::vector<std::string> notes;  // what was left out or defaulted, with PTX lines
};

// The kernels (.entry) of the module that `filter` names: their PTX name, or the name before the
// parameter list of the demangled name; every kernel when empty.
std::vector<const Function*> selectKernels(const Module& m, const std::string& filter);

// A kernel without synchronization or shared and global accesses: no test.
struct NothingToCheck : litmus::Error {
  using litmus::Error::Error;
};

// The test of one kernel; throws litmus::Error at the PTX line when it cannot be extracted, and
// NothingToCheck when it has nothing to check.
Extracted extractKernel(const Module& m, const Function& kernel, const ExtractOptions& opt);

// "tma_pipeline" for _Z12tma_pipelinePKji; the PTX name when it is not a C++ name.
std::string shortName(const std::string& mangled);
std::string demangle(const std::string& mangled);

}  // namespace extract
