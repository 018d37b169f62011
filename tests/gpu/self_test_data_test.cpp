// The known-answer tests of `litmus run --self-test`: the compiled-in copy (written by the build,
// cmake/embed_self_tests.cmake) matches gpu-runner/self-test/*.yaml, every test's outcome is forced by the model, and together they
// cover every way the runner places threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "checker/checker.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/self_test.h"
#include "litmus/parse.h"

namespace {

std::vector<std::string> yamlFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(LITMUS_SOURCE_DIR) + "/gpu-runner/self-test"))
    if (e.path().extension() == ".yaml") files.push_back("gpu-runner/self-test/" + e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("the compiled-in self-test is gpu-runner/self-test/*.yaml, in name order") {
  const std::vector<std::string> files = yamlFiles();
  REQUIRE(files.size() >= 10);
  REQUIRE(gpu::selfTestSources().size() == files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    CHECK(files[i] == gpu::selfTestSources()[i].path);
    std::ifstream in(std::string(LITMUS_SOURCE_DIR) + "/" + files[i]);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str() == gpu::selfTestSources()[i].yaml);
  }
}

TEST_CASE("every self-test has exactly one final state the model allows, and no hang") {
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) {
    CAPTURE(s.path);
    const litmus::Test t = litmus::parseYaml(s.yaml, s.path);
    const checker::Result r = checker::check(t, checker::Options{});
    CHECK(r.outcome.status == litmus::Status::Done);
    CHECK(r.outcome.loopBound < 0);
    CHECK(r.outcome.states.size() == 1);
    CHECK(r.outcome.hang.empty());
  }
}

TEST_CASE("the self-test covers every placement of the runner") {
  std::set<gpu::Mode> modes;
  bool roles3 = false, clusterLaunch = false, alias = false, sharedOut = false, ctaBarrier = false, manyGroups = false,
       bulk = false;
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) {
    const gpu::Plan p = gpu::makePlan(litmus::parseYaml(s.yaml, s.path));
    modes.insert(p.mode);
    roles3 = roles3 || p.shape.roles >= 3;
    clusterLaunch = clusterLaunch || p.shape.clusterLaunch;
    alias = alias || std::any_of(p.locs.begin(), p.locs.end(), [](const gpu::LocPlan& l) { return l.aliasOf >= 0; });
    sharedOut = sharedOut || p.sharedResults > 0;
    ctaBarrier = ctaBarrier || p.shape.maxGroupsPerBlock == 1;
    manyGroups = manyGroups || (p.shape.maxGroupsPerBlock > 1 && p.shape.warpsPerBlock > 1);
    bulk = bulk || std::any_of(p.threads.begin(), p.threads.end(), [](const gpu::ThreadPlan& t) { return !t.drains.empty(); });
  }
  CHECK(modes == std::set<gpu::Mode>{gpu::Mode::Lane, gpu::Mode::Warp, gpu::Mode::Fixed});
  CHECK(roles3);
  CHECK(clusterLaunch);
  CHECK(alias);
  CHECK(sharedOut);
  CHECK(ctaBarrier);
  CHECK(manyGroups);
  CHECK(bulk);
}
