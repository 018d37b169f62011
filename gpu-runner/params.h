// Everything the harness varies from launch to launch, drawn from one seeded PRNG so that a run is
// reproducible from its seed (docs/gpu-runner.md, "Parameters"). The per-launch record is passed
// to the test and tally kernels as one 256-byte parameter; the PTX generator reads its words at the
// offsets named here, so host and device agree on the layout by construction.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "gpu-runner/runner.h"

namespace gpu {

// splitmix64 seeds xoshiro256**: fast, well mixed, and the same on every machine.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  uint64_t below(uint64_t n);                // uniform in [0, n); 0 when n == 0
  uint32_t range(uint32_t lo, uint32_t hi);  // uniform in [lo, hi]
  bool chance(int percent);                  // true with probability percent/100

 private:
  std::array<uint64_t, 4> s_{};
};

uint64_t splitmix64(uint64_t& state);
uint64_t gcd(uint64_t a, uint64_t b);
// The inverse of a modulo m (gcd(a, m) == 1); 0 when m <= 1.
uint64_t modInverse(uint64_t a, uint64_t m);
// A multiplier in [1, n) co-prime to n (1 when n <= 2), drawn uniformly among them.
uint64_t coprime(Rng& rng, uint64_t n);
// A random point of the search space of --tune.
Profile randomProfile(Rng& rng);

// Word offsets of the per-launch record (uint32 words; 4 words per role from kRoleBase).
enum LaunchWord : int {
  kN = 0,       // instances in the launch
  kU,           // instance groups (= hardware clusters per role)
  kK,           // groups per block
  kShuffleMul,  // hardware cluster h serves role/slot of (h * mul + add) mod (roles * U)
  kShuffleAdd,
  kStride,      // bytes between neighbouring slots of a location
  kInterleave,  // 1: an instance's locations share one slot row; 0: one region per location
  kLocMul,      // slot of instance n = (n * mul + add + v * step) mod N
  kLocAdd,
  kLocStep,
  kSpinLimit,  // 0: no spin barrier in this launch
  kDelayMax,
  kSeed,  // per-launch random word (delays, stress lines)
  kStressIters,
  kStressLines,
  kStressLineBytes,
  kStressPattern,
  kPreStressIters,
  kScratchLines,   // lines of stressLineBytes in the scratch area
  kTestClusters,   // hardware clusters that test; the rest stress
  kAliasSpan,      // bytes from a location to its alias (the buffer's second mapping); 0: none
  kEpoch,          // the launch's number, from 1: its result slots carry it (ptx_gen.h, tags)
  kGrid,           // tests with several grids: the position of the grid this kernel launch runs
  kRoleSkew,       // clocks each litmus thread waits per thread index after the barrier
  kFlags,          // kFlag* bits: how this launch aligns and places its threads
  kPrefetch,       // non-zero: the testers first read some of their locations (ptx_touch.cpp)
  kLineStress,     // non-zero: reductions per chosen location to its line's padding (ptx_touch.cpp)
  kRoleBase = 32,  // per role j at kRoleBase + 4 j: group inverse, group offset, lane inverse |
                   // lane offset << 16, group-in-block shift. Serial launches (kFlagSerial): block
                   // inverse, block offset, lane inverse | lane offset << 16, unused
};
// kFlags: the spin barrier (when kSpinLimit > 0) is one counter for the whole launch that every
// testing lane adds to (tests of one grid on one GPU; the others keep the per-group counters).
constexpr uint32_t kFlagGlobalBarrier = 1;
// kFlags: every testing lane runs every litmus thread in turn, each for another instance
// (Shape::serial tests only; docs/gpu-runner.md, "Serial roles"). Implies the global barrier.
constexpr uint32_t kFlagSerial = 2;
constexpr int kRoleWords = 4;
constexpr int kMaxRoles = 8;
// The scratch area that stressing threads hammer.
constexpr uint32_t kScratchBytes = 4u << 20;
constexpr int kLaunchWords = 64;
static_assert(kRoleBase + kRoleWords * kMaxRoles <= kLaunchWords);
static_assert(kLineStress < kRoleBase);

// The shape of a test's kernel, from its plan: what drawLaunch needs to size a launch.
struct Shape {
  int roles = 1;               // test clusters; each runs on its own hardware clusters
  int clusterSize = 1;         // CTAs per hardware cluster
  bool clusterLaunch = false;  // launched with a cluster dimension (clusterSize > 1, or the test
                               // reads cluster special registers, which need an explicit cluster)
  int warpsPerBlock = 1;       // warps one instance group needs in a block (the widest CTA)
  int maxGroupsPerBlock = 1;
  bool laneMode = true;  // 32 instances per warp (one per lane) or one per warp
  int globalLocations = 0;
  int slotBytes = 4;  // the widest location slot (bytes)
  int slotAlign = 4;
  uint32_t maxTestClusters = 1;  // residency cap for roles * U, from the device
  // The test may run in serial roles (kFlagSerial): lane mode, one GPU, one grid, global memory
  // only, no barriers, collectives or asynchronous operations (plan_rules.cpp, serialCapable).
  bool serial = false;
};

struct Launch {
  std::array<uint32_t, kLaunchWords> words{};
  uint32_t blocks = 0;   // grid size (a multiple of clusterSize)
  uint32_t threads = 0;  // block size
  uint64_t instances = 0;
  bool serial() const { return (words[kFlags] & kFlagSerial) != 0; }
};

Launch drawLaunch(const Shape& shape, const Profile& profile, Rng& rng);
// Instance groups per block and threads per block that drawLaunch gives every launch.
uint32_t groupsPerBlock(const Shape& shape, const Profile& profile);
uint32_t blockThreads(const Shape& shape, const Profile& profile);
// Bytes the location buffer needs for any launch drawLaunch can produce with this profile.
uint64_t locationBytes(const Shape& shape, const Profile& profile);
uint64_t maxInstances(const Shape& shape, const Profile& profile);

}  // namespace gpu
