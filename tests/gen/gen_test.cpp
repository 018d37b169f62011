// litmus gen: edges, cycle canonicalisation, the skeleton's values and condition, naming,
// placements, dedup, golden output for a fixed config, and every test of a moderate config
// parsed back and checked by the model.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "checker/checker.h"
#include "gen/campaign.h"
#include "gen/command.h"
#include "gen/families.h"
#include "gen/spec.h"
#include "litmus/parse.h"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

gen::Spec specOf(const std::string& family, const std::string& order, const std::string& scope,
                 std::vector<gen::Place> place) {
  const gen::Family* f = gen::findFamily(family);
  REQUIRE(f != nullptr);
  gen::Spec s;
  s.family = f->name;
  s.cycle = gen::parseCycle(f->cycle);
  const gen::Skeleton sk = gen::buildSkeleton(s.cycle);
  s.access.assign(sk.events.size(), {order, order == "weak" ? "" : scope});
  s.place = std::move(place);
  return s;
}

std::string condition(const std::string& yaml) {
  const size_t at = yaml.find("condition: ");
  return yaml.substr(at + 11, yaml.find('\n', at) - at - 11);
}

}  // namespace

TEST_CASE("gen: edges print as they parse, and bad edges are named") {
  for (const char* e : {"Rfe", "Fri", "Coi", "PodWR", "PosRR", "Fence.sc.gpu.dWR", "Fence.acq_rel.cta.sWW",
                        "DpDatadW", "DpCtrlsR", "DpAddrdR", "Sync.mbar.dWR", "Sync.tx.sWR", "Sync.stasync.dWW"})
    CHECK(gen::toString(gen::parseEdge(e)) == e);
  CHECK_THROWS_WITH_AS(gen::parseEdge("Fence.sc.warp.dWR"), doctest::Contains("Fence.SEM.SCOPE"), gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseEdge("DpDatadR"), doctest::Contains("ends in a write"), gen::Error);
  CHECK_THROWS_AS(gen::parseEdge("Rfx"), gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseEdge("Sync.foo.dWR"), doctest::Contains("mbarremote"), gen::Error);
}

TEST_CASE("gen: rotations of a cycle have one canonical form and one family") {
  const auto mp = gen::parseCycle("PodWW Rfe PodRR Fre");
  const auto rotated = gen::parseCycle("PodRR Fre PodWW Rfe");
  CHECK(gen::toString(gen::canonicalRotation(mp)) == gen::toString(gen::canonicalRotation(rotated)));
  CHECK(gen::familyOf(rotated) == "MP");
  CHECK(gen::familyOf(gen::parseCycle("Fence.sc.gpu.dWR Fre PodWR Fre")) == "SB");
  CHECK(gen::familyOf(gen::parseCycle("Rfe DpDatadW Rfe PodRW")) == "LB");
  // A cycle that is no family is named by its edges.
  CHECK(gen::familyOf(gen::parseCycle("Rfe PodRW Coe PodWR Fre")).find('+') != std::string::npos);
}

TEST_CASE("gen: the skeleton's values and final state witness the cycle") {
  SUBCASE("MP") {
    const gen::Skeleton s = gen::buildSkeleton(gen::parseCycle("PodWW Rfe PodRR Fre"));
    CHECK(s.threads == 2);
    CHECK(s.locs == 2);
    CHECK(s.events[2].value == 1);  // reads the flag
    CHECK(s.events[3].value == 0);  // reads the data before the write
  }
  SUBCASE("2+2W: each location ends with the write that the cycle puts last") {
    const gen::Skeleton s = gen::buildSkeleton(gen::parseCycle("PodWW Coe PodWW Coe"));
    CHECK(s.finalValue == std::vector<int>{2, 2});
    CHECK(s.events[0].value == 2);  // P0's x is co-after P1's
    CHECK(s.events[1].value == 1);
  }
  SUBCASE("a cycle given from another thread start is rotated") {
    const gen::Skeleton s = gen::buildSkeleton(gen::parseCycle("Rfe PodRR Fre PodWW"));
    CHECK(gen::toString(s.edges) == "PodRR Fre PodWW Rfe");  // the reader is thread 0 now
    CHECK(s.edges.back().ext);
  }
  SUBCASE("cycles that cannot be built") {
    CHECK_THROWS_WITH_AS(gen::buildSkeleton(gen::parseCycle("PodWW PodRR")), doctest::Contains("do not chain"), gen::Error);
    CHECK_THROWS_AS(gen::buildSkeleton(gen::parseCycle("Rfe Fre")), gen::Error);
    CHECK_THROWS_WITH_AS(gen::buildSkeleton(gen::parseCycle("PodWW PodWW")), doctest::Contains("communication"), gen::Error);
    CHECK_THROWS_WITH_AS(gen::buildSkeleton(gen::parseCycle("PodWR Fri")), doctest::Contains("once"), gen::Error);
  }
}

TEST_CASE("gen: conditions as diy computes them") {
  const gen::Generated mp = gen::emit(specOf("MP", "rlx", "gpu", {{0, 0}, {1, 1}}));
  CHECK(condition(mp.yaml) == "'exists (P1:r0 == 1 /\\ P1:r1 == 0)'");
  const gen::Generated s = gen::emit(specOf("S", "rlx", "gpu", {{0, 0}, {1, 1}}));
  CHECK(condition(s.yaml) == "'exists (P1:r0 == 1 /\\ x == 2)'");
  const gen::Generated wwc = gen::emit(specOf("WWC", "rlx", "gpu", {{0, 0}, {1, 1}, {2, 2}}));
  CHECK(condition(wwc.yaml) == "'exists (P1:r0 == 2 /\\ P2:r0 == 1 /\\ x == 2)'");
}

TEST_CASE("gen: herd-style names") {
  gen::Spec mp = specOf("MP", "weak", "", {{0, 0}, {1, 1}});
  mp.access[1] = {"rel", "gpu"};
  mp.access[2] = {"acq", "cta"};
  CHECK(gen::nameOf(mp) == "MP+rel.gpu+acq.cta-cta0_1");
  gen::Spec sb = specOf("SB", "rlx", "gpu", {{0, 0}, {0, 0}});
  sb.cycle = gen::parseCycle("Fence.sc.gpu.dWR Fre Fence.sc.gpu.dWR Fre");
  CHECK(gen::nameOf(sb) == "SB+rlx.gpu+fence.sc.gpu-cta01");
  gen::Spec iriw = specOf("IRIW", "rlx", "cluster", {{0, 0}, {0, 0}, {1, 0}, {2, 1}});
  iriw.clusters = true;
  CHECK(gen::nameOf(iriw) == "IRIW+rlx.cluster-cl012_3-cta01_2_3");
  CHECK(gen::partitionName({1, 0, 1}) == "02_1");
}

TEST_CASE("gen: config errors name the file, line and column") {
  CHECK_THROWS_WITH_AS(gen::parseConfig("groups:\n  - families: [MP]\n    scopes: [cta, warp]\n", "c.yaml"),
                       "c.yaml:3:13: error: unknown value 'warp' in 'scopes'", gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseConfig("groups:\n  - families: [MP]\n    colour: red\n", "c.yaml"),
                       "c.yaml:3:5: error: unknown key 'colour' in a group", gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseConfig("groups:\n  - families: [XY]\n", "c.yaml"),
                       doctest::Contains("unknown family 'XY'"), gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseConfig("groups: [\n", "c.yaml"), doctest::Contains("c.yaml:2:1: error:"), gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseConfig("groups:\n  - families: [MP]\n    variants: {A: {acq: [\"5.0\"]}}\n", "c.yaml"),
                       "c.yaml:2:5: error: variant A: MP has no access 5.0 (THREAD.INDEX)", gen::Error);
  CHECK_THROWS_WITH_AS(gen::parseConfig("groups:\n  - families: [MP]\n    variants: [A]\n", "c.yaml"),
                       doctest::Contains("c.yaml:3:15: error: 'variants' must be a mapping"), gen::Error);
}

TEST_CASE("gen: placements are every split, nested clusters over CTAs") {
  CHECK(gen::placements(3, {}).size() == 5);
  CHECK(gen::placements(4, {}).size() == 15);
  CHECK(gen::placements(2, {.cluster = true}).size() == 3);
  CHECK(gen::placements(3, {.cluster = true}).size() == 12);
  CHECK(gen::placements(2, {.warp = true}).size() == 3);                 // 01 as one warp or two; 0_1
  CHECK(gen::placements(2, {.gpu = true, .cluster = true}).size() == 4);
  // Every CTA lies in one cluster, every cluster in one GPU.
  for (const auto& pl : gen::placements(3, {.gpu = true, .cluster = true, .warp = true}))
    for (const gen::Place& a : pl)
      for (const gen::Place& b : pl) {
        if (a.cta == b.cta) CHECK((a.cluster == b.cluster && a.gpu == b.gpu));
        if (a.cluster == b.cluster) CHECK(a.gpu == b.gpu);
        if (a.warp == b.warp) CHECK(a.cta == b.cta);
      }
}

TEST_CASE("gen: rotation and renaming give one test") {
  // SB is symmetric: the fence on P0 only and on P1 only are one test up to rotation.
  gen::Spec a = specOf("SB", "rlx", "gpu", {{0, 0}, {1, 1}});
  gen::Spec b = a;
  a.cycle = gen::parseCycle("Fence.sc.gpu.dWR Fre PodWR Fre");
  b.cycle = gen::parseCycle("PodWR Fre Fence.sc.gpu.dWR Fre");
  CHECK(gen::canonicalKey(a) == gen::canonicalKey(b));
  gen::Spec c = a;
  c.place = {{0, 0}, {0, 0}};
  CHECK(gen::canonicalKey(a) != gen::canonicalKey(c));
  // Threads without a warp are warps of their own, unlike lanes of one warp.
  gen::Spec lanes = c;
  lanes.warps = true;
  lanes.place = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  CHECK(gen::canonicalKey(lanes) != gen::canonicalKey(c));
  // diy's enumeration: one cycle per rotation class.
  const auto cycles = gen::enumerateCycles(gen::parseCycle("Fre"), gen::parseCycle("PodWR"), 4, 2);
  REQUIRE(cycles.size() == 1);
  CHECK(gen::familyOf(cycles[0]) == "SB");
}

TEST_CASE("gen: DSMEM, sync edges and dependencies are written in the test format") {
  gen::Spec mp = specOf("MP", "rlx", "cluster", {{0, 0}, {1, 0}});
  mp.clusters = true;
  mp.space = gen::Space::Shared;
  const gen::Generated g = gen::emit(mp);
  CHECK(g.name == "MP+rlx.cluster-cl01-cta0_1-dsmem");
  // Each location lives in the CTA of its first access (P0's): P1 reaches both through mapa.
  CHECK(g.yaml.find("mapa.shared::cluster.u32 %ay, y, 0;") != std::string::npos);
  CHECK(g.yaml.find("ld.relaxed.cluster.shared::cluster.u32 %r0, [%ay];") != std::string::npos);
  CHECK_NOTHROW(litmus::parseYaml(g.yaml, "t.yaml"));
  gen::Spec lb = specOf("LB", "weak", "", {{0, 0}, {1, 1}});
  lb.cycle = gen::parseCycle("DpDatadW Rfe DpCtrldW Rfe");
  CHECK_NOTHROW(litmus::parseYaml(gen::emit(lb).yaml, "t.yaml"));
  lb.cycle = gen::parseCycle("DpAddrdW Rfe PodRW Rfe");
  CHECK_THROWS_WITH_AS(gen::emit(lb), doctest::Contains("DpAddr"), gen::Error);
  gen::Spec bar;
  bar.family = "x";
  bar.cycle = gen::parseCycle("Sync.mbar.sWR Fre");
  bar.access.assign(2, {"weak", ""});
  bar.place = {{0, 0}, {0, 0}};
  CHECK_NOTHROW(litmus::parseYaml(gen::emit(bar).yaml, "t.yaml"));
  bar.place = {{0, 0}, {1, 1}};
  CHECK_THROWS_WITH_AS(gen::emit(bar), doctest::Contains("one CTA"), gen::Error);
  // st.async reaches the other CTA's mbarrier through mapa; both CTAs publish it by barrier.cluster.
  bar.cycle = gen::parseCycle("Sync.stasync.sWR Fre");
  bar.clusters = true;
  bar.place = {{0, 0}, {1, 0}};
  const std::string st = gen::emit(bar).yaml;
  CHECK(st.find("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%atf], 1, [%am];") != std::string::npos);
  CHECK(st.find("condition: 'exists (P1:r0 == 0 /\\ P1:p == 1)'") != std::string::npos);
  CHECK_NOTHROW(litmus::parseYaml(st, "t.yaml"));
  bar.place = {{0, 0}, {0, 0}};
  CHECK_THROWS_WITH_AS(gen::emit(bar), doctest::Contains("two CTAs"), gen::Error);
  // Aliases: the second thread reaches each location through its alias.
  gen::Spec al = specOf("MP", "rlx", "gpu", {{0, 0}, {1, 1}});
  al.proxy = "alias-fence";
  const std::string a = gen::emit(al).yaml;
  CHECK(a.find("xa: {alias-of: x}") != std::string::npos);
  CHECK(a.find("fence.proxy.alias;\n      ld.relaxed.gpu.global.u32 %r1, [xa];") != std::string::npos);
}

namespace {

void runConfig(const std::string& config, const std::string& dir, bool check) {
  std::filesystem::remove_all(dir);
  gen::RunOptions o;
  o.outDir = dir;
  o.check = check;
  o.jobs = 2;
  std::ostringstream log;
  REQUIRE(gen::runCampaign(gen::parseConfig(slurp(config), config), o, log) == 0);
}

}  // namespace

// UPDATE_GOLDEN=1 rewrites the files and fails, so that an update never passes as a check.
TEST_CASE("gen: the small config's output matches the golden files") {
  const std::string src = LITMUS_SOURCE_DIR;
  const std::string golden = src + "/tests/gen/golden";
  const std::string out = (std::filesystem::temp_directory_path() / "litmus-gen-golden").string();
  runConfig(src + "/tests/gen/small.yaml", out, false);
  const bool update = std::getenv("UPDATE_GOLDEN") != nullptr;
  if (update) {
    std::filesystem::remove_all(golden);
    std::filesystem::copy(out, golden);
    FAIL("golden files updated; review the diff and rerun");
  }
  std::set<std::string> made, pinned;
  for (const auto& e : std::filesystem::directory_iterator(out)) made.insert(e.path().filename().string());
  for (const auto& e : std::filesystem::directory_iterator(golden)) pinned.insert(e.path().filename().string());
  CHECK(made == pinned);
  for (const std::string& f : pinned) {
    CAPTURE(f);
    CHECK(slurp(out + "/" + f) == slurp(golden + "/" + f));
  }
  std::filesystem::remove_all(out);
}

TEST_CASE("gen: every test of a moderate config parses and is checked by the model") {
  const std::string src = LITMUS_SOURCE_DIR;
  const std::string out = (std::filesystem::temp_directory_path() / "litmus-gen-moderate").string();
  runConfig(src + "/tests/gen/small.yaml", out, true);
  std::ifstream index(out + "/index.tsv");
  std::string line;
  std::getline(index, line);
  int tests = 0;
  while (std::getline(index, line)) {
    CAPTURE(line);
    std::istringstream cols(line);
    std::string name, family, file, verdict;
    cols >> name >> family >> file >> verdict;
    const litmus::Test t = litmus::parseFile(out + "/" + file);
    CHECK(t.family == family);
    CHECK((verdict == "allowed" || verdict == "forbidden"));
    // The index says what a fresh check says.
    const checker::Result r = checker::check(t, {});
    CHECK(verdict == (r.outcome.observation() == litmus::Observation::Never ? "forbidden" : "allowed"));
    ++tests;
  }
  CHECK(tests > 20);
  std::filesystem::remove_all(out);
}

// The committed campaigns (gen/configs): what docs/gen.md says they hold, and every test parses.
TEST_CASE("gen: the committed campaign configs expand as documented") {
  const std::string dir = std::string(LITMUS_SOURCE_DIR) + "/gen/configs/";
  SUBCASE("peer-nine: every one of the peer's 1302 variants of the nine shapes, once") {
    const gen::Expanded ex = gen::expand(gen::parseConfig(slurp(dir + "peer-nine.yaml"), "peer-nine.yaml"));
    std::set<std::string> peers;
    size_t named = 0;
    for (const gen::Spec& s : ex.specs) {
      std::istringstream list(s.peer);
      for (std::string p; std::getline(list, p, ',');) {
        peers.insert(p);
        ++named;
      }
    }
    CHECK(named == 1302);
    CHECK(peers.size() == 1302);
    CHECK(ex.specs.size() == 1106);
    CHECK(ex.impossible == 0);
  }
  SUBCASE("hopper: over 5,000 tests, a third or more on Hopper features, each parses back") {
    const gen::Expanded ex = gen::expand(gen::parseConfig(slurp(dir + "hopper.yaml"), "hopper.yaml"));
    CHECK(ex.specs.size() >= 5000);
    size_t hopper = 0;
    for (const gen::Spec& s : ex.specs) {
      const gen::Generated g = gen::emit(s);
      const std::string& n = g.name;
      hopper += n.find(".cluster") != std::string::npos || n.find("-dsmem") != std::string::npos ||
                n.find("sync.mbar") != std::string::npos || n.find("sync.cluster") != std::string::npos ||
                n.find("sync.tx") != std::string::npos || n.find("sync.stasync") != std::string::npos;
      const litmus::Test t = litmus::parseYaml(g.yaml, g.name + ".yaml");
      REQUIRE(t.family == s.family);
    }
    CHECK(hopper * 3 >= ex.specs.size());
  }
}

TEST_CASE("gen: bad usage exits 2 before writing anything") {
  const std::string out = (std::filesystem::temp_directory_path() / "litmus-gen-usage").string();
  std::filesystem::remove_all(out);
  auto gen = [&](std::vector<std::string> args) {
    args.push_back("-o");
    args.push_back(out);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return gen::cmdGen(static_cast<int>(args.size()), argv.data());
  };
  CHECK(gen({"PodWW Rfx"}) == 2);
  CHECK(gen({"PodWW PodRR"}) == 2);
  CHECK(gen({"MP", "--scopes", "warp"}) == 2);
  CHECK(gen({"MP", "--placements", "block"}) == 2);
  CHECK(gen({"--bogus"}) == 2);
  CHECK(gen({}) == 2);
  CHECK_FALSE(std::filesystem::exists(out));
}
