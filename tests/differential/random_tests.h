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
  // Cost bound: a draw with more read-modify-writes on one location is drawn again (from the same
  // generator, so a seed still names one test). Five RMWs of one location can allow thousands of
  // final states (6453 in one draw), minutes of enumeration for either engine.
  int maxRmwPerLocation = 4;
};

std::string randomTest(uint64_t seed, const GenOptions& opt = {});

}  // namespace difftest
