// libFuzzer target: read, validate and check (docs/fuzzing.md). An input that starts with "PTX"
// is a herd test, anything else YAML. Small tests are checked by the engine `auto` picks, with an
// explanation, under a short timeout: a check may end Unknown, or with a litmus::Error for what
// only the model rejects, but never crash. The size bound keeps each run's memory to what a
// litmus test needs (the engines' memory grows with the events; the CLI's --max-memory cannot be
// enforced under AddressSanitizer).
#include <algorithm>

#include "checker/checker.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

constexpr size_t kMaxThreads = 4, kMaxInstructions = 12, kMaxLocations = 8;

bool small(const litmus::Test& t) {
  return t.threads.size() <= kMaxThreads && t.locations.size() <= kMaxLocations &&
         std::all_of(t.threads.begin(), t.threads.end(),
                     [](const litmus::Thread& th) { return th.code.size() <= kMaxInstructions; });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = fuzz::text(data, size);
  const std::optional<litmus::Test> t = fuzz::read(text, text.rfind("PTX", 0) == 0);
  if (!t || !small(*t)) return 0;
  checker::Options o;
  o.timeoutSeconds = 0.5;
  o.maxMemoryBytes = 512ull << 20;  // named in an Unknown for memory; see above
  o.explain = true;
  try {
    checker::check(*t, o);
  } catch (const litmus::Error&) {
  }
  return 0;
}
