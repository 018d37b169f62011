// The YAML front end: every field, defaults, positions of nodes and instructions, toYaml.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "litmus/parse.h"

using namespace litmus;

namespace {

const char* kMessagePassing = R"Y(name: MP+rel+acq.gpu
description: Message passing with release and acquire
locations:
  x: 0
  flag: {init: 0, space: global}
  s: {init: 3, space: shared}
  y: {alias-of: x}
  t: {alias-of: y, proxy: texture}
threads:
  P0:
    cta: 0
    code: |
      st.global.u32 [x], 1;       // data
      st.release.gpu.global.u32 [flag], 1;
  P1:
    cta: 1
    gpu: 0
    init: {r1: 5, "%r7": -1}
    code: |
      LOOP: ld.acquire.gpu.global.u32 %r0, [flag];   # poll
      setp.eq.u32 %p, %r0, 0; @%p bra LOOP;

      ld.global.u32 %r1, [x];
condition: exists (P1:r0 == 1 /\ P1:r1 == 0)
expect: unreachable
reason: release/acquire at gpu scope orders the data store before the flag
)Y";

std::string error(const std::string& yaml) {
  try {
    parseYaml(yaml, "e.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a complete YAML test") {
  Test t = parseYaml(kMessagePassing, "mp.yaml");
  CHECK(t.name == "MP+rel+acq.gpu");
  CHECK(t.file == "mp.yaml");
  CHECK(t.description == "Message passing with release and acquire");
  REQUIRE(t.locations.size() == 5);
  CHECK((t.locations[1].space == Space::Global));
  CHECK((t.locations[2].space == Space::Shared));
  CHECK(t.locations[2].init == 3);
  CHECK(t.locations[3].aliasOf == "x");
  CHECK(t.locations[4].aliasOf == "x");  // an alias of an alias names the root
  CHECK((t.locations[4].aliasProxy == Proxy::Texture));
  REQUIRE(t.threads.size() == 2);
  const Thread& p1 = t.threads[1];
  CHECK(p1.cta == 1);
  CHECK(p1.cluster == 1);
  CHECK(p1.initRegs.at("r1") == 5);
  CHECK(p1.initRegs.at("r7") == -1);
  REQUIRE(p1.code.size() == 5);
  CHECK((p1.code[0].op == Opcode::Label));
  CHECK((p1.code[3].op == Opcode::Bra));
  CHECK(p1.code[3].guard == "p");
  // positions: the block scalar starts on line 20, indented six spaces
  CHECK(p1.code[0].loc.line == 20);
  CHECK(p1.code[0].loc.col == 7);
  CHECK(p1.code[1].loc.line == 20);
  CHECK(p1.code[1].loc.col == 13);
  CHECK(p1.code[3].loc.line == 21);
  CHECK(p1.code[3].loc.col == 31);
  CHECK(p1.code[4].loc.line == 23);
  CHECK(p1.code[1].args[1].loc.col == 44);
  CHECK((t.quantifier == Quantifier::Exists));
  CHECK(t.conditionLoc.line == 24);
  CHECK(t.conditionLoc.col == 12);
  CHECK(t.condition.kids[1].lhs.loc.col == 34);
  REQUIRE(t.observed.size() == 2);  // defaults to the condition's terms
  CHECK(formatTerm(t.observed[1]) == "P1:r1");
  CHECK((t.expect == Expect::Unreachable));
  CHECK(t.reason.find("release/acquire") == 0);
}

TEST_CASE("placement defaults") {
  Test t = parseYaml(R"Y(name: p
threads:
  A: {cta: 4, code: "fence.sc.gpu;"}
  B: {code: "fence.sc.gpu;"}
  C: {cta: 4, cluster: 4, gpu: 0, code: "fence.sc.gpu;"}
  D: {gpu: 1, code: "fence.sc.gpu;"}
condition: exists true
)Y",
                     "p.yaml");
  CHECK(t.threads[0].cta == 4);
  CHECK(t.threads[0].cluster == 4);
  CHECK(t.threads[1].cta == 5);  // a CTA of its own
  CHECK(t.threads[1].cluster == 5);
  CHECK(t.threads[1].gpu == 0);
  CHECK(t.threads[3].cta == 6);
  CHECK(t.threads[3].gpu == 1);
  CHECK(t.observed.empty());
}

TEST_CASE("observe and quoted scalars") {
  Test t = parseYaml(R"Y(name: o
locations: {x: 0}
threads:
  P0:
    code: "ld.u32 r0, [x]; st.u32 [x], 2"
condition: "exists (P0:r0 == 0)"
observe: [x, P0:r0, "0:r0"]
)Y",
                     "o.yaml");
  REQUIRE(t.observed.size() == 3);
  CHECK(formatTerm(t.observed[0]) == "x");
  CHECK(formatTerm(t.observed[2]) == "P0:r0");
  CHECK(t.threads[0].code[1].loc.col == 28);
  CHECK(t.condition.lhs.loc.col == 21);
  CHECK(t.observed[1].loc.col == 14);
}

TEST_CASE("YAML errors carry the node position") {
  // the acceptance example: an error on line 7, column 5
  CHECK(error("name: a\nlocations:\n  x: 0\nthreads:\n  P0:\n    code: \"st.u32 [x], 1;\"\n"
              "    colour: 1\ncondition: exists true\n") ==
        "e.yaml:7:5: error: unknown key 'colour' in thread P0");
  CHECK(error("name: a\nlocations:\n  x: 0\nthreads:\n  P0:\n    code: |\n      st.u32 [x], 1;\n"
              "      ld.relaxed.u32 r, [x];\ncondition: exists true\n") ==
        "e.yaml:8:10: error: '.relaxed' requires a scope (.cta, .cluster, .gpu or .sys)");
  CHECK(error("name: a\nthreads:\n  P0:\n    code: |\n      st.u32 [x], 1;\n      foo r, 1;\n"
              "condition: exists true\n") == "e.yaml:6:7: error: unknown instruction 'foo'");
  CHECK(error("name: a\nlocations: {x: 0\n") ==
        "e.yaml:3:1: error: invalid YAML: end of map flow not found");
  CHECK(
      error("name: a\nthreads:\n  P0:\n    code: |\n      st.u32 [x], 1;\ncondition: exists true\n"
            "colour: red\n") == "e.yaml:7:1: error: unknown key 'colour'");
  CHECK(error("name: a\nname: b\n") == "e.yaml:2:1: error: duplicate key 'name'");
  CHECK(error("- a\n") ==
        "e.yaml:1:1: error: expected a YAML mapping with name, threads and condition");
  CHECK(error("name: a\nthreads: {P0: {code: \"fence.sc.gpu;\"}}\n") ==
        "e.yaml:1:1: error: missing 'condition'");
  CHECK(error("name: a b\nthreads: {P0: {code: \"fence.sc.gpu;\"}}\ncondition: exists true\n") ==
        "e.yaml:1:7: error: invalid test name 'a b' (use letters, digits, '_', '.', '+' and '-')");
  CHECK(error("name: a\nthreads:\n  P0: {code: \"fence.sc.gpu;\", colour: 1}\ncondition: exists "
              "true\n") == "e.yaml:3:31: error: unknown key 'colour' in thread P0");
  CHECK(error("name: a\nthreads:\n  P0: {cta: -1, code: \"fence.sc.gpu;\"}\ncondition: exists "
              "true\n") == "e.yaml:3:13: error: cta must be between 0 and 1000000");
  CHECK(error("name: a\nthreads:\n  P0: {code: \"\"}\n  P1: {}\ncondition: exists true\n") ==
        "e.yaml:4:3: error: thread P1 has no instructions");
  CHECK(error("name: a\nlocations:\n  x: {init: 1, space: local}\nthreads: {P0: {code: "
              "\"fence.sc.gpu;\"}}\n"
              "condition: exists true\n") ==
        "e.yaml:3:23: error: unknown space 'local' (expected global, shared or shared::cta)");
  CHECK(error("name: a\nthreads: {P0: {code: \"fence.sc.gpu;\"}}\ncondition: exists true\nobserve: "
              "[P0:r9]\n") ==
        "e.yaml:4:11: error: condition names register 'r9' of P0, which is never written or "
        "initialised");
}

TEST_CASE("more YAML errors") {
  CHECK(error("name: a\nlocations: {or: 0}\nthreads: {P0: {code: \"st.u32 [or], 1;\"}}\n"
              "condition: exists true\n") == "e.yaml:2:13: error: location name 'or' is reserved");
  CHECK(error("name: a\nthreads: {P0: {code: \"fence.sc.gpu;\"}}\ncondition: exists true\n"
              "observe: [3]\n") ==
        "e.yaml:4:11: error: observe entries are registers (P0:r0) or locations");
  CHECK(error("name: " + std::string(5000, '[')) ==
        "e.yaml:1:1: error: invalid YAML: nested too deeply");
}

TEST_CASE("toYaml writes what parseYaml reads") {
  Test t = parseYaml(kMessagePassing, "mp.yaml");
  std::string text = toYaml(t);
  Test u = parseYaml(text, "again.yaml");
  CHECK(toYaml(u) == text);
  CHECK(u.locations.size() == t.locations.size());
  CHECK(u.threads[1].code.size() == t.threads[1].code.size());
  CHECK((u.expect == Expect::Unreachable));
  CHECK(u.reason == t.reason);
  CHECK(text.find("observe") == std::string::npos);  // the default is left out
  t.observed.resize(1);
  t.description = "two\nlines \"quoted\"";
  t.reason = "null";
  Test v = parseYaml(toYaml(t), "again.yaml");
  CHECK(v.observed.size() == 1);
  CHECK(v.description == t.description);
  CHECK(v.reason == "null");
}

TEST_CASE("a test's family: read, written back, and the name by default") {
  const std::string body = "threads: {P0: {code: \"fence.sc.gpu;\"}}\ncondition: exists true\n";
  Test t = parseYaml("name: MP+rel.gpu+acq.cta\nfamily: MP\n" + body, "f.yaml");
  CHECK(t.family == "MP");
  CHECK(familyOf(t) == "MP");
  CHECK(parseYaml(toYaml(t), "again.yaml").family == "MP");
  Test u = parseYaml("name: lonely\n" + body, "f.yaml");
  CHECK(familyOf(u) == "lonely");
  CHECK(toYaml(u).find("family") == std::string::npos);
  CHECK(error("name: a\nfamily: \"a b\"\n" + body) ==
        "e.yaml:2:9: error: invalid family name 'a b' (use letters, digits, '_', '.', '+' and '-')");
}

TEST_CASE("the examples in docs/format.md are valid tests") {
  std::ifstream in(LITMUS_SOURCE_DIR "/docs/format.md");
  REQUIRE(in);
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  int examples = 0;
  for (size_t at = 0; (at = text.find("```", at)) != std::string::npos;) {
    size_t body = text.find('\n', at) + 1, end = text.find("```", body);
    std::string lang = text.substr(at + 3, body - at - 4), block = text.substr(body, end - body);
    at = end + 3;
    bool yaml = lang == "yaml" && block.rfind("name:", 0) == 0;
    if (!yaml && block.rfind("PTX ", 0) != 0) continue;
    CAPTURE(block);
    CHECK_NOTHROW(yaml ? parseYaml(block, "doc.yaml") : parseHerd(block, "doc.litmus"));
    ++examples;
  }
  CHECK(examples >= 4);
}
