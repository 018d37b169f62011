// `litmus extract` end to end on small handwritten kernels: role dispatch on %tid, loops run their
// parameter's count, addresses folded to locations, identical threads merged with their arrivals
// counted, the kernel's check as the condition, and what the extraction refuses.
#include <doctest/doctest.h>

#include <algorithm>

#include "checker/checker.h"
#include "extract/extract.h"
#include "litmus/parse.h"

using namespace extract;

namespace {

// Thread 0 initialises two mbarriers, writes the data and arrives on `full`; threads 1..3 wait
// for it, read the data, trap unless it is 42, and arrive on `done` (count 3), which thread 0
// waits for. The waits are CUTLASS-style scoped loops; the loop over `rounds` (a parameter)
// repeats the exchange.
const char* kKernel = R"(.version 9.0
.target sm_90a
.address_size 64
.visible .entry mp(
	.param .u32 mp_param_0
)
.reqntid 4, 1, 1
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.shared .align 8 .b8 bars[16];
	.shared .align 4 .b8 data[4];
	ld.param.u32 %r1, [mp_param_0];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, bars;
	setp.ne.s32 %p1, %r2, 0;
	@%p1 bra $L_sync;
	mov.u32 %r4, 1;
	mbarrier.init.shared::cta.b64 [%r3], %r4;
	add.s32 %r5, %r3, 8;
	mov.u32 %r6, 3;
	mbarrier.init.shared::cta.b64 [%r5], %r6;
$L_sync:
	bar.sync 0;
	mov.u32 %r7, 0;
$L_loop:
	setp.ge.s32 %p2, %r7, %r1;
	@%p2 bra $L_end;
	and.b32 %r8, %r7, 1;
	@%p1 bra $L_consumer;
	add.s32 %r9, %r7, 42;
	st.shared.u32 [data], %r9;
	mbarrier.arrive.shared::cta.b64 _, [%r3];
	add.s32 %r10, %r3, 8;
	{
	.reg .pred P1;
	LAB_WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 P1, [%r10], %r8;
	@P1 bra DONE;
	bra LAB_WAIT;
	DONE:
	}
	bra.uni $L_next;
$L_consumer:
	{
	.reg .pred P1;
	LAB_WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 P1, [%r3], %r8;
	@P1 bra DONE;
	bra LAB_WAIT;
	DONE:
	}
	ld.shared.u32 %r11, [data];
	add.s32 %r12, %r7, 42;
	setp.eq.s32 %p3, %r11, %r12;
	@%p3 bra $L_ok;
	trap;
$L_ok:
	add.s32 %r13, %r3, 8;
	mbarrier.arrive.shared::cta.b64 _, [%r13];
$L_next:
	add.s32 %r7, %r7, 1;
	bra.uni $L_loop;
$L_end:
	ret;
}
)";

std::string code(const litmus::Thread& t) {
  std::string out;
  for (const litmus::Instr& in : t.code) out += in.text + "\n";
  return out;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

Extracted run(ExtractOptions opt = {}) {
  const Module m = parseModule(kKernel, "mp.ptx");
  return extractKernel(m, *m.function("mp"), opt);
}

checker::Result checked(const litmus::Test& t) {
  checker::Options o;
  o.timeoutSeconds = 60;
  return checker::check(t, o);
}

}  // namespace

TEST_CASE("extraction: roles, loop counts, folded addresses, merged consumers, the check as condition") {
  ExtractOptions opt;
  opt.params.push_back({"0", 0, 2});  // two rounds
  const Extracted x = run(opt);
  const litmus::Test& t = x.test;
  CHECK(t.name == "mp-b4");
  REQUIRE(t.threads.size() == 2);  // thread 0, and threads 1..3 merged
  const std::string p0 = code(t.threads[0]), p1 = code(t.threads[1]);
  CHECK(count(p0, "mbarrier.init.shared::cta.b64 [bars], 1") == 1);
  CHECK(count(p0, "mbarrier.init.shared::cta.b64 [bars+8], 3") == 1);
  CHECK(count(p0, "st.shared.u32 [data], 42") == 1);  // round 0 stores 42, round 1 stores 43
  CHECK(count(p0, "st.shared.u32 [data], 43") == 1);
  CHECK(count(p0, "try_wait.parity.shared::cta.b64") == 2);
  // the three consumers' arrivals: one arrive counting 3
  CHECK(count(p1, "mbarrier.arrive.shared::cta.b64 %_, [bars+8], 3") == 2);
  CHECK(count(p1, "ld.shared.u32") == 2);
  CHECK(count(p1, "trap") == 0);
  // every instruction names its PTX line
  for (const litmus::Thread& th : t.threads)
    for (const litmus::Instr& in : th.code)
      if (in.op != litmus::Opcode::Label) {
        CHECK(in.origin.file == "mp.ptx");
        CHECK(in.origin.line > 0);
      }
  CHECK(litmus::formatCondition(t.condition) == "(P1:r11_1 != 42 \\/ P1:r11_2 != 43)");
  CHECK((t.expect == litmus::Expect::Unreachable));
  CHECK(t.liveness == "terminates");
  CHECK(t.raceFree);
  const checker::Result r = checked(t);
  CHECK((r.outcome.observation() == litmus::Observation::Never));
  CHECK(r.outcome.hang.empty());
  CHECK(r.outcome.races.empty());
}

TEST_CASE("extraction: merged and unmerged tests agree") {
  ExtractOptions opt;
  opt.params.push_back({"0", 0, 1});
  opt.merge = false;
  const Extracted whole = run(opt);
  CHECK(whole.test.threads.size() == 4);
  opt.merge = true;
  const Extracted merged = run(opt);
  CHECK(merged.test.threads.size() == 2);
  const checker::Result a = checked(whole.test), b = checked(merged.test);
  CHECK((a.outcome.observation() == b.outcome.observation()));
  CHECK(a.outcome.hang.empty() == b.outcome.hang.empty());
  CHECK(a.outcome.races.empty() == b.outcome.races.empty());
}

TEST_CASE("extraction: the default parameter value, and its note") {
  const Extracted x = run();
  CHECK(count(code(x.test.threads[0]), "st.shared.u32") == 3);
  CHECK(std::any_of(x.notes.begin(), x.notes.end(), [](const std::string& n) {
    return n.find("parameter 0 (mp_param_0) = 3 (the default") != std::string::npos;
  }));
}

TEST_CASE("extraction: what it refuses, at the PTX line") {
  auto errorOf = [](const std::string& text, ExtractOptions opt = {}) {
    try {
      const Module m = parseModule(text, "mp.ptx");
      extractKernel(m, m.functions[0], opt);
    } catch (const litmus::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  ExtractOptions many;
  many.params.push_back({"0", 0, 100000});
  CHECK(errorOf(kKernel, many).find("error: the thread's litmus code exceeds 20000 lines") != std::string::npos);
  const char* spin = ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry spin()\n.reqntid 1, 1, 1\n{\n"
                     "\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 0;\n$L:\n\tadd.s32 %r1, %r1, 1;\n\tbra $L;\n}\n";
  CHECK(errorOf(spin) == "mp.ptx:10:2: error: this instruction ran 4096 times in one thread: a loop that does not end "
                         "on this launch (give its bound with --param)");
  ExtractOptions noBlock;
  std::string text = kKernel;
  text.erase(text.find(".reqntid 4, 1, 1\n"), 17);
  CHECK(errorOf(text, noBlock) == "mp.ptx:4:1: error: kernel 'mp' declares no .reqntid: give the block shape with --block X,Y,Z");
  ExtractOptions param;
  param.params.push_back({"nope", 0, 1});
  CHECK(errorOf(kKernel, param) == "mp.ptx:4:1: error: --param nope: the kernel has no such parameter");
  // a branch on a value the extraction abstracts (a clock), that is no check
  std::string fl = kKernel;
  fl.replace(fl.find("add.s32 %r12, %r7, 42;"), 22, "mov.u32 %r12, %clock;");
  fl.replace(fl.find("\ttrap;\n"), 7, "\tmbarrier.arrive.shared::cta.b64 _, [%r3];\n");
  CHECK(errorOf(fl).find("mp.ptx:56:2: error: this branch depends on a value the extraction abstracts") == 0);
}

TEST_CASE("YAML: `//@ FILE:LINE` names an instruction's kernel line; `races: none` reads back") {
  const std::string yaml =
      "name: t\nlocations:\n  x: 0\nthreads:\n  P0:\n    code: |\n"
      "      st.global.u32 [x], 1;  //@ k.ptx:57\n      L: ld.global.u32 %r0, [x]; //@ dir/k.ptx:9\n"
      "      ld.global.u32 %r1, [x];\ncondition: exists (P0:r0 == 0)\nraces: none\n";
  const litmus::Test t = litmus::parseYaml(yaml, "t.yaml");
  REQUIRE(t.threads[0].code.size() == 4);
  CHECK(t.threads[0].code[0].origin.file == "k.ptx");
  CHECK(t.threads[0].code[0].origin.line == 57);
  CHECK(t.threads[0].code[1].origin.line == 0);  // the label
  CHECK(t.threads[0].code[2].origin.file == "dir/k.ptx");
  CHECK(t.threads[0].code[3].origin.line == 0);
  CHECK(litmus::shownText(t.threads[0].code[0]) == "st.global.u32 [x], 1 (k.ptx:57)");
  CHECK(litmus::shownText(t.threads[0].code[3]) == "ld.global.u32 %r1, [x]");
  CHECK(t.raceFree);
  const litmus::Test back = litmus::parseYaml(litmus::toYaml(t), "t.yaml");
  CHECK(back.threads[0].code[2].origin.line == 9);
  CHECK(back.raceFree);
  auto errorOf = [&](const std::string& from, const std::string& to) {
    std::string y = yaml;
    y.replace(y.find(from), from.size(), to);
    try {
      litmus::parseYaml(y, "t.yaml");
    } catch (const litmus::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(errorOf("//@ k.ptx:57", "//@ k.ptx") == "t.yaml:7:30: error: expected '//@ FILE:LINE' naming where the line comes from");
  CHECK(errorOf("races: none", "races: some") == "t.yaml:11:8: error: invalid races value 'some' (expected none)");
}
