// The known-answer tests of `litmus run --self-test`: the compiled-in copy matches
// gpu-runner/self-test/*.yaml, every test's outcome is forced by the model, and together they
// cover every way the runner places threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "checker/checker.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/self_test.h"
#include "litmus/parse.h"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text of gpu-runner/self_test_data.cpp for the YAML files (paths relative to the source root).
std::string dataCpp(const std::vector<std::string>& files) {
  std::string out =
      "// Generated from gpu-runner/self-test/*.yaml by tests/gpu/self_test_data_test.cpp; do not edit.\n"
      "// Regenerate with UPDATE_GOLDEN=1 build/unit_tests -tc='*self-test*' (gpu-runner/self_test.h).\n"
      "#include \"gpu-runner/self_test.h\"\n\nnamespace gpu {\n\n"
      "const std::vector<SelfTestSource>& selfTestSources() {\n"
      "  static const std::vector<SelfTestSource> all = {\n";
  for (const std::string& f : files) {
    const std::string text = slurp(std::string(LITMUS_SOURCE_DIR) + "/" + f);
    REQUIRE(text.find(")yaml\"") == std::string::npos);
    out += "      {\"" + f + "\", R\"yaml(" + text + ")yaml\"},\n";
  }
  return out + "  };\n  return all;\n}\n\n}  // namespace gpu\n";
}

std::vector<std::string> yamlFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(LITMUS_SOURCE_DIR) + "/gpu-runner/self-test"))
    if (e.path().extension() == ".yaml") files.push_back("gpu-runner/self-test/" + e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("the compiled-in self-test matches gpu-runner/self-test/*.yaml") {
  const std::vector<std::string> files = yamlFiles();
  REQUIRE(files.size() >= 10);
  const std::string path = std::string(LITMUS_SOURCE_DIR) + "/gpu-runner/self_test_data.cpp";
  const std::string want = dataCpp(files);
  if (std::getenv("UPDATE_GOLDEN")) {
    std::ofstream(path) << want;
    FAIL("gpu-runner/self_test_data.cpp updated; review the diff and rerun");
  }
  CHECK(want == slurp(path));
  REQUIRE(gpu::selfTestSources().size() == files.size());
  for (size_t i = 0; i < files.size(); ++i) CHECK(files[i] == gpu::selfTestSources()[i].path);
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
