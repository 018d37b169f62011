// The harness's touches of a test's own lines (gpu-runner/ptx_touch.cpp): the prefetch reads and
// the line-stress reductions, their launch words, and what they leave alone.
#include <doctest/doctest.h>

#include <string>

#include "gpu-runner/params.h"
#include "gpu-runner/runner.h"
#include "litmus/parse.h"

namespace {

litmus::Test yaml(const std::string& text) { return litmus::parseYaml(text, "t.yaml"); }

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// the code between a label and the next harness label of the same kind
std::string section(const std::string& ptx, const std::string& from, const std::string& to) {
  const size_t a = ptx.find(from), b = ptx.find(to, a);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  return ptx.substr(a, b - a);
}

const char* const kMp = R"(name: MP-touch
locations: {x: 0, y: 0, s: {space: shared}}
threads:
  P0:
    cta: 0
    code: |
      st.relaxed.cta.global.u32 [x], 1;
      st.relaxed.cta.global.u32 [y], 1;
  P1:
    cta: 1
    code: |
      ld.relaxed.cta.global.u32 %r0, [y];
      ld.relaxed.cta.global.u32 %r1, [x];
  P2:
    cta: 2
    code: |
      st.relaxed.cta.shared::cta.u32 [s], 1;
      ld.relaxed.cta.shared::cta.u32 %r2, [s];
condition: exists (P1:r0 == 1 /\ P1:r1 == 0)
)";

}  // namespace

TEST_CASE("prefetch reads, per thread, only the global locations it loads, one coin each") {
  const std::string ptx = gpu::generatePtx(yaml(kMp));
  const std::string pf = section(ptx, "// prefetch:", "H_PREFETCHED:");
  // P1 loads y and x (locations 1 and 0); P0 only stores, P2 touches shared memory only
  CHECK(count(pf, "ld.relaxed.cta.global.u32 %h_d") == 2);
  CHECK(pf.find("[%a0]") != std::string::npos);
  CHECK(pf.find("[%a1]") != std::string::npos);
  CHECK(pf.find("%h_t, 1;") != std::string::npos);
  CHECK(pf.find("%h_t, 0;") == std::string::npos);
  CHECK(pf.find("%h_t, 2;") == std::string::npos);
  CHECK(pf.find("and.b32 %h_c, %h_b, 0x1;") != std::string::npos);
  CHECK(pf.find("and.b32 %h_c, %h_b, 0x2;") != std::string::npos);
  // the values feed a store ptxas cannot prove dead, into the scratch area, never a location
  CHECK(pf.find("st.volatile.global.u32 [%h_scratch]") != std::string::npos);
  // before the spin barrier
  CHECK(ptx.find("H_PREFETCHED:") < ptx.find("spin barrier"));
}

TEST_CASE("line stress reduces into the padding after each global location a thread accesses") {
  const std::string ptx = gpu::generatePtx(yaml(kMp));
  const std::string ls = section(ptx, "// line stress:", "H_LINED:");
  // P0 stores x and y, P1 loads both: four loops, each on the word after a 4-byte slot, taken
  // only when the launch's stride leaves that word free
  CHECK(count(ls, "red.relaxed.gpu.global.add.u32 [%h_A], 1;") == 4);
  CHECK(count(ls, "setp.lt.u32 %h_q, %h_d, 8;") == 4);
  CHECK(ls.find("add.u64 %h_A, %a0, 4;") != std::string::npos);
  CHECK(ls.find("add.u64 %h_A, %a1, 4;") != std::string::npos);
  CHECK(ls.find("%a2") == std::string::npos);  // the shared location: never
  CHECK(ls.find("%h_t, 2;") == std::string::npos);
  // after the delay, just before the threads' code
  CHECK(ptx.find("H_GO:") < ptx.find("// line stress:"));
  CHECK(ptx.find("H_LINED:") < ptx.find("T0_BEGIN:"));
}

TEST_CASE("a test across GPUs gets no line stress; a test without global accesses no touches") {
  const std::string gpus = gpu::generatePtx(yaml(R"(name: SB-gpus
locations: {x: 0, y: 0}
threads:
  P0:
    gpu: 0
    code: |
      st.relaxed.sys.global.u32 [x], 1;
      ld.relaxed.sys.global.u32 %r0, [y];
  P1:
    gpu: 1
    code: |
      st.relaxed.sys.global.u32 [y], 1;
      ld.relaxed.sys.global.u32 %r1, [x];
condition: exists (P0:r0 == 0 /\ P1:r1 == 0)
)"));
  CHECK(gpus.find("// prefetch:") != std::string::npos);
  CHECK(gpus.find("// line stress:") == std::string::npos);
  const std::string shared = gpu::generatePtx(yaml(R"(name: shared-only
locations: {s: {space: shared}}
threads:
  P0:
    cta: 0
    code: |
      st.relaxed.cta.shared::cta.u32 [s], 1;
  P1:
    cta: 0
    code: |
      ld.relaxed.cta.shared::cta.u32 %r0, [s];
condition: exists (P1:r0 == 1)
)"));
  CHECK(shared.find("// prefetch:") == std::string::npos);
  CHECK(shared.find("// line stress:") == std::string::npos);
}

TEST_CASE("the touch words are drawn only when their keys are on") {
  using namespace gpu;
  Shape s;
  s.roles = 2;
  s.globalLocations = 2;
  s.maxGroupsPerBlock = 8;
  s.maxTestClusters = 100;
  Profile off, on;
  on.prefetchPct = 100;
  on.lineStressPct = 100;
  on.lineStressOps = 77;
  Rng a(3), b(3);
  for (int i = 0; i < 5; ++i) {
    const Launch lo = drawLaunch(s, off, a), ln = drawLaunch(s, on, b);
    CHECK(lo.words[kPrefetch] == 0);
    CHECK(lo.words[kLineStress] == 0);
    CHECK(ln.words[kPrefetch] == 1);
    CHECK(ln.words[kLineStress] == 77);
  }
  Profile half;
  half.prefetchPct = 50;
  half.lineStressPct = 50;
  Rng c(4);
  int prefetch = 0, line = 0;
  for (int i = 0; i < 60; ++i) {
    const Launch l = drawLaunch(s, half, c);
    prefetch += l.words[kPrefetch] != 0;
    line += l.words[kLineStress] != 0;
  }
  CHECK(prefetch > 10);
  CHECK(prefetch < 50);
  CHECK(line > 10);
  CHECK(line < 50);
}
