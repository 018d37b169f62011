// `litmus convert` both ways: YAML -> herd -> YAML gives back an equal Test for every catalogue
// test that fits herd's dialect, herd -> YAML -> herd is a fixed point, and tests that do not fit
// are refused with the construct named.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "litmus/files.h"
#include "litmus/herd_writer.h"
#include "litmus/parse.h"
#include "tests/litmus/same_instr.h"

using namespace litmus;
using litmus::testing::sameInstr;

namespace {

const std::string kSource = LITMUS_SOURCE_DIR;

std::string terms(const std::vector<Term>& ts) {
  std::string out;
  for (const Term& t : ts) out += formatTerm(t) + ";";
  return out;
}

// Every field a test's meaning or expectation rests on; `file`, positions and the instruction
// text as written are not compared.
void requireSameTest(const Test& a, const Test& b) {
  CHECK(a.name == b.name);
  CHECK(a.family == b.family);
  CHECK(a.description == b.description);
  CHECK(static_cast<int>(a.quantifier) == static_cast<int>(b.quantifier));
  CHECK(formatCondition(a.condition) == formatCondition(b.condition));
  CHECK(terms(a.observed) == terms(b.observed));
  CHECK(static_cast<int>(a.expect) == static_cast<int>(b.expect));
  CHECK(a.reason == b.reason);
  CHECK(a.liveness == b.liveness);
  // herd's front end reads every test as `barriers: dat3m`; the flag matters only to `bar`, which
  // is written only for tests that declare it.
  bool bar = false;
  for (const Thread& th : a.threads)
    for (const Instr& in : th.code) bar |= in.op == Opcode::Bar;
  if (bar) CHECK(a.dat3mBarriers == b.dat3mBarriers);
  REQUIRE(a.locations.size() == b.locations.size());
  for (size_t i = 0; i < a.locations.size(); ++i) {
    const Location &x = a.locations[i], &y = b.locations[i];
    CHECK(x.name == y.name);
    CHECK(static_cast<int>(x.space) == static_cast<int>(y.space));
    CHECK(x.init == y.init);
    CHECK(x.aliasOf == y.aliasOf);
    CHECK(x.viewOf == y.viewOf);
    CHECK(static_cast<int>(x.aliasProxy) == static_cast<int>(y.aliasProxy));
  }
  REQUIRE(a.threads.size() == b.threads.size());
  for (size_t i = 0; i < a.threads.size(); ++i) {
    const Thread &x = a.threads[i], &y = b.threads[i];
    CHECK(x.name == y.name);
    CHECK(x.cta == y.cta);
    CHECK(x.cluster == y.cluster);
    CHECK(x.gpu == y.gpu);
    CHECK(x.warp == y.warp);
    CHECK(x.initRegs == y.initRegs);
    REQUIRE(x.code.size() == y.code.size());
    for (size_t k = 0; k < x.code.size(); ++k) CHECK(sameInstr(x.code[k], y.code[k]));
  }
}

}  // namespace

TEST_CASE("convert: catalogue tests that fit herd's dialect round-trip YAML -> herd -> YAML") {
  size_t fit = 0, refused = 0;
  for (const std::string& f : findTestFiles({kSource + "/catalog"})) {
    CAPTURE(f);
    const Test t = parseFile(f);
    std::string herd;
    try {
      herd = toHerd(t);
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("cannot write this test in herd's dialect: ") != std::string::npos);
      ++refused;
      continue;
    }
    CAPTURE(herd);
    ++fit;
    requireSameTest(t, parseHerd(herd, f));
    // herd -> YAML -> herd: the same text again
    CHECK(toHerd(parseYaml(toYaml(parseHerd(herd, f)), f)) == herd);
  }
  MESSAGE("catalogue: " << fit << " fit herd's dialect, " << refused << " refused");
  CHECK(fit >= 20);
  CHECK(refused >= 1);
}

TEST_CASE("convert: our herd inputs are stable herd -> YAML -> herd") {
  for (const char* name : {"MP-expect.litmus", "SB-info.litmus"}) {
    const std::string f = kSource + "/tests/interop/" + name;
    CAPTURE(f);
    const Test t = parseFile(f);
    const std::string once = toHerd(t);
    const Test viaYaml = parseYaml(toYaml(t), f);
    requireSameTest(t, viaYaml);
    CHECK(toHerd(viaYaml) == once);
    CHECK(toHerd(parseHerd(once, f)) == once);
  }
}

TEST_CASE("convert: herd info lines carry the expectation; unknown ones are ignored") {
  const Test t = parseFile(kSource + "/tests/interop/SB-info.litmus");
  CHECK(static_cast<int>(t.expect) == static_cast<int>(Expect::Reachable));
  CHECK(t.liveness == "terminates");
  CHECK(t.reason == "no fence: both loads may read the initial values");
  CHECK(t.description == "store buffering, no fences");
  CHECK_THROWS_WITH(parseHerd("PTX T\nExpect=maybe\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n"
                              "exists (P0:r0 == 0)\n", "t.litmus"),
                    "t.litmus:2:8: error: unknown expectation 'maybe'");
}

TEST_CASE("convert: constructs herd's dialect lacks are refused by name") {
  auto refusal = [](const std::string& yaml) {
    try {
      toHerd(parseYaml(yaml, "t.yaml"));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(written)");
  };
  const std::string shared = refusal(
      "name: T\nlocations: {x: {space: shared, cta: 0}}\nthreads:\n  P0: {cta: 0, code: \"st.shared.u32 [x], 1;\"}\n"
      "condition: exists (x == 1)\n");
  CAPTURE(shared);
  CHECK(shared.find("location x") != std::string::npos);
  const std::string mbar = refusal(
      "name: T\nlocations: {b: {space: shared}}\nthreads:\n  P0: {code: \"mbarrier.init.shared.b64 [b], 1;\\n"
      "mbarrier.arrive.shared.b64 %s, [b];\"}\ncondition: exists (b == 0)\n");
  CAPTURE(mbar);
  CHECK(mbar.find("cannot write this test in herd's dialect") != std::string::npos);
  const std::string observe = refusal(
      "name: T\nlocations: {x: 0}\nthreads:\n  P0: {code: \"ld.u32 %r0, [x];\"}\n"
      "condition: exists (P0:r0 == 0)\nobserve: [P0:r0, x]\n");
  CAPTURE(observe);
  CHECK(observe.find("observe") != std::string::npos);
}
