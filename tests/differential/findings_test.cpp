// Engine disagreements that the differential test found, minimised: each runs through both
// engines, which must agree with each other and with the answer the model text gives (derived by
// hand in the comment of each case). The seed that found it is in the case's name.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "checker/checker.h"
#include "litmus/parse.h"

namespace {

struct Answer {
  std::set<litmus::State> states;
  bool mayHang = false;
};

Answer check(const std::string& yaml, checker::Engine e) {
  const litmus::Test t = litmus::parseYaml(yaml, "finding.yaml");
  checker::Options o;
  o.engine = e;
  o.timeoutSeconds = 60;
  const auto r = checker::check(t, o);
  REQUIRE(r.outcome.status == litmus::Status::Done);
  return {{r.outcome.states.begin(), r.outcome.states.end()}, !r.outcome.hang.empty()};
}

void bothEngines(const std::string& yaml, const Answer& model) {
  for (checker::Engine e : {checker::Engine::Explicit, checker::Engine::Smt}) {
    CAPTURE(checker::toString(e));
    const Answer a = check(yaml, e);
    CHECK(a.states == model.states);
    CHECK(a.mayHang == model.mayHang);
  }
}

}  // namespace

// Seed 332. P0 waits at bar.warp.sync for lane 1 (P1), which waits at bar.red for every thread
// of the CTA, P0 included: neither ever exits or arrives, so no execution finishes (D25) and every
// one hangs (D26). The symbolic engine constrained the result of bar.red.and even for a wait
// that hangs (an empty phase: "all of none hold", result 1), which no hanging trace satisfies, so
// it found no hang.
TEST_CASE("finding: a hanging bar.red.and has no result (seed 332)") {
  const std::string yaml = R"(name: bar.red-hangs-behind-bar.warp.sync
locations:
  x: 0
threads:
  P0:
    cta: 0
    warp: 0
    code: |
      bar.warp.sync 3;
  P1:
    cta: 0
    warp: 0
    init: {r0: 0}
    code: |
      setp.ne.u32 %p1, %r0, 0;
      bar.red.and.pred %p2, 1, %p1;
condition: exists (true)
observe: [x]
)";
  bothEngines(yaml, {{}, true});
}
