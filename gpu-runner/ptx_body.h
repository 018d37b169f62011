// The emitter of a test body (private to gpu-runner): one member function per opcode, so that
// supporting a new instruction is adding a case to instr() and its function. ptx_body.cpp has the
// operands, memory accesses and register instructions; ptx_body_sync.cpp fences, barriers,
// mbarriers, cluster addressing and branches; ptx_body_async.cpp the asynchronous operations.
#pragma once

#include <string>
#include <vector>

#include "gpu-runner/ptx_gen.h"

namespace gpu {

using litmus::Instr;
using litmus::Operand;
using litmus::Type;

inline bool isFloat(litmus::Type t) { return litmus::isFloatType(t); }
// The mnemonic as the test wrote it (barriers keep .aligned, membar stays membar).
std::string mnemonicAsWritten(const litmus::Instr& in);

class BodyEmitter {
 public:
  BodyEmitter(PtxText& out, const litmus::Test& test, const Plan& plan, int t)
      : out_(out),
        test_(test),
        plan_(plan),
        t_(t),
        tp_(plan.threads[static_cast<size_t>(t)]),
        warpMode_(plan.mode == Mode::Warp) {}

  void emit();

 private:
  PtxText& out_;
  const litmus::Test& test_;
  const Plan& plan_;
  int t_;
  const ThreadPlan& tp_;
  bool warpMode_;
  int w_ = 0, x_ = 0, h_ = 0, o_ = 0, c_ = 0;  // temporaries used by the current instruction

  void instr(const Instr& in);
  void warpCollective(const Instr& in);  // ptx_body_warp.cpp

  [[noreturn]] void refuse(const Instr& in, const std::string& why) const;

  // ---- names --------------------------------------------------------------------------------
  std::string w() { return "%w" + std::to_string(w_++); }
  std::string x() { return "%x" + std::to_string(x_++); }
  std::string h() { return "%hh" + std::to_string(h_++); }
  std::string o() { return "%o" + std::to_string(o_++); }
  std::string c() { return "%c" + std::to_string(c_++); }
  std::string label(const std::string& name) const { return "L" + std::to_string(t_) + "_" + name; }
  std::string reg(const std::string& name) const { return tp_.regs.at(name).ptx; }

  std::string imm(int64_t v) const { return std::to_string(v); }
  // A 64-bit value operand: the register, or the literal. A special register (%cluster_ctarank,
  // ...) is read into a temporary first.
  std::string value64(const Operand& op);

  // A value of `bits` bits in a fresh temporary (b16, b32 or b128), or the 64-bit operand itself.
  std::string narrow(const Operand& op, int bits, const std::string& guard);

  // dst (64-bit) = a `bits`-bit temporary, extended as the type says (docs: semantics/arith.h).
  void widen(const std::string& dst, const std::string& tmp, int bits, Type type, const std::string& guard);

  // Litmus values are the type's width, sign- or zero-extended (model::normalize).
  void normalize(const std::string& r, Type type, const std::string& guard);
  // A value operand read at the width of an integer type, in a fresh temporary where it may
  // hold more bits (docs/model.md D52); otherwise value64(op).
  std::string atWidth(const Operand& op, Type type, const std::string& guard);

  // ---- guards -------------------------------------------------------------------------------
  // The test's own guard, as a prefix, for instructions every lane executes.
  std::string laneGuard(const Instr& in) const;
  // Memory operations: in warp mode only lane 0 performs them.
  std::string memGuard(const Instr& in);
  // A predicate lane 0 holds, made the same in every lane (warp mode), so the warp stays whole.
  std::string uniform(const std::string& pred, bool negated);

  // ---- addresses ----------------------------------------------------------------------------
  const LocPlan& locOf(const Operand& a) const;
  // "[%a0+4]": the register that holds the location's address in the instruction's state space;
  // for [%r] (a mapa address), the register itself, narrowed for the 32-bit shared window.
  std::string address(const Instr& in, const Operand& a);
  // The same in a state space of the instruction's choosing (a bulk copy's source, an mbarrier).
  std::string address(const Instr& in, const Operand& a, litmus::Space space);

  // ---- ld / st ------------------------------------------------------------------------------
  static std::string order(const Instr& in);
  static std::string space(const Instr& in);
  // ld/st have no 16-bit float types: .f16/.bf16 move the same bits as .b16 (and x2 as .b32).
  static std::string accessType(Type t);
  // Texture, surface and constant aliases (ptx_body_image.cpp).
  void checkProxy(const Instr& in) const;
  const LocPlan* aliasThrough(const Instr& in, litmus::Proxy proxy) const;
  std::string offsetFrom(const std::string& param, const LocPlan& l, int64_t byte, const std::string& guard);
  std::string element(const Instr& in, const LocPlan& l, const std::string& guard);
  std::pair<std::string, std::string> arrayCoordinates(const std::string& element, const std::string& guard,
                                                      bool bytes);
  void texLoad(const Instr& in, const LocPlan& l);
  void surfaceLoad(const Instr& in, const LocPlan& l);
  void surfaceStore(const Instr& in, const LocPlan& l);
  void constantLoad(const Instr& in, const LocPlan& l);

  void ld(const Instr& in);

  void st(const Instr& in);

  // ---- atom / red ---------------------------------------------------------------------------
  // Untyped (herd) atomics are 64-bit: PTX needs a type, the model computes on 64-bit values.
  std::string rmwType(const Instr& in) const;
  std::string rmwMnemonic(const Instr& in, bool asAtom) const;

  void rmw(const Instr& in);

  // ---- fences and barriers ------------------------------------------------------------------
  void fence(const Instr& in);

  void fenceProxy(const Instr& in);

  // A barrier operand as the u32 PTX wants; in warp mode lane 0's value, so the warp agrees.
  std::string barOperand(const Operand& op);
  std::string barPredicate(const Instr& in, const Operand& p);

  void bar(const Instr& in);
  std::string dat3mOperands(const Instr& in, const litmus::BarOperands& bo) const;

  void mbarrier(const Instr& in);

  bool stateIsRead(const std::string& r) const;

  // ---- cluster address arithmetic ------------------------------------------------------------
  // The shared-window address of a bare location: this CTA's copy (%l) or the owner's (%s).
  std::string sharedAddress(const Operand& a, bool owner) const;
  // An address operand of mapa/getctarank in the width and window the instruction uses.
  std::string clusterOperand(const Instr& in, const Operand& a, bool owner);

  void mapa(const Instr& in);

  // A bare location's CTA is its owner's when the test places it, else the thread's own (model).
  void getctarank(const Instr& in);

  void elect(const Instr& in);

  // ---- asynchronous operations (ptx_body_async.cpp) ------------------------------------------
  void asyncInstr(const Instr& in);

  // cp.async.bulk, completing through an mbarrier or a bulk async-group.
  void bulkCopy(const Instr& in);

  // st.async and red.async: into another CTA of the cluster, completing on its mbarrier.
  void remoteAsync(const Instr& in);

  // An operand of an asynchronous operation in `space`; a bulk copy's must be 16-byte aligned.
  std::string asyncAddress(const Instr& in, const Operand& a, litmus::Space space, bool bulk);
  // The location an address operand names ([x] or a mapa register).
  const LocPlan& target(const Instr& in, const Operand& a) const;
  // The CTAs of the destination and of the mbarrier must be one (the hardware's rule).
  void checkMbarrierCta(const Instr& in, const Operand& dst, const Operand& mbar) const;

  // ptx_body_tensor.cpp: cp.async.bulk.tensor, tensormap.replace, .multicast::cluster copies
  void tensorInstr(const Instr& in);
  std::string tensorValue(const Operand& o, int bits);
  void checkMulticast(const Instr& in) const;
  void tensorPrologue();

  // Before the first instruction: the initial values, written through the generic proxy before
  // the start barrier, made visible to the async proxy of a thread that issues bulk copies.
  void asyncPrologue();
  // After the last instruction: wait for the thread's bulk groups and drain its mbarriers (Drain).
  void drain();
  // Within drain(): the copies whose bytes no mbarrier phase waits for land before the CTA ends.
  void lateCopies();

  // ---- wgmma in a warpgroup (ptx_body_wgmma.cpp) -------------------------------------------
  struct WgMma {
    std::string acc;               // its accumulator registers' prefix
    std::vector<std::string> dst;  // the test's first two accumulators: A's word, B's word
  };
  std::vector<WgMma> wgMmas_;
  std::vector<size_t> wgOpen_;                // mma_async since the last commit_group
  std::vector<std::vector<size_t>> wgGroups_;  // committed groups whose words are not extracted yet
  void wgmmaInstr(const Instr& in);
  std::string wgmmaDescriptor(const Operand& a);
  void wgmmaMma(const Instr& in);
  void wgmmaExtract(size_t j);
  void wgmmaDrain();

  // ---- non-bulk cp.async (ptx_body_cpasync.cpp) ---------------------------------------------
  void cpAsyncInstr(const Instr& in);
  void cpCopy(const Instr& in, const std::string& guard);
  void cpAsyncDrain();  // wait_all after the last instruction

  // ---- register instructions and control flow -----------------------------------------------
  void mov(const Instr& in);

  void arith(const Instr& in);

  void setp(const Instr& in);

  void selp(const Instr& in);

  void bra(const Instr& in);

  // D20: registers start at 0 unless the test gives them a value.
  void initRegisters();

  // ---- cvta, mov d, LOCATION, exit, nanosleep, createpolicy (ptx_body_misc.cpp) ---------------
  static constexpr const char* kExitLabel = "$exit";  // litmus labels cannot start with '$'
  void miscInstr(const Instr& in);
  void cvta(const Instr& in);
};

}  // namespace gpu
