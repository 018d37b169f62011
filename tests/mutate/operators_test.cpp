// Mutation operators (docs/mutation.md): each operator's mutants of a small test against golden
// text (tests/mutate/golden; UPDATE_GOLDEN=1 rewrites it), the model's verdicts on them
// (an equivalent mutant is told apart), and over the catalogue, no operator silently skipping a
// test that has what it mutates.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "litmus/files.h"
#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "mutate/generate.h"

namespace {

const std::string kDir = std::string(LITMUS_SOURCE_DIR) + "/tests/mutate";

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

mutate::Generated generate(const std::string& input) {
  mutate::Options opt;
  opt.check.timeoutSeconds = 60;
  mutate::Generated g;
  mutate::mutateTest(litmus::parseFile(kDir + "/inputs/" + input + ".yaml"), opt, g);
  return g;
}

// Every mutant as "# name: category, verdict, runner" and its YAML (the change is in its
// description).
std::string render(const mutate::Generated& g) {
  std::string out;
  for (const mutate::Mutant& m : g.mutants)
    out += "# " + (m.name.empty() ? "(invalid)" : m.name) + ": " + mutate::toString(m.category) + ", " +
           mutate::toString(m.verdict) + (m.why.empty() ? "" : " (" + m.why + ")") + ", " +
           // the refusal's words belong to the runner
           (m.runner.empty() ? "-" : m.runner.rfind("refused", 0) == 0 ? "refused" : m.runner) + "\n" +
           m.yaml;
  return out;
}

void checkGolden(const std::string& input, const mutate::Generated& g) {
  const std::string path = kDir + "/golden/" + input + ".txt";
  const std::string got = render(g);
  // UPDATE_GOLDEN=1 rewrites the file and fails, so that an update never passes as a check.
  if (std::getenv("UPDATE_GOLDEN")) {
    std::ofstream(path) << got;
    FAIL_CHECK("golden file rewritten: " << path << "; review the diff and rerun");
  }
  CHECK(got == readFile(path));
}

std::map<std::string, int> countBy(const mutate::Generated& g, mutate::Verdict v) {
  std::map<std::string, int> out;
  for (const mutate::Mutant& m : g.mutants)
    if (m.verdict == v) ++out[mutate::toString(m.category)];
  return out;
}

}  // namespace

TEST_CASE("mutate: po-reverse, sync-weaken and scope-narrow on message passing") {
  const mutate::Generated g = generate("mp");
  checkGolden("mp", g);
  REQUIRE(g.originals.size() == 1);
  CHECK(g.originals[0].mutated);
  // both swaps, both memory orders, both scopes: each allows the stale read
  CHECK((countBy(g, mutate::Verdict::Killable) ==
         std::map<std::string, int>{{"po-reverse", 2}, {"sync-weaken", 2}, {"scope-narrow", 2}}));
  for (const mutate::Mutant& m : g.mutants) {
    const litmus::Test t = litmus::parseYaml(m.yaml, "m.yaml");
    CHECK(t.family == "MP+rel+acq");
    CHECK((t.expect == litmus::Expect::None));  // the original's expectation is not the mutant's
    CHECK(t.description.find(m.change) != std::string::npos);
  }
  CHECK(g.mutants[0].name == "MP+rel+acq~po-reverse-1");
}

TEST_CASE("mutate: an equivalent mutant is found and not counted as killable") {
  const mutate::Generated g = generate("mp-fence-sc");
  checkGolden("mp-fence-sc", g);
  // fence.sc -> fence.acq_rel still forbids MP (acq_rel fences suffice); dropping either fence
  // allows it
  std::map<std::string, std::string> verdictOf;
  for (const mutate::Mutant& m : g.mutants) verdictOf[m.change] = mutate::toString(m.verdict);
  CHECK(verdictOf["P0: 'fence.sc.gpu' -> 'fence.acq_rel.gpu'"] == "equivalent");
  CHECK(verdictOf["P1: 'fence.sc.gpu' -> 'fence.acq_rel.gpu'"] == "equivalent");
  CHECK(verdictOf["P0: drop 'fence.sc.gpu'"] == "killable");
  CHECK(verdictOf["P1: drop 'fence.sc.gpu'"] == "killable");
  CHECK(countBy(g, mutate::Verdict::Equivalent)["sync-weaken"] == 2);
}

TEST_CASE("mutate: po-weaken cuts a data and a control dependency") {
  const mutate::Generated g = generate("lb-deps");
  checkGolden("lb-deps", g);
  std::map<std::string, std::string> verdictOf;
  for (const mutate::Mutant& m : g.mutants)
    if (m.category == mutate::Category::PoWeaken) verdictOf[m.change] = mutate::toString(m.verdict);
  CHECK((verdictOf == std::map<std::string, std::string>{
                          {"P0: 'st.global.u32 [y], %r2' -> 'st.global.u32 [y], 1'", "killable"},
                          {"P1: drop '@!%p bra END'", "killable"}}));
}

TEST_CASE("mutate: proxy-fence-drop, mbarrier and cluster waits") {
  const mutate::Generated proxy = generate("proxy");
  checkGolden("proxy", proxy);
  CHECK(countBy(proxy, mutate::Verdict::Killable)["proxy-fence-drop"] == 1);
  const mutate::Generated mbar = generate("mbarrier");
  checkGolden("mbarrier", mbar);
  bool oneTry = false;
  for (const mutate::Mutant& m : mbar.mutants)
    oneTry = oneTry || (m.change == "P1: 'mbarrier.test_wait.shared.b64 %p, [m], 0' tried once: drop "
                                    "'@!%p bra L'" &&
                        m.verdict == mutate::Verdict::Killable);
  CHECK(oneTry);
  const mutate::Generated cluster = generate("cluster");
  checkGolden("cluster", cluster);
  CHECK(countBy(cluster, mutate::Verdict::Killable)["mbarrier-wait-drop"] >= 1);
}

TEST_CASE("mutate: a test whose condition the model allows is not mutated") {
  litmus::Test t = litmus::parseFile(kDir + "/inputs/mp.yaml");
  t.threads[0].code[1].sem = litmus::Sem::Relaxed;  // MP without the release: allowed
  mutate::Generated g;
  mutate::mutateTest(t, mutate::Options{}, g);
  REQUIRE(g.originals.size() == 1);
  CHECK_FALSE(g.originals[0].mutated);
  CHECK(g.originals[0].why.find("the model allows its weak outcome") == 0);
  CHECK(g.mutants.empty());
}

// What each category needs in a test to have something to mutate, read from the printed code so
// that it is not the operators' own logic.
namespace {

bool hasText(const litmus::Test& t, const std::string& word) {
  for (const litmus::Thread& th : t.threads)
    for (const litmus::Instr& in : th.code)
      if (litmus::formatInstr(in).find(word) != std::string::npos) return true;
  return false;
}

bool everyThreadHas(const litmus::Test& t, const std::string& word) {
  for (const litmus::Thread& th : t.threads) {
    bool has = false;
    for (const litmus::Instr& in : th.code) has = has || litmus::formatInstr(in).find(word) != std::string::npos;
    if (!has) return false;
  }
  return true;
}

bool expectsMutants(const litmus::Test& t, mutate::Category c) {
  switch (c) {
    case mutate::Category::SyncWeaken:
      return hasText(t, ".release") || hasText(t, ".acquire") || hasText(t, ".acq_rel") ||
             hasText(t, "fence.sc") || hasText(t, "fence.mbarrier_init");
    case mutate::Category::ProxyFenceDrop: return hasText(t, "fence.proxy.");
    case mutate::Category::MbarrierWaitDrop:
      return hasText(t, "barrier.cluster.wait") || hasText(t, "griddepcontrol.wait") ||
             hasText(t, "wait_group") || hasText(t, "wait_all") ||
             // (a thread that may skip the barrier or exit makes its implicit count unknown; a
             // barrier that may hang has nothing to drop)
             (everyThreadHas(t, "bar.sync") && !t.dat3mBarriers && !hasText(t, "bra ") && !hasText(t, "exit") &&
              t.liveness != "may-hang");
    default: return false;
  }
}

}  // namespace

TEST_CASE("mutate: no operator silently skips a catalogue test that has what it mutates") {
  int checked = 0;
  for (const std::string& f : litmus::findTestFiles({std::string(LITMUS_SOURCE_DIR) + "/catalog"})) {
    const litmus::Test t = litmus::parseFile(f);
    for (mutate::Category c : mutate::allCategories()) {
      if (!expectsMutants(t, c)) continue;
      ++checked;
      INFO(f << ": " << std::string(mutate::toString(c)));
      CHECK_FALSE(mutate::mutations(t, c).empty());
    }
  }
  CHECK(checked > 100);
  // po-reverse and po-weaken on the shapes that have adjacent accesses and dependencies
  const std::string shapes = std::string(LITMUS_SOURCE_DIR) + "/catalog/";
  CHECK_FALSE(mutate::mutations(litmus::parseFile(shapes + "shapes/SB+weak.yaml"), mutate::Category::PoReverse).empty());
  CHECK_FALSE(mutate::mutations(litmus::parseFile(shapes + "shapes/LB+ctrl.yaml"), mutate::Category::PoWeaken).empty());
  CHECK_FALSE(mutate::mutations(litmus::parseFile(shapes + "chapter8/ch8-L3-lb-deps-regs.yaml"),
                                mutate::Category::PoWeaken).empty());
}
