// The known-answer tests of `litmus run --self-test`: gpu-runner/self-test/*.yaml, compiled into
// the program so that it needs no files where it runs. Each test's outcome is
// forced (one thread, or threads fully synchronised), and `litmus run` checks with the model that
// exactly one final state is allowed before it asks the GPU for it.
//
// The build writes the compiled-in copy (build/generated/gpu-runner/self_test_data.cpp) from the
// YAML files whenever one changes (cmake/embed_self_tests.cmake).
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
