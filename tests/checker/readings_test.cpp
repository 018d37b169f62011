// Issue 31: the decisions whose direction is a reading of the text are named switches
// (model/readings.h), evaluated by both engines; `check` reports a verdict that changes under the
// other reading of a decision the test touches.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "checker/checker.h"
#include "checker/readings_check.h"
#include "litmus/outcome.h"
#include "litmus/herd_writer.h"
#include "litmus/parse.h"
#include "model/readings.h"

namespace {

std::string catalogue(const std::string& rel) { return std::string(LITMUS_SOURCE_DIR) + "/catalog/" + rel; }

litmus::Observation observe(const litmus::Test& t, checker::Engine e, const std::string& reading) {
  checker::Options o;
  o.engine = e;
  o.alternatives = false;
  if (!reading.empty()) REQUIRE(model::choose(o.readings, reading) == "");
  const litmus::Outcome out = checker::check(t, o).outcome;
  REQUIRE(out.status == litmus::Status::Done);
  return out.observation();
}

struct Case {
  const char* file;
  const char* alternative;
  litmus::Observation byDefault, underAlternative;
};

// One test per decision: the default reading's verdict and the alternative's, from each engine.
const Case kCases[] = {
    {"async/TMA-refill-after-generic-read-no-proxy-fence.yaml", "D36=release-orders",
     litmus::Observation::Sometimes, litmus::Observation::Never},
    {"tensor/TMA-multicast-cta-wait.yaml", "D30=receiver-cta", litmus::Observation::Sometimes,
     litmus::Observation::Never},
    {"cluster/st.async+mbarrier.cta-wait.yaml", "D30=receiver-cta", litmus::Observation::Sometimes,
     litmus::Observation::Never},
    {"async/tensormap-update+proxy-fences-relaxed-flag.yaml", "D31=memory-fences",
     litmus::Observation::Sometimes, litmus::Observation::Never},
    {"grid/TMA-load-after-previous-grid.yaml", "D39=generic-only", litmus::Observation::Never,
     litmus::Observation::Sometimes},
    {"cp.async/mbarrier.arrive-pipeline.yaml", "D44=relaxed", litmus::Observation::Never,
     litmus::Observation::Sometimes},
    {"warp/activemask-two-lanes.yaml", "D42=converged", litmus::Observation::Sometimes,
     litmus::Observation::Never},
    {"grid/spin-on-dependent-flag-before-trigger.yaml", "D38=gates", litmus::Observation::Always,
     litmus::Observation::Never},
};

}  // namespace

TEST_CASE("each reading switches the verdict of its catalogue test, in both engines") {
  for (const Case& c : kCases) {
    CAPTURE(c.file);
    const litmus::Test t = litmus::parseFile(catalogue(c.file));
    for (checker::Engine e : {checker::Engine::Explicit, checker::Engine::Smt}) {
      CAPTURE(checker::toString(e));
      CHECK(std::string(litmus::toString(observe(t, e, ""))) == litmus::toString(c.byDefault));
      CHECK(std::string(litmus::toString(observe(t, e, c.alternative))) == litmus::toString(c.underAlternative));
    }
  }
}

// D53 changes whether an execution hangs, not the observation: a complete-tx that overtakes the
// producer's arrival leaves the phase short of bytes (docs/findings.md F11).
TEST_CASE("D53: the complete-tx overtaking an earlier arrival may hang the wait, in both engines") {
  const litmus::Test t = litmus::parseFile(catalogue("async/TMA-load-arrive-before-copy-spin.yaml"));
  for (checker::Engine e : {checker::Engine::Explicit, checker::Engine::Smt}) {
    CAPTURE(checker::toString(e));
    for (const char* reading : {"", "D53=ordered"}) {
      CAPTURE(reading);
      checker::Options o;
      o.engine = e;
      o.alternatives = false;
      if (*reading) REQUIRE(model::choose(o.readings, reading) == "");
      const litmus::Outcome out = checker::check(t, o).outcome;
      REQUIRE(out.status == litmus::Status::Done);
      CHECK(std::string(litmus::toString(out.observation())) == "Sometimes");
      CHECK(std::string(out.liveness()) == (*reading ? "terminates" : "may-hang"));
    }
  }
}

TEST_CASE("check names the decision a verdict relies on and what the other reading gives") {
  const litmus::Test t = litmus::parseFile(catalogue("async/TMA-refill-after-generic-read-no-proxy-fence.yaml"));
  const litmus::Outcome o = checker::check(t, {}).outcome;
  REQUIRE(o.reliesOn.size() == 1);
  CHECK(o.reliesOn[0].decision == "D36");
  CHECK(o.reliesOn[0].reading == "proxy-fence");
  CHECK(o.reliesOn[0].alternative == "release-orders");
  CHECK(o.reliesOn[0].alternativeObservation == "Never");
  std::ostringstream herd;
  litmus::printHerd(herd, o);
  CHECK(herd.str().find("\nRelies on D36: proxy-fence; under release-orders the outcome is Never (CUTLASS "
                        "consumer_release") != std::string::npos);
  const auto j = litmus::toJson(o);
  REQUIRE(j.contains("reliesOn"));
  CHECK(j["reliesOn"][0]["alternative"].get<std::string>() == "release-orders");
  // chosen on the command line: not second-guessed
  checker::Options chosen;
  REQUIRE(model::choose(chosen.readings, "D36=proxy-fence") == "");
  CHECK(checker::check(t, chosen).outcome.reliesOn.empty());
  // the fenced form does not rely on D36: both readings forbid it
  const litmus::Test fenced = litmus::parseFile(catalogue("async/TMA-refill-after-generic-read+fence.proxy.async.yaml"));
  CHECK(checker::check(fenced, {}).outcome.reliesOn.empty());
}

TEST_CASE("D38: a prerequisite spinning before its trigger hangs for certain under gates") {
  const litmus::Test t = litmus::parseFile(catalogue("grid/spin-on-dependent-flag-before-trigger.yaml"));
  CHECK(model::touched(t) == std::vector<model::Decision>{model::Decision::D38});
  const litmus::Outcome o = checker::check(t, {}).outcome;
  CHECK(!o.hang.empty());
  REQUIRE(o.reliesOn.size() == 1);
  CHECK(o.reliesOn[0].decision == "D38");
  CHECK(o.reliesOn[0].reading == "no-gate");
  CHECK(o.reliesOn[0].alternative == "gates");
  CHECK(o.reliesOn[0].alternativeObservation == "Never");
  for (checker::Engine e : {checker::Engine::Explicit, checker::Engine::Smt}) {
    CAPTURE(checker::toString(e));
    checker::Options gates;
    gates.engine = e;
    REQUIRE(model::choose(gates.readings, "D38=gates") == "");
    const litmus::Outcome g = checker::check(t, gates).outcome;
    REQUIRE(g.status == litmus::Status::Done);
    CHECK(std::string(litmus::toString(g.observation())) == "Never");
    CHECK(g.states.empty());  // no execution finishes
    CHECK(!g.hang.empty());
  }
}

TEST_CASE("only the decisions a test touches are evaluated") {
  const litmus::Test mp = litmus::parseFile(catalogue("chapter8/asplos19-fig5-MP.yaml"));
  CHECK(model::touched(mp).empty());
  const litmus::Test refill = litmus::parseFile(catalogue("async/TMA-refill-after-generic-read-no-proxy-fence.yaml"));
  // a bulk copy and a load (D36); its arrivals all carry expect-tx, so not D53
  CHECK(model::touched(refill) == std::vector<model::Decision>{model::Decision::D36});
}

TEST_CASE("an alternative that runs out of time says so and guesses nothing") {
  const litmus::Test t = litmus::parseFile(catalogue("async/TMA-refill-after-generic-read-no-proxy-fence.yaml"));
  checker::Options o;
  o.alternatives = false;
  const litmus::Outcome base = checker::check(t, o).outcome;
  REQUIRE(base.status == litmus::Status::Done);
  o.timeoutSeconds = 5;
  for (double left : {1e-9, 0.0}) {  // too little time for the check; none at all
    CAPTURE(left);
    const auto relies = checker::readingReliances(t, o, base, left);
    REQUIRE(relies.size() == 1);
    CHECK(relies[0].alternativeObservation == "Unknown");
    CHECK(relies[0].text.find("under release-orders the outcome is not known") != std::string::npos);
  }
}

TEST_CASE("unknown readings and decisions are refused with a did-you-mean") {
  model::Readings r;
  CHECK(model::choose(r, "D36=release-order").find("did you mean 'release-orders'") != std::string::npos);
  CHECK(model::choose(r, "D63=proxy-fence").find("did you mean 'D36'") != std::string::npos);
  CHECK(model::choose(r, "D36").find("DECISION=READING") != std::string::npos);
  const litmus::Test t = litmus::parseYaml(R"(name: t
locations: {x: 0}
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
condition: exists (x == 1)
readings: {D36: release-order}
)",
                                           "t.yaml");
  try {
    checker::check(t, {});
    FAIL("no error");
  } catch (const litmus::Error& e) {
    CHECK(e.loc().line == 8);
    CHECK(e.message().find("did you mean 'release-orders'") != std::string::npos);
  }
}

TEST_CASE("a test's readings survive YAML and are refused by the herd dialect") {
  const litmus::Test t = litmus::parseFile(catalogue("async/TMA-refill-after-generic-read-no-proxy-fence.release-orders.yaml"));
  REQUIRE(t.readings.size() == 1);
  const litmus::Test again = litmus::parseYaml(litmus::toYaml(t), "again.yaml");
  REQUIRE(again.readings.size() == 1);
  CHECK(again.readings[0].decision == "D36");
  CHECK(again.readings[0].name == "release-orders");
  const litmus::Test plain = litmus::parseYaml(R"(name: rd
locations: {x: 0}
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
condition: exists (x == 1)
readings: {D36: release-orders}
)",
                                               "rd.yaml");
  CHECK_THROWS_WITH_AS(litmus::toHerd(plain), doctest::Contains("readings of the model's decisions"), litmus::Error);
}

TEST_CASE("a stronger reading is not checked where it cannot change the verdict") {
  // the fenced refill is Never and terminates: release-orders only removes executions
  const litmus::Test t = litmus::parseFile(catalogue("async/TMA-refill-after-generic-read+fence.proxy.async.yaml"));
  checker::Options o;
  o.alternatives = false;
  const litmus::Outcome base = checker::check(t, o).outcome;
  REQUIRE(std::string(litmus::toString(base.observation())) == "Never");
  REQUIRE(base.hang.empty());
  o.timeoutSeconds = 5;
  CHECK(checker::readingReliances(t, o, base, 0.0).empty());  // no time needed, nothing unknown
}
