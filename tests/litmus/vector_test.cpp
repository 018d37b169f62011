// Vector atom/red (PTX ISA 8.1 forms) and element addresses `[x+K]`: parsing, the ISA's table of
// vector widths, types and operations, errors, printing, per-element initial values, conditions on
// elements, and the mixed-size check (docs/format.md, docs/model.md D21).
#include <doctest/doctest.h>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

using namespace litmus;

namespace {

Instr ptx(std::string_view s) { return parseInstruction(s, {"t.yaml", 1, 1}, Dialect::Ptx); }

std::string error(std::string_view s) {
  try {
    parseInstruction(s, {"t", 1, 1}, Dialect::Ptx);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string yamlError(const std::string& yaml) {
  try {
    parseYaml(yaml, "e.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// A one-thread test with the given locations, code and condition.
std::string test(const std::string& locations, const std::string& code,
                 const std::string& condition = "exists true") {
  std::string out = "name: t\nlocations: " + locations + "\nthreads:\n  P0:\n    code: |\n";
  for (size_t b = 0, e; b < code.size(); b = e + 1) {
    e = code.find('\n', b);
    if (e == std::string::npos) e = code.size();
    out += "      " + code.substr(b, e - b) + "\n";
  }
  return out + "condition: " + condition + "\n";
}

// The ISA table (§9.7.13.5 atom, §9.7.13.6 red): which (width, type, op) are vector forms.
bool inTable(int vec, const std::string& type, const std::string& op) {
  bool half = type == "f16" || type == "bf16", packed = type == "f16x2" || type == "bf16x2";
  if (type == "f32") return op == "add" && vec != 8;
  if (packed) return vec != 8;
  return half;
}

}  // namespace

TEST_CASE("vector atom and red: operands in brace lists") {
  Instr a = ptx("atom.global.v2.f32.add {%r0, %r1}, [x+8], {1.0, %b};");
  CHECK(a.op == Opcode::Atom);
  CHECK(a.vec == 2);
  CHECK((a.type == Type::F32));
  CHECK((a.atomOp == AtomOp::Add));
  CHECK((a.space == Space::Global));
  REQUIRE(a.args.size() == 5);
  CHECK(a.args[0].name == "r0");
  CHECK(a.args[1].name == "r1");
  CHECK(a.args[2].kind == Operand::Kind::Addr);
  CHECK(a.args[2].name == "x");
  CHECK(a.args[2].imm == 8);
  CHECK(a.args[3].kind == Operand::Kind::Imm);
  CHECK(a.args[3].imm == 0x3F800000);
  CHECK(a.args[4].kind == Operand::Kind::Reg);
  CHECK(destCount(a) == 2);
  CHECK(addressIndex(a) == 2);
  CHECK(elementBytes(a) == 4);
  CHECK(a.args[0].loc.col == 25);  // each element keeps its own position
  CHECK(a.args[1].loc.col == 30);
  CHECK(a.args[4].loc.col == 49);

  Instr r = ptx("red.release.gpu.global.v4.f16.add.noftz [x], {0.5, 1, %h2, %h3};");
  CHECK(r.op == Opcode::Red);
  CHECK(r.vec == 4);
  CHECK((r.sem == Sem::Release));
  REQUIRE(r.args.size() == 5);
  CHECK(r.args[0].kind == Operand::Kind::Addr);
  CHECK(r.args[1].imm == 0x3800);  // 0.5 as .f16
  CHECK(destCount(r) == 0);
  CHECK(addressIndex(r) == 0);
  CHECK(elementBytes(r) == 2);

  Instr v8 = ptx("atom.global.v8.bf16.max.noftz {a, b, c, d, e, f, g, h}, [x], {a, b, c, d, e, f, "
                 "g, h};");
  CHECK(v8.vec == 8);
  CHECK(v8.args.size() == 17);
  CHECK(ptx("atom.global.L2::cache_hint.v2.f32.add {a, b}, [x], {1.0, 1.0}, pol;").args.size() ==
        5);  // the cache policy is dropped
  CHECK((ptx("atom.v2.f16x2.min.noftz {a, b}, [x], {a, b};").space == Space::Generic));
  CHECK(elementBytes(ptx("atom.v2.f16x2.min.noftz {a, b}, [x], {a, b};")) == 4);
  // scalar forms keep vec == 1 and their layout
  Instr s = ptx("atom.global.add.u32 %r1, [x], 1;");
  CHECK(s.vec == 1);
  CHECK(destCount(s) == 1);
  CHECK(addressIndex(s) == 1);
}

TEST_CASE("every vector width, type and operation: the ISA table, printed back") {
  for (const char* mnemonic : {"atom", "red"})
    for (int vec : {2, 4, 8})
      for (const char* type : {"f32", "f16", "bf16", "f16x2", "bf16x2"})
        for (const char* op : {"add", "min", "max"}) {
          std::string m = mnemonic, t = type, o = op;
          std::string list;
          for (int i = 0; i < vec; ++i) list += (i ? ", %v" : "%v") + std::to_string(i);
          std::string noftz = t == "f32" ? "" : ".noftz";
          std::string text = m + ".global.v" + std::to_string(vec) + "." + t + "." + o + noftz +
                             " " + (m == "atom" ? "{" + list + "}, " : "") + "[x], {" + list + "}";
          CAPTURE(text);
          if (!inTable(vec, t, o)) {
            CHECK(error(text) != "no error");
            continue;
          }
          Instr in = ptx(text);
          CHECK(in.vec == vec);
          Instr again = ptx(formatInstr(in));
          CHECK(again.vec == vec);
          CHECK((again.type == in.type));
          CHECK((again.atomOp == in.atomOp));
          CHECK(again.args.size() == in.args.size());
          CHECK(formatInstr(again) == formatInstr(in));
        }
}

TEST_CASE("vector atom and red errors") {
  CHECK(error("atom.shared.v2.f32.add {a, b}, [x], {a, b};") ==
        "t:1:6: error: vector 'atom' takes only .global (or generic addressing), not '.shared'");
  CHECK(error("atom.global.v2.exch.b32 {a, b}, [x], {a, b};") ==
        "t:1:16: error: 'atom.v2' takes only .add, .min or .max, not '.exch'");
  CHECK(error("atom.global.v2.add {a, b}, [x], {a, b};") ==
        "t:1:13: error: 'atom.v2' requires a type (.f32, .f16, .bf16, .f16x2 or .bf16x2)");
  CHECK(error("red.global.v4.add.u32 [x], {a, b, c, d};") ==
        "t:1:19: error: 'red.v4' does not take '.u32' (vector forms take .f32, .f16, .bf16, "
        ".f16x2 or .bf16x2)");
  CHECK(error("atom.global.v2.f32.min {a, b}, [x], {a, b};") ==
        "t:1:20: error: 'atom.min.v2.f32' takes only .add, not '.min'");
  CHECK(error("atom.global.v8.f32.add {a, b, c, d, e, f, g, h}, [x], {a, b, c, d, e, f, g, h};") ==
        "t:1:13: error: '.v8' is only for .f16 and .bf16, not '.f32'");
  CHECK(error("red.global.v8.f16x2.add.noftz [x], {a, b, c, d, e, f, g, h};") ==
        "t:1:12: error: '.v8' is only for .f16 and .bf16, not '.f16x2'");
  CHECK(error("atom.global.v2.f32.add.noftz {a, b}, [x], {a, b};") ==
        "t:1:24: error: '.noftz' is not allowed on 'atom.add.v2.f32'");
  CHECK(error("atom.global.v2.f16.max {a, b}, [x], {a, b};") ==
        "t:1:16: error: 'atom.max.v2.f16' requires .noftz");
  CHECK(error("atom.global.v2.f32.add {a, b, c}, [x], {a, b};") ==
        "t:1:24: error: '.v2' needs 2 elements in braces, found 3");
  CHECK(error("red.global.v4.f32.add [x], {a, b};") ==
        "t:1:28: error: '.v4' needs 4 elements in braces, found 2");
  CHECK(error("atom.global.v2.f32.add {a, }, [x], {a, b};") ==
        "t:1:27: error: missing vector element");
  CHECK(error("atom.global.v2.f32.add {a, b}, [x], 1.0;") ==
        "t:1:37: error: 'atom.v2' expects 2 destination registers in braces, an address and 2 "
        "values in braces");
  CHECK(error("atom.global.v2.f32.add {1, b}, [x], {a, b};") ==
        "t:1:25: error: 'atom.v2' expects 2 destination registers in braces, an address and 2 "
        "values in braces");
  CHECK(error("atom.global.v2.f32.add {a, b}, {a, b};") ==
        "t:1:1: error: 'atom.v2' expects 2 destination registers in braces, an address and 2 "
        "values in braces");
  // the ISA's own example of a red with a destination is a typo
  CHECK(error("red.global.v2.f16x2.max.noftz {%bd0, %bd1}, [g], {%b0, %b1};") ==
        "t:1:50: error: 'red.v2' expects an address and 2 values in braces");
  CHECK(error("atom.global.L2::cache_hint.v2.f32.add {a, b}, [x], {1.0, 1.0};") ==
        "t:1:1: error: 'atom.v2' expects 2 destination registers in braces, an address and 2 "
        "values in braces, then a cache policy");
  CHECK(error("red.acquire.gpu.global.v2.f32.add [x], {a, b};") ==
        "t:1:5: error: red takes only .relaxed or .release");
  CHECK(error("atom.global.v2.f32.add {a, b}, [x], {a, 1.5x};") ==
        "t:1:41: error: malformed .f32 literal '1.5x'");
  CHECK(error("ld.global.v2.u32 {a, b}, [x];") ==
        "t:1:11: error: vector ld/st is not supported yet");
  CHECK(error("atom.global.add.f32 {a, b}, [x], 1.0;") ==
        "t:1:21: error: a brace-enclosed vector operand needs a vector qualifier (.v2, .v4 or "
        ".v8)");
}

TEST_CASE("vector destinations are written registers; the values must be known") {
  Test t = parseYaml(test("{x: 0}", "atom.global.v2.f32.add {%a, %b}, [x], {1.0, 2.0};",
                          "exists (P0:a == 0 /\\ P0:b == 0)"),
                     "v.yaml");
  CHECK(t.observed.size() == 2);
  CHECK(yamlError(test("{x: 0}", "red.global.v2.f32.add [x], {1.0, %q};")) ==
        "e.yaml:6:40: error: register 'q' of P0 is used but never written or initialised");
}

TEST_CASE("element addresses: [x+K] in code, x+K and [x+K] in conditions") {
  Test t = parseYaml(test("{x: 0}", "st.global.u32 [x+4], 1;\nld.global.u32 %r0, [x+0x8];",
                          "exists ([x+4] == 1 /\\ x+8 == 0 /\\ [x] == 0 /\\ x+0 == 0)"),
                     "v.yaml");
  CHECK(t.threads[0].code[0].args[0].imm == 4);
  CHECK(t.threads[0].code[1].args[1].imm == 8);
  REQUIRE(t.observed.size() == 3);  // x and x+0 are one term
  CHECK(formatTerm(t.observed[0]) == "x+4");
  CHECK(formatTerm(t.observed[1]) == "x+8");
  CHECK(formatTerm(t.observed[2]) == "x");
  CHECK(formatCondition(t.condition) == "(x+4 == 1 /\\ x+8 == 0 /\\ x == 0 /\\ x == 0)");
  // observe lists take elements too, and everything reads back through toYaml
  t.observed.push_back(parseTerm("[x + 12]", {"o", 1, 1}, t));
  CHECK(formatTerm(t.observed.back()) == "x+12");
  Test u = parseYaml(toYaml(t), "again.yaml");
  CHECK(toYaml(u) == toYaml(t));
  CHECK(formatTerm(u.observed.back()) == "x+12");

  CHECK(splitElementName("x+4") == std::make_pair(std::string("x"), int64_t{4}));
  CHECK(splitElementName("x") == std::make_pair(std::string("x"), int64_t{0}));
  CHECK_FALSE(splitElementName("x-4"));
  CHECK_FALSE(splitElementName("x+"));
  CHECK_FALSE(splitElementName("4+x"));
  CHECK(elementName("x", 0) == "x");
  CHECK(elementName("x", 16) == "x+16");

  CHECK(yamlError(test("{x: 0}", "st.u32 [x-4], 1;")) ==
        "e.yaml:6:14: error: negative offset in '[x-4]': an address names location 'x' or one of "
        "its elements [x+K], K >= 0");
  CHECK(yamlError(test("{x: 0}", "st.u32 [x], 1;", "exists ([x-4] == 0)")) ==
        "e.yaml:7:22: error: an element offset must be non-negative: write [x+K]");
  CHECK(yamlError(test("{x: 0}", "st.u32 [x], 1;", "exists (x+-4 == 0)")) ==
        "e.yaml:7:22: error: an element offset must be non-negative");
  CHECK(yamlError(test("{x: 0}", "st.u32 [x], 1;", "exists (x+ == 0)")) ==
        "e.yaml:7:23: error: expected a byte offset after '+' but found '=='");
  CHECK(yamlError(test("{x: 0}", "st.u32 [x], 1;", "exists (y+4 == 0)")) ==
        "e.yaml:7:20: error: condition names unknown location 'y'");
}

TEST_CASE("element addresses in the herd dialect") {
  Test t = parseHerd(R"(PTX elements
{
x=0;
}
 P0             | P1              ;
 st.weak x+4, 1 | ld.weak r0, x+4 ;
exists (P1:r0 == 1 /\ x+4 == 1)
)",
                     "e.litmus");
  CHECK(t.threads[0].code[0].args[0].name == "x");
  CHECK(t.threads[0].code[0].args[0].imm == 4);
  CHECK(t.threads[1].code[0].op == Opcode::Ld);
  CHECK(t.threads[1].code[0].args[1].imm == 4);
  CHECK(formatTerm(t.observed[1]) == "x+4");
  CHECK(t.locations.size() == 1);
}

TEST_CASE("per-element initial values: a list of 32-bit words or a map of byte offsets") {
  Test t = parseYaml(test("{a: {init: [1, 2, 3]}, m: {init: {0: 7, 8: -1}, space: shared}, "
                          "s: 5, y: {alias-of: a}}",
                          "ld.u32 %r0, [a+4];"),
                     "v.yaml");
  const Location& a = t.locations[0];
  CHECK(initialValue(a, 0) == 1);
  CHECK(initialValue(a, 4) == 2);
  CHECK(initialValue(a, 8) == 3);
  CHECK(initialValue(a, 12) == 0);
  CHECK(a.init == 1);
  const Location& m = t.locations[1];
  CHECK(initialValue(m, 0) == 7);
  CHECK(initialValue(m, 4) == 0);
  CHECK(initialValue(m, 8) == -1);
  CHECK(initialValue(t.locations[2], 12) == 5);  // a plain init holds at every offset
  CHECK(initialValue(t.locations[3], 8) == 3);   // an alias has its root's values
  std::string text = toYaml(t);
  CHECK(text.find("a: {init: [1, 2, 3]}") != std::string::npos);
  CHECK(text.find("m: {init: {0: 7, 8: -1}, space: shared}") != std::string::npos);
  Test u = parseYaml(text, "again.yaml");
  CHECK(toYaml(u) == text);
  CHECK(initialValue(u.locations[1], 8) == -1);
  // {0: .., 4: ..} is written back as the list it equals
  CHECK(toYaml(parseYaml(test("{a: {init: {4: 2, 0: 1}}}", "ld.u32 %r0, [a];"), "v.yaml"))
            .find("a: {init: [1, 2]}") != std::string::npos);

  CHECK(yamlError(test("{a: {init: []}}", "ld.u32 %r0, [a];")) ==
        "e.yaml:2:23: error: init list of 'a' is empty");
  CHECK(yamlError(test("{a: {init: {-4: 1}}}", "ld.u32 %r0, [a];")) ==
        "e.yaml:2:24: error: a byte offset must be non-negative");
  CHECK(yamlError(test("{a: {init: [1, x]}}", "ld.u32 %r0, [a];")) ==
        "e.yaml:2:27: error: an element of init must be an integer, not 'x'");
  CHECK(yamlError(test("{a: {init: {0: {1: 2}}}}", "ld.u32 %r0, [a];")) ==
        "e.yaml:2:27: error: the initial value at offset 0 must be a single value");
}

TEST_CASE("mixed-size accesses are refused, naming both instructions") {
  CHECK(yamlError(test("{x: 0}", "st.global.u64 [x], 1;\nld.global.u32 %r0, [x+4];")) ==
        "e.yaml:7:7: error: mixed-size accesses are outside the PTX memory model (§8.7.2): "
        "'st.global.u64 [x], 1' (P0, bytes 0..7 of x) and 'ld.global.u32 %r0, [x+4]' (P0, bytes "
        "4..7 of x)");
  // same offset, different sizes
  CHECK(yamlError(test("{x: 0}", "ld.global.u32 %r0, [x];\nst.global.u16 [x], 1;")) ==
        "e.yaml:7:7: error: mixed-size accesses are outside the PTX memory model (§8.7.2): "
        "'ld.global.u32 %r0, [x]' (P0, bytes 0..3 of x) and 'st.global.u16 [x], 1' (P0, bytes "
        "0..1 of x)");
  // through an alias, and against an element of a vector
  CHECK(yamlError(test("{x: 0, y: {alias-of: x}}",
                       "atom.global.v4.f16.add.noftz {a, b, c, d}, [x], {1, 1, 1, 1};\n"
                       "ld.global.u32 %r0, [y+4];")) ==
        "e.yaml:7:7: error: mixed-size accesses are outside the PTX memory model (§8.7.2): "
        "'atom.global.v4.f16.add.noftz {a, b, c, d}, [x], {1, 1, 1, 1}' (P0, bytes 4..5 of x) and "
        "'ld.global.u32 %r0, [y+4]' (P0, bytes 4..7 of x)");
  CHECK(yamlError(test("{x: 0}", "ld.global.u32 %r0, [x];", "exists (x+2 == 0)")) ==
        "e.yaml:7:20: error: condition names 'x+2', which lies inside the access "
        "'ld.global.u32 %r0, [x]' (P0, bytes 0..3 of x) (mixed sizes are outside the model, "
        "§8.7.2)");
  // disjoint and equal ranges are fine; untyped (herd-style) accesses are not checked
  CHECK(yamlError(test("{x: 0}",
                       "st.global.u32 [x], 1;\nst.global.u32 [x+4], 1;\nld.global.u32 %r0, [x];\n"
                       "atom.global.v2.f32.add {a, b}, [x+8], {1.0, 1.0};\nst.u64 [x+16], 1;\n"
                       "ld.weak %r1, [x+2];")) == "no error");
}
