// formatInstr prints canonical PTX text that parseInstruction reads back to the same Instr.
#include <doctest/doctest.h>

#include <tuple>
#include <vector>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "tests/litmus/same_instr.h"

using namespace litmus;
using litmus::testing::sameInstr;

namespace {

void roundTrip(std::string_view text, Dialect d) {
  CAPTURE(text);
  Instr first = parseInstruction(text, {"t", 1, 1}, d);
  std::string printed = formatInstr(first);
  CAPTURE(printed);
  Instr again = parseInstruction(printed, {"t", 1, 1}, Dialect::Ptx);
  CHECK(sameInstr(first, again));
  CHECK(formatInstr(again) == printed);  // canonical: printing is a fixed point
}

}  // namespace

TEST_CASE("formatInstr round trip, PTX dialect") {
  for (const char* s : {"ld.u32 %r0, [x]",
                        "ld.weak.global.u32 %r0, [x]",
                        "ld.relaxed.gpu.global.s64 r, [x+8]",
                        "ld.acquire.sys.shared::cta.b32 r, [x]",
                        "ld.acquire.cluster.shared::cluster.b32 r, [x]",
                        "ld.volatile.shared.u16 r, [x-2]",
                        "ld.mmio.relaxed.sys.global.u32 r, [x]",
                        "ld.global.nc.u32 r, [t]",
                        "ld.const.u32 r, [c]",
                        "ld.local.u8 r, [l]",
                        "tld.weak.u32 r, [t]",
                        "suld.weak.b32 r, [s]",
                        "cold.weak.u32 r, [c]",
                        "sust.weak.b32 [s], 1",
                        "st.global.u32 [x], 1",
                        "st.release.gpu.global.u32 [x], %r1",
                        "st.relaxed.cta.b64 [x], -1",
                        "st.volatile.global.u32 [x], 7",
                        "st.mmio.relaxed.sys.global.u32 [x], 1",
                        "st.u32 [x], 0xFFFFFFFF",
                        "st.f32 [x], 1.5",
                        "st.f32 [x], 0f7FC00001",
                        "st.f64 [x], -2.25",
                        "st.f16 [x], 0.1",
                        "st.bf16 [x], 3.0",
                        "st.f16 [x], 0f7F800000",
                        "st.global.cg.u32 [x], 1",
                        "atom.add.u32 r, [x], 1",
                        "atom.global.add.u32 r, [x], 1",
                        "atom.relaxed.gpu.global.add.u32 r, [x], 1",
                        "atom.sys.exch.b64 r, [x], r2",
                        "atom.acquire.cas.b32 r, [x], 0, 1",
                        "atom.acq_rel.cluster.shared::cta.min.s32 r, [x], -3",
                        "atom.release.gpu.inc.u32 r, [x], 9",
                        "atom.dec.u32 r, [x], 9",
                        "atom.and.b32 r, [x], 0xff",
                        "atom.or.b64 r, [x], 1",
                        "atom.xor.b32 r, [x], 1",
                        "atom.max.u64 r, [x], 1",
                        "atom.add.noftz.f16 r, [x], 1.0",
                        "atom.add.noftz.bf16x2 r, [x], r",
                        "atom.add.f32 r, [x], 0.5",
                        "atom.cas.b128 r, [x], a, b",
                        "atom.global.v2.f32.add {%f0, %f1}, [x], {%f0, %f1}",
                        "atom.global.v4.f32.add {%f0, %f1, %f2, %f3}, [x+16], {1.0, 2, -0.5, %f3}",
                        "atom.acq_rel.sys.v2.f32.add {a, b}, [x], {1.5, 2.5}",
                        "atom.global.v2.f16.add.noftz {%hd0, %hd1}, [gbl], {%h0, %h1}",
                        "atom.global.v8.f16.max.noftz {a, b, c, d, e, f, g, h}, [x], "
                        "{1, 2, 3, 4, 5, 6, 7, 0.5}",
                        "atom.global.v8.bf16.add.noftz {a, b, c, d, e, f, g, h}, [x], "
                        "{h, g, f, e, d, c, b, a}",
                        "atom.v4.bf16.min.noftz {a, b, c, d}, [x], {1, 2, 3, 4}",
                        "atom.global.v2.f16x2.min.noftz {%bd0, %bd1}, [g], {%b0, %b1}",
                        "atom.global.v4.bf16x2.max.noftz {a, b, c, d}, [g], {a, b, c, d}",
                        "atom.global.L2::cache_hint.v2.f32.add {a, b}, [x], {1.0, 1.0}, pol",
                        "red.global.v2.f32.add [x], {1.0, %f1}",
                        "red.release.gpu.global.v4.f32.add [x+8], {1.0, 1.0, 1.0, 1.0}",
                        "red.global.v8.f16.add.noftz [gbl], {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}",
                        "red.global.v8.bf16.min.noftz [gbl], {a, b, c, d, e, f, g, h}",
                        "red.v2.f16.add.noftz [x], {0.25, 1}",
                        "red.global.v4.f16x2.max.noftz [gbl], {%h0, %h1, %h2, %h3}",
                        "red.global.v2.bf16x2.add.noftz [g], {%b0, %b1}",
                        "atom.acq_rel.sys.sub r0, [x], 1",
                        "red.add.u32 [x], 1",
                        "red.release.sys.global.or.b32 [x], 4",
                        "red.acq_rel.sys.add [x], 1",
                        "fence.sc.gpu",
                        "fence.acq_rel.cta",
                        "fence.cluster",
                        "fence.acquire.gpu",
                        "fence.release.sys",
                        "membar.gl",
                        "membar.cta",
                        "membar.sys",
                        "fence.proxy.alias",
                        "fence.proxy.texture",
                        "fence.proxy.surface",
                        "fence.proxy.constant",
                        "fence.proxy.async",
                        "fence.proxy.async.global",
                        "fence.proxy.async.shared::cta",
                        "fence.proxy.async.shared::cluster",
                        "bar.sync 0",
                        "bar.cta.sync 1, 64",
                        "barrier.sync 2, %r1",
                        "bar.arrive 1, 32",
                        "bar.cta.sync 1, 1, 2",
                        "bar.red.popc.u32 r, 0, p",
                        "bar.cta.red.and.pred p, 1, 64, !q",
                        "bar.red.or.pred p, 0, q",
                        "mov.u32 r, 5",
                        "mov.b64 r, r2",
                        "mov.pred p, 1",
                        "mov.f32 f, 2.0",
                        "mov r0, 1",
                        "add.s32 r, a, -1",
                        "sub.u64 r, a, b",
                        "mul.lo.u32 r, a, 3",
                        "div.s32 r, a, 2",
                        "rem.u32 r, a, 2",
                        "and.b32 r, a, 1",
                        "or.b32 r, a, 1",
                        "xor.b32 r, a, 1",
                        "shl.b32 r, a, 2",
                        "shr.u32 r, a, 2",
                        "min.s32 r, a, b",
                        "max.u32 r, a, b",
                        "neg.s32 r, a",
                        "not.b32 r, a",
                        "add r2, r2, 1",
                        "setp.eq.u32 p, a, 0",
                        "setp.ne.s32 p, a, b",
                        "setp.lt.u32 p, a, b",
                        "setp.ls.u32 p, a, b",
                        "setp.gt.s64 p, a, b",
                        "setp.ge.u32 p, a, b",
                        "selp.b32 r, 1, 2, p",
                        "bra L",
                        "bra.uni L",
                        "@p bra L",
                        "@!p bra L",
                        "@%p st.u32 [x], 1",
                        "beq a, b, L",
                        "bne r2, 0, L",
                        "blt a, 1, L",
                        "ble a, 1, L",
                        "bgt a, 1, L",
                        "bge a, 1, L",
                        "L:",
                        "LOOP_1:",
                        // bulk and asynchronous operations, cluster instructions
                        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], 16, [m]",
                        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d+16], [s], 32, [m]",
                        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%a], [s], 16, [%b]",
                        "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [g], [s], 32, %pol",
                        "cp.async.bulk.commit_group",
                        "cp.async.bulk.wait_group 1",
                        "cp.async.bulk.wait_group.read 0",
                        "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r1], 5, [%r2]",
                        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1+4], %v, [%r2]",
                        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], 1, [%r2]",
                        "red.async.relaxed.cluster.mbarrier::complete_tx::bytes.min.s32 [%r1], -1, [%r2]",
                        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [g], [s], 128",
                        "fence.proxy.tensormap::generic.release.sys",
                        "fence.proxy.tensormap::generic.acquire.gpu [g], 128",
                        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
                        "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
                        "mapa.shared::cluster.u32 %r1, x, 1",
                        "mapa.u64 %r1, x, %rank",
                        "getctarank.shared::cluster.u32 %r2, %r1",
                        "getctarank.u32 %r2, x",
                        "elect.sync _|%p, 0xffffffff",
                        "elect.sync %l|%p, %mask",
                        "bar.warp.sync 3",
                        "ld.shared::cluster.u32 %r0, [%a+8]",
                        // mbarrier operations and restricted fences
                        "mbarrier.init.shared.b64 [m], 2",
                        "mbarrier.inval.shared.b64 [m]",
                        "mbarrier.arrive.shared.b64 %s, [m]",
                        "mbarrier.arrive.relaxed.cta.shared.b64 %s, [m]",
                        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r]",
                        "mbarrier.arrive.noComplete.shared.b64 %s, [m], 1",
                        "mbarrier.arrive.expect_tx.shared::cta.b64 %s, [m], 16",
                        "mbarrier.arrive_drop.shared.b64 %s, [m]",
                        "mbarrier.expect_tx.shared.b64 [m], 16",
                        "mbarrier.complete_tx.shared.b64 [m], 16",
                        "mbarrier.test_wait.shared.b64 %p, [m], %s",
                        "mbarrier.test_wait.parity.shared.b64 %p, [m], 1",
                        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [m], 0",
                        "mbarrier.pending_count.b64 %n, %s",
                        "fence.mbarrier_init.release.cluster",
                        "fence.release.sync_restrict::shared::cta.cluster",
                        "fence.acquire.sync_restrict::shared::cluster.cluster"})
    roundTrip(s, Dialect::Ptx);
}

TEST_CASE("formatInstr round trip, herd dialect") {
  for (const char* s : {"ld.weak r0, x",
                        "ld.relaxed.gpu r0, x",
                        "ld.acquire.sys r1, x",
                        "st.weak x, 1",
                        "st.weak x, r0",
                        "st.release.cta flag, 1",
                        "ld r0, 1",
                        "atom.relaxed.gpu.exch r0, Mem0, 1",
                        "atom.relaxed.gpu.cas r2, m, 0, 1",
                        "atom.acq_rel.sys.sub r0, x, 1",
                        "atom.acquire.gpu.add r1, in, 1",
                        "red.acq_rel.sys.add x, 1",
                        "red.acq_rel.sys.sub x, 1",
                        "ld.weak r0, x+4",
                        "st.relaxed.gpu x+8, r1",
                        "atom.relaxed.gpu.add r0, x+0x10, 1",
                        "fence.sc.gpu",
                        "fence.acq_rel.cta",
                        "fence.proxy.alias",
                        "tld.weak r1, t",
                        "suld.weak r1, s",
                        "sust.weak s, 2",
                        "cold.weak r3, rd2",
                        "bar.cta.sync 1",
                        "bar.cta.sync 1, r2",
                        "bar.cta.sync 1, 1, 2",
                        "bar.cta.arrive 1",
                        "add r2, r2, 1",
                        "beq r1,r2,LC01",
                        "bne r2, 0, LC00",
                        "goto LC00",
                        "LC00:"})
    roundTrip(s, Dialect::Herd);
}

TEST_CASE("formatInstr canonical spellings") {
  auto fmt = [](std::string_view s, Dialect d = Dialect::Ptx) {
    return formatInstr(parseInstruction(s, {"t", 1, 1}, d));
  };
  CHECK(fmt("st.global.relaxed.sys.u32 [x], 1;") == "st.relaxed.sys.global.u32 [x], 1");
  CHECK(fmt("ld.weak r0, x", Dialect::Herd) == "ld.weak %r0, [x]");
  CHECK(fmt("ld r0, 1", Dialect::Herd) == "mov %r0, 1");
  CHECK(fmt("goto L", Dialect::Herd) == "bra L");
  CHECK(fmt("membar.gl") == "fence.sc.gpu");
  CHECK(fmt("st.f32 [x], 1.0") == "st.f32 [x], 0f3F800000");
  CHECK(fmt("st.f64 [x], 1.0") == "st.f64 [x], 0d3FF0000000000000");
  CHECK(fmt("st.f16 [x], 0.5") == "st.f16 [x], 0.5");
  CHECK(fmt("ld.global.L2::cache_hint.u32 r, [x], pol") == "ld.global.u32 %r, [x]");
  CHECK(fmt("atom.add.noftz.f16 r, [x], 1.0") == "atom.add.noftz.f16 %r, [x], 1");
  CHECK(fmt("barrier.cta.aligned.sync 0") == "bar.cta.sync 0");
  CHECK(fmt("atom.global.v2.f16.add.noftz {%hd0, %hd1}, [gbl], {%h0, %h1}") ==
        "atom.global.add.noftz.v2.f16 {%hd0, %hd1}, [gbl], {%h0, %h1}");
  CHECK(fmt("atom.global.v4.f32.add  {%f0,%f1 ,%f2, %f3}, [x+4], {1.0, 0f40000000, 3, 4}") ==
        "atom.global.add.v4.f32 {%f0, %f1, %f2, %f3}, [x+4], "
        "{0f3F800000, 0f40000000, 0f40400000, 0f40800000}");
  CHECK(fmt("red.global.v2.f32.add [x], {1.0, %f}") == "red.global.add.v2.f32 [x], {0f3F800000, %f}");
  CHECK(fmt("st.weak x+4, 1", Dialect::Herd) == "st.weak [x+4], 1");
}

// A value of an enumeration different from `current`.
template <class E>
E other(E current, E a, E b) {
  return current == a ? b : a;
}

TEST_CASE("sameInstr tells apart instructions that differ in any one compared field") {
  const Instr base =
      parseInstruction("mbarrier.test_wait.shared.b64 %p, [m], %s", {"t", 1, 1}, Dialect::Ptx);
  REQUIRE(sameInstr(base, base));
  Instr moved = base;
  moved.text += " (moved)";
  moved.loc = {"u", 9, 9};
  moved.args[0].loc = {"u", 9, 12};
  CHECK(sameInstr(base, moved));  // the source text and positions are not compared
  const std::vector<std::pair<std::string, void (*)(Instr&)>> changes = {
      {"op", [](Instr& i) { i.op = other(i.op, Opcode::Ld, Opcode::St); }},
      {"sem", [](Instr& i) { i.sem = other(i.sem, Sem::Relaxed, Sem::Release); }},
      {"scope", [](Instr& i) { i.scope = other(i.scope, Scope::Gpu, Scope::Sys); }},
      {"space", [](Instr& i) { i.space = other(i.space, Space::Global, Space::Local); }},
      {"srcSpace", [](Instr& i) { i.srcSpace = other(i.srcSpace, Space::Global, Space::Local); }},
      {"proxy", [](Instr& i) { i.proxy = other(i.proxy, Proxy::Async, Proxy::Texture); }},
      {"type", [](Instr& i) { i.type = other(i.type, Type::B32, Type::U16); }},
      {"semExplicit", [](Instr& i) { i.semExplicit = !i.semExplicit; }},
      {"scopeExplicit", [](Instr& i) { i.scopeExplicit = !i.scopeExplicit; }},
      {"atomOp", [](Instr& i) { i.atomOp = other(i.atomOp, AtomOp::Add, AtomOp::Or); }},
      {"arith", [](Instr& i) { i.arith = other(i.arith, ArithOp::Add, ArithOp::Sub); }},
      {"cmp", [](Instr& i) { i.cmp = other(i.cmp, CmpOp::Eq, CmpOp::Ne); }},
      {"barOp", [](Instr& i) { i.barOp = other(i.barOp, BarOp::Sync, BarOp::Arrive); }},
      {"mbarOp", [](Instr& i) { i.mbarOp = other(i.mbarOp, MbarOp::TryWait, MbarOp::Init); }},
      {"restrict",
       [](Instr& i) {
         i.restrict = other(i.restrict, FenceRestrict::SharedCta, FenceRestrict::SharedCluster);
       }},
      {"expectTx", [](Instr& i) { i.expectTx = !i.expectTx; }},
      {"noComplete", [](Instr& i) { i.noComplete = !i.noComplete; }},
      {"parity", [](Instr& i) { i.parity = !i.parity; }},
      {"proxyKind",
       [](Instr& i) {
         i.proxyKind = other(i.proxyKind, FenceProxyKind::Async, FenceProxyKind::Alias);
       }},
      {"asyncOp", [](Instr& i) { i.asyncOp = other(i.asyncOp, AsyncOp::Copy, AsyncOp::Wait); }},
      {"bulkGroup", [](Instr& i) { i.bulkGroup = !i.bulkGroup; }},
      {"readOnly", [](Instr& i) { i.readOnly = !i.readOnly; }},
      {"tensorDims", [](Instr& i) { i.tensorDims = 3; }},
      {"vec", [](Instr& i) { i.vec = 2; }},
      {"args (count)", [](Instr& i) { i.args.pop_back(); }},
      {"args (kind)", [](Instr& i) { i.args[2].kind = Operand::Kind::Imm; }},
      {"args (name)", [](Instr& i) { i.args[2].name += "t"; }},
      {"args (imm)", [](Instr& i) { i.args[1].imm = 8; }},
      {"args (negated)", [](Instr& i) { i.args[0].negated = true; }},
      {"target", [](Instr& i) { i.target += "L"; }},
      {"guard", [](Instr& i) { i.guard += "q"; }},
      {"guardNegated", [](Instr& i) { i.guardNegated = true; }},
      {"addrSpace", [](Instr& i) { i.addrSpace = other(i.addrSpace, Space::Global, Space::SharedCta); }},
      {"clcOp", [](Instr& i) { i.clcOp = other(i.clcOp, ClcOp::TryCancel, ClcOp::IsCanceled); }},
      {"clcDim", [](Instr& i) { i.clcDim = 2; }},
      {"multicast", [](Instr& i) { i.multicast = !i.multicast; }},
  };
  for (const auto& entry : changes) {
    const auto& field = entry.first;  // not a structured binding: clang 14 cannot capture one
    const auto& change = entry.second;
    CAPTURE(field);
    Instr changed = base;
    change(changed);
    CHECK_FALSE(sameInstr(base, changed));
  }
}

TEST_CASE("formatInstr round trip, clusterlaunchcontrol and the small forms of issue 14") {
  for (const char* s :
       {"clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [r], [m]",
        "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [r+16], [m]",
        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p, %q",
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %r1, %q",
        "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r1, _, %r3, _}, %q",
        "cvta.shared.u64 %rd1, m", "cvta.to.shared.u32 %r1, %rd1", "cvta.global.u64 %rd1, x",
        "nanosleep.u32 20", "@!%c nanosleep.u32 %r1", "exit", "@%p exit",
        "createpolicy.fractional.L2::evict_last.b64 %rd9, 0.25",
        "membar.proxy.async.shared::cta", "red.async.release.gpu.global.add.u32 [x], %r2",
        "red.async.release.sys.add.s64 [x], -1", "st.async.release.sys.global.b16 [x], 7"})
    roundTrip(s, Dialect::Ptx);
}
