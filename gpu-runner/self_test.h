// The known-answer tests of `litmus run --self-test`: gpu-runner/self-test/*.yaml, compiled into
// the program (self_test_data.cpp) so that it needs no files where it runs. Each test's outcome is
// forced (one thread, or threads fully synchronised), and `litmus run` checks with the model that
// exactly one final state is allowed before it asks the GPU for it.
//
// self_test_data.cpp is generated from the YAML files by tests/gpu/self_test_data_test.cpp, which
// fails when the two differ; `UPDATE_GOLDEN=1 build/unit_tests -tc='*self-test*'` regenerates it.
#pragma once

#include <string>
#include <vector>

namespace gpu {

struct SelfTestSource {
  const char* path;  // gpu-runner/self-test/NAME.yaml (positions in errors refer to it)
  const char* yaml;
};

const std::vector<SelfTestSource>& selfTestSources();

}  // namespace gpu
