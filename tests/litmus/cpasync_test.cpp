// Non-bulk cp.async, wgmma and setmaxnreg (issue 14): what the parser makes of each form, and
// that formatInstr prints canonical text that reads back to the same instruction.
#include <doctest/doctest.h>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

using namespace litmus;

namespace {

Instr parse(std::string_view s) { return parseInstruction(s, {"t", 1, 1}, Dialect::Ptx); }

// The fields these forms use, compared after printing and reading back.
void roundTrip(std::string_view text) {
  CAPTURE(text);
  const Instr a = parse(text);
  const std::string printed = formatInstr(a);
  CAPTURE(printed);
  const Instr b = parse(printed);
  CHECK((b.op == a.op));
  CHECK((b.asyncOp == a.asyncOp));
  CHECK((b.space == a.space));
  CHECK((b.srcSpace == a.srcSpace));
  CHECK((b.type == a.type));
  CHECK((b.atomOp == a.atomOp));
  CHECK(b.vec == a.vec);
  CHECK(b.target == a.target);
  REQUIRE(b.args.size() == a.args.size());
  for (size_t i = 0; i < a.args.size(); ++i) {
    CHECK(b.args[i].kind == a.args[i].kind);
    CHECK(b.args[i].name == a.args[i].name);
    CHECK(b.args[i].imm == a.args[i].imm);
  }
  CHECK(formatInstr(b) == printed);
}

}  // namespace

TEST_CASE("cp.async forms round trip") {
  for (const char* s :
       {"cp.async.ca.shared.global [s], [g], 4", "cp.async.ca.shared::cta.global [s+8], [g+8], 8",
        "cp.async.cg.shared.global [s], [g], 16", "cp.async.cg.shared.global [s], [g], 16, 8",
        "cp.async.commit_group", "cp.async.wait_group 2", "cp.async.wait_all",
        "cp.async.mbarrier.arrive.b64 [m]", "cp.async.mbarrier.arrive.shared.b64 [m]",
        "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [m]", "wgmma.fence.sync.aligned",
        "wgmma.commit_group.sync.aligned", "wgmma.wait_group.sync.aligned 1",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1}, [a], [b], 1, 1, -1, 0, 1",
        "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.u8 {%d0}, [a], [b], %p",
        "setmaxnreg.dec.sync.aligned.u32 40", "setmaxnreg.inc.sync.aligned.u32 232"})
    roundTrip(s);
}

TEST_CASE("cp.async: hints are dropped, sizes kept") {
  const Instr in = parse("cp.async.cg.shared.global.L2::cache_hint.L2::128B [s], [g], 16, 4, %pol");
  CHECK((in.asyncOp == AsyncOp::CpCopyCg));
  REQUIRE(in.args.size() == 4);  // the cache policy is dropped
  CHECK(in.args[2].imm == 16);
  CHECK(in.args[3].imm == 4);
  CHECK((in.space == Space::Shared));
  CHECK((in.srcSpace == Space::Global));
  CHECK((parse("cp.async.mbarrier.arrive.noinc.b64 [m]").asyncOp == AsyncOp::CpArriveNoinc));
  const Instr mma = parse(
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%d0, %d1, %d2}, [a], [b], 1, 1, 1, 0, "
      "0");
  CHECK(mma.vec == 3);
  CHECK(destCount(mma) == 3);
  CHECK(mma.target == "m64n8k16.f32.bf16.bf16");
  CHECK((parse("setmaxnreg.inc.sync.aligned.u32 24").op == Opcode::SetMaxNReg));
}

TEST_CASE("cp.async, wgmma, setmaxnreg: misuse is a located error") {
  for (const char* s :
       {"cp.async.cg.shared.global [s], [g], 8", "cp.async.ca.shared.global [s], [g], 12",
        "cp.async.ca.shared.global [s], [g], 4, 8", "cp.async.ca.shared.global [s], [g], 4, 2",
        "cp.async.ca.shared.global [s], [g], 4, %r", "cp.async.ca.global.shared [s], [g], 4",
        "cp.async.wait_group 64", "cp.async.commit_group 1", "cp.async.mbarrier.arrive [m]",
        "cp.async.mbarrier.arrive.shared::cluster.b64 [m]", "wgmma.fence",
        "wgmma.wait_group.sync.aligned %r",
        "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%d}, [a], [b], 1",
        "wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16 {%d}, [a], [b], 1, 1, 1, 0, 0",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d}, [a], [b], 1, 2, 1, 0, 0",
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d}, {%a0}, [b], 1, 1, 1, 0, 0",
        "setmaxnreg.inc.sync.aligned.u32 20", "setmaxnreg.dec.sync.aligned.u32 44",
        "setmaxnreg.inc.u32 40"}) {
    CAPTURE(s);
    CHECK_THROWS_AS(parse(s), Error);
  }
}
