// litmus compare: the tables and difference lists on small fixed inputs (a run against the model).
#include <doctest.h>

#include <sstream>

#include "compare/compare.h"
#include "litmus/test.h"

namespace {

// A run (litmus run --json, the keys compare reads): MP1 seen; MP2 allowed but not seen; SB1
// forbidden, not seen; SB2 stopped by the watchdog (no result); LB1 names no family and shows a
// state the model forbids.
constexpr const char* kRun =
    R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"MP1","file":"a/MP1.yaml","family":"MP","verdict":"ok","status":"ok","condition":5,"conditionAllowed":true}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"MP2","file":"a/MP2.yaml","family":"MP","verdict":"ok","status":"ok","condition":0,"conditionAllowed":true}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"SB1","file":"a/SB1.yaml","family":"SB","verdict":"ok","status":"ok","condition":0,"conditionAllowed":false}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"SB2","file":"a/SB2.yaml","family":"SB","verdict":"timeout","status":"timeout","conditionAllowed":true}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"LB1","file":"a/LB1.yaml","verdict":"violation","status":"ok","condition":3,"conditionAllowed":false}
)";
// The model (litmus check --json): no families; X only here, with no answer.
constexpr const char* kModel =
    R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"MP1","file":"b/MP1.yaml","engine":"explicit","status":"done","positive":2,"negative":1}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"MP2","file":"b/MP2.yaml","engine":"explicit","status":"done","positive":1,"negative":2}

{"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"SB1","file":"b/SB1.yaml","engine":"explicit","status":"done","positive":0,"negative":3}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"SB2","file":"b/SB2.yaml","engine":"explicit","status":"done","positive":4,"negative":0}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"LB1","file":"b/LB1.yaml","engine":"explicit","status":"done","positive":0,"negative":3}
{"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"X","file":"b/X.yaml","engine":"smt","status":"unknown"}
)";

constexpr const char* kExpected = R"(A: run.json (run, 5 tests)
B: model.json (model, 6 tests)
Rows: the condition allowed or forbidden by the model, as each side records it; columns: the
condition seen (hits > 0; for the model, allowed), not seen, or no result.

Family LB1: 1 test
               |   A: seen  not seen      none |   B: seen  not seen      none
  allowed      |         0         0         0 |         0         0         0
  forbidden    |         1         0         0 |         0         1         0
  unknown      |         0         0         0 |         0         0         0
  seen by A only: LB1

Family MP: 2 tests
               |   A: seen  not seen      none |   B: seen  not seen      none
  allowed      |         1         1         0 |         2         0         0
  forbidden    |         0         0         0 |         0         0         0
  unknown      |         0         0         0 |         0         0         0
  seen by B only: MP2

Family SB: 2 tests
               |   A: seen  not seen      none |   B: seen  not seen      none
  allowed      |         0         0         1 |         1         0         0
  forbidden    |         0         1         0 |         0         1         0
  unknown      |         0         0         0 |         0         0         0

Family X: 1 test
               |   A: seen  not seen      none |   B: seen  not seen      none
  allowed      |         0         0         0 |         0         0         0
  forbidden    |         0         0         0 |         0         0         0
  unknown      |         0         0         0 |         0         0         1

Total: 6 tests
               |   A: seen  not seen      none |   B: seen  not seen      none
  allowed      |         1         1         1 |         3         0         0
  forbidden    |         1         1         0 |         0         2         0
  unknown      |         0         0         0 |         0         0         1
  seen by A only: LB1
  seen by B only: MP2
  only in B: X
Summary: 1 seen by both, 1 by neither, 1 by A only, 1 by B only, 1 without a result on a side, 0 only in A, 1 only in B
)";

compare::Comparison both(compare::Side& a, compare::Side& b) {
  std::istringstream ia(kRun), ib(kModel);
  a = compare::readSide(ia, "run.json");
  b = compare::readSide(ib, "model.json");
  return compare::compareSides(a, b);
}

}  // namespace

TEST_CASE("compare: a run against the model, family by family (golden)") {
  compare::Side a, b;
  const compare::Comparison c = both(a, b);
  std::ostringstream os;
  compare::printText(os, a, b, c);
  CHECK(os.str() == kExpected);
  CHECK(c.differ());
}

TEST_CASE("compare: JSON output and a side against itself") {
  compare::Side a, b;
  const compare::Comparison c = both(a, b);
  const auto j = compare::toJson(a, b, c);
  CHECK(j["a"]["kind"] == "run");
  CHECK(j["b"]["kind"] == "model");
  CHECK(j["totals"]["seenByAOnly"] == nlohmann::ordered_json::array({"LB1"}));
  CHECK(j["totals"]["a"]["forbidden"]["seen"] == 1);
  CHECK(j["families"][1]["family"] == "MP");
  CHECK(j["onlyInB"] == nlohmann::ordered_json::array({"X"}));
  const compare::Comparison same = compare::compareSides(a, a);
  CHECK_FALSE(same.differ());
  CHECK(same.totals.both == 2);
  CHECK(same.totals.notComparable == 1);  // SB2 has no result on either side
}

TEST_CASE("compare: a line of another kind is a positioned error naming what is accepted") {
  std::istringstream in(std::string(R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"run",)") +
                        R"("test":"MP1","file":"MP1.yaml","verdict":"ok","status":"ok"})" + "\n[1, 2]\n");
  try {
    compare::readSide(in, "odd.json");
    FAIL("no error");
  } catch (const litmus::Error& e) {
    CHECK(std::string(e.what()) ==
          "odd.json:2:1: error: not a result of `litmus run --json` or `litmus check --json` (a JSON object per line)");
  }
}
