// The engines' answers are typed: why an outcome is Unknown (litmus::UnknownReason, in the JSON
// as "unknownReason") and how the two engines disagree (checker::Disagreement), so that nothing
// decides on message text.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "checker/checker.h"
#include "litmus/outcome.h"
#include "litmus/parse.h"

namespace {

const char* kCoRR = R"(name: CoRR
locations: {x: 0}
threads:
  P0: {code: 'st.relaxed.gpu.global.u32 [x], 1;'}
  P1:
    code: |
      ld.relaxed.gpu.global.u32 %r0, [x];
      ld.relaxed.gpu.global.u32 %r1, [x];
condition: exists (P1:r0 == 1 /\ P1:r1 == 0)
)";

}  // namespace

TEST_CASE("a disagreement names the states each engine alone allows, and a hang it sees apart") {
  const litmus::Test t = litmus::parseYaml(kCoRR, "corr.yaml");
  checker::Disagreement d;
  CHECK(d.empty());
  CHECK(d.describe(t.observed).empty());
  d.test = "CoRR";
  d.explicitOnly.push_back(litmus::State{{1, 0}});
  d.smtOnly.push_back(litmus::State{{0, 1}});
  d.hangDiffers = true;
  d.smtMayHang = true;
  CHECK_FALSE(d.empty());
  CHECK(d.describe(t.observed) ==
        "engines disagree on CoRR: [explicit only: P1:r0=1; P1:r1=0;] [smt only: P1:r0=0; P1:r1=1;]"
        " [may hang: explicit no, smt yes]");
}

TEST_CASE("--engine both on a test the engines agree on: no disagreement, no reason to be unknown") {
  const litmus::Test t = litmus::parseYaml(kCoRR, "corr.yaml");
  checker::Options o;
  o.engine = checker::Engine::Both;
  const checker::Result r = checker::check(t, o);
  CHECK(r.outcome.status == litmus::Status::Done);
  CHECK(r.disagreement.empty());
  CHECK(r.mismatch().empty());
  CHECK(std::string(litmus::toString(r.outcome.unknownReason)) == "none");
  CHECK_FALSE(litmus::toJson(r.outcome).contains("unknownReason"));
}

TEST_CASE("an Unknown outcome carries its reason in the JSON") {
  litmus::Outcome o;
  o.giveUp(litmus::UnknownReason::SolverUnknown, "solver returned unknown");
  const auto j = litmus::toJson(o);
  CHECK(j["status"] == "unknown");
  CHECK(j["unknownReason"] == "solver-unknown");
  CHECK(j["detail"] == "solver returned unknown");
  for (auto r : {litmus::UnknownReason::Timeout, litmus::UnknownReason::Memory, litmus::UnknownReason::TooLarge,
                 litmus::UnknownReason::NotRun})
    CHECK(std::string(litmus::toString(r)) != "?");
}
