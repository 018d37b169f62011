// The test kernel around the bodies: which role, instance and litmus thread a warp runs, the
// instance's addresses, shared-memory initialisation, the start barrier, pre-stress, the spin
// barrier that lines the roles up, a random delay, the body, and the results. Non-testing blocks
// stress a scratch area. Everything is PTX: no compiler sits between the test and the GPU.
#include <algorithm>
#include <vector>

#include "gpu-runner/ptx_gen.h"
#include "gpu-runner/wait_trace.h"

namespace gpu {

namespace {

const std::string kLp = "p_lp";
constexpr int64_t kNoThread = 0xffffffff;

std::string num(int64_t v) { return std::to_string(v); }
int roundUp16(int v) { return (v + 15) / 16 * 16; }

// The launch-wide spin barrier (kFlagGlobalBarrier) needs every testing lane of the test in one
// kernel launch on one GPU; tests of several grids or GPUs keep the per-group counters.
bool globalBarrier(const Plan& plan) { return plan.gpus == 1 && plan.gridProgrammatic.size() <= 1; }

void declareHarness(PtxText& out, const Plan& plan) {
  out.op(".reg .b32 %h_tid, %h_lane, %h_warp, %h_hc, %h_rank, %h_ntc, %h_U, %h_K, %h_role, %h_su");
  out.op(".reg .b32 %h_g, %h_k, %h_l, %h_ks, %h_gk, %h_n32, %h_slot, %h_t, %h_one");
  out.op(".reg .b32 %h_a, %h_b, %h_c, %h_d, %h_e, %h_f, %h_x");
  out.op(".reg .b64 %h_loc, %h_res, %h_shout, %h_spin, %h_scratch, %h_tag, %h_A, %h_B, %h_X, %h_Y, %h_Z, %h_W");
  out.op(".reg .pred %h_p, %h_q, %h_pp, %h_lane0, %h_notlane0, %h_ser");
  for (size_t v = 0; v < plan.locs.size(); ++v) {
    out.op(".reg .b64 %a" + num(static_cast<int64_t>(v)) + ", %g" + num(static_cast<int64_t>(v)));
    out.op(".reg .b32 %s" + num(static_cast<int64_t>(v)) + ", %l" + num(static_cast<int64_t>(v)));
  }
  declareBodyRegisters(out, plan);
  declareTrace(out, plan);
}

void emitStartBarrier(PtxText& out, const Plan& plan) {
  // Publishes the shared-memory initial values, and (clusters) makes sure every CTA of the
  // cluster runs before any thread reaches into its shared memory.
  if (plan.shape.clusterLaunch) {
    out.op("barrier.cluster.arrive");  // .release and .acquire by default (PTX 7.8)
    out.op("barrier.cluster.wait");
  } else {
    out.op("bar.sync 0");
  }
}

void emitPrologue(PtxText& out, const Plan& plan) {
  out.op("ld.param.u64 %h_A, [p_loc]");
  out.op("mov.b64 %h_loc, %h_A");
  for (const char* p : {"res", "shout", "spin", "scratch"}) {
    out.op(std::string("ld.param.u64 %h_A, [p_") + p + "]");
    out.op(std::string("cvta.to.global.u64 %h_") + p + ", %h_A");
  }
  out.op("mov.u32 %h_one, 1");
  out.op("mov.u32 %h_tid, %tid.x");
  out.op("and.b32 %h_lane, %h_tid, 31");
  out.op("shr.u32 %h_warp, %h_tid, 5");
  out.op("setp.eq.u32 %h_lane0, %h_lane, 0");
  out.op("not.pred %h_notlane0, %h_lane0");
  if (plan.shape.clusterLaunch) {
    out.op("mov.u32 %h_rank, %cluster_ctarank");
    out.op("mov.u32 %h_hc, %clusterid.x");
  } else {
    out.op("mov.u32 %h_rank, 0");
    out.op("mov.u32 %h_hc, %ctaid.x");
  }
  out.op("ld.param.u32 %h_ntc, " + word(kLp, kTestClusters));
  out.op("setp.ge.u32 %h_p, %h_hc, %h_ntc");
  out.op("@%h_p bra.uni H_STRESS");
  emitTraceSetup(out, plan, word(kLp, kEpoch));
  out.comment("the tag of this launch's result slots (ptx_gen.h)");
  out.op("ld.param.u32 %h_a, " + word(kLp, kEpoch));
  out.op("cvt.u64.u32 %h_tag, %h_a");
  out.op("or.b64 %h_tag, %h_tag, " + hex(kTagMark));
  out.comment("role and slot of this hardware cluster: (hc * mul + add) mod (roles * U)");
  out.op("ld.param.u32 %h_U, " + word(kLp, kU));
  out.op("ld.param.u32 %h_K, " + word(kLp, kK));
  out.op("ld.param.u32 %h_a, " + word(kLp, kShuffleMul));
  out.op("ld.param.u32 %h_b, " + word(kLp, kShuffleAdd));
  out.op("mul.wide.u32 %h_A, %h_hc, %h_a");
  out.op("cvt.u64.u32 %h_B, %h_b");
  out.op("add.u64 %h_A, %h_A, %h_B");
  out.op("cvt.u64.u32 %h_B, %h_ntc");
  out.op("rem.u64 %h_A, %h_A, %h_B");
  out.op("cvt.u32.u64 %h_a, %h_A");
  if (plan.shape.serial) {  // serial roles: every lane runs every thread (H_SERIAL)
    out.op("ld.param.u32 %h_b, " + word(kLp, kFlags));
    out.op("and.b32 %h_b, %h_b, " + num(kFlagSerial));
    out.op("setp.ne.u32 %h_ser, %h_b, 0");
    out.op("@%h_ser bra.uni H_SERIAL");
  }
  out.op("rem.u32 %h_role, %h_a, " + num(plan.shape.roles));
  out.op("div.u32 %h_su, %h_a, " + num(plan.shape.roles));
  for (int j = 0; j + 1 < plan.shape.roles; ++j) {
    out.op("setp.eq.u32 %h_p, %h_role, " + num(j));
    out.op("@%h_p bra.uni H_ROLE" + num(j));
  }
  out.op("bra.uni H_ROLE" + num(plan.shape.roles - 1));
}

// %h_t: the litmus thread of this warp (%h_b) or, in Fixed mode, of this lane of it. A lane the
// test leaves empty gets kNoThread: it takes part in the harness's barriers, then returns.
void emitThreadChoice(PtxText& out, const Plan& plan, const std::vector<int>& threads) {
  out.op("mov.u32 %h_t, " + num(plan.mode == Mode::Fixed ? kNoThread : threads[0]));
  for (int t : threads) {
    const ThreadPlan& tp = plan.threads[static_cast<size_t>(t)];
    if (plan.mode != Mode::Fixed && t == threads[0]) continue;  // the default
    out.op(std::string(tp.warpgroup ? "setp.ge.u32" : "setp.eq.u32") + " %h_p, %h_b, " + num(tp.warp));
    if (tp.warpgroup) out.op("setp.lt.and.u32 %h_p, %h_b, " + num(tp.warp + 4) + ", %h_p");  // warps w..w+3
    if (plan.mode == Mode::Fixed) {
      out.op("setp.eq.u32 %h_q, %h_lane, " + num(tp.lane));
      out.op("and.pred %h_p, %h_p, %h_q");
    }
    out.op("@%h_p mov.u32 %h_t, " + num(t));
  }
}

// %h_g = (index - offset) * inverse mod m, the role's words at `base` (offset at base + 1): the
// group a hardware cluster serves, inverting the co-prime permutation drawLaunch drew.
void emitGroupOf(PtxText& out, int base, const std::string& index, const std::string& m) {
  out.op("ld.param.u32 %h_a, " + word(kLp, base));
  out.op("ld.param.u32 %h_b, " + word(kLp, base + 1));
  out.op("add.u32 %h_c, " + index + ", " + m);
  out.op("sub.u32 %h_c, %h_c, %h_b");
  out.op("mul.wide.u32 %h_A, %h_c, %h_a");
  out.op("cvt.u64.u32 %h_B, " + m);
  out.op("rem.u64 %h_A, %h_A, %h_B");
  out.op("cvt.u32.u64 %h_g, %h_A");
}

// Role j: undo the launch's permutations to find the instance group, lane and block group.
void emitRole(PtxText& out, const Plan& plan, int j) {
  const RolePlan& role = plan.roles[static_cast<size_t>(j)];
  const int base = kRoleBase + kRoleWords * j;
  out.label("H_ROLE" + num(j));
  if (plan.gridProgrammatic.size() > 1) {  // several grids: this launch runs one of them
    out.op("ld.param.u32 %h_a, " + word(kLp, kGrid));
    out.op("setp.ne.u32 %h_p, %h_a, " + num(plan.roleGrid[static_cast<size_t>(j)]));
    out.op("@%h_p bra.uni H_IDLE");
  }
  if (plan.gpus > 1) {  // several GPUs: each device runs the roles of its test GPU (p_gpu)
    out.op("ld.param.u32 %h_a, [p_gpu]");
    out.op("setp.ne.u32 %h_p, %h_a, " + num(plan.roleGpu[static_cast<size_t>(j)]));
    out.op("@%h_p bra.uni H_IDLE");
  }
  emitGroupOf(out, base, "%h_su", "%h_U");
  if (plan.mode == Mode::Lane) {
    out.op("ld.param.u32 %h_a, " + word(kLp, base + 2));
    out.op("shr.u32 %h_b, %h_a, 16");
    out.op("and.b32 %h_a, %h_a, 65535");
    out.op("add.u32 %h_c, %h_lane, 32");
    out.op("sub.u32 %h_c, %h_c, %h_b");
    out.op("mul.lo.u32 %h_c, %h_c, %h_a");
    out.op("and.b32 %h_l, %h_c, 31");
  } else {
    out.op("mov.u32 %h_l, 0");
  }
  out.op("ld.param.u32 %h_ks, " + word(kLp, base + 3));
  for (size_t r = 0; r < role.ctas.size(); ++r) {
    out.op("setp.eq.u32 %h_p, %h_rank, " + num(static_cast<int64_t>(r)));
    out.op("@%h_p bra.uni H_ROLE" + num(j) + "_RANK" + num(static_cast<int64_t>(r)));
  }
  out.op("bra.uni H_IDLE");
  for (size_t r = 0; r < role.ctas.size(); ++r) {
    const auto& threads = role.ctaThreads[r];
    const int W = role.ctaWarps[r];
    out.label("H_ROLE" + num(j) + "_RANK" + num(static_cast<int64_t>(r)));
    out.comment("CTA " + num(role.ctas[r]) + ": " + num(W) + " warp(s) per instance group");
    out.op("div.u32 %h_a, %h_warp, " + num(W));
    out.op("rem.u32 %h_b, %h_warp, " + num(W));
    out.op("setp.ge.u32 %h_p, %h_a, %h_K");
    out.op("@%h_p bra.uni H_IDLE");
    out.op("add.u32 %h_a, %h_a, %h_K");
    out.op("sub.u32 %h_a, %h_a, %h_ks");
    out.op("rem.u32 %h_k, %h_a, %h_K");
    emitThreadChoice(out, plan, threads);
    out.op("bra.uni H_INSTANCE");
  }
}

// The locations' addresses for instance %h_n32 (and shared slot %h_slot).
void emitLocations(PtxText& out, const Plan& plan) {
  for (size_t v = 0; v < plan.locs.size(); ++v) {
    const LocPlan& l = plan.locs[v];
    const std::string sv = num(static_cast<int64_t>(v));
    out.comment("location " + l.name + (l.shared ? " (shared, CTA " + num(l.ownerCta) + ")" : " (global)"));
    if (l.aliasOf >= 0) continue;  // below, once its target's address is known
    if (l.bankWord >= 0) {  // word n * B + j of the constant bank (p_cbank: its global address)
      out.comment("location " + l.name + ": in the constant bank, as its constant alias reads it");
      out.op("ld.param.u64 %h_A, [p_cbank]");
      out.op("mad.lo.u32 %h_x, %h_n32, " + num(plan.bankWords) + ", " + num(l.bankWord));
      out.op("mul.wide.u32 %h_X, %h_x, 4");
      out.op("add.u64 %g" + sv + ", %h_A, %h_X");
      out.op("cvta.to.global.u64 %a" + sv + ", %g" + sv);
      continue;
    }
    if (!l.shared) {
      emitSlotAddress(out, kLp, l.index, plan.shape.globalLocations, "%h_n32", "%h_loc", "%g" + sv);
      out.op("cvta.to.global.u64 %a" + sv + ", %g" + sv);
      continue;
    }
    out.op("mov.u32 %l" + sv + ", lt_smem");  // this CTA's copy; %s: the owner's
    out.op("mad.lo.u32 %h_a, %h_slot, " + num(roundUp16(l.span)) + ", " + num(l.sharedOffset));
    out.op("add.u32 %l" + sv + ", %l" + sv + ", %h_a");
    out.op("mov.u32 %s" + sv + ", %l" + sv);
    out.op("cvt.u64.u32 %h_A, %s" + sv);
    out.op("cvta.shared.u64 %g" + sv + ", %h_A");
    if (plan.shape.clusterSize > 1) {  // DSMEM: the owner CTA's copy, through mapa
      out.op("setp.ne.u32 %h_p, %h_rank, " + num(l.ownerRank));
      out.op("@%h_p mapa.shared::cluster.u32 %s" + sv + ", %s" + sv + ", " + num(l.ownerRank));
      out.op("@%h_p mapa.u64 %g" + sv + ", %g" + sv + ", " + num(l.ownerRank));
    }
  }
  for (size_t v = 0; v < plan.locs.size(); ++v) {
    const LocPlan& l = plan.locs[v];
    if (l.aliasOf < 0) continue;
    const std::string sv = num(static_cast<int64_t>(v));
    if (l.texture || l.surface || l.constant) {  // its target's, read through an image or the bank
      for (const char* r : {"%g", "%a"}) out.op(std::string("mov.u64 ") + r + sv + ", " + r + num(l.aliasOf));
      continue;
    }
    out.comment("location " + l.name + ": an alias, the same memory through the buffer's second mapping");
    out.op("ld.param.u32 %h_x, " + word(kLp, kAliasSpan));
    out.op("cvt.u64.u32 %h_X, %h_x");
    out.op("add.u64 %g" + sv + ", %g" + num(l.aliasOf) + ", %h_X");
    out.op("cvta.to.global.u64 %a" + sv + ", %g" + sv);
  }
}

void emitAddresses(PtxText& out, const Plan& plan) {
  const int lanes = plan.mode == Mode::Lane ? 32 : 1;
  out.op("mad.lo.u32 %h_gk, %h_g, %h_K, %h_k");
  out.op("mad.lo.u32 %h_n32, %h_gk, " + num(lanes) + ", %h_l");
  out.op("mad.lo.u32 %h_slot, %h_k, " + num(lanes) + ", %h_l");
  emitLocations(out, plan);
}

// Serial roles (params.cpp, drawSerialRoles): the entry, where each lane aligns once, then thread t
// of the instance that role r's permutations give this block (%h_hc of B = %h_ntc) and lane
// (%h_tid of L = K * warpsPerBlock * 32). The thread's epilogue goes on to H_SER<t+1>.
void emitSerial(PtxText& out, const Plan& plan) {
  out.label("H_SERIAL");
  out.op("mov.u32 %h_t, 0");                        // no role skew: the order of the roles is the skew
  out.op("mad.lo.u32 %h_gk, %h_hc, 32, %h_warp");  // the delay's seed: per warp
  emitTraceThread(out, plan);
  out.op("bra.uni H_ALIGN");
  for (size_t t = 0; t < plan.threads.size(); ++t) {
    const ThreadPlan& tp = plan.threads[t];
    const RolePlan& role = plan.roles[static_cast<size_t>(tp.role)];
    const int base = kRoleBase + kRoleWords * tp.role;
    out.label("H_SER" + num(static_cast<int64_t>(t)));
    out.comment("block: G = (hc - off) * inverse mod B");
    emitGroupOf(out, base, "%h_hc", "%h_ntc");
    out.comment("lane: Q = (tid - off - warp * L / W) * inverse mod L");
    out.op("mul.lo.u32 %h_e, %h_K, " + num(32 * plan.shape.warpsPerBlock));
    out.op("ld.param.u32 %h_a, " + word(kLp, base + 2));
    out.op("shr.u32 %h_b, %h_a, 16");
    out.op("and.b32 %h_a, %h_a, 65535");
    out.op("div.u32 %h_c, %h_e, " + num(role.ctaWarps.front()));
    out.op("mad.lo.u32 %h_b, %h_c, " + num(tp.warp) + ", %h_b");
    out.op("rem.u32 %h_b, %h_b, %h_e");
    out.op("add.u32 %h_c, %h_tid, %h_e");
    out.op("sub.u32 %h_c, %h_c, %h_b");
    out.op("mul.wide.u32 %h_A, %h_c, %h_a");
    out.op("cvt.u64.u32 %h_B, %h_e");
    out.op("rem.u64 %h_A, %h_A, %h_B");
    out.op("cvt.u32.u64 %h_l, %h_A");
    out.op("mad.lo.u32 %h_n32, %h_g, %h_e, %h_l");
    emitLocations(out, plan);
    out.op("bra.uni T" + num(static_cast<int64_t>(t)) + "_BEGIN");
  }
}

// The first thread of each CTA that holds shared locations writes their initial values and zeroes
// the join counter before the start barrier publishes them. When bulk copies may read or write
// them, a proxy fence after the writes orders them before the async proxy's accesses too.
void emitSharedInit(PtxText& out, const Plan& plan, bool bulkCopies) {
  for (size_t t = 0; t < plan.threads.size(); ++t)
    for (const Join& j : plan.threads[t].joins) {
      if (!j.init) continue;
      const std::string skip = "H_NOINIT" + num(static_cast<int64_t>(t)) + "_" + num(j.ownerCta);
      out.op("setp.ne.u32 %h_p, %h_t, " + num(static_cast<int64_t>(t)));
      if (plan.mode == Mode::Warp) out.op("or.pred %h_p, %h_p, %h_notlane0");
      out.op("@%h_p bra " + skip);
      for (size_t v = 0; v < plan.locs.size(); ++v) {
        const LocPlan& l = plan.locs[v];
        if (!l.shared || l.ownerCta != j.ownerCta) continue;
        if (l.wgmmaTile) emitTileFill(out, l, static_cast<int>(v), num(static_cast<int64_t>(t)) + "_" + num(static_cast<int64_t>(v)));
        for (const Element& e : l.elements) {
          if (e.bytes == 0) continue;
          const std::string a = "[%s" + num(static_cast<int64_t>(v)) + "+" + num(e.offset) + "]";
          if (e.bytes == 16) {
            out.op("st.shared.u64 " + a + ", " + hex(static_cast<uint64_t>(e.init)));
            out.op("st.shared.u64 [%s" + num(static_cast<int64_t>(v)) + "+" + num(e.offset + 8) + "], 0");
          } else {
            out.op("st.shared.u" + num(e.bytes * 8) + " " + a + ", " +
                   hex(static_cast<uint64_t>(e.init) &
                       (e.bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * e.bytes)) - 1)));
          }
        }
      }
      out.op("mov.u32 %h_a, lt_smem");
      out.op("mad.lo.u32 %h_a, %h_slot, 4, %h_a");
      out.op("st.shared.u32 [%h_a+" + num(plan.joinOffset) + "], 0");
      if (bulkCopies || plan.warpgroups) out.op("fence.proxy.async.shared::cta");
      out.label(skip);
    }
}

// The launch-wide barrier: every testing lane adds 1 to the word after the launch's N (p_spin,
// reset by the tally), then polls until all have come, or spinLimit (%h_a) polls pass.
void emitGlobalSpin(PtxText& out, const Plan& plan) {
  out.label("H_GSPIN");
  out.op("ld.param.u32 %h_b, " + word(kLp, kN));
  out.op("mul.wide.u32 %h_A, %h_b, 4");
  out.op("add.u64 %h_A, %h_A, %h_spin");
  out.op("mul.lo.u32 %h_d, %h_U, %h_K");  // testing lanes: 32 per warp of each instance group
  out.op("mul.lo.u32 %h_d, %h_d, " + num(32 * plan.warpsPerInstance));
  if (plan.shape.serial) out.op("@%h_ser mov.u32 %h_d, %h_b");  // serial: an instance per lane
  out.op("red.relaxed.gpu.global.add.u32 [%h_A], 1");
  out.op("mov.u32 %h_c, 0");
  out.label("H_GSPIN_LOOP");
  out.op("ld.relaxed.gpu.global.u32 %h_b, [%h_A]");
  out.op("setp.ge.u32 %h_p, %h_b, %h_d");
  out.op("@%h_p bra H_SPUN");
  out.op("add.u32 %h_c, %h_c, 1");
  out.op("setp.lt.u32 %h_p, %h_c, %h_a");
  out.op("@%h_p bra H_GSPIN_LOOP");
}

// Each warp waits a random 0..delayMax clocks plus roleSkew clocks per litmus-thread index: the
// skew lets later threads start later, as when one hardware thread runs the roles in turn
// (docs/gpu-runner.md, "Parameters"). Falls through to H_GO, which the caller emits.
void emitDelay(PtxText& out, const Plan& plan) {
  out.comment("delay per warp: random 0..delayMax, plus roleSkew per thread index");
  out.op("ld.param.u32 %h_e, " + word(kLp, kRoleSkew));
  // a Fixed-mode lane that runs no thread has %h_t = kNoThread: clamp, or it would wait for ages
  out.op("min.u32 %h_d, %h_t, " + num(static_cast<int64_t>(plan.threads.size()) - 1));
  out.op("mul.lo.u32 %h_e, %h_e, %h_d");
  out.op("ld.param.u32 %h_a, " + word(kLp, kDelayMax));
  out.op("mov.u32 %h_b, 0");
  out.op("setp.eq.u32 %h_p, %h_a, 0");
  out.op("@%h_p bra.uni H_SKEW");
  out.op("ld.param.u32 %h_b, " + word(kLp, kSeed));
  out.op("mad.lo.u32 %h_c, %h_gk, " + num(static_cast<int64_t>(plan.threads.size())) + ", %h_t");
  out.op("xor.b32 %h_b, %h_b, %h_c");
  emitMix32(out, "%h_b", "%h_c");
  out.op("add.u32 %h_a, %h_a, 1");
  out.op("rem.u32 %h_b, %h_b, %h_a");
  out.label("H_SKEW");
  out.op("add.u32 %h_b, %h_b, %h_e");
  out.op("setp.eq.u32 %h_p, %h_b, 0");
  out.op("@%h_p bra H_GO");  // not .uni: in Fixed mode the lanes of a warp wait differently
  out.op("mov.u32 %h_c, %clock");
  out.label("H_DELAY");
  out.op("mov.u32 %h_d, %clock");
  out.op("sub.u32 %h_d, %h_d, %h_c");
  out.op("setp.lt.u32 %h_p, %h_d, %h_b");
  out.op("@%h_p bra H_DELAY");
}

void emitAlignment(PtxText& out, const litmus::Test& test, const Plan& plan) {
  out.label("H_ALIGN");
  emitTraceSite(out, plan, kSiteAlign);
  out.comment("pre-stress");
  out.op("ld.param.u32 %h_f, " + word(kLp, kPreStressIters));
  emitStress(out, "H_PRE", "%h_f");
  emitPrefetch(out, test, plan);
  out.comment("spin barrier: the instance's warps line up (bounded: it never deadlocks)");
  out.op("ld.param.u32 %h_a, " + word(kLp, kSpinLimit));
  out.op("setp.eq.u32 %h_p, %h_a, 0");
  out.op("@%h_p bra.uni H_ALIGNED");
  if (globalBarrier(plan)) {  // any flag: the launch-wide barrier (kFlagSerial implies it)
    out.op("ld.param.u32 %h_b, " + word(kLp, kFlags));
    out.op("setp.ne.u32 %h_p, %h_b, 0");
    out.op("@%h_p bra.uni H_GSPIN");
  }
  out.op("@%h_notlane0 bra H_SPUN");
  out.op("mul.wide.u32 %h_A, %h_gk, 4");
  out.op("add.u64 %h_A, %h_A, %h_spin");
  // across GPUs the counter is in the first GPU's memory and its warps on every GPU: .sys scope
  const std::string scope = plan.gpus > 1 ? "sys" : "gpu";
  out.op("red.relaxed." + scope + ".global.add.u32 [%h_A], 1");
  out.op("mov.u32 %h_c, 0");
  out.label("H_SPIN");
  out.op("ld.relaxed." + scope + ".global.u32 %h_b, [%h_A]");
  out.op("setp.ge.u32 %h_p, %h_b, " + num(plan.warpsPerInstance));
  out.op("@%h_p bra H_SPUN");
  out.op("add.u32 %h_c, %h_c, 1");
  out.op("setp.lt.u32 %h_p, %h_c, %h_a");
  out.op("@%h_p bra H_SPIN");
  if (globalBarrier(plan)) {
    out.op("bra H_SPUN");  // lane 0 only here
    emitGlobalSpin(out, plan);
  }
  out.label("H_SPUN");
  out.op("bar.warp.sync 0xffffffff");
  out.label("H_ALIGNED");
  emitDelay(out, plan);
  out.label("H_GO");
  if (plan.shape.serial) out.op("@%h_ser bra.uni H_SER0");
  emitLineStress(out, test, plan);
  for (size_t t = 0; t < plan.threads.size(); ++t) {
    out.op("setp.eq.u32 %h_p, %h_t, " + num(static_cast<int64_t>(t)));
    out.op(std::string(plan.mode == Mode::Fixed ? "@%h_p bra T" : "@%h_p bra.uni T") +  // Fixed: lanes part
           num(static_cast<int64_t>(t)) + "_BEGIN");
  }
  out.op("ret");
}

// The observed registers with this launch's tag, in one vector store each; a thread with none
// tags its done slot. Written at the thread's end, so a slot left untagged means it never got there.
void emitResults(PtxText& out, const Plan& plan, int t) {
  const ThreadPlan& tp = plan.threads[static_cast<size_t>(t)];
  const std::string g = plan.mode == Mode::Warp ? "@%h_lane0 " : "";
  auto slotAddress = [&](int slot) {
    out.op("mad.lo.u32 %h_a, %h_n32, " + num(plan.regResults) + ", " + num(slot));
    out.op("mul.wide.u32 %h_A, %h_a, " + num(kResultSlotBytes));
    out.op("add.u64 %h_A, %h_A, %h_res");
  };
  for (const ObsPlan& o : plan.observed) {
    if (o.kind != ObsPlan::Kind::Reg || o.thread != t) continue;
    const RegPlan& r = tp.regs.at(o.reg);
    slotAddress(o.slot);
    if (r.pred) out.op("selp.u64 %h_B, 1, 0, " + r.ptx);
    out.op(g + "st.global.v2.u64 [%h_A], {" + (r.pred ? std::string("%h_B") : r.ptx) + ", %h_tag}");
  }
  if (tp.doneSlot >= 0) {
    slotAddress(tp.doneSlot);
    out.op(g + "st.global.u64 [%h_A+8], %h_tag");
  }
}

// The final values of the owner CTA's observed shared elements, to the shared results.
void emitCopyOut(PtxText& out, const Plan& plan, int ownerCta) {
  for (const ObsPlan& o : plan.observed) {
    if (o.kind != ObsPlan::Kind::Shared) continue;
    const LocPlan& l = plan.locs[static_cast<size_t>(o.loc)];
    if (l.ownerCta != ownerCta) continue;
    const Element& e = l.elements[static_cast<size_t>(o.elem)];
    out.op("ld.shared.u" + num(std::min(e.bytes, 8) * 8) + " %h_B, [%s" + num(o.loc) + "+" + num(e.offset) +
           "]");
    out.op("mad.lo.u32 %h_b, %h_n32, " + num(plan.sharedResults) + ", " + num(o.slot));
    out.op("mul.wide.u32 %h_A, %h_b, " + num(kResultSlotBytes));
    out.op("add.u64 %h_A, %h_A, %h_shout");
    out.op("st.global.v2.u64 [%h_A], {%h_B, %h_tag}");
  }
}

bool copiesOut(const Plan& plan, int ownerCta) {
  for (const ObsPlan& o : plan.observed)
    if (o.kind == ObsPlan::Kind::Shared && plan.locs[static_cast<size_t>(o.loc)].ownerCta == ownerCta)
      return true;
  return false;
}

// Results, then the join of each owner CTA whose shared locations the thread names (plan.h).
void emitEpilogue(PtxText& out, const Plan& plan, int t) {
  emitResults(out, plan, t);
  const ThreadPlan& tp = plan.threads[static_cast<size_t>(t)];
  std::vector<Join> joins;  // a Last join with nothing to copy out is no join at all
  for (const Join& j : tp.joins)
    if (j.kind != Join::Kind::Last || copiesOut(plan, j.ownerCta)) joins.push_back(j);
  if (plan.mode == Mode::Warp && !joins.empty()) out.op("@%h_notlane0 ret");  // lane 0 is the litmus thread
  if (!joins.empty()) emitTraceSiteOf(out, plan, t, kSiteJoin);
  for (const Join& j : joins) {
    const std::string T = "T" + num(t) + "_JOIN" + num(j.ownerCta);
    out.op("mov.u32 %h_a, lt_smem");
    out.op("mad.lo.u32 %h_a, %h_slot, 4, %h_a");
    out.op("add.u32 %h_a, %h_a, " + num(plan.joinOffset));
    switch (j.kind) {
      case Join::Kind::Last:  // everyone is in the owner CTA; the last to arrive copies
        out.op("atom.acq_rel.cta.shared::cta.add.u32 %h_b, [%h_a], 1");
        out.op("setp.ne.u32 %h_p, %h_b, " + num(j.expected - 1));
        out.op("@%h_p bra " + T + "_DONE");
        emitCopyOut(out, plan, j.ownerCta);
        out.label(T + "_DONE");
        break;
      case Join::Kind::Arrive:
        if (tp.rank == j.ownerRank) {
          out.op("red.release.cta.shared::cta.add.u32 [%h_a], 1");
        } else {
          out.op("mapa.shared::cluster.u32 %h_a, %h_a, " + num(j.ownerRank));
          out.op("red.release.cluster.shared::cluster.add.u32 [%h_a], 1");
        }
        break;
      case Join::Kind::Wait:  // the owner's block outlives the other CTAs' DSMEM accesses
        out.label(T);
        out.op("ld.acquire.cluster.shared::cta.u32 %h_b, [%h_a]");
        out.op("setp.lt.u32 %h_p, %h_b, " + num(j.expected));
        out.op("@%h_p bra " + T);
        emitCopyOut(out, plan, j.ownerCta);
        break;
    }
  }
  emitTraceSiteOf(out, plan, t, kSiteFinished);
  if (plan.shape.serial && static_cast<size_t>(t) + 1 < plan.threads.size())
    out.op("@%h_ser bra.uni H_SER" + num(t + 1));  // serial roles: the next thread
  out.op("ret");
}

}  // namespace

void emitSlotAddress(PtxText& out, const std::string& lp, int v, int globals, const std::string& n32,
                     const std::string& base, const std::string& dst) {
  const std::string sv = num(v);
  out.op("ld.param.u32 %h_x, " + word(lp, kLocMul));
  out.op("mul.wide.u32 %h_X, " + n32 + ", %h_x");
  out.op("ld.param.u32 %h_x, " + word(lp, kLocAdd));
  out.op("cvt.u64.u32 %h_Y, %h_x");
  out.op("add.u64 %h_X, %h_X, %h_Y");
  out.op("ld.param.u32 %h_x, " + word(lp, kN));
  out.op("cvt.u64.u32 %h_Z, %h_x");
  out.op("rem.u64 %h_Y, %h_X, %h_Z");                                         // interleaved:
  out.op("mad.lo.u64 %h_Y, %h_Y, " + num(std::max(globals, 1)) + ", " + sv);  // slot * V + v
  out.op("ld.param.u32 %h_x, " + word(lp, kLocStep));
  out.op("mul.wide.u32 %h_W, %h_x, " + sv);  // separate regions:
  out.op("add.u64 %h_X, %h_X, %h_W");
  out.op("rem.u64 %h_X, %h_X, %h_Z");
  out.op("mad.lo.u64 %h_X, %h_Z, " + sv + ", %h_X");  // v * N + slot
  out.op("ld.param.u32 %h_x, " + word(lp, kInterleave));
  out.op("setp.ne.u32 %h_pp, %h_x, 0");
  out.op("selp.b64 %h_X, %h_Y, %h_X, %h_pp");
  out.op("ld.param.u32 %h_x, " + word(lp, kStride));
  out.op("cvt.u64.u32 %h_Y, %h_x");
  out.op("mad.lo.u64 " + dst + ", %h_X, %h_Y, " + base);
}

void emitTestKernel(PtxText& out, const litmus::Test& test, const Plan& plan) {
  out.raw(
      ".visible .entry litmus_test(\n\t.param .u64 p_loc,\n\t.param .u64 p_res,\n\t.param .u64 p_shout,\n"
      "\t.param .u64 p_spin,\n\t.param .u64 p_scratch,\n\t.param .align 4 .b8 p_lp[" +
      num(4 * kLaunchWords) + "]");
  // p_gpu: the device's test GPU (docs/gpu-runner.md, "Several GPUs"); p_tex, p_surf, p_atex: images
  // (ptx_body_image.cpp), p_cbank: the constant bank; in the order harness.cpp passes them
  if (plan.gpus > 1) out.raw(",\n\t.param .u32 p_gpu");
  if (plan.hasTexture()) out.raw(",\n\t.param .u64 p_tex");
  if (plan.hasSurface()) out.raw(",\n\t.param .u64 p_surf");
  if (plan.hasArrayTexture()) out.raw(",\n\t.param .u64 p_atex");
  if (plan.bankWords > 0) out.raw(",\n\t.param .u64 p_cbank");
  if (plan.tracing()) out.raw(",\n\t.param .u64 p_trace");  // after the others (harness.cpp)
  out.raw("\n)\n");
  if (plan.maxnreg > 0) out.raw(".maxnreg " + num(plan.maxnreg) + "\n");
  out.raw("{\n");
  declareHarness(out, plan);
  if (plan.warpgroups) declareWgmmaRegisters(out, test);
  if (std::find(plan.gridProgrammatic.begin(), plan.gridProgrammatic.end(), true) != plan.gridProgrammatic.end()) {
    out.comment("a programmatic launch follows: let it start as early as the hardware allows (docs/gpu-runner.md)");
    out.op("griddepcontrol.launch_dependents");
  }
  emitPrologue(out, plan);
  for (int j = 0; j < plan.shape.roles; ++j) emitRole(out, plan, j);
  out.label("H_INSTANCE");
  emitTraceThread(out, plan);
  emitTraceSite(out, plan, kSiteStart);
  emitAddresses(out, plan);
  const bool bulkCopies = std::any_of(test.threads.begin(), test.threads.end(), [](const litmus::Thread& t) {
    return std::any_of(t.code.begin(), t.code.end(), [](const litmus::Instr& in) {
      return in.op == litmus::Opcode::Async && in.asyncOp == litmus::AsyncOp::Copy;
    });
  });
  emitSharedInit(out, plan, bulkCopies);
  emitStartBarrier(out, plan);
  emitAlignment(out, test, plan);
  for (size_t t = 0; t < plan.threads.size(); ++t) {
    const std::string T = "T" + num(static_cast<int64_t>(t));
    out.raw("\n");
    out.label(T + "_BEGIN");
    out.comment("thread " + test.threads[t].name + " (CTA " + num(test.threads[t].cta) + ", cluster " +
                num(test.threads[t].cluster) + ")");
    emitTraceSiteOf(out, plan, static_cast<int>(t), kSiteBody);
    emitBody(out, test, plan, static_cast<int>(t));
    out.label(T + "_END");
    emitEpilogue(out, plan, static_cast<int>(t));
  }
  out.raw("\n");
  if (plan.shape.serial) emitSerial(out, plan);
  out.label("H_IDLE");
  emitStartBarrier(out, plan);
  out.op("ret");
  out.label("H_STRESS");
  out.op("ld.param.u32 %h_f, " + word(kLp, kStressIters));
  emitStress(out, "H_ST", "%h_f");
  out.op("ret");
  out.raw("}\n");
}

}  // namespace gpu
