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

// Seed 508. The loop adds 1 to z until the value it read is at least 1: the first iteration reads
// the initial 0, the second its own write, 1, and exits (one backward jump, within the bound; D19
// bounds loops that write). One execution, r1 = 1 and z = 2. Both engines allowed no execution:
// the value domain took its values only from paths that ran to their end, and with z's domain {0}
// every path of this loop was dropped at the bound, so the write of 1 was never seen.
TEST_CASE("finding: a loop exits on a value it wrote itself (seed 508)") {
  const std::string yaml = R"(name: loop-exits-on-own-write
locations:
  z: 0
threads:
  P0:
    code: |
      L0:
      atom.relaxed.gpu.global.add.u32 %r1, [z], 1;
      setp.lt.u32 %p0, %r1, 1;
      @%p0 bra L0;
condition: exists (true)
observe: [P0:r1, z]
)";
  bothEngines(yaml, {{litmus::State{{1, 2}}}, false});
}
