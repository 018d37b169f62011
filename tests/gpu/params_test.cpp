// The seeded PRNG and the per-launch parameters: reproducible, in range, and permutations that
// the kernel can undo (docs/gpu-runner.md, "Parameters").
#include <doctest/doctest.h>

#include <set>

#include "gpu-runner/params.h"
#include "litmus/test.h"

using namespace gpu;

TEST_CASE("the PRNG is reproducible from its seed and differs between seeds") {
  Rng a(42), b(42), c(43);
  std::vector<uint64_t> va, vb, vc;
  for (int i = 0; i < 100; ++i) {
    va.push_back(a.next());
    vb.push_back(b.next());
    vc.push_back(c.next());
  }
  CHECK(va == vb);
  CHECK(va != vc);
  // splitmix64's published first output for seed 0 (Vigna's reference implementation)
  uint64_t s = 0;
  CHECK(splitmix64(s) == 0xe220a8397b1dcdafULL);
}

TEST_CASE("below and range stay in bounds and reach both ends") {
  Rng r(7);
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t v = r.below(10);
    REQUIRE(v < 10);
    seen.insert(v);
    const uint32_t w = r.range(3, 5);
    REQUIRE(w >= 3);
    REQUIRE(w <= 5);
  }
  CHECK(seen.size() == 10);
  CHECK(r.below(0) == 0);
  CHECK(r.range(9, 9) == 9);
}

TEST_CASE("coprime multipliers have inverses, so the kernel can undo the permutations") {
  Rng r(1);
  for (uint64_t n : {1ULL, 2ULL, 3ULL, 32ULL, 97ULL, 1000ULL, 65536ULL, 123456ULL}) {
    for (int i = 0; i < 20; ++i) {
      const uint64_t p = coprime(r, n);
      REQUIRE(gcd(p, n) == 1);
      if (n > 1) CHECK((p * modInverse(p, n)) % n == 1);
    }
  }
  CHECK(modInverse(3, 32) == 11);
}

namespace {

Shape mpShape() {
  Shape s;
  s.roles = 2;
  s.clusterSize = 1;
  s.warpsPerBlock = 1;
  s.maxGroupsPerBlock = 32;
  s.laneMode = true;
  s.globalLocations = 2;
  s.slotBytes = 4;
  s.slotAlign = 4;
  s.maxTestClusters = 2000;
  return s;
}

// What the test kernel computes for a warp (ptx_kernel.cpp): the role and instance group of its
// hardware cluster, its group in the block and its lane's instance.
struct Position {
  uint32_t role, g, k, l;
};
Position locate(const Launch& l, int roles, uint32_t hc, uint32_t warp, uint32_t lane) {
  const uint32_t U = l.words[kU], K = l.words[kK], tc = l.words[kTestClusters];
  const uint64_t h = (uint64_t{hc} * l.words[kShuffleMul] + l.words[kShuffleAdd]) % tc;
  Position p{};
  p.role = static_cast<uint32_t>(h % static_cast<uint64_t>(roles));
  const uint32_t su = static_cast<uint32_t>(h / static_cast<uint64_t>(roles));
  const uint32_t* w = &l.words[kRoleBase + kRoleWords * p.role];
  p.g = static_cast<uint32_t>((uint64_t{su + U - w[1]} * w[0]) % U);
  p.l = ((lane + 32 - (w[2] >> 16)) * (w[2] & 0xffff)) & 31;
  p.k = (warp + K - w[3]) % K;
  return p;
}

}  // namespace

TEST_CASE("every launch places each role of each instance exactly once") {
  const Shape s = mpShape();
  Profile p;
  p.threadsPerBlock = 128;
  p.occupancyPct = 5;
  Rng rng(99);
  for (int launch = 0; launch < 10; ++launch) {
    const Launch l = drawLaunch(s, p, rng);
    const uint32_t U = l.words[kU], K = l.words[kK];
    REQUIRE(l.instances == uint64_t{U} * K * 32);
    REQUIRE(l.words[kTestClusters] == 2 * U);
    REQUIRE(l.threads == K * 32);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
    for (uint32_t hc = 0; hc < l.words[kTestClusters]; ++hc)
      for (uint32_t warp = 0; warp < K; ++warp)
        for (uint32_t lane = 0; lane < 32; ++lane) {
          const Position q = locate(l, 2, hc, warp, lane);
          REQUIRE(q.g < U);
          seen.insert({q.role, q.g, q.k, q.l});
        }
    CHECK(seen.size() == 2ULL * U * K * 32);  // a bijection: no instance lacks a role
    CHECK(l.words[kStride] % 4 == 0);
    CHECK(gcd(l.words[kLocMul], l.words[kN]) == 1);
  }
}

TEST_CASE("launches are reproducible from the seed") {
  const Shape s = mpShape();
  Profile p;
  Rng a(5), b(5), c(6);
  bool differs = false;
  for (int i = 0; i < 5; ++i) {
    const Launch la = drawLaunch(s, p, a), lb = drawLaunch(s, p, b), lc = drawLaunch(s, p, c);
    CHECK(la.words == lb.words);
    differs = differs || la.words != lc.words;
  }
  CHECK(differs);
}

TEST_CASE("cluster launches cover whole clusters and the stress blocks come on top") {
  Shape s = mpShape();
  s.clusterSize = 3;
  s.maxGroupsPerBlock = 1;
  Profile p;
  p.stressPct = 50;
  p.stressIters = 10;
  Rng rng(3);
  const Launch l = drawLaunch(s, p, rng);
  CHECK(l.blocks % 3 == 0);
  CHECK(l.blocks / 3 > l.words[kTestClusters]);
  CHECK(l.words[kK] == 1);
}

TEST_CASE("a profile survives formatting and parsing; bad profiles are refused with a position") {
  Rng rng(11);
  for (int i = 0; i < 20; ++i) {
    const Profile p = randomProfile(rng);
    CHECK(parseProfile(formatProfile(p), "p.profile") == p);
  }
  CHECK_THROWS_WITH(parseProfile("memStride = 4\nbogus = 1\n", "p.profile"),
                    "p.profile:2:1: error: unknown profile key 'bogus'");
  CHECK_THROWS_WITH(parseProfile("  spinLimit = lots\n", "p.profile"),
                    "p.profile:1:15: error: bad value 'lots' for spinLimit (1..1000000)");
  CHECK_THROWS_WITH(parseProfile("delayMax 3\n", "p.profile"),
                    "p.profile:1:1: error: expected 'key = value'");
  CHECK_THROWS_AS(parseProfile("stressLineBytes = 48\n", "p.profile"), litmus::Error);
}

TEST_CASE("serial launches: an instance per testing lane, each role a bijection, roles in different blocks") {
  Shape s = mpShape();
  s.serial = true;
  s.warpsPerBlock = 2;  // one CTA of the test holds two threads
  s.maxGroupsPerBlock = 16;
  Profile p;
  p.threadsPerBlock = 128;
  p.occupancyPct = 5;
  p.serialPct = 100;
  Rng rng(31);
  for (int launch = 0; launch < 10; ++launch) {
    const Launch l = drawLaunch(s, p, rng);
    REQUIRE(l.serial());
    const uint32_t B = l.words[kTestClusters], L = l.threads, U = l.words[kU];
    REQUIRE(B == 2 * U);
    CHECK(l.instances == uint64_t{B} * L);
    CHECK(l.words[kN] == B * L);
    CHECK(l.instances <= maxInstances(s, p));
    CHECK(gcd(l.words[kLocMul], l.words[kN]) == 1);
    // (block, lane) -> instance per role, as the kernel undoes the permutations (H_SER<t>)
    for (int role = 0; role < 2; ++role) {
      const uint32_t* w = &l.words[kRoleBase + kRoleWords * role];
      std::set<uint64_t> seen;
      for (uint32_t h = 0; h < B; ++h)
        for (uint32_t q = 0; q < L; ++q) {
          const uint64_t G = (uint64_t{h + B - w[1]} * w[0]) % B;
          const uint64_t Q = (uint64_t{q + L - (w[2] >> 16)} * (w[2] & 0xffff)) % L;
          seen.insert(G * L + Q);
        }
      CHECK(seen.size() == l.instances);  // a bijection: every instance gets the role once
    }
    // instance G's roles: blocks G * m + off_r, so different offsets are different blocks
    CHECK(l.words[kRoleBase + 1] != l.words[kRoleBase + kRoleWords + 1]);
    CHECK(l.words[kRoleBase] == l.words[kRoleBase + kRoleWords]);  // one block multiplier
  }
}

TEST_CASE("the new keys draw only when on, and serialPct only for tests that can run serially") {
  const Shape s = mpShape();
  Profile p;
  Rng a(8), b(8);
  Profile q = p;
  q.serialPct = 100;  // the shape cannot: ignored, and no draw is spent on it
  for (int i = 0; i < 5; ++i) {
    const Launch la = drawLaunch(s, p, a), lb = drawLaunch(s, q, b);
    CHECK(la.words == lb.words);
    CHECK(la.words[kFlags] == 0);
  }
  Profile g;
  g.globalBarrierPct = 100;
  g.barrierPct = 100;
  Rng c(9);
  const Launch lg = drawLaunch(s, g, c);
  CHECK(lg.words[kFlags] == kFlagGlobalBarrier);
  g.barrierPct = 0;  // no barrier, no flag
  CHECK(drawLaunch(s, g, c).words[kFlags] == 0);
  Shape serial = s;
  serial.serial = true;
  Profile half;
  half.serialPct = 50;
  Rng d(10);
  int serialLaunches = 0;
  for (int i = 0; i < 40; ++i) serialLaunches += drawLaunch(serial, half, d).serial();
  CHECK(serialLaunches > 5);
  CHECK(serialLaunches < 35);
}
