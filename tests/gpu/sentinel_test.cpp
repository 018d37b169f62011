// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"
// The result-slot sentinel, executed: the generated PTX of a few tests is run through the
// interpreter of tests/gpu/ptx_interp.h. Each litmus thread's end (T<t>_END .. ret) writes its
// result slots into a simulated global memory, then the tally kernel reads them up to the point
// where it has made the histogram key. A thread that never ran must show up in the key's masks
// (not recorded), a slot left by an earlier launch must not be taken for this launch's, and a slot
// the tally has read must not be read again.
#include <doctest/doctest.h>

#include "gpu-runner/params.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/ptx_gen.h"
#include "gpu-runner/runner.h"
#include "gpu-runner/self_test.h"
#include "litmus/parse.h"
#include "tests/gpu/ptx_interp.h"

namespace {

using ptxsim::Machine;
using ptxsim::Program;

// Simulated buffers, far apart.
constexpr uint64_t kLoc = 1ULL << 40, kNext = 2ULL << 40, kRes = 3ULL << 40, kShout = 4ULL << 40,
                   kSpin = 5ULL << 40, kTable = 6ULL << 40;

struct Sim {
  litmus::Test test;
  gpu::Plan plan;
  Program kernel, tally;
  gpu::Launch launch;
  ptxsim::Memory memory;
};

Sim simulate(const litmus::Test& t) {
  Sim s{t, gpu::makePlan(t), {}, {}, {}, {}};
  const std::string ptx = gpu::generatePtx(t);
  s.kernel = ptxsim::parseKernel(ptx, "litmus_test");
  s.tally = ptxsim::parseKernel(ptx, "litmus_tally");
  gpu::Shape shape = s.plan.shape;
  shape.maxTestClusters = 8;
  gpu::Profile profile;
  profile.threadsPerBlock = 128;
  profile.occupancyPct = 5;
  gpu::Rng rng(11);
  s.launch = gpu::drawLaunch(shape, profile, rng);
  return s;
}

// Runs from `label` to the first instruction `stop` begins with (or ret); every instruction on the
// way must be one the interpreter knows.
void runFrom(const Program& p, Machine& m, const std::string& label, const std::string& stop) {
  for (size_t pc = label.empty() ? 0 : p.labels.at(label), steps = 0; pc < p.code.size() && steps < 100000; ++steps) {
    const ptxsim::Instr& in = p.code[pc++];
    if (in.op == "ret" || (!stop.empty() && in.op.rfind(stop, 0) == 0)) return;
    const bool neg = !in.guard.empty() && in.guard[0] == '!';
    if (!in.guard.empty() && (m.value(in.guard.substr(neg)) != 0) == neg) continue;
    if (in.op.rfind("bra", 0) == 0) {
      pc = p.labels.at(in.args.at(0));
      continue;
    }
    if (!ptxsim::execute(m, in)) FAIL("the interpreter does not know '" << in.op << "'");
  }
}

uint64_t tag(uint32_t epoch) { return gpu::kTagMark | epoch; }

// Every litmus thread but `skip` reaches its end in every instance of the launch, with `epoch`.
void threadsEnd(Sim& s, uint32_t epoch, int skip) {
  for (uint64_t n = 0; n < s.launch.instances; ++n)
    for (size_t t = 0; t < s.plan.threads.size(); ++t) {
      if (static_cast<int>(t) == skip) continue;
      Machine m;
      m.memory = &s.memory;
      m.launch = &s.launch;
      m.inventRegisters = true;
      m.reg = {{"%h_n32", n}, {"%h_res", kRes}, {"%h_shout", kShout}, {"%h_loc", kLoc}, {"%h_tag", tag(epoch)},
               {"%h_lane0", 1}, {"%h_ser", 0}};  // not serial: each thread ends (serial_test.cpp)
      runFrom(s.kernel, m, "T" + std::to_string(t) + "_END", "");
    }
}

// The tally's keys for every instance of the launch numbered `epoch`: observed values, then the
// mask of unwritten terms, then the mask of threads that left no sign of finishing.
std::vector<std::vector<uint64_t>> tallyKeys(Sim& s, uint32_t epoch) {
  gpu::Launch now = s.launch;
  now.words[gpu::kEpoch] = epoch;
  std::vector<std::vector<uint64_t>> keys;
  const size_t m = s.plan.observed.size();
  for (uint64_t n = 0; n < s.launch.instances; ++n) {
    Machine mc;
    mc.memory = &s.memory;
    mc.launch = &now;
    mc.nextLaunch = &now;
    mc.reg = {{"%ctaid.x", n / 256}, {"%ntid.x", 256},   {"%tid.x", n % 256},       {"[p_loc]", kLoc},
              {"[p_next]", kNext},   {"[p_res]", kRes},  {"[p_shout]", kShout},     {"[p_spin]", kSpin},
              {"[p_table]", kTable}, {"[p_mode]", gpu::kTallyRead}};
    runFrom(s.tally, mc, "", "match");
    REQUIRE(mc.value("%h_valid") == 1);
    std::vector<uint64_t> key;
    for (size_t i = 0; i < m + 2; ++i) key.push_back(mc.value("%k" + std::to_string(i)));
    keys.push_back(key);
  }
  return keys;
}

std::vector<litmus::Test> subjects() {
  std::vector<litmus::Test> out;
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) {
    const std::string path = s.path;
    // Threads whose ends hold only result stores: lane mode with registers and done slots, warp mode.
    for (const char* name : {"registers", "atom-two-ctas", "atom-three-clusters", "laneid", "st-ld-global"})
      if (path.find(std::string("/") + name + ".yaml") != std::string::npos) out.push_back(litmus::parseYaml(s.yaml, s.path));
  }
  return out;
}

// Bits of the key's masks that thread t's slots own.
std::pair<uint64_t, uint64_t> ownBits(const gpu::Plan& plan, int t) {
  uint64_t terms = 0;
  for (size_t i = 0; i < plan.observed.size(); ++i)
    if (plan.observed[i].kind == gpu::ObsPlan::Kind::Reg && plan.observed[i].thread == t) terms |= uint64_t{1} << i;
  const uint64_t threads = plan.threads[static_cast<size_t>(t)].doneSlot >= 0 ? uint64_t{1} << t : 0;
  return {terms, threads};
}

}  // namespace

TEST_CASE("the sentinel executed on the generated PTX: recorded slots; a thread that never ran; stale and read slots") {
  const std::vector<litmus::Test> tests = subjects();
  REQUIRE(tests.size() == 5);
  for (const litmus::Test& t : tests) {
    CAPTURE(t.name);
    const size_t m = gpu::makePlan(t).observed.size();
    SUBCASE("every thread reaches its end: recorded, with its registers' values") {
      Sim s = simulate(t);
      threadsEnd(s, 1, -1);
      for (const std::vector<uint64_t>& key : tallyKeys(s, 1)) {
        CHECK(key[m] == 0);
        CHECK(key[m + 1] == 0);
        for (size_t i = 0; i < m; ++i) {
          const gpu::ObsPlan& o = s.plan.observed[i];
          if (o.kind != gpu::ObsPlan::Kind::Reg) continue;
          const gpu::RegPlan& r = s.plan.threads[static_cast<size_t>(o.thread)].regs.at(o.reg);
          if (!r.pred) CHECK(key[i] == Machine::invented(r.ptx));
        }
      }
    }
    SUBCASE("a thread that never runs: its slots are not recorded, the others are") {
      for (int skip = 0; skip < static_cast<int>(t.threads.size()); ++skip) {
        Sim s = simulate(t);
        threadsEnd(s, 1, skip);
        const auto [terms, threads] = ownBits(s.plan, skip);
        REQUIRE((terms | threads) != 0);  // every thread leaves some slot
        for (const std::vector<uint64_t>& key : tallyKeys(s, 1)) {
          CHECK(key[m] == terms);
          CHECK(key[m + 1] == threads);
          for (size_t i = 0; i < m; ++i)
            if ((terms >> i) & 1) CHECK(key[i] == 0);
        }
      }
    }
    SUBCASE("slots an earlier launch wrote are not this launch's") {
      Sim s = simulate(t);
      threadsEnd(s, 1, -1);
      for (const std::vector<uint64_t>& key : tallyKeys(s, 2)) CHECK((key[m] | key[m + 1]) != 0);
    }
    SUBCASE("a slot the tally has read is poisoned: read again, it is not recorded") {
      Sim s = simulate(t);
      threadsEnd(s, 1, -1);
      (void)tallyKeys(s, 1);
      for (const std::vector<uint64_t>& key : tallyKeys(s, 1)) CHECK((key[m] | key[m + 1]) != 0);
    }
  }
}
