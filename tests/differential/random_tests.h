// A seeded generator of small random litmus tests (YAML text), for differential testing of the
// two engines.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace difftest {

struct GenOptions {
  int minThreads = 2, maxThreads = 4;
  int minOps = 1, maxOps = 3;  // instructions per thread
  int locations = 3;
};

std::string randomTest(uint64_t seed, const GenOptions& opt = {});

}  // namespace difftest
