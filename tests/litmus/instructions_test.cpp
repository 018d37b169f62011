// The instruction table (litmus/instructions.h): its classifications agree with what the parser
// makes of each form, and every syntax name it lists is one the parser knows.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "litmus/instr_parser.h"
#include "litmus/instructions.h"
#include "litmus/parse.h"

using namespace litmus;

namespace {

Instr parse(std::string_view s) { return parseInstruction(s, {"t", 1, 1}, Dialect::Ptx); }

}  // namespace

TEST_CASE("instruction table: setmaxnreg has its own opcode, of PTX ISA 8.0") {
  const Instr in = parse("setmaxnreg.dec.sync.aligned.u32 40");
  CHECK((in.op == Opcode::SetMaxNReg));
  CHECK((in.atomOp == AtomOp::Dec));
  CHECK(isWarpgroupAligned(in));
  CHECK(opcodeInfo(in.op).name == "setmaxnreg");
  CHECK(opcodeInfo(in.op).runnerRefusal.empty());  // the runner fixes the count at entry (plan_rules.cpp)
  CHECK(ptxVersion(in) == 80);
  CHECK(opcodeInfo(Opcode::Ld).runnerRefusal.empty());
  CHECK(!isWarpgroupAligned(Instr{}));  // a Nop is no setmaxnreg
}

TEST_CASE("instruction table: async families") {
  for (const char* s : {"cp.async.ca.shared.global [s], [g], 4", "cp.async.commit_group", "cp.async.wait_all",
                        "cp.async.mbarrier.arrive.b64 [m]", "wgmma.fence.sync.aligned",
                        "wgmma.wait_group.sync.aligned 1"}) {
    CAPTURE(s);
    CHECK(isCpAsyncOrWgmma(parse(s)));
  }
  for (const char* s : {"cp.async.bulk.commit_group", "cp.async.bulk.wait_group 0",
                        "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [x], 1, [m]", "ld.u32 r, [x]"}) {
    CAPTURE(s);
    CHECK(!isCpAsyncOrWgmma(parse(s)));
  }
  CHECK(isWarpgroupAligned(parse("wgmma.commit_group.sync.aligned")));
  CHECK(!isWarpgroupAligned(parse("cp.async.wait_all")));
  CHECK((asyncOpInfo(AsyncOp::Store).family == AsyncFamily::Bulk));
  CHECK((asyncOpInfo(AsyncOp::TensorLoad).family == AsyncFamily::Tensor));
}

TEST_CASE("instruction table: immediates of counts and masks are untyped") {
  CHECK(untypedImmediates(parse("bar.sync 0")));
  CHECK(untypedImmediates(parse("cp.async.bulk.wait_group 0")));
  CHECK(!untypedImmediates(parse("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [x], 1, [m]")));
  CHECK(!untypedImmediates(parse("st.u32 [x], 1")));
}

TEST_CASE("instruction table: warp collectives by shape") {
  CHECK(takesPredicate(parse("vote.sync.all.pred p, q, 0xffffffff").warpOp));
  CHECK(takesPredicate(parse("vote.sync.ballot.b32 r, q, 0xffffffff").warpOp));
  CHECK(!takesPredicate(parse("match.any.sync.b32 r, s, 0xffffffff").warpOp));
  CHECK(!takesPredicate(parse("redux.sync.add.s32 r, s, 0xffffffff").warpOp));
  CHECK((warpOpInfo(WarpOp::Uni).shape == WarpShape::Vote));
  CHECK((warpOpInfo(WarpOp::Ballot).shape == WarpShape::Ballot));
  CHECK(warpOpInfo(WarpOp::Xor).name == "xor");
  CHECK(opcodeInfo(Opcode::Warp).warpCollective);
  CHECK(opcodeInfo(Opcode::Elect).warpCollective);
  CHECK(!opcodeInfo(Opcode::Bar).warpCollective);
}

TEST_CASE("instruction table: uni-directional proxy fences") {
  CHECK(isUniDirectional(parse("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster").proxyKind));
  CHECK(isUniDirectional(parse("fence.proxy.tensormap::generic.release.gpu").proxyKind));
  CHECK(!isUniDirectional(parse("fence.proxy.async.shared::cta").proxyKind));
  CHECK(!isUniDirectional(parse("fence.proxy.alias").proxyKind));
}

TEST_CASE("instruction table: every syntax name is an instruction the parser knows, and the reverse") {
  std::set<std::string> listed;
  for (const OpcodeInfo& row : opcodeTable()) {
    CHECK(&opcodeInfo(row.op) == &row);
    std::istringstream words{std::string(row.syntax)};
    for (std::string w; words >> w;) {
      CAPTURE(w);
      listed.insert(w);
      try {
        parse(w);
      } catch (const Error& e) {
        CHECK(std::string(e.what()).find("unknown instruction") == std::string::npos);
      }
    }
  }
  for (std::string_view m : instr_detail::InstrParser::mnemonics()) {
    CAPTURE(m);
    CHECK(listed.count(std::string(m)) == 1);
  }
}

TEST_CASE("instruction table: classifications by model event") {
  CHECK(isAccess(parse("ld.u32 r, [x]")));
  CHECK(isAccess(parse("red.add.u32 [x], 1")));
  CHECK(!isAccess(parse("mov.u32 r, 1")));
  CHECK(readsMemory(parse("atom.add.u32 r, [x], 1")));
  CHECK(!readsMemory(parse("st.u32 [x], 1")));
  CHECK(isRmw(parse("red.add.u32 [x], 1")));
  CHECK(!isRmw(parse("ld.u32 r, [x]")));
  CHECK(isFence(parse("fence.sc.gpu")));
  CHECK(isFence(parse("membar.gl")));
  CHECK(isFence(parse("fence.proxy.alias")));
  CHECK(!isFence(parse("bar.sync 0")));
}

TEST_CASE("instruction table: the PTX ISA version an instruction's opcode needs") {
  CHECK(ptxVersion(parse("ld.u32 r, [x]")) == 0);
  CHECK(ptxVersion(parse("elect.sync r|p, 0xffffffff")) == 80);
  CHECK(ptxVersion(parse("cp.async.bulk.commit_group")) == 80);
  CHECK(ptxVersion(parse("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [x], 1, [m]")) == 81);
  CHECK(ptxVersion(parse("tensormap.replace.tile.global_address.global.b1024.b64 [tm], B")) == 83);
}
