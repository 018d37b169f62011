// parseInstruction: every accepted form in both dialects, defaults, and the error messages.
#include <doctest/doctest.h>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

using namespace litmus;

namespace {

Instr ptx(std::string_view s) { return parseInstruction(s, {"t.yaml", 3, 5}, Dialect::Ptx); }
Instr herd(std::string_view s) { return parseInstruction(s, {"t.litmus", 3, 5}, Dialect::Herd); }

std::string error(std::string_view s, Dialect d = Dialect::Ptx) {
  try {
    parseInstruction(s, {"t", 1, 1}, d);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("ld and st in the PTX dialect") {
  Instr ld = ptx("ld.acquire.gpu.global.u32 %r0, [flag];");
  CHECK(ld.op == Opcode::Ld);
  CHECK((ld.sem == Sem::Acquire));
  CHECK((ld.scope == Scope::Gpu));
  CHECK((ld.space == Space::Global));
  CHECK((ld.type == Type::U32));
  CHECK(ld.semExplicit);
  CHECK(ld.scopeExplicit);
  CHECK(ld.text == "ld.acquire.gpu.global.u32 %r0, [flag]");
  CHECK(ld.loc.line == 3);
  CHECK(ld.loc.col == 5);
  REQUIRE(ld.args.size() == 2);
  CHECK(ld.args[0].kind == Operand::Kind::Reg);
  CHECK(ld.args[0].name == "r0");
  CHECK(ld.args[0].loc.col == 5 + 26);
  CHECK(ld.args[1].kind == Operand::Kind::Addr);
  CHECK(ld.args[1].name == "flag");

  Instr st = ptx("st.global.u32 [x+8], 1");
  CHECK(st.op == Opcode::St);
  CHECK((st.sem == Sem::Weak));
  CHECK_FALSE(st.semExplicit);
  CHECK(st.args[0].imm == 8);
  CHECK(st.args[1].kind == Operand::Kind::Imm);
  CHECK(st.args[1].imm == 1);

  CHECK((ptx("ld.weak.shared.b64 r1, [y];").space == Space::Shared));
  CHECK((ptx("ld.shared::cta.b64 r1, [y];").space == Space::SharedCta));
  CHECK((ptx("ld.shared::cluster.b64 r1, [y];").space == Space::SharedCluster));
  CHECK((ptx("ld.volatile.global.s32 r1, [y];").sem == Sem::Volatile));
  CHECK(ptx("st.release.sys.f32 [y], 0f3F800000;").args[1].imm == 0x3F800000);
  CHECK(ptx("st.f32 [y], 1.5;").args[1].imm == 0x3FC00000);
  CHECK(ptx("st.f64 [y], 1.0;").args[1].imm == 0x3FF0000000000000);
  CHECK(ptx("st.f16 [y], 1.0;").args[1].imm == 0x3C00);
  CHECK(ptx("st.bf16 [y], 1.0;").args[1].imm == 0x3F80);
  CHECK(ptx("st.u32 [y], 0xFFFFFFFF;").args[1].imm == 0xFFFFFFFF);
  CHECK(ptx("st.s32 [y], -5;").args[1].imm == -5);
  CHECK(ptx("st.u64 [y-4], %r1;").args[0].imm == -4);
}

TEST_CASE("qualifier order does not matter") {
  for (const char* s : {"st.global.relaxed.sys.u32 [x], 1", "st.relaxed.sys.global.u32 [x], 1",
                        "st.u32.sys.global.relaxed [x], 1"}) {
    Instr i = ptx(s);
    CHECK((i.sem == Sem::Relaxed));
    CHECK((i.scope == Scope::Sys));
    CHECK((i.space == Space::Global));
    CHECK((i.type == Type::U32));
  }
}

TEST_CASE("proxies, mmio and cache qualifiers") {
  CHECK((ptx("ld.const.u32 r, [c];").proxy == Proxy::Constant));
  CHECK((ptx("ld.global.nc.u32 r, [t];").proxy == Proxy::Texture));
  CHECK((ptx("tld.weak.u32 r, [t];").proxy == Proxy::Texture));
  CHECK((ptx("suld.weak.b32 r, [s];").proxy == Proxy::Surface));
  CHECK((ptx("sust.weak.b32 [s], 1;").proxy == Proxy::Surface));
  CHECK((ptx("cold.weak.u32 r, [c];").proxy == Proxy::Constant));
  CHECK((ptx("ld.mmio.relaxed.sys.global.u32 r, [x];").sem == Sem::Mmio));
  CHECK((ptx("ld.global.cg.L2::128B.u32 r, [x];").sem == Sem::Weak));
  CHECK((ptx("ld.relaxed.gpu.global.L1::evict_last.u32 r, [x];").sem == Sem::Relaxed));
  Instr hinted = ptx("ld.global.L2::cache_hint.u32 r, [x], pol;");
  CHECK(hinted.args.size() == 2);  // the cache policy is dropped
  CHECK(ptx("st.wb.global.u32 [x], 1;").op == Opcode::St);
}

TEST_CASE("atom and red") {
  Instr a = ptx("atom.global.add.u32 %r1, [x], 1;");
  CHECK(a.op == Opcode::Atom);
  CHECK((a.atomOp == AtomOp::Add));
  CHECK((a.sem == Sem::Relaxed));
  CHECK((a.scope == Scope::Gpu));
  CHECK_FALSE(a.semExplicit);
  CHECK_FALSE(a.scopeExplicit);
  CHECK(a.args.size() == 3);
  Instr cas = ptx("atom.acq_rel.sys.cas.b32 r, [x], 0, 1;");
  CHECK((cas.atomOp == AtomOp::Cas));
  CHECK((cas.sem == Sem::AcqRel));
  CHECK((cas.scope == Scope::Sys));
  CHECK(cas.args.size() == 4);
  CHECK((ptx("atom.shared::cta.exch.b64 r, [x], r;").space == Space::SharedCta));
  CHECK((ptx("atom.add.noftz.f16 r, [x], r;").type == Type::F16));
  CHECK((ptx("atom.cta.max.s64 r, [x], -1;").scope == Scope::Cta));
  CHECK((ptx("atom.inc.u32 r, [x], 10;").atomOp == AtomOp::Inc));
  CHECK(ptx("atom.global.L2::cache_hint.add.u32 r, [x], 1, pol;").args.size() == 3);
  Instr r = ptx("red.release.gpu.global.add.u64 [x], 1;");
  CHECK(r.op == Opcode::Red);
  CHECK((r.sem == Sem::Release));
  CHECK(r.args.size() == 2);
  CHECK((ptx("red.or.b32 [x], 1;").atomOp == AtomOp::Or));
  // untyped forms follow herd's rules, so converted herd tests read back
  CHECK((ptx("atom.acq_rel.sys.sub r0, [x], 1;").atomOp == AtomOp::Sub));
  CHECK((ptx("red.acq_rel.sys.add [x], 1;").sem == Sem::AcqRel));
}

TEST_CASE("fences, barriers and membar") {
  Instr f = ptx("fence.sc.gpu;");
  CHECK(f.op == Opcode::Fence);
  CHECK((f.sem == Sem::Sc));
  CHECK((f.scope == Scope::Gpu));
  Instr d = ptx("fence.cta;");
  CHECK((d.sem == Sem::AcqRel));
  CHECK_FALSE(d.semExplicit);
  CHECK((ptx("fence.acquire.cluster;").sem == Sem::Acquire));
  CHECK((ptx("fence.release.sys;").sem == Sem::Release));
  CHECK((ptx("membar.gl;").scope == Scope::Gpu));
  CHECK((ptx("membar.cta;").sem == Sem::Sc));
  CHECK((ptx("membar.sys;").scope == Scope::Sys));
  CHECK((ptx("fence.proxy.alias;").proxyKind == FenceProxyKind::Alias));
  CHECK((ptx("fence.proxy.async.shared::cta;").proxyKind == FenceProxyKind::AsyncSharedCta));
  CHECK((ptx("fence.proxy.async.global;").proxyKind == FenceProxyKind::AsyncGlobal));
  CHECK(ptx("fence.proxy.constant;").op == Opcode::FenceProxy);

  Instr b = ptx("bar.sync 0;");
  CHECK(b.op == Opcode::Bar);
  CHECK((b.barOp == BarOp::Sync));
  CHECK(b.args.size() == 1);
  CHECK((ptx("bar.cta.arrive 1, 64;").barOp == BarOp::Arrive));
  CHECK(ptx("barrier.cta.aligned.sync 1, %r2;").args[1].kind == Operand::Kind::Reg);
  Instr popc = ptx("bar.red.popc.u32 %r1, 0, %p;");
  CHECK((popc.barOp == BarOp::RedPopc));
  CHECK((popc.type == Type::U32));
  Instr red = ptx("bar.cta.red.and.pred p, 1, 64, !q;");
  CHECK((red.barOp == BarOp::RedAnd));
  REQUIRE(red.args.size() == 4);
  CHECK(red.args[3].negated);
  CHECK((ptx("barrier.red.or.pred p, 1, q;").barOp == BarOp::RedOr));
}

TEST_CASE("register instructions, branches, guards and labels") {
  Instr m = ptx("mov.u32 %r1, 5;");
  CHECK(m.op == Opcode::Mov);
  CHECK(m.args[1].imm == 5);
  Instr add = ptx("add.s32 r2, r2, -1;");
  CHECK((add.arith == ArithOp::Add));
  CHECK((ptx("mul.lo.u32 r, a, 3;").arith == ArithOp::Mul));
  CHECK(ptx("neg.s32 r, a;").args.size() == 2);
  CHECK((ptx("not.b32 r, a;").arith == ArithOp::Not));
  CHECK((ptx("shl.b64 r, a, 3;").arith == ArithOp::Shl));
  Instr sp = ptx("setp.ne.u32 %p1, %r1, 0;");
  CHECK(sp.op == Opcode::Setp);
  CHECK((sp.cmp == CmpOp::Ne));
  CHECK((ptx("setp.hs.u32 p, a, b;").cmp == CmpOp::Ge));
  CHECK((ptx("setp.lo.u32 p, a, b;").cmp == CmpOp::Lt));
  CHECK(ptx("selp.b32 r, 1, 2, p;").op == Opcode::Selp);
  Instr bra = ptx("@!%p1 bra.uni DONE;");
  CHECK(bra.op == Opcode::Bra);
  CHECK(bra.target == "DONE");
  CHECK(bra.guard == "p1");
  CHECK(bra.guardNegated);
  CHECK(ptx("@p st.u32 [x], 1;").guard == "p");
  Instr label = ptx("LOOP:");
  CHECK(label.op == Opcode::Label);
  CHECK(label.target == "LOOP");
}

TEST_CASE("herd dialect") {
  Instr ld = herd("ld.weak r0, x");
  CHECK(ld.op == Opcode::Ld);
  CHECK(ld.args[1].kind == Operand::Kind::Addr);
  CHECK(ld.args[1].name == "x");
  CHECK((ld.type == Type::None));
  Instr st = herd("st.relaxed.gpu x, 1");
  CHECK((st.sem == Sem::Relaxed));
  CHECK(st.args[0].kind == Operand::Kind::Addr);
  CHECK(herd("st.weak x, r0").args[1].kind == Operand::Kind::Reg);
  Instr mov = herd("ld r0, 1");
  CHECK(mov.op == Opcode::Mov);
  CHECK(mov.args[1].imm == 1);
  CHECK(herd("ld r0, x").op == Opcode::Ld);  // herd.cpp turns it into a move if x is no location
  Instr xchg = herd("atom.relaxed.gpu.exch r0, Mem0, 1");
  CHECK((xchg.atomOp == AtomOp::Exch));
  CHECK(xchg.args[1].name == "Mem0");
  CHECK((herd("atom.acq_rel.sys.sub r0, x, 1").atomOp == AtomOp::Sub));
  CHECK(herd("atom.relaxed.gpu.cas r2, m, 0, 1").args.size() == 4);
  CHECK((herd("red.acq_rel.sys.add x, 1").sem == Sem::AcqRel));
  CHECK((herd("red.acq_rel.sys.sub x, 1").atomOp == AtomOp::Sub));
  CHECK((herd("fence.acq_rel.cta").sem == Sem::AcqRel));
  CHECK((herd("fence.proxy.surface").proxyKind == FenceProxyKind::Surface));
  CHECK((herd("tld.weak r1, t").proxy == Proxy::Texture));
  CHECK((herd("suld.weak r1, s").proxy == Proxy::Surface));
  CHECK((herd("sust.weak s, 2").proxy == Proxy::Surface));
  CHECK((herd("cold.weak r3, rd2").proxy == Proxy::Constant));
  CHECK(herd("bar.cta.sync 1, 1, 2").args.size() == 3);
  CHECK(herd("bar.cta.sync 1, r2").args[1].kind == Operand::Kind::Reg);
  CHECK((herd("bar.cta.arrive 1").barOp == BarOp::Arrive));
  CHECK((herd("add r2, r2, 1").arith == ArithOp::Add));
  Instr bne = herd("bne r2, 0, LC00");
  CHECK(bne.op == Opcode::Bra);
  CHECK((bne.cmp == CmpOp::Ne));
  CHECK(bne.target == "LC00");
  CHECK(bne.args.size() == 2);
  CHECK((herd("beq r1,r2,LC01").cmp == CmpOp::Eq));
  for (const char* b : {"blt a, b, L", "bgt a, b, L", "ble a, b, L", "bge a, b, L"})
    CHECK(herd(b).op == Opcode::Bra);
  Instr go = herd("goto LC00");
  CHECK(go.op == Opcode::Bra);
  CHECK((go.cmp == CmpOp::None));
  CHECK(herd("LC00:").op == Opcode::Label);
}

TEST_CASE("instruction errors name the offending token") {
  CHECK(error("ld.relaxed.u32 r, [x];") ==
        "t:1:4: error: '.relaxed' requires a scope (.cta, .cluster, .gpu or .sys)");
  CHECK(error("ld.weak.gpu.u32 r, [x];") ==
        "t:1:9: error: a scope is not allowed on a .weak access");
  CHECK(error("ld.gpu.u32 r, [x];") == "t:1:4: error: a scope is not allowed on a .weak access");
  CHECK(error("st.volatile.sys.u32 [x], 1;") ==
        "t:1:13: error: a scope is not allowed on a .volatile access");
  CHECK(error("ld.relaxed.acquire.gpu.u32 r, [x];") ==
        "t:1:12: error: second memory order '.acquire' (already '.relaxed')");
  CHECK(error("ld.relaxed.gpu.sys.u32 r, [x];") ==
        "t:1:16: error: second scope '.sys' (already '.gpu')");
  CHECK(error("st.acquire.gpu.u32 [x], 1;") == "t:1:4: error: '.acquire' is not allowed on 'st'");
  CHECK(error("ld.release.gpu.u32 r, [x];") == "t:1:4: error: '.release' is not allowed on 'ld'");
  CHECK(error("ld.mmio.relaxed.gpu.u32 r, [x];") ==
        "t:1:4: error: '.mmio' must be written as .mmio.relaxed.sys");
  CHECK(error("ld.foo.u32 r, [x];") == "t:1:4: error: unknown qualifier '.foo' on 'ld'");
  CHECK(error("foo r, [x];") == "t:1:1: error: unknown instruction 'foo'");
  CHECK(error("st.u32 [x];") == "t:1:1: error: 'st' expects an address and a value");
  CHECK(error("st.u32 x, 1;") == "t:1:8: error: 'st' expects an address and a value");
  CHECK(error("ld.u32 r, [x], 1;") ==
        "t:1:16: error: 'ld' expects a destination register and an address");
  CHECK(error("ld.relaxed.gpu.cg.u32 r, [x];") ==
        "t:1:16: error: cache qualifier '.cg' is not allowed on a .relaxed access");
  CHECK(error("atom.cas.b32 r, [x], 1;") ==
        "t:1:1: error: 'atom.cas' expects a destination, an address, a compare value and a new "
        "value");
  CHECK(error("atom.add.b32 r, [x], 1;") == "t:1:10: error: 'atom.add' does not take '.b32'");
  CHECK(error("atom.inc.s32 r, [x], 1;") == "t:1:10: error: 'atom.inc' does not take '.s32'");
  CHECK(error("atom.add.f16 r, [x], 1.0;") == "t:1:10: error: 'atom.add.f16' requires .noftz");
  CHECK(error("atom.sub.u32 r, [x], 1;") ==
        "t:1:6: error: '.sub' is not a PTX atom operation; use .add with a negated value");
  CHECK(error("atom.global.u32 r, [x], 1;") ==
        "t:1:1: error: 'atom' requires an operation (.add, .and, .or, .xor, .exch, .cas, .inc, "
        ".dec, .min or .max)");
  CHECK(error("atom.weak.add.u32 r, [x], 1;") == "t:1:6: error: '.weak' is not allowed on 'atom'");
  CHECK(error("red.acquire.gpu.add.u32 [x], 1;") ==
        "t:1:5: error: red takes only .relaxed or .release");
  CHECK(error("red.cas.b32 [x], 1;") == "t:1:5: error: '.cas' is not allowed on 'red'");
  CHECK(error("atom.global.v2.add.f32 r, [x], 1.0;") ==
        "t:1:24: error: 'atom.v2' expects 2 destination registers in braces, an address and 2 "
        "values in braces");
  CHECK(error("atom.add.f32 {a, b}, [x], 1.0;") ==
        "t:1:14: error: a brace-enclosed vector operand needs a vector qualifier (.v2, .v4 or .v8)");
  CHECK(error("fence.sc;") ==
        "t:1:1: error: 'fence' requires a scope (.cta, .cluster, .gpu or .sys)");
  CHECK(error("fence.relaxed.gpu;") == "t:1:7: error: '.relaxed' is not allowed on 'fence'");
  CHECK(error("fence.proxy.foo;") == "t:1:13: error: unknown qualifier '.foo' on 'fence.proxy'");
  CHECK(error("membar.warp;") == "t:1:8: error: unknown qualifier '.warp' on 'membar'");
  CHECK(error("st.u32 [x], 4294967296;") ==
        "t:1:13: error: value 4294967296 out of range for .u32");
  CHECK(error("st.u8 [x], -129;") == "t:1:12: error: value -129 out of range for .u8");
  CHECK(error("mov.u64 r, 18446744073709551616;") ==
        "t:1:12: error: value 18446744073709551616 out of range for 64 bits");
  CHECK(error("mov.u32 r, 12ab;") == "t:1:12: error: malformed integer '12ab'");
  CHECK(error("st.u32 [%1r], 1;") ==
        "t:1:8: error: malformed address '[%1r]'; expected [x], [x+4] or [%r], [%r+4]");
  CHECK(error("cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [a], [b], 16, [m];") ==
        "t:1:15: error: 'cp.async.bulk' copies global to .shared::cluster or .shared::cta, or "
        ".shared::cta to .shared::cluster (both with .mbarrier::complete_tx::bytes), or "
        ".shared::cta to global (with .bulk_group)");
  CHECK(error("cp.async.bulk.global.shared::cta.bulk_group [a], [b], 20;") ==
        "t:1:55: error: size 20 is not a positive multiple of 16 bytes up to 1024");
  CHECK(error("red.async.relaxed.cluster.add.b32 [a], 1, [m];") ==
        "t:1:1: error: 'red.async' takes .inc/.dec .u32, .min/.max .u32/.s32, .and/.or/.xor .b32 or "
        ".add .u32/.s32/.u64");
  CHECK(error("fence.proxy.tensormap::generic.acquire.gpu [g], 64;") ==
        "t:1:49: error: the size of 'fence.proxy.tensormap::generic.acquire' must be 128");
  CHECK(error("fence.proxy.async::generic.release.sync_restrict::shared::cluster.cluster;") ==
        "t:1:36: error: 'fence.proxy.async::generic.release' requires .sync_restrict::shared::cta.cluster");
  CHECK(error("elect.sync %r0, 0xffffffff;") ==
        "t:1:12: error: 'elect.sync' expects d|p (d may be _) and a member mask");
  CHECK(error("mapa.shared::cta.u32 %r0, x, 1;") ==
        "t:1:6: error: 'mapa' takes only .shared::cluster (or no space: generic addresses)");
  CHECK(error("bar.sync;") ==
        "t:1:1: error: 'bar.sync' expects a barrier id and an optional thread count");
  CHECK(error("bar.red.popc.pred p, 0, q;") == "t:1:14: error: 'bar.red.popc' requires .u32");
  CHECK(error("setp.u32 p, a, b;") ==
        "t:1:1: error: 'setp' requires a comparison (.eq, .ne, .lt, .le, .gt or .ge)");
  CHECK(error("ld.u32 r, [x],, ;") == "t:1:15: error: missing operand");
  CHECK(error("ld..u32 r, [x];") == "t:1:4: error: empty qualifier in 'ld..u32'");
  CHECK(error("@ ld.u32 r, [x];") == "t:1:1: error: malformed guard; expected @p or @!p");
  CHECK(error(";") == "t:1:1: error: empty instruction");
}

TEST_CASE("barrier.cluster") {
  const Instr a = ptx("barrier.cluster.arrive;");
  CHECK((a.barOp == BarOp::ClusterArrive));
  CHECK((a.sem == Sem::Release));
  CHECK((a.scope == Scope::Cluster));
  CHECK((ptx("barrier.cluster.arrive.relaxed.aligned;").sem == Sem::Relaxed));
  CHECK((ptx("barrier.cluster.arrive.release;").sem == Sem::Release));
  const Instr w = ptx("barrier.cluster.wait.aligned;");
  CHECK((w.barOp == BarOp::ClusterWait));
  CHECK((w.sem == Sem::Acquire));
  CHECK(formatInstr(ptx("barrier.cluster.arrive.relaxed;")) == "barrier.cluster.arrive.relaxed");
  CHECK(formatInstr(ptx("barrier.cluster.wait;")) == "barrier.cluster.wait");
  CHECK(error("barrier.cluster.wait.release;") ==
        "t:1:22: error: '.release' is not a memory order of 'barrier.cluster.wait'");
  CHECK(error("barrier.cluster.arrive 1;") ==
        "t:1:24: error: 'barrier.cluster.arrive' takes no operands");
  CHECK(error("barrier.cluster;") == "t:1:9: error: 'barrier.cluster' requires .arrive or .wait");
}

TEST_CASE("mbarrier forms and their errors") {
  const Instr a = ptx("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %s, [m], 64;");
  CHECK((a.mbarOp == litmus::MbarOp::Arrive));
  CHECK(a.expectTx);
  CHECK((a.sem == Sem::Release));
  CHECK((a.scope == Scope::Cluster));
  CHECK(a.args.size() == 3);
  const Instr w = ptx("mbarrier.try_wait.parity.shared.b64 %p, [m], 1, 1000;");
  CHECK((w.mbarOp == litmus::MbarOp::TryWait));
  CHECK(w.parity);
  CHECK((w.sem == Sem::Acquire));
  CHECK(w.args.size() == 3);  // the time hint is dropped
  CHECK(error("mbarrier.arrive.acquire.shared.b64 %s, [m];") ==
        "t:1:17: error: '.acquire' is not a memory order of 'mbarrier.arrive'");
  CHECK(error("mbarrier.init.shared.b32 [m], 1;") == "t:1:1: error: 'mbarrier.init' requires .b64");
  CHECK(error("mbarrier.wait.shared.b64 %p, [m];").find("requires an operation") != std::string::npos);
}

TEST_CASE("restricted fences") {
  const Instr f = ptx("fence.mbarrier_init.release.cluster;");
  CHECK((f.restrict == litmus::FenceRestrict::MbarrierInit));
  CHECK((f.sem == Sem::Release));
  CHECK(formatInstr(f) == "fence.mbarrier_init.release.cluster");
  const Instr a = ptx("fence.acquire.sync_restrict::shared::cluster.cluster;");
  CHECK((a.restrict == litmus::FenceRestrict::SharedCluster));
  CHECK(formatInstr(a) == "fence.acquire.sync_restrict::shared::cluster.cluster");
  CHECK(error("fence.release.sync_restrict::shared::cluster.cluster;") ==
        "t:1:15: error: '.sync_restrict::shared::cluster' requires .acquire.cluster");
}

TEST_CASE("recognised but unsupported instructions") {
  // cp.async (non-bulk), wgmma and cp.async.bulk.tensor are modelled since issue 14 (D43-D48)
  CHECK(error("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [a], [b], 16;") ==
        "t:1:1: error: 'cp.reduce' is not supported yet");
  CHECK(error("cp.async.bulk.prefetch.L2.global [a], 16;") ==
        "t:1:15: error: 'cp.async.bulk.prefetch' is not supported yet: prefetches are outside the model");
  // st.async.release (sm_100) is modelled since issue 14 (docs/model.md D51)
  CHECK(error("multimem.red.relaxed.gpu.global.add.u32 [a], 1;") ==
        "t:1:1: error: 'multimem' is not supported yet");
  CHECK(error("tcgen05.fence::before_thread_sync;") == "t:1:1: error: 'tcgen05' is not supported yet");
}

TEST_CASE("griddepcontrol parses into GridDep") {
  CHECK(ptx("griddepcontrol.wait;").op == Opcode::GridDep);
  CHECK(ptx("griddepcontrol.wait;").gridOp == GridOp::Wait);
  CHECK(ptx("griddepcontrol.launch_dependents;").gridOp == GridOp::LaunchDependents);
  CHECK(error("griddepcontrol;") ==
        "t:1:1: error: expected 'griddepcontrol.launch_dependents' or 'griddepcontrol.wait'");
  CHECK(error("griddepcontrol.wait.sync;") == "t:1:21: error: unknown qualifier '.sync' on 'griddepcontrol'");
}
