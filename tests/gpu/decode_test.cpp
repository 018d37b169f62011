// The test kernel's placement decode, checked by executing the generated PTX itself rather than a
// copy of its formulas: a small interpreter runs the integer prologue of `litmus_test` for every
// hardware thread of a drawn launch, up to the point where the thread knows its instance
// (%h_n32) and litmus thread (%h_t). The result must place every litmus thread of every instance
// exactly once (32 times in warp mode, one per lane), and where the test says: threads of one CTA
// in one hardware CTA, of one cluster in one hardware cluster, and in fixed mode at their warp and
// lane.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "gpu-runner/params.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/runner.h"
#include "gpu-runner/self_test.h"
#include "tests/gpu/ptx_interp.h"
#include "litmus/files.h"
#include "litmus/parse.h"

namespace {

using namespace ptxsim;

struct Position {
  uint32_t cta, warp, lane;
  size_t grid = 0;  // the launch (grid) it ran in
  uint32_t gpu = 0;  // the device (test GPU) it ran on: each runs the same launch
};

// Runs the prologue of one hardware thread: (instance, litmus thread), or nothing for a thread
// that idles or stresses.
std::optional<std::pair<uint64_t, int>> decode(const Program& p, const gpu::Launch& l, int clusterSize,
                                               const Position& pos) {
  Machine m;
  m.launch = &l;
  m.reg["%tid.x"] = pos.warp * 32 + pos.lane;
  m.reg["%ctaid.x"] = pos.cta;
  m.reg["%cluster_ctarank"] = pos.cta % static_cast<uint32_t>(clusterSize);
  m.reg["%clusterid.x"] = pos.cta / static_cast<uint32_t>(clusterSize);
  for (const char* param : {"p_loc", "p_res", "p_shout", "p_spin", "p_scratch"}) m.reg[std::string("[") + param + "]"] = 0;
  m.reg["[p_gpu]"] = pos.gpu;  // a test across GPUs only
  bool atInstance = false;
  for (size_t pc = 0, steps = 0; pc < p.code.size() && steps < 100000; ++steps) {
    const Instr& in = p.code[pc++];
    const bool neg = !in.guard.empty() && in.guard[0] == '!';
    if (!in.guard.empty() && (m.value(in.guard.substr(neg)) != 0) == neg) continue;
    if (in.op == "ret") return std::nullopt;
    if (in.op.rfind("griddepcontrol", 0) == 0) continue;  // lets dependents launch: no placement
    if (in.op.rfind("bra", 0) == 0) {
      const std::string& target = in.args.at(0);
      if (target == "H_IDLE" || target == "H_STRESS") return std::nullopt;
      if (target == "H_INSTANCE") atInstance = true;
      pc = p.labels.at(target);
      continue;
    }
    if (!execute(m, in)) {
      if (atInstance) break;  // past the decode: the instance is known
      FAIL("instruction outside the interpreter before the instance is known: " << in.op);
    }
    if (atInstance && m.reg.count("%h_n32")) break;
  }
  REQUIRE(atInstance);
  return std::make_pair(m.value("%h_n32"), static_cast<int>(static_cast<int32_t>(m.value("%h_t"))));
}

void checkPlacement(const litmus::Test& test, const gpu::Plan& plan, const gpu::Launch& l) {
  const Program prog = parseKernel(gpu::generatePtx(test));
  const int threads = static_cast<int>(plan.threads.size());
  std::map<std::pair<uint64_t, int>, std::vector<Position>> where;
  // A test of several grids is one launch per grid, told apart by the kGrid word (harness.cpp);
  // each litmus thread runs in the launch of its own grid.
  // A test across GPUs runs the launch on each device, told apart by p_gpu.
  const size_t grids = std::max<size_t>(1, plan.gridProgrammatic.size());
  for (uint32_t dev = 0; dev < static_cast<uint32_t>(plan.gpus); ++dev)
  for (size_t g = 0; g < grids; ++g)
  for (uint32_t cta = 0; cta < l.blocks; ++cta)
    for (uint32_t tid = 0; tid < l.threads; ++tid) {
      gpu::Launch lg = l;
      lg.words[gpu::kGrid] = static_cast<uint32_t>(g);
      const Position pos{cta, tid / 32, tid % 32, g, dev};
      const auto d = decode(prog, lg, plan.shape.clusterSize, pos);
      if (!d) continue;
      // In fixed mode the lanes without a litmus thread come along (thread -1) and do nothing.
      if (d->second < 0 || d->second >= threads) CHECK(plan.mode == gpu::Mode::Fixed);
      else where[*d].push_back(pos);
    }
  const size_t perThread = plan.mode == gpu::Mode::Warp ? 32 : 1;
  REQUIRE(where.size() == l.instances * static_cast<uint64_t>(threads));  // every (instance, thread)
  const auto cluster = [&](const Position& p) { return p.cta / static_cast<uint32_t>(plan.shape.clusterSize); };
  for (uint64_t n = 0; n < l.instances; ++n)
    for (int t = 0; t < threads; ++t) {
      const std::vector<Position>& at = where[{n, t}];
      // a warpgroup: the four warps of one aligned group of its block (§9.7.15.2)
      const bool group = plan.threads[static_cast<size_t>(t)].warpgroup;
      REQUIRE(at.size() == (group ? 4 * perThread : perThread));
      for (const Position& p : at)
        if (group) CHECK((p.cta == at[0].cta && p.warp / 4 == at[0].warp / 4));
      const litmus::Thread& lt = test.threads[static_cast<size_t>(t)];
      if (plan.mode == gpu::Mode::Fixed) CHECK(at[0].lane == static_cast<uint32_t>(plan.threads[static_cast<size_t>(t)].lane));
      CHECK(at[0].gpu == static_cast<uint32_t>(plan.roleGpu[static_cast<size_t>(plan.threads[static_cast<size_t>(t)].role)]));
      for (int u = 0; u < t; ++u) {
        const litmus::Thread& lu = test.threads[static_cast<size_t>(u)];
        const Position& a = at[0];
        const Position& b = where[{n, u}][0];
        CHECK((a.gpu == b.gpu) == (lt.gpu == lu.gpu));
        CHECK((a.gpu == b.gpu && a.grid == b.grid && a.cta == b.cta) == (lt.cta == lu.cta && lt.cluster == lu.cluster));
        CHECK((a.gpu == b.gpu && a.grid == b.grid && cluster(a) == cluster(b)) == (lt.cluster == lu.cluster));
        // Fixed mode: lanes the test puts in one warp share a hardware warp; a thread with a
        // warp of its own (warp: -1) or another warp number gets another.
        if (plan.mode == gpu::Mode::Fixed)
          CHECK((a.gpu == b.gpu && a.grid == b.grid && a.cta == b.cta && a.warp == b.warp) ==
                (lt.cta == lu.cta && lt.warp >= 0 && lt.warp == lu.warp));
      }
    }
}

}  // namespace

TEST_CASE("the generated PTX places every thread of every instance once, where the test says") {
  gpu::Profile profile;
  profile.threadsPerBlock = 128;
  profile.occupancyPct = 5;
  gpu::Rng rng(3);
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) {
    const std::string path = s.path;
    CAPTURE(path);
    const litmus::Test test = litmus::parseYaml(s.yaml, s.path);
    const gpu::Plan plan = gpu::makePlan(test);
    for (int launch = 0; launch < 2; ++launch) {
      gpu::Shape shape = plan.shape;
      shape.maxTestClusters = 24;  // keep the launch small enough to interpret
      checkPlacement(test, plan, gpu::drawLaunch(shape, profile, rng));
    }
  }
}

TEST_CASE("the generated PTX places the threads of every catalogue test it can run") {
  gpu::Profile profile;
  profile.threadsPerBlock = 128;
  profile.occupancyPct = 5;
  gpu::Rng rng(4);
  int checked = 0;
  for (const std::string& file : litmus::findTestFiles({std::string(LITMUS_SOURCE_DIR) + "/catalog"})) {
    if (file.size() < 5 || file.substr(file.size() - 5) != ".yaml") continue;
    CAPTURE(file);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const litmus::Test test = litmus::parseYaml(text.str(), file);
    gpu::Plan plan;
    try {
      plan = gpu::makePlan(test);
      (void)gpu::generatePtx(test);
    } catch (const litmus::Error&) {
      continue;  // refused: tests/gpu/generate_test.cpp checks refusals
    }
    gpu::Shape shape = plan.shape;
    shape.maxTestClusters = 12;
    checkPlacement(test, plan, gpu::drawLaunch(shape, profile, rng));
    ++checked;
  }
  CHECK(checked >= 200);
}
