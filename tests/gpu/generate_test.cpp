// PTX generation without a GPU: golden modules for a few catalogue tests (tests/gpu/golden/),
// the instructions kept as written, and refusals that name what the runner cannot execute.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gpu-runner/plan.h"
#include "gpu-runner/runner.h"
#include "gpu-runner/self_test.h"
#include "litmus/files.h"
#include "litmus/parse.h"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Parsed under its path relative to the source tree, so that the golden text does not depend on
// where the tree is checked out.
litmus::Test catalogue(const std::string& rel) {
  return litmus::parseYaml(slurp(std::string(LITMUS_SOURCE_DIR) + "/" + rel), rel);
}

litmus::Test yaml(const std::string& text) { return litmus::parseYaml(text, "t.yaml"); }

const char* const kGolden[][2] = {
    {"catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml", "MP+rel.gpu+acq.gpu-diffcta.ptx"},
    {"catalog/barriers/MP+bar.sync.yaml", "MP+bar.sync.ptx"},
    {"catalog/mbarrier/MP+mbarrier.arrive+test_wait.yaml", "MP+mbarrier.arrive+test_wait.ptx"},
    {"catalog/barriers/MP+barrier.cluster.yaml", "MP+barrier.cluster.ptx"},
    {"catalog/async/TMA-load+expect_tx.yaml", "TMA-load+expect_tx.ptx"},
};

}  // namespace

// UPDATE_GOLDEN=1 rewrites the files and fails, so that an update never passes as a check: review
// the diff, then rerun without it.
TEST_CASE("generated PTX of pinned catalogue tests matches the golden files") {
  const bool update = std::getenv("UPDATE_GOLDEN") != nullptr;
  for (const auto& entry : kGolden) {
    const char* const test = entry[0];  // not a structured binding: clang 14 cannot capture one
    const char* const golden = entry[1];
    CAPTURE(test);
    const std::string ptx = gpu::generatePtx(catalogue(test));
    const std::string path = std::string(LITMUS_SOURCE_DIR) + "/tests/gpu/golden/" + golden;
    if (update) {
      std::ofstream(path) << ptx;
      continue;
    }
    CHECK(ptx == slurp(path));
  }
  if (update) FAIL("golden files updated; review the diff and rerun");
}

TEST_CASE("each instruction keeps its order, scope, state space and type") {
  const std::string ptx =
      gpu::generatePtx(catalogue("catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml"));
  CHECK(ptx.find("\tst.global.u32 [%a0], 1;") != std::string::npos);
  CHECK(ptx.find("\tst.release.gpu.global.u32 [%a1], 1;") != std::string::npos);
  CHECK(ptx.find("\tld.acquire.gpu.global.u32 %t1_r0, [%a1];") != std::string::npos);
  CHECK(ptx.find("\tld.global.u32 %t1_r1, [%a0];") != std::string::npos);
  CHECK(ptx.find(".target sm_90") != std::string::npos);
}

TEST_CASE("untyped herd instructions get 64-bit types; red.acq_rel becomes an atom") {
  const std::string ptx = gpu::generatePtx(yaml(R"(name: herdish
locations: {x: 0}
threads:
  P0:
    code: |
      ld.weak %r0, [x];
      atom.acq_rel.sys.sub %r1, [x], 1;
      red.acq_rel.sys.add [x], 2;
condition: exists (P0:r0 == 0)
)"));
  CHECK(ptx.find("ld.weak.b64 %t0_r0, [%g0];") != std::string::npos);
  CHECK(ptx.find("atom.acq_rel.sys.add.u64 %t0_r1, [%g0], -1;") != std::string::npos);
  CHECK(ptx.find("atom.acq_rel.sys.add.u64 %x0, [%g0], 2;") != std::string::npos);
}

TEST_CASE("barriers with branches run one instance per warp, with warp-uniform branches") {
  const std::string ptx =
      gpu::generatePtx(catalogue("catalog/mbarrier/MP+mbarrier.arrive+test_wait.yaml"));
  CHECK(ptx.find("warp mode") != std::string::npos);
  CHECK(ptx.find("vote.sync.any.pred") != std::string::npos);
  CHECK(ptx.find("@%h_lane0 mbarrier.arrive.shared.b64 %t0_s, [%s1];") != std::string::npos);
  const std::string lane =
      gpu::generatePtx(catalogue("catalog/shapes/MP+rel.gpu+acq.gpu-diffcta.yaml"));
  CHECK(lane.find("lane mode") != std::string::npos);
}

TEST_CASE("threads of one cluster share a cluster launch and reach shared memory through mapa") {
  const std::string ptx = gpu::generatePtx(yaml(R"(name: dsmem
locations: {x: {space: shared}}
threads:
  P0:
    cta: 0
    cluster: 0
    code: |
      st.relaxed.cluster.shared::cta.u32 [x], 1;
  P1:
    cta: 1
    cluster: 0
    code: |
      ld.relaxed.cluster.shared::cluster.u32 %r0, [x];
condition: exists (P1:r0 == 1)
)"));
  CHECK(ptx.find("mov.u32 %h_rank, %cluster_ctarank;") != std::string::npos);
  CHECK(ptx.find("mapa.shared::cluster.u32 %s0, %s0, 0;") != std::string::npos);
  CHECK(ptx.find("ld.relaxed.cluster.shared::cluster.u32 %t1_r0, [%s0];") != std::string::npos);
  CHECK(ptx.find("red.release.cluster.shared::cluster.add.u32") != std::string::npos);  // join
}

TEST_CASE("mapa addresses are the hardware's, and the owner CTA waits for remote accesses") {
  const std::string ptx =
      gpu::generatePtx(catalogue("catalog/cluster/DSMEM-MP+rel.cluster+acq.cluster.yaml"));
  CHECK(ptx.find("mapa.shared::cluster.u32 %w0, %l0, 1;") != std::string::npos);
  CHECK(ptx.find("st.release.cluster.shared::cluster.u32 [%w0], 1;") != std::string::npos);
  CHECK(ptx.find("ld.acquire.cluster.shared.u32 %t1_r0, [%s1];") != std::string::npos);
  CHECK(ptx.find("ld.acquire.cluster.shared::cta.u32 %h_b") != std::string::npos);  // the owner waits
  CHECK(ptx.find("barrier.cluster.wait;") != std::string::npos);                    // start barrier
}

TEST_CASE("asynchronous operations are written as the test writes them, in the PTX version they need") {
  const std::string load = gpu::generatePtx(catalogue("catalog/async/TMA-load+expect_tx.yaml"));
  CHECK(load.find(".version 8.0") != std::string::npos);
  CHECK(load.find("\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%s1], [%a0], 16, "
                  "[%s2];") != std::string::npos);
  const std::string cta = gpu::generatePtx(
      catalogue("catalog/async/TMA-load-after-global-write+fence.proxy.async.global.yaml"));
  CHECK(cta.find(".version 8.6") != std::string::npos);  // a .shared::cta destination
  const std::string store =
      gpu::generatePtx(catalogue("catalog/async/MP+TMA-store+wait_group.read.yaml"));
  CHECK(store.find("\tcp.async.bulk.global.shared::cta.bulk_group [%a1], [%s0], 16;") != std::string::npos);
  CHECK(store.find("\tcp.async.bulk.wait_group.read 0;") != std::string::npos);
  const std::string st = gpu::generatePtx(catalogue("catalog/cluster/st.async+mbarrier.cluster.yaml"));
  CHECK(st.find(".version 8.1") != std::string::npos);
  CHECK(st.find("\tst.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%w0], %w1, [%w2];") !=
        std::string::npos);
  const std::string red = gpu::generatePtx(catalogue("catalog/cluster/red.async+mbarrier.yaml"));
  CHECK(red.find("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%w0], %w1, "
                 "[%w2];") != std::string::npos);
}

TEST_CASE("a bulk copy gets 16-byte aligned slots with a word element for each copied word") {
  const gpu::Plan plan = gpu::makePlan(catalogue("catalog/async/TMA-load+expect_tx.yaml"));
  for (const gpu::LocPlan& l : plan.locs) {
    CAPTURE(l.name);
    if (l.name == "m") continue;
    CHECK(l.align == 16);
    CHECK(l.span == 16);
    CHECK(l.elements.size() == 4);
    for (const gpu::Element& e : l.elements) CHECK(e.init == (l.name == "g" ? 1 : 0));
  }
  CHECK(plan.shape.slotAlign == 16);
}

TEST_CASE("the final state waits for asynchronous operations to complete") {
  // The test waits on the mbarrier: its initialising thread waits for phase 0 at the end.
  const std::string load = gpu::generatePtx(catalogue("catalog/async/TMA-load+expect_tx.yaml"));
  CHECK(load.find("T0_DRAIN0:\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %c0, [%s2], 0;") !=
        std::string::npos);
  // Nobody arrives: the runner arrives for the bytes, then waits, before the final value is read.
  const std::string copy = gpu::generatePtx(
      catalogue("catalog/cluster/DSMEM-bulk-copy+fence.proxy.async.shared-cluster.yaml"));
  const size_t arrive = copy.find("\tmbarrier.arrive.expect_tx.shared::cta.b64 %x0, [%s2], 16;");
  CHECK(arrive != std::string::npos);
  CHECK(copy.find("T1_DRAIN0:", arrive) != std::string::npos);
  CHECK(copy.find("T0_JOIN0:") != std::string::npos);  // the source CTA outlives the copy
  // Bulk groups: the issuing thread waits for them all; copies see the initial values.
  const std::string store =
      gpu::generatePtx(catalogue("catalog/async/MP+TMA-store+wait_group.read.yaml"));
  CHECK(store.find("\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;\nT0_END:") !=
        std::string::npos);
  CHECK(store.find("T0_BEGIN:\n\t// thread P0 (CTA 0, cluster 0)\n\t// the start: ") != std::string::npos);
}

TEST_CASE("every CTA outlives the asynchronous writes aimed at it (issue 32, item 2)") {
  // The arrivals before a try_wait loop run once: the test's own phase 0 covers the remote copy.
  const std::string remote = gpu::generatePtx(catalogue("catalog/cluster/TMA-remote-copy+local-expect_tx.cta.yaml"));
  CHECK(remote.find("the test's arrivals on m complete phase 0") != std::string::npos);
  // CTA 1 arrives without expect_tx: the multicast's bytes may land after its phase 0, so the
  // runner adds phase 1, expecting them, and waits for it before CTA 1 ends.
  const std::string late = gpu::generatePtx(catalogue("catalog/tensor/TMA-multicast-remote-no-expect_tx.yaml"));
  const size_t arrive = late.find("\tmbarrier.arrive.expect_tx.shared::cta.b64 %x0, [%s5], 16;\nT1_DRAIN0:\n"
                                  "\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %c0, [%s5], 1;");
  CHECK(arrive != std::string::npos);
  // A last fill without expect_tx: the producer does not wait for full0's last phase itself, and
  // waiting for it in the runner before adding a phase hung the H200, so full0 gets no drain; the
  // correct pipeline's producer waits for full0's last phase (1) at its end.
  const std::string fill = gpu::generatePtx(catalogue("patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml"));
  CHECK(fill.find("runner arrives on full0") == std::string::npos);
  // Instead the producer waits at its end until the last copy into s0 has landed (bounded), so
  // that it cannot complete the mbarrier of a later block (docs/findings.md F11).
  const size_t poll = fill.find("\t// the end: the copy into s0 lands in this CTA before it ends");
  CHECK(poll != std::string::npos);
  CHECK(fill.find("\tld.volatile.shared.v2.u64 {%x4, %x5}, [%s3];\n\tsetp.eq.u64 %c0, %x4, %x2;", poll) !=
        std::string::npos);
  CHECK(fill.find("setp.ge.or.u64 %c0, %x0, 1048576, %c0;", poll) != std::string::npos);
  CHECK(fill.find("the copy into s1") == std::string::npos);  // full1's phase 0 drains it
  const std::string good = gpu::generatePtx(catalogue("patterns/reference/tma-pipeline/tma-pipeline-S2-K3.yaml"));
  CHECK(good.find("T0_DRAIN0F:\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %c0, [%s4], 1;") != std::string::npos);
  CHECK(good.find("_LATE") == std::string::npos);
}

TEST_CASE("asynchronous operations the hardware or the runner cannot complete are refused") {
  const std::string head = R"(name: a
locations:
  g: 0
  s: {space: shared, cta: 0}
  m: {space: shared, cta: 0}
threads:
  P0:
    cta: 0
    code: |
      mbarrier.init.shared::cta.b64 [m], 1;
)";
  const std::string copy = "      cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes ";
  const std::string end = "condition: exists (s == 0)\n";
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(head + copy + "[s+8], [g], 16, [m];\n" + end)),
                    doctest::Contains("cp.async.bulk needs 16-byte aligned addresses, and [s+8] is not"));
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(head + "      mbarrier.arrive.shared::cta.b64 %st, [m];\n" + copy +
                                          "[s], [g], 16, [m];\n" + end)),
                    doctest::Contains("the final value of 's' must be read after it lands"));
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: b
locations:
  x: {space: shared, cta: 0}
  m: {space: shared, cta: 0}
threads:
  P0:
    cta: 0
    cluster: 0
    code: |
      mbarrier.init.shared::cta.b64 [m], 1;
      mapa.shared::cluster.u32 %a, x, 0;
      mapa.shared::cluster.u32 %b, m, 0;
      st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%a], 7, [%b];
  P1:
    cta: 1
    cluster: 0
    code: |
      barrier.cluster.arrive;
condition: exists (x == 7)
)")),
                    doctest::Contains("it must write the shared memory of another CTA of the cluster"));
}

TEST_CASE("Dat3M barriers get a PTX barrier id each and counts in threads") {
  const std::string ptx = gpu::generatePtx(litmus::parseHerd(R"(PTX dat3m-bar
{
x=0;
}
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0    | P2@cta 0,gpu 0 ;
 st.weak x, 1   | bar.cta.sync 2    | bar.cta.sync 5, 1, 3 ;
 bar.cta.sync 2 | ld.weak r0, x     |                ;
exists (P1:r0 == 0)
)",
                                                             "t.litmus"));
  CHECK(ptx.find("bar.cta.sync 0, 64;") != std::string::npos);  // (2, 0): P0 and P1 name it
  CHECK(ptx.find("bar.cta.sync 1, 96;") != std::string::npos);  // (5, 1) with count 3
  CHECK_THROWS_WITH(gpu::generatePtx(litmus::parseHerd(R"(PTX dat3m-reg
{
x=0; P0:r2=1;
}
 P0@cta 0,gpu 0 ;
 bar.cta.sync 1, r2 ;
exists (x == 0)
)",
                                                       "r.litmus")),
                    doctest::Contains("a Dat3M barrier operand in a register"));
}

TEST_CASE("what the runner cannot run is refused with the position and the instruction") {
  // a location with a constant alias lives in the constant bank, one 32-bit word per instance
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: const
locations: {x: 0, c: {alias-of: x, proxy: constant}}
threads:
  P0:
    code: |
      st.global.u64 [x], 1;
condition: exists (x == 1)
)")),
                    doctest::Contains("t.yaml:2:13: error: location 'x' has a constant alias: the GPU runner keeps it "
                                      "in the constant bank as one 32-bit word"));
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: const2
locations: {x: 0, c: {alias-of: x, proxy: constant}, y: {alias-of: x}}
threads:
  P0:
    code: |
      st.global.u32 [y], 1;
condition: exists (x == 1)
)")),
                    doctest::Contains("location 'y' is an alias of 'x', which lives in the constant bank"));
  // a texture alias runs when read with tld (catalog/proxy/texture-*), and only so
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: tex
locations: {x: 0, t: {alias-of: x, proxy: texture}}
threads:
  P0:
    code: |
      ld.global.u32 %r0, [t];
condition: exists (P0:r0 == 1)
)")),
                    doctest::Contains("'t' is a texture alias: the GPU runner reads it with tld only"));
  CHECK_THROWS_WITH(
      gpu::generatePtx(yaml(R"(name: fp
locations: {x: 0}
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
      fence.proxy.texture;
condition: exists (x == 1)
)")),
      "t.yaml:7:7: error: the GPU runner cannot run 'fence.proxy.texture': fence.proxy.texture is "
      "the model's (Dat3M's) fence; PTX has no such instruction");
}

// A test across GPUs (docs/gpu-runner.md, "Several GPUs"): one more kernel parameter, p_gpu, that
// sends each role to its test GPU, and a spin barrier at .sys scope (its counters are in the
// first GPU's memory); the tally is the one-GPU tally. gpu: numbers need not start at 0.
TEST_CASE("a test across GPUs: p_gpu picks the roles, the spin barrier is .sys") {
  const std::string text = R"(name: gpus
locations: {x: 0}
threads:
  P0:
    gpu: 3
    code: |
      st.global.u32 [x], 1;
  P1:
    gpu: 5
    code: |
      ld.global.u32 %r0, [x];
condition: exists (P1:r0 == 1)
)";
  const gpu::Plan plan = gpu::makePlan(yaml(text));
  CHECK(plan.gpus == 2);
  CHECK(plan.roleGpu == std::vector<int>{0, 1});
  const std::string ptx = gpu::generatePtx(yaml(text));
  CHECK(ptx.find(".param .align 4 .b8 p_lp[256],\n\t.param .u32 p_gpu\n)") != std::string::npos);
  CHECK(ptx.find("red.relaxed.sys.global.add.u32") != std::string::npos);
  CHECK(ptx.find("red.relaxed.gpu.global.add.u32 [%h_A], 1") == std::string::npos);
  const std::string one = gpu::generatePtx(yaml(R"(name: one
locations: {x: 0}
threads:
  P0:
    gpu: 1
    code: |
      st.global.u32 [x], 1;
condition: exists (x == 1)
)"));
  CHECK(one.find("p_gpu") == std::string::npos);  // one GPU, whatever its number: the one-GPU kernel
  CHECK(one.find("red.relaxed.gpu.global.add.u32 [%h_A], 1") != std::string::npos);
}

TEST_CASE("state that the hardware encodes differently from the model is not observed") {
  // (inline since issue 18: the catalogue test that observed a remote arrive's state needs the
  // sink `_` there now)
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: state
locations:
  m: {space: shared}
threads:
  P0:
    cta: 0
    code: |
      mbarrier.init.shared::cta.b64 [m], 2;
      bar.sync 0;
  P1:
    cta: 0
    code: |
      bar.sync 0;
      mbarrier.arrive.shared::cta.b64 %s, [m];
condition: exists (P1:s == 0)
)")),
                    doctest::Contains("cannot observe P1:s: an mbarrier state is encoded differently"));
}

// The generator must never crash: every catalogue test is either generated or refused with a
// positioned error.
TEST_CASE("every catalogue test is generated or refused") {
  int generated = 0, refused = 0;
  for (const std::string& f : litmus::findTestFiles({std::string(LITMUS_SOURCE_DIR) + "/catalog"})) {
    CAPTURE(f);
    litmus::Test t;
    try {
      t = litmus::parseFile(f);
    } catch (const litmus::Error&) {
      continue;  // the front end's business
    }
    try {
      const std::string ptx = gpu::generatePtx(t);
      CHECK(ptx.find(".entry litmus_test") != std::string::npos);
      CHECK(ptx.find(".entry litmus_tally") != std::string::npos);
      ++generated;
    } catch (const litmus::Error& e) {
      CHECK(std::string(e.what()).find(": error: ") != std::string::npos);
      ++refused;
    }
  }
  CHECK(generated > 100);
  MESSAGE(generated << " generated, " << refused << " refused");
}

TEST_CASE("a generic alias is its target's memory at the buffer's second mapping") {
  const litmus::Test t = catalogue("catalog/chapter8/ch8-L7-cowr-alias-nofence.yaml");
  const gpu::Plan plan = gpu::makePlan(t);
  int x = -1, alias = -1;
  for (size_t v = 0; v < plan.locs.size(); ++v) (plan.locs[v].aliasOf >= 0 ? alias : x) = static_cast<int>(v);
  REQUIRE(x >= 0);
  REQUIRE(alias >= 0);
  CHECK(plan.locs[static_cast<size_t>(alias)].aliasOf == x);
  CHECK(plan.locs[static_cast<size_t>(alias)].elements.empty());  // accesses through it are x's
  CHECK_FALSE(plan.locs[static_cast<size_t>(x)].elements.empty());
  CHECK(plan.shape.globalLocations == 1);  // one region: the alias has none of its own
  const std::string ptx = gpu::generatePtx(t);
  const std::string a = std::to_string(alias), g = std::to_string(x);
  CHECK(ptx.find("add.u64 %g" + a + ", %g" + g + ", %h_X;") != std::string::npos);
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: two
locations: {x: 0, y: {alias-of: x}, z: {alias-of: x}}
threads:
  P0:
    code: |
      st.global.u32 [y], 1;
      ld.global.u32 %r0, [z];
condition: exists (P0:r0 == 1)
)")),
                    doctest::Contains("location 'z' is an alias of 'x', which has another alias"));
}

TEST_CASE("a vector access gets a slot aligned to its whole width") {
  const gpu::Plan plan = gpu::makePlan(catalogue("catalog/vector/atom.v2.f32.add-twice.yaml"));
  REQUIRE(plan.locs.size() == 1);
  CHECK(plan.locs[0].align == 8);  // two 4-byte elements, one 8-byte access
  CHECK(plan.shape.slotAlign == 8);
  const gpu::Plan v4 = gpu::makePlan(catalogue("catalog/vector/atom.v4.f16.add-twice.yaml"));
  CHECK(v4.locs[0].align == 8);  // four 2-byte elements
}

TEST_CASE("an mbarrier operation after inval is undefined behaviour and refused") {
  CHECK_THROWS_WITH(gpu::generatePtx(catalogue("catalog/mbarrier/mbarrier.inval.yaml")),
                    doctest::Contains("an mbarrier operation on an invalidated object is undefined behaviour"));
  CHECK_NOTHROW(gpu::generatePtx(yaml(R"(name: reinit
locations: {m: {space: shared}}
threads:
  P0:
    code: |
      mbarrier.init.shared.b64 [m], 1;
      mbarrier.inval.shared.b64 [m];
      mbarrier.init.shared.b64 [m], 1;
      mbarrier.test_wait.parity.shared.b64 %p, [m], 0;
condition: exists (P0:p == 0)
)")));
}

TEST_CASE("threads placed in one warp run at their lanes, one instance per warp") {
  const litmus::Test t = catalogue("catalog/cluster/elect.sync-lowest-lane.yaml");
  const gpu::Plan plan = gpu::makePlan(t);
  CHECK(plan.mode == gpu::Mode::Fixed);
  CHECK(plan.warpsPerInstance == 1);
  CHECK(plan.threads[2].lane == 2);
  const std::string ptx = gpu::generatePtx(t);
  CHECK(ptx.find("setp.eq.u32 %h_q, %h_lane, 2;") != std::string::npos);
  CHECK(ptx.find("\telect.sync %w0|%t1_p, 6;") != std::string::npos);
  CHECK(ptx.find("@%h_p bra T1_BEGIN;") != std::string::npos);  // lanes part ways: not bra.uni
  const std::string sync = gpu::generatePtx(catalogue("catalog/cluster/MP+bar.warp.sync.yaml"));
  CHECK(sync.find("\tbar.warp.sync 3;") != std::string::npos);
  const std::string body = R"(
    code: |
      elect.sync %l|%p, 1;
condition: exists (P0:p == 1)
)";
  CHECK_THROWS_WITH(gpu::generatePtx(yaml("name: e\nlocations: {x: 0}\nthreads:\n  P0:" + body)),
                    doctest::Contains("elect.sync needs test threads placed in one warp"));
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: b
locations: {x: 0}
threads:
  P0:
    cta: 0
    warp: 0
    code: |
      bar.sync 0;
  P1:
    cta: 0
    warp: 0
    code: |
      bar.sync 0;
condition: exists (x == 0)
)")),
                    doctest::Contains("cannot run CTA barriers in a test whose threads share a warp"));
}

namespace {

// The result slots ("res" or "shout", index) that a kernel's stores and loads address: each
// address is computed as `mad.lo.u32 %h_?, %h_n32, SLOTS, INDEX` ... `add.u64 %h_A, %h_A, %h_ARRAY`.
struct SlotUse {
  std::multiset<std::pair<std::string, int>> tagged;    // test kernel: value and tag stored
  std::set<std::pair<std::string, int>> compared, poisoned;  // tally: tag compared, sentinel written
};

// `mad.lo.u32 %h_a, %h_n32, K, I;` (or %h_b): the slot index I; -1 for any other line.
int madSlotIndex(const std::string& line) {
  const size_t at = line.find("mad.lo.u32 %h_");
  if (at == std::string::npos || line.compare(at + 15, 9, ", %h_n32,") != 0) return -1;
  const char reg = line[at + 14];
  if (reg != 'a' && reg != 'b') return -1;
  const size_t comma = line.find(',', at + 25);
  const size_t semi = line.find(';', comma == std::string::npos ? at : comma);
  if (comma == std::string::npos || semi == std::string::npos) return -1;
  const std::string k = line.substr(at + 25, comma - at - 25), i = line.substr(comma + 1, semi - comma - 1);
  auto digits = [](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos ? t : std::string();
  };
  if (digits(k).empty() || digits(i).empty()) return -1;
  return std::stoi(digits(i));
}

SlotUse slotUse(const std::string& ptx) {
  SlotUse u;
  std::istringstream in(ptx);
  bool tally = false;
  int index = -1;
  std::pair<std::string, int> slot{"", -1};
  // Plain string matching, not <regex>: GCC 12 warns (maybe-uninitialized) inside libstdc++'s
  // regex under the sanitizer build, which treats warnings as errors.
  for (std::string line; std::getline(in, line);) {
    if (line.find(".entry litmus_tally") != std::string::npos) tally = true;
    if (const auto at = madSlotIndex(line); at >= 0) index = at;
    for (const char* buffer : {"res", "shout"})
      if (line.find(std::string("add.u64 %h_A, %h_A, %h_") + buffer + ";") != std::string::npos)
        slot = {buffer, index};
    const bool store = line.find("st.global.v2.u64 [%h_A], {") != std::string::npos ||
                       line.find("st.global.u64 [%h_A+8], %h_tag;") != std::string::npos;
    if (!tally && store && line.find("%h_tag") != std::string::npos) u.tagged.insert(slot);
    if (tally && line.find("setp.ne.and.u64 %h_p, %h_Y, %h_tag") != std::string::npos) u.compared.insert(slot);
    if (tally && line.find("st.global.u64 [%h_A+8], 0;") != std::string::npos) u.poisoned.insert(slot);
  }
  return u;
}

}  // namespace

// The sentinel protocol, read off the generated PTX (no GPU here): every result slot is written
// with its launch's tag by exactly one thread's end (shared copy-outs by whichever owner thread
// finishes last), and the tally compares each slot's tag before counting it and poisons it after.
// A thread whose result stores were dropped fails here.
TEST_CASE("every result slot is tagged by its thread and compared and poisoned by the tally") {
  std::vector<litmus::Test> tests;
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) tests.push_back(litmus::parseYaml(s.yaml, s.path));
  for (const auto& [test, golden] : kGolden) tests.push_back(catalogue(test));
  for (const litmus::Test& t : tests) {
    CAPTURE(t.name);
    const gpu::Plan plan = gpu::makePlan(t);
    const SlotUse u = slotUse(gpu::generatePtx(t));
    std::set<std::pair<std::string, int>> all;
    for (int i = 0; i < plan.regResults; ++i) all.insert({"res", i});
    for (int i = 0; i < plan.sharedResults; ++i) all.insert({"shout", i});
    CHECK(u.compared == all);
    CHECK(u.poisoned == all);
    for (const auto& slot : all) {
      CAPTURE(slot.first);
      CAPTURE(slot.second);
      if (slot.first == "res") CHECK(u.tagged.count(slot) == 1);
      else CHECK(u.tagged.count(slot) >= 1);
    }
    CHECK(std::set<std::pair<std::string, int>>(u.tagged.begin(), u.tagged.end()) == all);
  }
}
