// The harness's touches of the test's own memory lines, before the test's first instruction; each
// is a profile key the sweep draws (docs/gpu-runner.md, "Prefetch and line stress").
//
// Prefetch (prefetchPct; litmus7 calls the technique -prefetch): in a launch whose kPrefetch word
// is non-zero, each litmus thread first reads some of the global locations its code loads, before
// the spin barrier, so that a `.cta` or weak load of the test may be served from the SM's L1. Which
// locations is drawn per instance and thread (one bit per location, from a hash of the word), so
// that every launch has instances with every mix of cached and uncached locations: a
// message-passing reader that has cached its flag never sees the flag set, one that cached only
// the data may see the flag and old data.
//
// Line stress (lineStressPct, lineStressOps): in a launch whose kLineStress word is non-zero, each
// litmus thread, just before its first instruction, sends that many relaxed reductions to the
// padding word after some of the locations it accesses (the word after the slot, in the same line
// unless the slot ends a line), chosen per instance and thread as above. Reductions are
// fire-and-forget: the thread goes on at once, and its first access to such a location waits
// behind them at the L2 slice that holds the line, while its accesses to other lines do not. That
// is the window in which two `.gpu` accesses ordered only by a `.cta` fence, or not at all, can be
// performed out of order.
//
// Neither touch writes a test location or keeps a value: the reads come before the test's first
// instruction and the reductions go to words no test names (never in the constant bank, whose
// words are all instances' copies), so they add no order the test does
// not have, and an outcome the model forbids stays forbidden.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gpu-runner/params.h"
#include "gpu-runner/ptx_gen.h"
#include "litmus/instructions.h"

// GCC 12 reports a false -Wrestrict inside std::string concatenation (sanitizer builds use -Werror)
#pragma GCC diagnostic ignored "-Wrestrict"

namespace gpu {

void emitMix32(PtxText& out, const std::string& v, const std::string& tmp) {
  for (const std::string& step :
       {"shr.u32 " + tmp + ", " + v + ", 16", "xor.b32 " + v + ", " + v + ", " + tmp,
        "mul.lo.u32 " + v + ", " + v + ", 0x7feb352d", "shr.u32 " + tmp + ", " + v + ", 15",
        "xor.b32 " + v + ", " + v + ", " + tmp, "mul.lo.u32 " + v + ", " + v + ", 0x846ca68b",
        "shr.u32 " + tmp + ", " + v + ", 16", "xor.b32 " + v + ", " + v + ", " + tmp})
    out.op(step);
}

namespace {

// The global locations thread t names in its loads (or, with `all`, in any access), in the plan's
// order. Prefetch takes loads only: atomics go to L2 anyway.
std::vector<int> namedLocations(const litmus::Test& test, const Plan& plan, int t, bool all) {
  std::set<int> locs;
  for (const litmus::Instr& in : test.threads[static_cast<size_t>(t)].code) {
    if (!(in.op == litmus::Opcode::Ld || (all && litmus::isAccess(in)))) continue;
    const int a = litmus::addressIndex(in);
    if (a < 0 || a >= static_cast<int>(in.args.size())) continue;
    const litmus::Operand& op = in.args[static_cast<size_t>(a)];
    if (op.kind != litmus::Operand::Kind::Addr) continue;
    for (size_t v = 0; v < plan.locs.size(); ++v)
      if (plan.locs[v].name == op.name && !plan.locs[v].shared) locs.insert(static_cast<int>(v));
  }
  return {locs.begin(), locs.end()};
}

std::vector<std::vector<int>> perThread(const litmus::Test& test, const Plan& plan, bool all) {
  std::vector<std::vector<int>> locs;
  for (size_t t = 0; t < plan.threads.size(); ++t) locs.push_back(namedLocations(test, plan, static_cast<int>(t), all));
  return locs;
}

bool none(const std::vector<std::vector<int>>& locs) {
  return std::all_of(locs.begin(), locs.end(), [](const std::vector<int>& r) { return r.empty(); });
}

// %h_b = hash of (the launch word w, instance, thread) xor `salt`; skips to `done` when w is 0 or
// the launch runs serial roles (which compute each role's addresses when they run it).
void emitChoice(PtxText& out, const Plan& plan, int w, uint32_t salt, const std::string& done) {
  out.op("ld.param.u32 %h_e, " + word("p_lp", w));
  out.op("setp.eq.u32 %h_p, %h_e, 0");
  out.op("@%h_p bra.uni " + done);
  if (plan.shape.serial) out.op("@%h_ser bra.uni " + done);
  out.op("ld.param.u32 %h_b, " + word("p_lp", kSeed));
  out.op("xor.b32 %h_b, %h_b, " + hex(salt));
  out.op("mad.lo.u32 %h_c, %h_n32, " + std::to_string(plan.threads.size()) + ", %h_t");
  out.op("xor.b32 %h_b, %h_b, %h_c");
  emitMix32(out, "%h_b", "%h_c");
}

}  // namespace

void emitPrefetch(PtxText& out, const litmus::Test& test, const Plan& plan) {
  const std::vector<std::vector<int>> reads = perThread(test, plan, false);
  if (none(reads)) return;
  out.comment("prefetch: in some launches each thread first reads some of the locations it loads");
  emitChoice(out, plan, kPrefetch, 0x50524546, "H_PREFETCHED");
  out.op("mov.u32 %h_e, 0");
  // Fixed mode: the lanes of a warp run different threads, so these branches are not uniform
  const std::string bra = plan.mode == Mode::Fixed ? "bra " : "bra.uni ";
  for (size_t t = 0; t < reads.size(); ++t) {
    if (reads[t].empty()) continue;
    const std::string next = "H_PF" + std::to_string(t);
    out.op("setp.ne.u32 %h_p, %h_t, " + std::to_string(t));
    out.op("@%h_p " + bra + next);
    for (size_t i = 0; i < reads[t].size() && i < 32; ++i) {
      const std::string v = std::to_string(reads[t][i]);
      out.op("and.b32 %h_c, %h_b, " + hex(uint64_t{1} << i));
      out.op("setp.ne.u32 %h_q, %h_c, 0");
      out.op("@%h_q ld.relaxed.cta.global.u32 %h_d, [%a" + v + "]");
      out.op("@%h_q xor.b32 %h_e, %h_e, %h_d");
    }
    out.label(next);
  }
  // a store that depends on the values read keeps ptxas from dropping the reads; it never writes
  // a test location, only the stress scratch
  out.op("setp.eq.u32 %h_q, %h_e, 0x7a6c5046");
  out.op("@%h_q st.volatile.global.u32 [%h_scratch], %h_e");
  out.label("H_PREFETCHED");
}

void emitLineStress(PtxText& out, const litmus::Test& test, const Plan& plan) {
  const std::vector<std::vector<int>> locs = perThread(test, plan, true);
  // across GPUs the lines live in the first GPU's memory: leave such tests alone
  if (none(locs) || plan.gpus > 1) return;
  out.comment("line stress: in some launches, reductions to the padding after some locations");
  emitChoice(out, plan, kLineStress, 0x4c494e45, "H_LINED");
  out.op("ld.param.u32 %h_d, " + word("p_lp", kStride));
  // lanes choose different locations, so these branches are not uniform
  for (size_t t = 0; t < locs.size(); ++t) {
    if (locs[t].empty()) continue;
    const std::string T = "H_LS" + std::to_string(t);
    out.op("setp.ne.u32 %h_p, %h_t, " + std::to_string(t));
    out.op("@%h_p bra " + T);
    for (size_t i = 0; i < locs[t].size() && i < 32; ++i) {
      const LocPlan& l = plan.locs[static_cast<size_t>(locs[t][i])];
      // in the constant bank the next word is another instance's copy (ptx_kernel.cpp): no padding
      if (l.bankWord >= 0 || l.constant) continue;
      const int pad = (l.span + 3) / 4 * 4;  // the word after the slot: padding when stride > it
      const std::string skip = T + "_" + std::to_string(i);
      out.op("and.b32 %h_c, %h_b, " + hex(uint64_t{1} << i));
      out.op("setp.eq.u32 %h_q, %h_c, 0");
      out.op("@%h_q bra " + skip);
      out.op("setp.lt.u32 %h_q, %h_d, " + std::to_string(pad + 4));
      out.op("@%h_q bra " + skip);
      out.op("add.u64 %h_A, %a" + std::to_string(locs[t][i]) + ", " + std::to_string(pad));
      out.op("mov.u32 %h_c, 0");
      out.label(skip + "_LOOP");
      out.op("red.relaxed.gpu.global.add.u32 [%h_A], 1");
      out.op("add.u32 %h_c, %h_c, 1");
      out.op("setp.lt.u32 %h_q, %h_c, %h_e");
      out.op("@%h_q bra " + skip + "_LOOP");
      out.label(skip);
    }
    out.label(T);
  }
  out.label("H_LINED");
}

// Hammer one scratch line per block: `iters` accesses in the launch's pattern. Volatile, so that
// ptxas keeps every access.
void emitStress(PtxText& out, const std::string& prefix, const std::string& iters) {
  out.op("ld.param.u32 %h_b, " + word("p_lp", kStressLines));
  out.op("mov.u32 %h_c, %ctaid.x");
  out.op("rem.u32 %h_c, %h_c, %h_b");
  out.op("ld.param.u32 %h_d, " + word("p_lp", kSeed));
  out.op("mad.lo.u32 %h_c, %h_c, 7919, %h_d");
  out.op("ld.param.u32 %h_b, " + word("p_lp", kScratchLines));
  out.op("rem.u32 %h_c, %h_c, %h_b");
  out.op("ld.param.u32 %h_b, " + word("p_lp", kStressLineBytes));
  out.op("mul.wide.u32 %h_A, %h_c, %h_b");
  out.op("add.u64 %h_A, %h_A, %h_scratch");
  out.op("shl.b32 %h_c, %h_tid, 2");
  out.op("sub.u32 %h_d, %h_b, 1");
  out.op("and.b32 %h_c, %h_c, %h_d");
  out.op("cvt.u64.u32 %h_B, %h_c");
  out.op("add.u64 %h_A, %h_A, %h_B");
  out.op("ld.param.u32 %h_d, " + word("p_lp", kStressPattern));
  out.op("setp.lt.u32 %h_q, %h_d, 2");
  out.op("and.b32 %h_e, %h_d, 1");
  out.op("setp.eq.u32 %h_pp, %h_e, 0");
  out.op("mov.u32 %h_c, 0");
  out.label(prefix + "_LOOP");
  out.op("setp.ge.u32 %h_p, %h_c, " + iters);
  out.op("@%h_p bra.uni " + prefix + "_DONE");
  out.op("@%h_q st.volatile.global.u32 [%h_A], %h_c");
  out.op("@!%h_q ld.volatile.global.u32 %h_e, [%h_A]");
  out.op("@%h_pp st.volatile.global.u32 [%h_A], %h_c");
  out.op("@!%h_pp ld.volatile.global.u32 %h_e, [%h_A]");
  out.op("add.u32 %h_c, %h_c, 1");
  out.op("bra.uni " + prefix + "_LOOP");
  out.label(prefix + "_DONE");
}

}  // namespace gpu
