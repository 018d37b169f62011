// libFuzzer target: the herd `.litmus` reader and validation (docs/fuzzing.md). Any input ends in
// a Test or a litmus::Error.
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::read(fuzz::text(data, size), true);
  return 0;
}
