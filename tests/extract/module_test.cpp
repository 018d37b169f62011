// The PTX module front end of `litmus extract`: directives, declarations, function headers,
// inline-asm scopes with their own labels and registers, inlined calls, and the errors.
#include <doctest/doctest.h>

#include "extract/alu.h"
#include "extract/flatten.h"
#include "extract/ptx_module.h"

using namespace extract;

namespace {

const char* kHeader = ".version 9.0\n.target sm_90a\n.address_size 64\n";

Module module(const std::string& body) { return parseModule(kHeader + body, "k.ptx"); }

std::string errorOf(const std::string& body) {
  try {
    const Module m = module(body);
    for (const Function& f : m.functions)
      if (f.entry) flatten(m, f);
  } catch (const litmus::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("module directives, variables and kernel headers") {
  const Module m = module(
      "// a comment\n"
      ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 "
      "vprintf_param_1\n)\n;\n"
      ".extern .shared .align 16 .b8 smem[];\n"
      ".global .align 1 .b8 $str[3] = {65, 66, 0};\n"
      ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .align 8 .b8 k_param_1[16]\n)\n"
      ".reqntid 128, 1, 1\n.reqnctapercluster 2, 1, 1\n{\n"
      "\t.reg .b32 %r<4>;\n\t.shared .align 8 .b8 bars[16];\n\tret;\n}\n");
  CHECK(m.version == "9.0");
  CHECK(m.target == "sm_90a");
  CHECK(m.addressSize == 64);
  REQUIRE(m.vars.size() == 2);
  CHECK(m.vars[0].name == "smem");
  CHECK(m.vars[0].external);
  CHECK(m.vars[0].bytes() == 0);
  CHECK(m.vars[1].name == "$str");
  CHECK(m.vars[1].bytes() == 3);
  REQUIRE(m.functions.size() == 2);
  CHECK_FALSE(m.functions[0].hasBody);
  CHECK(m.functions[0].returns.size() == 1);
  CHECK(m.functions[0].params.size() == 2);
  const Function& k = m.functions[1];
  CHECK(k.entry);
  CHECK(k.name == "k");
  REQUIRE(k.params.size() == 2);
  CHECK(k.params[0].elemBytes == 8);
  CHECK(k.params[1].bytes() == 16);
  CHECK(k.params[1].align == 8);
  CHECK(k.reqntid[0] == 128);
  CHECK(k.reqCluster[0] == 2);
  CHECK(k.reqCluster[1] == 1);
  const Body b = flatten(m, k);
  REQUIRE(b.shared.size() == 1);
  CHECK(b.shared[0].name == "bars");
  CHECK(b.shared[0].align == 8);
}

TEST_CASE("inline-asm scopes: labels and registers repeat legally and are renamed apart") {
  const Module m = module(
      ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
      "\t{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%r1], %r2;\n"
      "\t@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}\n"
      "\t{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%r1], %r2;\n"
      "\t@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}\n\tret;\n}\n");
  const Body b = flatten(m, m.functions[0]);
  REQUIRE(b.ops.size() == 7);
  CHECK(b.ops[0].args[0].name != b.ops[3].args[0].name);  // two P1s
  CHECK(b.ops[0].args[0].kind == Arg::Kind::Reg);
  CHECK(b.ops[1].guard == b.ops[0].args[0].name);
  // each `bra LAB_WAIT` goes back to its own try_wait, each DONE to the end of its own scope
  CHECK(b.labels.at(b.ops[2].args[0].name) == 0);
  CHECK(b.labels.at(b.ops[5].args[0].name) == 3);
  CHECK(b.labels.at(b.ops[1].args[0].name) == 3);
  CHECK(b.labels.at(b.ops[4].args[0].name) == 6);
  CHECK(b.ops[0].args[1].kind == Arg::Kind::Addr);
  CHECK(b.ops[0].args[1].baseIsReg);
  CHECK(b.ops[0].loc.line == 10);
}

TEST_CASE("calls to functions with a body are inlined; vprintf stays a call") {
  const Module m = module(
      ".func  (.param .b32 twice_retval0) twice(\n\t.param .b32 twice_param_0\n)\n{\n\t.reg .b32 %r<3>;\n"
      "\tld.param.b32 %r1, [twice_param_0];\n\tadd.s32 %r2, %r1, %r1;\n\tst.param.b32 [twice_retval0], %r2;\n"
      "\tret;\n}\n"
      ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, 5;\n"
      "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], %r1;\n\t.param .b32 retval0;\n"
      "\tcall.uni (retval0), twice, (param0);\n\tld.param.b32 %r2, [retval0];\n\t}\n\tret;\n}\n");
  const Body b = flatten(m, m.functions[1]);
  std::vector<std::string> mnemonics;
  for (const Op& op : b.ops) mnemonics.push_back(op.mnemonic);
  CHECK(mnemonics == std::vector<std::string>{"mov.u32", "st.param.b32", "ld.param.b32", "add.s32", "st.param.b32",
                                              "bra", "ld.param.b32", "ret"});
  // the callee's parameter is the caller's argument slot; its registers are renamed
  CHECK(b.ops[2].args[1].name == b.ops[1].args[0].name);
  CHECK(b.ops[4].args[0].name == b.ops[6].args[1].name);
  CHECK(b.ops[3].args[0].name == "%r2_i1");
  CHECK(b.labels.at(b.ops[5].args[0].name) == 6);  // `ret` of the callee: to after the call
}

TEST_CASE("operands: pairs, sinks, vectors, special registers, addresses with offsets") {
  const Module m = module(
      ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n\t.reg .b64 %rd<2>;\n"
      "\tshfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, -1;\n\tmov.u32 %r3, %tid.x;\n"
      "\tld.shared.v2.u32 {%r1, %r2}, [%rd1+-8];\n\telect.sync _|%p1, 0xffffffff;\n\tret;\n}\n");
  const Body b = flatten(m, m.functions[0]);
  CHECK(b.ops[0].args[0].kind == Arg::Kind::Pair);
  CHECK(b.ops[0].args[4].imm == -1);
  CHECK(b.ops[1].args[1].special);
  CHECK(b.ops[2].args[0].kind == Arg::Kind::Vec);
  CHECK(b.ops[2].args[1].imm == -8);
  CHECK(b.ops[3].args[0].elems[0].kind == Arg::Kind::Sink);
  CHECK(b.ops[3].args[1].imm == 0xffffffff);
}

TEST_CASE("bad modules: file:line:col errors") {
  CHECK(errorOf(".visible .entry k()\n{\n\tmov.u32 %r1, 0;\n}\n") == "k.ptx:6:10: error: register '%r1' is not declared");
  CHECK(errorOf(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tbra NOWHERE;\n}\n") ==
        "k.ptx:7:2: error: label 'NOWHERE' is not defined");
  CHECK(errorOf(".visible .entry k()\n{\n\tL:\n\tL:\n\tret;\n}\n") == "k.ptx:7:2: error: label 'L' defined twice in one scope");
  CHECK(errorOf(".visible .entry k()\n{\n\tret\n") == "k.ptx:6:2: error: statement not ended by ';': 'ret'");
  CHECK(errorOf(".func f()\n{\n\tcall.uni f, ();\n\tret;\n}\n.visible .entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n")
            .find("nested deeper than 16") != std::string::npos);
  try {
    parseModule("ret;\n", "x.ptx");
    FAIL("no error");
  } catch (const litmus::Error& e) {
    CHECK(std::string(e.what()) == "x.ptx:1:1: error: not a PTX module: no .version directive");
  }
}

TEST_CASE("pure instructions: widths, signedness, address arithmetic") {
  auto op = [](const std::string& text) {
    struct None : Resolver {
      std::string reg(const std::string& n) const override { return n[0] == '%' ? n : ""; }
      std::string label(const std::string&) const override { return ""; }
      std::string sym(const std::string& n) const override { return n; }
    } r;
    return parseOp(text, {"t", 1, 1}, r);
  };
  using V = std::vector<Value>;
  CHECK(evalPure(op("add.s32 %d, %a, %b"), V{Value::num(0x7fffffff), Value::num(1)})[0].i == 0x80000000LL);
  CHECK(evalPure(op("setp.lt.s32 %p, %a, %b"), V{Value::num(0xffffffff), Value::num(1)})[0].i == 1);
  CHECK(evalPure(op("setp.lt.u32 %p, %a, %b"), V{Value::num(0xffffffff), Value::num(1)})[0].i == 0);
  CHECK(evalPure(op("shr.s32 %d, %a, %b"), V{Value::num(0x80000000LL), Value::num(4)})[0].i == 0xf8000000LL);
  CHECK(evalPure(op("selp.u32 %d, %a, %b, %p"), V{Value::num(7), Value::num(9), Value::num(0)})[0].i == 9);
  CHECK(evalPure(op("mul.wide.s32 %d, %a, %b"), V{Value::num(0xffffffff), Value::num(4)})[0].i == -4);
  CHECK(evalPure(op("xor.b32 %d, %a, %b"), V{Value::num(1), Value::num(1)})[0].i == 0);
  // an address plus 8 * stage stays an address; an alignment mask keeps it one
  const Value base = Value::addr(3, 16, Window::SharedCta);
  const Value shifted = evalPure(op("add.s32 %d, %a, %b"), V{base, Value::num(8)})[0];
  CHECK(shifted.kind == Value::Kind::Addr);
  CHECK(shifted.obj == 3);
  CHECK(shifted.i == 24);
  CHECK(evalPure(op("mad.wide.s32 %d, %a, %b, %c"), V{Value::num(2), Value::num(4), base})[0].i == 24);
  CHECK(evalPure(op("and.b32 %d, %a, %b"), V{Value::addr(3, 20, Window::SharedCta), Value::num(-16)})[0].i == 16);
  CHECK(evalPure(op("shl.b32 %d, %a, %b"), V{base, Value::num(1)})[0].kind == Value::Kind::Unknown);
  CHECK(evalPure(op("add.f32 %d, %a, %b"), V{Value::num(1), Value::num(1)})[0].kind == Value::Kind::Unknown);
  const Value generic = evalPure(op("cvta.shared.u64 %d, %a"), V{base})[0];
  CHECK(generic.window == Window::Generic);
  CHECK(evalPure(op("cvta.to.shared.u64 %d, %a"), V{generic})[0].window == Window::SharedCta);
}
