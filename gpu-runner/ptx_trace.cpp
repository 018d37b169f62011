// The kernel's side of --trace-waits (gpu-runner/wait_trace.h, docs/wait-trace.md): each testing
// hardware thread owns the slot of its position in the grid (%ctaid.x * %ntid.x + %tid.x) in the
// host-mapped region p_trace, and stores one word there when it enters a wait: once on entry,
// never per iteration, so that tracing adds a store per wait and nothing to a loop. The stores are
// .relaxed.sys, so the host sees them while the kernel is still running (or never ends).
#include "gpu-runner/ptx_gen.h"
#include "gpu-runner/wait_trace.h"

namespace gpu {

void declareTrace(PtxText& out, const Plan& plan) {
  if (!plan.tracing()) return;
  out.op(".reg .b64 %h_trace, %h_traceep, %h_tracet, %h_tracev");
  out.op(".reg .pred %h_tron");
}

// After the decision that the block tests: %h_trace (this thread's slot), %h_tron (the slot
// exists) and %h_traceep (the launch number, in the slot's top half). Clobbers %h_a, %h_b, %h_A.
void emitTraceSetup(PtxText& out, const Plan& plan, const std::string& epochWord) {
  if (!plan.tracing()) return;
  out.comment("--trace-waits: this thread's slot and the launch number (gpu-runner/wait_trace.h)");
  out.op("ld.param.u64 %h_trace, [p_trace]");
  out.op("mov.u32 %h_a, %ctaid.x");
  out.op("mov.u32 %h_b, %ntid.x");
  out.op("mad.lo.u32 %h_a, %h_a, %h_b, %h_tid");
  out.op("setp.lt.u32 %h_tron, %h_a, " + std::to_string(kTraceSlots));
  // warp mode: the other lanes follow lane 0's control flow, so its slot speaks for the warp, at
  // a 32nd of the stores to host memory
  if (plan.mode == Mode::Warp) out.op("and.pred %h_tron, %h_tron, %h_lane0");
  out.op("mul.wide.u32 %h_A, %h_a, 8");
  out.op("add.u64 %h_trace, %h_trace, %h_A");
  out.op("cvta.to.global.u64 %h_trace, %h_trace");
  out.op("ld.param.u32 %h_a, " + epochWord);
  out.op("cvt.u64.u32 %h_traceep, %h_a");
  out.op("shl.b64 %h_traceep, %h_traceep, 32");
}

// Once %h_t names the litmus thread (kNoThread for an empty lane: 0xffff after the mask).
void emitTraceThread(PtxText& out, const Plan& plan) {
  if (!plan.tracing()) return;
  out.op("cvt.u64.u32 %h_tracet, %h_t");
  out.op("and.b64 %h_tracet, %h_tracet, " + std::to_string(kTraceNoThread));
  out.op("shl.b64 %h_tracet, %h_tracet, 16");
  out.op("or.b64 %h_tracet, %h_tracet, %h_traceep");
}

void emitTraceSite(PtxText& out, const Plan& plan, uint32_t site) {
  if (!plan.tracing()) return;
  out.op("or.b64 %h_tracev, %h_tracet, " + std::to_string(site));
  out.op("@%h_tron st.relaxed.sys.global.u64 [%h_trace], %h_tracev");
}

void emitTraceSiteOf(PtxText& out, const Plan& plan, int thread, uint32_t site) {
  if (!plan.tracing()) return;
  out.op("or.b64 %h_tracev, %h_traceep, " + hex((static_cast<uint64_t>(thread) << 16) | site));
  out.op("@%h_tron st.relaxed.sys.global.u64 [%h_trace], %h_tracev");
}

}  // namespace gpu
