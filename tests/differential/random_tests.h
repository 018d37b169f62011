// A seeded generator of small random litmus tests (YAML text), for differential testing of the
// two engines. It draws from the whole language the model covers: plain and atomic accesses in
// every state space, branches and loops, execution barriers, mbarriers, proxies and aliases, bulk
// and asynchronous copies, clusters with distributed shared memory, and warps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace difftest {

struct GenOptions {
  int minThreads = 2, maxThreads = 4;
  int minOps = 0, maxOps = 2;  // plain memory operations per thread, besides the families' code
  int minFamilies = 1, maxFamilies = 3;  // feature families per test (gen.h)
  int locations = 3;                      // global locations: x, y, z
  // Cost bound: a draw that breaks it is drawn again (from the same generator, so that a seed
  // still names one test). Five RMWs of one location can allow thousands of final states (6453
  // in one draw), minutes of enumeration for either engine; and the engines' work grows with the
  // product of the threads' paths, estimated from the values each read may return.
  // The estimate is checked first; then the traces that the engines enumerate per thread are
  // counted (at the engines' default loop bound), which bounds the symbolic engine's work.
  int maxRmwPerLocation = 4;
  int maxWritesPerLocation = 5;
  double maxPaths = 10000;
  size_t maxTracesPerThread = 300, maxTraces = 400;
  int unroll = 2;
};

std::string randomTest(uint64_t seed, const GenOptions& opt = {});

}  // namespace difftest
