// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"
// Serial roles (kFlagSerial) and the launch-wide spin barrier (kFlagGlobalBarrier), checked by
// executing the generated test kernel itself for every hardware thread of a drawn launch: the
// interpreter (ptx_interp.h) runs the harness code, skips each litmus thread's body (from
// T<t>_BEGIN to T<t>_END, recording which instance it was for), runs the result stores into a
// memory map and models the barrier's red.add on the counter. So the decode, the chaining of the
// bodies in one lane, the result slots and the barrier's arrival count are the PTX's, not copies.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gpu-runner/params.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/ptx_gen.h"
#include "gpu-runner/runner.h"
#include "litmus/files.h"
#include "litmus/parse.h"
#include "tests/gpu/ptx_interp.h"

namespace {

using namespace ptxsim;

// Separate address ranges, so that a store says what it wrote.
constexpr uint64_t kLocBase = 1ULL << 32, kResBase = 2ULL << 32, kSpinBase = 3ULL << 32, kScratch = 4ULL << 32;

// Two peer tests (gen/configs/peer-nine.yaml): ISA2 with P0 and P1 in one CTA, and IRIW with three
// threads in one CTA and the fourth in another.
const char* kIsa2 = R"(name: ISA2-cta01_2
locations: {x: 0, y: 0, z: 0}
threads:
  P0:
    cta: 0
    code: |
      st.relaxed.cta.global.u32 [x], 1;
      fence.acq_rel.cta;
      st.relaxed.cta.global.u32 [y], 1;
  P1:
    cta: 0
    code: |
      ld.relaxed.cta.global.u32 %r0, [y];
      fence.acq_rel.cta;
      st.relaxed.cta.global.u32 [z], 1;
  P2:
    cta: 1
    code: |
      ld.relaxed.cta.global.u32 %r0, [z];
      fence.acq_rel.cta;
      ld.relaxed.cta.global.u32 %r1, [x];
condition: 'exists (P1:r0 == 1 /\ P2:r0 == 1 /\ P2:r1 == 0)'
)";

const char* kIriw = R"(name: IRIW-cta013_2
locations: {x: 0, y: 0}
threads:
  P0:
    cta: 0
    code: |
      st.relaxed.cta.global.u32 [x], 1;
  P1:
    cta: 0
    code: |
      ld.acquire.cta.global.u32 %r0, [x];
      ld.relaxed.cta.global.u32 %r1, [y];
  P2:
    cta: 1
    code: |
      st.relaxed.cta.global.u32 [y], 1;
  P3:
    cta: 0
    code: |
      ld.acquire.cta.global.u32 %r0, [y];
      ld.relaxed.cta.global.u32 %r1, [x];
condition: 'exists (P1:r0 == 1 /\ P1:r1 == 0 /\ P3:r0 == 1 /\ P3:r1 == 0)'
)";

struct Run {
  uint32_t cta, tid;
  std::vector<std::pair<uint64_t, int>> bodies;  // (instance, litmus thread), in the order run
  std::vector<uint64_t> targets;                 // the arrival count each barrier add waits for
};

// One hardware thread from the kernel's entry to its `ret`; memory is shared by all of them.
Run runThread(const Program& p, const gpu::Launch& l, uint32_t cta, uint32_t tid, int threads, Memory& mem,
              std::map<uint64_t, int>& resultStores) {
  Run run{cta, tid, {}, {}};
  Machine m;
  m.launch = &l;
  m.memory = &mem;
  m.inventRegisters = true;  // the bodies' registers, stored as results
  m.reg["%tid.x"] = tid;
  m.reg["%ctaid.x"] = cta;
  m.reg["[p_loc]"] = kLocBase;
  m.reg["[p_res]"] = kResBase;
  m.reg["[p_shout]"] = 0;
  m.reg["[p_spin]"] = kSpinBase;
  m.reg["[p_scratch]"] = kScratch;
  std::map<size_t, int> begins;
  for (int t = 0; t < threads; ++t) begins[p.labels.at("T" + std::to_string(t) + "_BEGIN")] = t;
  for (size_t pc = 0, steps = 0; steps < 200000; ++steps) {
    REQUIRE(pc < p.code.size());
    if (const auto b = begins.find(pc); b != begins.end()) {  // the body: only which instance
      run.bodies.emplace_back(m.value("%h_n32"), b->second);
      pc = p.labels.at("T" + std::to_string(b->second) + "_END");
      continue;
    }
    const Instr& in = p.code[pc++];
    const bool neg = !in.guard.empty() && in.guard[0] == '!';
    if (!in.guard.empty() && (m.value(in.guard.substr(neg)) != 0) == neg) continue;
    if (in.op == "ret") return run;
    if (in.op.rfind("bra", 0) == 0) {
      if (in.args.at(0) == "H_IDLE" || in.args.at(0) == "H_STRESS") return run;
      pc = p.labels.at(in.args.at(0));
      continue;
    }
    if (in.op.rfind("red.", 0) == 0 && has(in.op, ".add.u32")) {  // the barrier's arrival
      const uint64_t at = m.address(in.args.at(0));
      run.targets.push_back(m.value("%h_d"));
      m.store(at, 4, m.load(at, 4) + m.value(in.args.at(1)));
      continue;
    }
    if (in.op == "bar.sync" || in.op == "bar.warp.sync") continue;  // one thread at a time
    if (in.op.rfind("st.", 0) == 0 && has(in.op, ".global")) {
      const uint64_t at = m.address(in.args.at(0));
      if (at >= kResBase && at < kSpinBase) ++resultStores[at / gpu::kResultSlotBytes * gpu::kResultSlotBytes];
    }
    if (!execute(m, in)) FAIL("instruction outside the interpreter: " << in.op);
  }
  FAIL("the thread did not end");
  return run;
}

// Runs every thread of the launch (alignment made short: no delays, two polls) and checks what
// the kernel did. Returns the number of barrier arrivals.
uint64_t checkLaunch(const litmus::Test& test, const gpu::Plan& plan, gpu::Launch l) {
  l.words[gpu::kDelayMax] = 0;
  l.words[gpu::kRoleSkew] = 0;
  l.words[gpu::kPreStressIters] = 0;
  if (l.words[gpu::kSpinLimit] > 0) l.words[gpu::kSpinLimit] = 2;
  const Program prog = parseKernel(gpu::generatePtx(test));
  const int T = static_cast<int>(plan.threads.size());
  const uint64_t N = l.instances;
  Memory mem;
  std::map<uint64_t, int> stores;
  std::vector<Run> runs;
  for (uint32_t cta = 0; cta < l.blocks; ++cta)
    for (uint32_t tid = 0; tid < l.threads; ++tid) runs.push_back(runThread(prog, l, cta, tid, T, mem, stores));
  // every (instance, litmus thread) once, by one hardware thread
  std::map<std::pair<uint64_t, int>, std::vector<const Run*>> where;
  uint64_t lanesWithBodies = 0;
  for (const Run& r : runs) {
    lanesWithBodies += !r.bodies.empty();
    if (l.serial()) {  // each lane: every thread, in order
      if (r.cta < l.words[gpu::kTestClusters]) REQUIRE(r.bodies.size() == static_cast<size_t>(T));
      for (size_t i = 0; i < r.bodies.size(); ++i) CHECK(r.bodies[i].second == static_cast<int>(i));
    } else {
      CHECK(r.bodies.size() <= 1);
    }
    for (const auto& b : r.bodies) where[b].push_back(&r);
  }
  REQUIRE(where.size() == N * static_cast<uint64_t>(T));
  if (l.serial()) CHECK(lanesWithBodies == N);  // an instance per testing lane
  for (uint64_t n = 0; n < N; ++n)
    for (int t = 0; t < T; ++t) {
      const auto& at = where[{n, t}];
      REQUIRE(at.size() == 1);
      for (int u = 0; u < t; ++u) {  // the test's CTAs are the hardware's; never one lane twice
        const Run* a = at[0];
        const Run* b = where[{n, u}].at(0);
        CHECK((a->cta == b->cta) == (test.threads[static_cast<size_t>(t)].cta == test.threads[static_cast<size_t>(u)].cta));
        CHECK((a->cta != b->cta || a->tid != b->tid));
      }
    }
  // every result slot of every instance written once, with this launch's tag
  const uint64_t tag = gpu::kTagMark | l.words[gpu::kEpoch];
  CHECK(stores.size() == N * static_cast<uint64_t>(plan.regResults));
  for (uint64_t n = 0; n < N; ++n)
    for (int s = 0; s < plan.regResults; ++s) {
      const uint64_t at = kResBase + (n * static_cast<uint64_t>(plan.regResults) + static_cast<uint64_t>(s)) *
                                         gpu::kResultSlotBytes;
      CHECK(stores[at] == 1);
      Machine m;
      m.memory = &mem;
      CHECK(m.load(at + 8, 8) == tag);
    }
  // the barrier: each arrival waits for exactly the lanes that arrive
  uint64_t arrivals = 0;
  for (const Run& r : runs) arrivals += r.targets.size();
  const bool global = l.words[gpu::kSpinLimit] > 0 && l.words[gpu::kFlags] != 0;
  if (global) {
    Machine m;
    m.memory = &mem;
    CHECK(m.load(kSpinBase + 4 * N, 4) == arrivals);
    for (const Run& r : runs)
      for (uint64_t target : r.targets) CHECK(target == arrivals);
    CHECK(arrivals == lanesWithBodies);  // lane mode: every lane that runs a thread
  } else {
    // the per-group barrier, when drawn: lane 0 of each warp
    CHECK((arrivals == 0 || arrivals * 32 == lanesWithBodies));
  }
  return arrivals;
}

gpu::Shape smallShape(const gpu::Plan& plan) {
  gpu::Shape s = plan.shape;
  s.maxTestClusters = 6;  // small enough to interpret every thread
  return s;
}

}  // namespace

TEST_CASE("serial roles: every testing lane runs every litmus thread, each instance's once") {
  gpu::Profile p;
  p.threadsPerBlock = 128;
  p.serialPct = 100;
  gpu::Rng rng(17);
  for (const char* yaml : {kIsa2, kIriw}) {
    const litmus::Test test = litmus::parseYaml(yaml, "peer.yaml");
    CAPTURE(test.name);
    const gpu::Plan plan = gpu::makePlan(test);
    REQUIRE(plan.shape.serial);
    for (int launch = 0; launch < 3; ++launch) {
      p.barrierPct = launch == 0 ? 0 : 100;
      const gpu::Launch l = gpu::drawLaunch(smallShape(plan), p, rng);
      REQUIRE(l.serial());
      CHECK(l.instances == uint64_t{l.words[gpu::kTestClusters]} * l.threads);
      CHECK(checkLaunch(test, plan, l) == (p.barrierPct ? l.instances : 0));
    }
  }
}

TEST_CASE("the launch-wide spin barrier counts every testing lane; mixed launches decode too") {
  gpu::Profile p;
  p.threadsPerBlock = 64;
  p.globalBarrierPct = 100;
  gpu::Rng rng(23);
  for (const char* yaml : {kIsa2, kIriw}) {
    const litmus::Test test = litmus::parseYaml(yaml, "peer.yaml");
    CAPTURE(test.name);
    const gpu::Plan plan = gpu::makePlan(test);
    const gpu::Launch l = gpu::drawLaunch(smallShape(plan), p, rng);
    REQUIRE(l.words[gpu::kFlags] == gpu::kFlagGlobalBarrier);
    CHECK(checkLaunch(test, plan, l) == uint64_t{l.words[gpu::kU]} * l.words[gpu::kK] * 32 * plan.warpsPerInstance);
    p.globalBarrierPct = 0;  // and the per-group barrier still places everything
    checkLaunch(test, plan, gpu::drawLaunch(smallShape(plan), p, rng));
    p.globalBarrierPct = 100;
    p.serialPct = 50;
    for (int launch = 0; launch < 4; ++launch) checkLaunch(test, plan, gpu::drawLaunch(smallShape(plan), p, rng));
    p.serialPct = 0;
  }
}

TEST_CASE("tests that need their placement ignore serialPct") {
  gpu::Profile p;
  p.serialPct = 100;
  gpu::Rng rng(5);
  // a CTA barrier, shared memory: not serial
  const litmus::Test test = litmus::parseYaml(R"(name: MP-bar
locations: {x: 0, y: {init: 0, space: shared}}
threads:
  P0:
    cta: 0
    code: |
      st.global.u32 [x], 1;
      bar.sync 0;
  P1:
    cta: 0
    code: |
      bar.sync 0;
      ld.global.u32 %r0, [x];
condition: 'exists (P1:r0 == 0)'
)", "bar.yaml");
  const gpu::Plan plan = gpu::makePlan(test);
  CHECK_FALSE(plan.shape.serial);
  const gpu::Launch l = gpu::drawLaunch(smallShape(plan), p, rng);
  CHECK_FALSE(l.serial());
  CHECK(gpu::generatePtx(test).find("H_SERIAL") == std::string::npos);
}

// Optional, outside the suite (about 0.1 s a test): LITMUS_SERIAL_DIR=/tmp/peer after
// `litmus gen --config gen/configs/peer-nine.yaml -o /tmp/peer` runs the same checks on every
// generated test, one serial launch and one launch-wide-barrier launch each.
TEST_CASE("serial roles and the launch-wide barrier on every test of LITMUS_SERIAL_DIR") {
  const char* dir = std::getenv("LITMUS_SERIAL_DIR");
  if (!dir) return;
  gpu::Profile serial, global;
  serial.threadsPerBlock = global.threadsPerBlock = 64;
  serial.serialPct = 100;
  global.globalBarrierPct = 100;
  gpu::Rng rng(41);
  int checked = 0;
  for (const std::string& file : litmus::findTestFiles({dir})) {
    if (file.size() < 5 || file.substr(file.size() - 5) != ".yaml") continue;
    CAPTURE(file);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const litmus::Test test = litmus::parseYaml(text.str(), file);
    const gpu::Plan plan = gpu::makePlan(test);
    REQUIRE(plan.shape.serial);
    const gpu::Launch l = gpu::drawLaunch(smallShape(plan), serial, rng);
    REQUIRE(l.serial());
    CHECK(checkLaunch(test, plan, l) == l.instances);
    checkLaunch(test, plan, gpu::drawLaunch(smallShape(plan), global, rng));
    ++checked;
  }
  MESSAGE("checked " << checked << " tests");
  CHECK(checked > 0);
}

// In serial roles each lane runs the threads in turn, each for another instance: a thread that
// spins for a later thread of its instance waits for a lane that is itself still spinning in its
// own first thread. On the H100 a sweep share that drew serialPct hung correct spin barriers.
TEST_CASE("a test whose threads spin for each other never runs in serial roles") {
  const litmus::Test test = litmus::parseYaml(R"(name: spin-pair
locations: {x: 0, f: 0}
threads:
  P0:
    cta: 0
    code: |
      W:
      ld.acquire.gpu.global.u32 %r0, [f];
      setp.eq.u32 %p, %r0, 0;
      @%p bra W;
      ld.global.u32 %r1, [x];
  P1:
    cta: 1
    code: |
      st.global.u32 [x], 1;
      st.release.gpu.global.u32 [f], 1;
condition: 'exists (P0:r1 == 0)'
)", "spin.yaml");
  CHECK_FALSE(gpu::makePlan(test).shape.serial);
  // a forward branch is no loop: the test keeps serial roles
  const litmus::Test forward = litmus::parseYaml(R"(name: skip
locations: {x: 0, f: 0}
threads:
  P0:
    cta: 0
    code: |
      ld.acquire.gpu.global.u32 %r0, [f];
      setp.eq.u32 %p, %r0, 0;
      @%p bra L;
      ld.global.u32 %r1, [x];
      L:
  P1:
    cta: 1
    code: |
      st.global.u32 [x], 1;
      st.release.gpu.global.u32 [f], 1;
condition: 'exists (P0:r1 == 0)'
)", "skip.yaml");
  CHECK(gpu::makePlan(forward).shape.serial);
}
