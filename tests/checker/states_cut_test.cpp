// --max-states (checker::Options::maxStates): past the cut the engines search only for what the
// Observation and liveness still need. Cutting must never change them: each case below checks a
// test with the cut and without it, on both engines, and compares.
#include <doctest/doctest.h>

#include <string>

#include "checker/checker.h"
#include "judge/judge.h"
#include "litmus/parse.h"

namespace {

// k independent message-passing pairs with weak reads: 2^k final states, and a condition that
// asks for `want` in every read (want 1: Sometimes; want 2: Never).
std::string pairs(int k, int want, const std::string& quantifier = "exists") {
  std::string locs, p0, p1, cond;
  for (int i = 0; i < k; ++i) {
    const std::string x = "x" + std::to_string(i), r = "r" + std::to_string(i);
    locs += "  " + x + ": 0\n";
    p0 += "      st.global.u32 [" + x + "], 1;\n";
    p1 += "      ld.global.u32 %" + r + ", [" + x + "];\n";
    cond += std::string(i ? " /\\ " : "") + "P1:" + r + (quantifier == "forall" ? " <= " : " == ") +
            std::to_string(want);
  }
  return "name: pairs\nlocations:\n" + locs + "threads:\n  P0:\n    code: |\n" + p0 +
         "  P1:\n    code: |\n" + p1 + "condition: '" + quantifier + " (" + cond + ")'\n";
}

checker::Result checkWith(const litmus::Test& t, checker::Engine e, size_t maxStates) {
  checker::Options o;
  o.engine = e;
  o.maxStates = maxStates;
  return checker::check(t, o);
}

// The cut changes neither the observation nor the liveness, on either engine, and says it cut.
void sameAnswers(const litmus::Test& t) {
  for (checker::Engine e : {checker::Engine::Explicit, checker::Engine::Smt}) {
    CAPTURE(checker::toString(e));
    const litmus::Outcome whole = checkWith(t, e, 0).outcome;
    REQUIRE(whole.status == litmus::Status::Done);
    CHECK(whole.statesCut == 0);
    for (size_t cap : {size_t{1}, size_t{2}, size_t{3}}) {
      CAPTURE(cap);
      const litmus::Outcome cut = checkWith(t, e, cap).outcome;
      REQUIRE(cut.status == litmus::Status::Done);
      CHECK(std::string(litmus::toString(cut.observation())) == litmus::toString(whole.observation()));
      CHECK(cut.liveness() == whole.liveness());
      if (whole.states.size() > cap) {
        CHECK(cut.statesCut == cap);
        CHECK(cut.states.size() <= cap + 1);  // the listed ones, and one of the other side
      } else {
        CHECK(cut.states == whole.states);
      }
    }
  }
}

}  // namespace

TEST_CASE("states cut: the observation of many states stays exact") {
  for (int want : {0, 1, 2}) {  // Sometimes (0 and 1: some read may see either) and Never (2)
    CAPTURE(want);
    sameAnswers(litmus::parseYaml(pairs(5, want), "pairs.yaml"));
  }
  sameAnswers(litmus::parseYaml(pairs(5, 1, "forall"), "pairs.yaml"));  // Always
  const litmus::Outcome whole = checkWith(litmus::parseYaml(pairs(5, 1), "p.yaml"), checker::Engine::Explicit, 0).outcome;
  CHECK(whole.states.size() == 32);
}

TEST_CASE("states cut: liveness and the observation of catalogue tests that may hang") {
  for (const char* rel : {"patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-empty-wait.yaml",
                          "patterns/reference/tma-pipeline/tma-pipeline-S2-K3-wrong-parity.yaml",
                          "patterns/reference/tma-pipeline/tma-pipeline-S2-K3-relaxed-wait.yaml"}) {
    CAPTURE(rel);
    sameAnswers(litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/" + rel));
  }
}

TEST_CASE("states cut: both engines compare observations past the cut") {
  const litmus::Test t = litmus::parseYaml(pairs(4, 1), "pairs.yaml");
  const checker::Result r = checkWith(t, checker::Engine::Both, 2);
  CHECK(r.outcome.statesCut == 2);
  CHECK(r.disagreement.empty());
}

TEST_CASE("states cut: race freedom is not established by a cut listing") {
  litmus::Outcome o;
  o.states.push_back(litmus::State{{1}});
  o.satisfies.push_back(true);
  o.positive = 1;
  o.statesCut = 1;
  judge::Expectation x;
  x.raceFree = true;
  CHECK((judge::judgeOutcome(o, x, "", {}).decision == judge::Decision::Unknown));
  o.statesCut = 0;
  CHECK((judge::judgeOutcome(o, x, "", {}).decision == judge::Decision::Pass));
}
