// Issue 18: a verdict says which decisions stronger than the PTX text it may rest on
// (model/reliance.h); suite --fail-on-relies fails such verdicts.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "checker/checker.h"
#include "litmus/outcome.h"
#include "litmus/parse.h"
#include "suite/suite.h"

namespace {

// Two lanes of one warp; elect.sync elects lane 0 (D33: the text does not say which lane).
const char* kElect = R"(name: elect-lane1
locations: {x: 0}
threads:
  P0:
    cta: 0
    warp: 0
    code: |
      elect.sync _|%p, 0x3;
      @%p st.global.u32 [x], 1;
  P1:
    cta: 0
    warp: 0
    code: |
      elect.sync _|%p, 0x3;
      @%p st.global.u32 [x], 2;
condition: exists (x == 2)
expect: unreachable
)";

const char* kPlain = R"(name: mp
locations: {x: 0, f: 0}
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
      st.release.gpu.global.u32 [f], 1;
  P1:
    code: |
      ld.acquire.gpu.global.u32 %r0, [f];
      ld.global.u32 %r1, [x];
condition: exists (P1:r0 == 1 /\ P1:r1 == 0)
expect: unreachable
)";

litmus::Outcome checkText(const std::string& text) {
  return checker::check(litmus::parseYaml(text, "t.yaml"), {}).outcome;
}

}  // namespace

TEST_CASE("a Never that rests on a stronger decision says so, in text and JSON") {
  const litmus::Outcome o = checkText(kElect);
  REQUIRE((o.status == litmus::Status::Done));
  CHECK((o.observation() == litmus::Observation::Never));
  REQUIRE(o.reliesOn.size() == 1);
  CHECK(o.reliesOn[0].decision == "D33");
  std::ostringstream herd;
  litmus::printHerd(herd, o);
  CHECK(herd.str().find("Observation elect-lane1 Never") != std::string::npos);
  CHECK(herd.str().find("\nRelies on D33: elect.sync elects the lowest lane of the mask\n") != std::string::npos);
  const auto j = litmus::toJson(o);
  REQUIRE(j.contains("reliesOn"));
  CHECK(j["reliesOn"][0]["decision"].get<std::string>() == "D33");
}

TEST_CASE("a verdict that uses no stronger decision relies on none") {
  const litmus::Outcome o = checkText(kPlain);
  CHECK(o.reliesOn.empty());
  CHECK(!litmus::toJson(o).contains("reliesOn"));
  std::ostringstream herd;
  litmus::printHerd(herd, o);
  CHECK(herd.str().find("Relies on") == std::string::npos);
}

TEST_CASE("apparent dependencies are D9's; the loop bound is D19's") {
  const litmus::Outcome o = checkText(R"(name: lb-apparent
locations: {x: 0, y: 0}
threads:
  P0:
    code: |
      ld.global.u32 %r0, [x];
      and.b32 %r1, %r0, 0;
      add.u32 %r2, %r1, 1;
      st.global.u32 [y], %r2;
  P1:
    code: |
      ld.global.u32 %r0, [y];
      st.global.u32 [x], %r0;
condition: exists (P0:r0 == 1 /\ P1:r0 == 1)
)");
  REQUIRE(!o.reliesOn.empty());
  CHECK(o.reliesOn[0].decision == "D9");
}

TEST_CASE("suite --fail-on-relies fails a verdict that rests on a stronger decision") {
  const std::string path = "reliance_test_elect.yaml";
  std::ofstream(path) << kElect;
  suite::SuiteOptions opt;
  auto report = suite::runSuite({path}, opt);
  REQUIRE(report.entries.size() == 1);
  CHECK((report.entries[0].verdict == suite::Verdict::Pass));
  opt.failOnRelies = true;
  report = suite::runSuite({path}, opt);
  REQUIRE(report.entries.size() == 1);
  CHECK((report.entries[0].verdict == suite::Verdict::Fail));
  CHECK(report.entries[0].message.find("relies on D33") != std::string::npos);
  std::remove(path.c_str());
}
