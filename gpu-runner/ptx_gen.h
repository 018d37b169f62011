// PTX generation (private to gpu-runner): the test kernel `litmus_test`, whose threads run the
// test's instructions as written, and the tally kernel `litmus_tally`, which turns each instance's
// final registers and memory into an outcome and counts it in a hash table on the GPU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "gpu-runner/plan.h"
#include "litmus/test.h"

namespace gpu {

// Result slots. Each is 16 bytes: the value, then a tag. The test kernel writes the value and the
// tag of its launch in one vector store when a thread reaches its end (a thread with no observed
// register writes only the tag of its done slot). The tally counts a slot only when it holds the
// current launch's tag, and then overwrites the tag with the sentinel 0. A slot that no thread of
// this launch wrote (a thread that never ran, a lane decoded to the wrong instance) therefore holds
// 0 or an older launch's tag and is reported as not recorded. Tags are never values: the sentinel
// and the tags live in a word no test instruction writes, so no test can produce a collision.
constexpr int kResultSlotBytes = 16;
// The surface array's rows (device.cpp, ptx_body_image.cpp): 2^14 32-bit elements, so element e
// of the location buffer is the array's (e mod 2^14, e / 2^14).
constexpr int kArrayRowShift = 14;
class PtxText;
// The array's (cx, cy) of the u32 element in `element`, cx in bytes (suld.b/sust.b) or in elements
// (tex); cy may be `element` itself (ptx_body_image.cpp).
void emitArrayCoordinates(PtxText& out, const std::string& guard, const std::string& element, const std::string& cx,
                          const std::string& cy, bool bytes);
// The module's constant bank for locations with a constant alias (lt_cbank): 64 KiB of 32-bit
// words, the most a module may declare; it bounds the instances of a launch (harness.cpp).
constexpr int kBankWords = 16384;
constexpr uint64_t kTagMark = 0x7a6c000000000000ULL;  // tag = kTagMark | epoch (kEpoch, >= 1)

// Histogram table: kTableEntries entries of tableEntryBytes(plan) bytes (a u32 state: 0 empty,
// 1 being written, 2 ready; a u64 count at +8; from +16 the key: the observed values as u64, then
// a mask of the observed terms whose slot was not written (bit i: term i, bit 63 also for later
// ones), then a mask of the threads whose done slot was not written (bit t, likewise)), then a
// u64 count of instances that found no free entry.
constexpr int kTableEntries = 4096;
inline int tableKeys(const Plan& plan) { return static_cast<int>(plan.observed.size()) + 2; }
inline int tableEntryBytes(const Plan& plan) { return 16 + 8 * tableKeys(plan); }

// Tally modes (bits of its p_mode parameter).
constexpr uint32_t kTallyRead = 1;  // count the current launch's outcomes, reset its spin counters
constexpr uint32_t kTallyInit = 2;  // write the next launch's initial values

// The whole module. Throws litmus::Error naming the first instruction it cannot generate.
std::string generateModule(const litmus::Test& test, const Plan& plan);

// ---- pieces shared by the generator's files ---------------------------------------------------

class PtxText {
 public:
  void op(std::string_view s) { out_.append("\t").append(s).append(";\n"); }
  void label(std::string_view name) { out_.append(name).append(":\n"); }
  void comment(std::string_view s) { out_.append("\t// ").append(s).append("\n"); }
  void raw(std::string_view s) { out_.append(s); }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

// One thread's instructions, from T<t>_BEGIN to just before T<t>_END.
void emitBody(PtxText& out, const litmus::Test& test, const Plan& plan, int thread);
// Register declarations the bodies need (temporaries, the threads' registers).
void declareBodyRegisters(PtxText& out, const Plan& plan);
// ptx_body_wgmma.cpp: the accumulator registers of every wgmma.mma_async; the harness's fill of a
// wgmma tile (zeros and its four ones) in the initialising thread, before the test's initial values.
void declareWgmmaRegisters(PtxText& out, const litmus::Test& test);
void emitTileFill(PtxText& out, const LocPlan& l, int v, const std::string& tag);
// dst (u64) = base + byte offset of location region `v`'s slot for instance `n32` under the
// launch record `lp` (params.h: kLocMul .. kStride). Uses %h_x, %h_X .. %h_W and %h_pp.
void emitSlotAddress(PtxText& out, const std::string& lp, int v, int globals, const std::string& n32,
                     const std::string& base, const std::string& dst);
// "[p_lp+44]": word `w` of a launch record parameter.
std::string word(const std::string& lp, int w);
// v = a well-mixed function of v (32-bit finaliser); tmp is clobbered.
void emitMix32(PtxText& out, const std::string& v, const std::string& tmp);
// ptx_touch.cpp: the reads of the prefetch launches (kPrefetch), before the spin barrier, and the
// reductions of the line-stress launches (kLineStress), just before the test's first instruction.
void emitPrefetch(PtxText& out, const litmus::Test& test, const Plan& plan);
void emitLineStress(PtxText& out, const litmus::Test& test, const Plan& plan);
// ptx_touch.cpp: the stressing blocks' (and pre-stress's) loop over one scratch line per block,
// `iters` (a register) accesses; labels start with `prefix`.
void emitStress(PtxText& out, const std::string& prefix, const std::string& iters);
std::string hex(uint64_t v);
// ptx_body_tensor.cpp: the module's tensor-map templates (`lt_tmap`, empty without maps), whether
// shared memory needs 128-byte alignment (tensor copies), and the tally's copy of map `l`.
std::string tensorMapDeclaration(const Plan& plan);
bool alignsShared128(const Plan& plan);
void emitTensorMapInit(PtxText& out, const Plan& plan, const LocPlan& l);

// ptx_trace.cpp, --trace-waits (gpu-runner/wait_trace.h): no code unless plan.tracing(). Registers;
// the slot and launch number (after the decision that a block tests); the thread's part from
// %h_t; a store of `site` with the thread from %h_t, or with the constant `thread`.
void declareTrace(PtxText& out, const Plan& plan);
void emitTraceSetup(PtxText& out, const Plan& plan, const std::string& epochWord);
void emitTraceThread(PtxText& out, const Plan& plan);
void emitTraceSite(PtxText& out, const Plan& plan, uint32_t site);
void emitTraceSiteOf(PtxText& out, const Plan& plan, int thread, uint32_t site);

}  // namespace gpu
