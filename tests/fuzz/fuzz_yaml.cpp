// libFuzzer target: the YAML reader and validation (docs/fuzzing.md). Any input ends in a Test or
// a litmus::Error; a test that reads is written back (toYaml) and must read again.
#include <cstdlib>
#include <iostream>

#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<litmus::Test> t = fuzz::read(fuzz::text(data, size), false);
  if (!t) return 0;
  const std::string yaml = litmus::toYaml(*t);
  try {
    litmus::parseYaml(yaml, "again.yaml");
  } catch (const litmus::Error& e) {
    std::cerr << "toYaml wrote what parseYaml rejects: " << e.what() << "\n" << yaml;
    std::abort();
  }
  return 0;
}
