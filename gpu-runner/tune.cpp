// --tune: seeded random search over stress profiles. Each candidate runs every calibration test;
// its score is the geometric mean over the tests of (1 + weak outcomes per second), so a profile
// must expose weak behaviour in all of them, not just in one.
#include <cmath>
#include <map>

#include "gpu-runner/params.h"
#include "gpu-runner/runner.h"
#include "gpu-runner/sweep.h"
#include "litmus/parse.h"

namespace gpu {

namespace {

// MP, SB and LB with .relaxed.gpu accesses in different CTAs: the shapes whose weak outcomes
// the published harnesses tune for. The condition of each is its weak outcome.
constexpr const char* kCalibration[] = {
    R"(name: MP+rlx.gpu
locations: {x: 0, y: 0}
threads:
  P0:
    code: |
      st.relaxed.gpu.global.u32 [x], 1;
      st.relaxed.gpu.global.u32 [y], 1;
  P1:
    code: |
      ld.relaxed.gpu.global.u32 %r0, [y];
      ld.relaxed.gpu.global.u32 %r1, [x];
condition: exists (P1:r0 == 1 /\ P1:r1 == 0)
)",
    R"(name: SB+rlx.gpu
locations: {x: 0, y: 0}
threads:
  P0:
    code: |
      st.relaxed.gpu.global.u32 [x], 1;
      ld.relaxed.gpu.global.u32 %r0, [y];
  P1:
    code: |
      st.relaxed.gpu.global.u32 [y], 1;
      ld.relaxed.gpu.global.u32 %r0, [x];
condition: exists (P0:r0 == 0 /\ P1:r0 == 0)
)",
    R"(name: LB+rlx.gpu
locations: {x: 0, y: 0}
threads:
  P0:
    code: |
      ld.relaxed.gpu.global.u32 %r0, [x];
      st.relaxed.gpu.global.u32 [y], 1;
  P1:
    code: |
      ld.relaxed.gpu.global.u32 %r0, [y];
      st.relaxed.gpu.global.u32 [x], 1;
condition: exists (P0:r0 == 1 /\ P1:r0 == 1)
)",
};

}  // namespace

std::vector<litmus::Test> calibrationTests() {
  std::vector<litmus::Test> tests;
  for (const char* text : kCalibration) tests.push_back(litmus::parseYaml(text, "<calibration>"));
  return tests;
}

TuneResult tune(const std::vector<litmus::Test>& calibration, const TuneOptions& options) {
  TuneResult result;
  Runner own;  // one worker for every trial
  Runner& runner = options.runner ? *options.runner : own;
  Rng rng(options.run.seed ^ 0x7475e3b1d2c4a5f6ULL);
  for (int trial = 0; trial < options.trials; ++trial) {
    RunOptions o = options.run;
    o.profile = trial == 0 ? options.run.profile : randomProfile(rng);
    o.seed = options.run.seed + static_cast<uint64_t>(trial);
    double logSum = 0;
    for (const litmus::Test& test : calibration) {
      const RunResult r = runner.run(test, o);
      if (r.status != RunStatus::Ok) {
        result.status = r.status;
        result.message = test.name + ": " + r.message;
        return result;
      }
      const double perSecond = r.seconds > 0 ? static_cast<double>(conditionHits(test, r)) / r.seconds : 0;
      logSum += std::log1p(perSecond);
    }
    const double score =
        calibration.empty() ? 0 : std::expm1(logSum / static_cast<double>(calibration.size()));
    if (options.onTrial) options.onTrial(trial, o.profile, score);
    if (trial == 0 || score > result.bestScore) {
      result.best = o.profile;
      result.bestScore = score;
    }
  }
  return result;
}

std::map<std::string, std::vector<litmus::Test>> byFamily(const std::vector<litmus::Test>& tests, size_t maxPerFamily) {
  std::map<std::string, std::vector<litmus::Test>> out;
  for (const litmus::Test& t : tests) {
    std::vector<litmus::Test>& family = out[litmus::familyOf(t)];
    if (family.size() < maxPerFamily) family.push_back(t);
  }
  return out;
}

}  // namespace gpu
