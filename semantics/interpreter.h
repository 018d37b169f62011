// Internal to model/: the interpreter that runs one thread's code along every path
// (semantics.h), shared by semantics.cpp (memory and control flow) and semantics_sync.cpp
// (barriers and mbarriers). Not part of the public API.
#pragma once

#include <bitset>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/limit_error.h"
#include "model/bitrel.h"
#include "semantics/semantics.h"

namespace model::detail {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

// The most events one thread's path may have.
inline constexpr int kMaxTraceEvents = 256;
using Taint = std::bitset<kMaxTraceEvents>;  // trace-local indices of the reads a value depends on

// Events of asynchronous operations not committed yet (open), and of each committed group not
// completed yet, oldest first.
struct AsyncGroups {
  std::vector<int> open;
  std::vector<std::vector<int>> committed;
};

struct Path {
  int pc = 0;
  std::vector<Val> regs;
  std::vector<Taint> taint;
  Taint ctrl;
  std::vector<int> backJumps;
  Trace trace;
  // cp.async.bulk .bulk_group copies: the events of the copies not committed yet, and of each
  // committed group not completed yet, oldest first.
  std::vector<int> openGroup;
  std::vector<std::vector<int>> groups;
  // The same for non-bulk cp.async (cp.async-groups) and wgmma.mma_async (wgmma-groups).
  AsyncGroups cpAsync, wgmma;
  // clusterlaunchcontrol.try_cancel (D49): the thread's successful cancellations so far, and
  // whether one failed (every later one fails too).
  int clcCanceled = 0;
  bool clcFailed = false;
};

class Interpreter {
 public:
  Interpreter(const Program& prog, int thread, const Domain& domain, int unroll, const litmus::Deadline& deadline)
      : prog_(prog), th_(prog.test->threads[thread]), info_(prog.threads[thread]),
        thread_(thread), domain_(domain), unroll_(unroll), deadline_(deadline) {}

  TraceSet run() {
    markSpinLoops();
    Path p;
    for (int64_t v : info_.initRegs) p.regs.emplace_back(v);
    p.taint.assign(p.regs.size(), Taint{});
    p.backJumps.assign(th_.code.size(), 0);
    launch(std::move(p));
    stampGrid();
    return std::move(out_);
  }

 private:
  const Program& prog_;
  const litmus::Thread& th_;
  const Program::ThreadInfo& info_;
  int thread_;
  const Domain& domain_;
  int unroll_;
  const litmus::Deadline& deadline_;  // looked at for every instruction a path steps through
  TraceSet out_;
  std::vector<bool> spinBackEdge_;  // per instruction: a back edge closing a side-effect-free loop
  std::vector<int> spinReads_;      // per spin back edge: the reads one iteration makes

  void markSpinLoops();

  Val value(const Path& p, const Operand& o) const {
    return o.kind == Operand::Kind::Reg ? p.regs[info_.regId.at(o.name)] : Val(o.imm);
  }
  // The value of v with the reads the path fixed; nullopt if it depends on a lazy read.
  std::optional<int64_t> tryKnow(const Path& p, const Val& v) const {
    return evaluate(v, [&](int r) -> std::optional<int64_t> {
      const Val& rv = p.trace.vals[r];
      return rv.known() ? std::optional<int64_t>(rv.k) : std::nullopt;
    });
  }
  // The value of an operand that concretize() made known.
  int64_t num(const Path& p, const Operand& o) const;
  Taint taintOf(const Path& p, const Operand& o) const {
    return o.kind == Operand::Kind::Reg ? p.taint[info_.regId.at(o.name)] : Taint{};
  }
  void setReg(Path& p, const Operand& o, Val v, const Taint& t) const {
    const int r = info_.regId.at(o.name);
    p.regs[r] = std::move(v);
    p.taint[r] = t;
  }
  void setReg(Path& p, const Operand& o, int64_t v, const Taint& t) const { setReg(p, o, Val(v), t); }

  Event baseEvent(const Path& p, const Instr& in, EventKind kind) const {
    Event e;
    e.kind = kind;
    e.thread = thread_;
    e.cta = th_.cta;
    e.cluster = th_.cluster;
    e.gpu = th_.gpu;
    e.instr = p.pc;
    e.po = static_cast<int>(p.trace.events.size());
    e.sem = in.sem;
    e.scope = in.scope;
    if (in.sem == litmus::Sem::Volatile || in.sem == litmus::Sem::Mmio) {
      e.sem = litmus::Sem::Relaxed;  // §8.4.1, §8.4.2: formally .relaxed.sys
      e.scope = litmus::Scope::Sys;
    }
    if (e.sem == litmus::Sem::Weak) e.scope = litmus::Scope::None;
    return e;
  }

  // The address of element `elem` of a memory instruction (0 for scalar accesses).
  int addressOf(const Path& p, const Instr& in, int elem) const {
    const Operand& addr = in.args[litmus::addressIndex(in)];
    return operandAddress(p, in, addr, int64_t{elem} * litmus::elementBytes(in));
  }
  // The address `extra` bytes past an address operand, `[x+K]` or `[%r+K]` (D32).
  int operandAddress(const Path& p, const Instr& in, const Operand& addr, int64_t extra) const;
  // addr's offset plus `extra` bytes; a located error past the last byte an address can name.
  int64_t offsetPast(const Instr& in, const Operand& addr, int decl, int64_t extra) const;

  Event memEvent(const Path& p, const Instr& in, EventKind kind, int address) const {
    Event e = baseEvent(p, in, kind);
    e.va = prog_.vaDecl[address];
    e.offset = prog_.vaOffset[address];
    e.loc = prog_.vaLoc[address];
    e.proxy = in.proxy != litmus::Proxy::Generic ? in.proxy : prog_.vaProxy[address];
    e.view = prog_.vaView[address];
    e.space = prog_.locSpace[e.loc];
    // §8.3: shared memory is reachable from the cluster at most, which caps the scope.
    const auto space = prog_.locSpace[e.loc];
    const bool shared = space == litmus::Space::Shared || space == litmus::Space::SharedCta ||
                        space == litmus::Space::SharedCluster;
    if (shared && e.scope > litmus::Scope::Cluster) e.scope = litmus::Scope::Cluster;
    // a shared location without `cta:` is taken to be in the accessing thread's CTA (D29)
    if (shared) e.ownerCta = prog_.locOwnerCta[e.loc] >= 0 ? prog_.locOwnerCta[e.loc] : th_.cta;
    return e;
  }

  // Appends `e` with value v (known: e.value), recording the reads it depends on; returns its
  // trace-local index.
  int emit(Path& p, Event e, const Taint& data, Val v) const {
    const int k = static_cast<int>(p.trace.events.size());
    if (k >= kMaxTraceEvents)
      throw litmus::LimitError(th_.code[p.pc].loc, "thread " + th_.name + " has more than " +
                                                       std::to_string(kMaxTraceEvents) +
                                                       " events: too large for the model (lower --unroll)");
    const Taint all = data | p.ctrl;
    for (int r = 0; r < k; ++r)
      if (all[r]) p.trace.dep.emplace_back(r, k);
    e.value = v.known() ? v.k : 0;
    p.trace.events.push_back(e);
    p.trace.vals.push_back(std::move(v));
    return k;
  }
  int emit(Path& p, const Event& e, const Taint& data) const { return emit(p, e, data, Val(e.value)); }
  // A read whose value reads-from settles.
  int emitRead(Path& p, const Event& e, const Taint& data = {}) const {
    return emit(p, e, data, readValue(static_cast<int>(p.trace.events.size())));
  }

  // The read and write halves of one atomic read-modify-write, linked by rmw: the write's value
  // is `update` of the value read. The write depends on `data`, and on the value read unless
  // `blind` (exch). Returns the read's trace index.
  int emitRmw(Path& p, Event r, Event w, Taint data, const std::function<Val(const Val&)>& update,
              bool blind = false) const {
    r.atomic = w.atomic = true;
    const int rk = emitRead(p, r);
    w.po = static_cast<int>(p.trace.events.size());
    if (!blind) data[rk] = true;
    emit(p, w, data, update(p.trace.vals[rk]));
    p.trace.rmw.emplace_back(rk, static_cast<int>(p.trace.events.size()) - 1);
    return rk;
  }

  // Records the decision (v != 0) == truth on the path.
  void decide(Path& p, const Val& v, bool truth) const {
    p.trace.guards.push_back({v, truth});
  }
  // Whether (v != 0), when the path knows it or decided it already.
  std::optional<bool> truthOf(const Path& p, const Val& v) const {
    if (auto k = tryKnow(p, v)) return *k != 0;
    // the same value tested again (a guard on several instructions) takes the same way; the
    // guard keeps the expression alive, so its address names it
    for (const auto& g : p.trace.guards)
      if (g.v.e == v.e) return g.truth;
    return std::nullopt;
  }
  // Makes the operands that decide what `in` does known, forking the path over the values of
  // the lazy reads they use; false: the path was forked and its copies went on.
  bool concretize(Path& p, const Instr& in);
  std::vector<int> decidingOperands(const Instr& in) const;

  void explore(Path p);
  void finish(Path p, Stuck stuck);
  void exitTrigger(Path& p) const;
  bool stepPure(Path& p, const Instr& in);  // false: path dropped
  bool stepBranch(Path& p, const Instr& in);
  void stepRead(Path p, const Instr& in);
  void stepRmw(Path p, const Instr& in, int elem);
  void stepBarrier(Path p, const Instr& in);
  void finishBarrier(Path p, const Instr& in);
  void stepMbarrier(Path p, const Instr& in);
  void stepAsync(Path p, const Instr& in);
  void stepWarp(Path p, const Instr& in);
  void stepCluster(Path& p, const Instr& in);
  void launch(Path p);                       // semantics/launch.cpp
  void stepGrid(Path p, const Instr& in);    // semantics/launch.cpp
  void stampGrid();                          // semantics/launch.cpp
  void copyWords(Path p, const Instr& in, size_t word, int op);
  void completeTx(Path p, const Instr& in, int op, int mbarOperand, int64_t bytes);
  void completeTxAt(Path& p, const Instr& in, int op, int address, int64_t bytes);
  void stepCvta(Path& p, const Instr& in);
  // semantics/clc.cpp: clusterlaunchcontrol (D49, D50) and the .release forms of st.async and
  // red.async (D51)
  void stepTryCancel(Path p, const Instr& in);
  void writeResponse(Path p, const Instr& in, int64_t response);
  void stepQueryCancel(Path& p, const Instr& in);
  void stepAsyncRelease(Path p, const Instr& in);
  void waitGroups(Path& p, const Instr& in);
  // non-bulk cp.async and wgmma (semantics_cpasync.cpp)
  void stepCpAsync(Path p, const Instr& in);
  void cpCopy(Path& p, const Instr& in);
  void cpArrive(Path& p, const Instr& in);
  void wgmmaReads(Path& p, const Instr& in);
  void joinGroups(Path& p, AsyncGroups& g, size_t keep, const Instr& in, bool proxyFence);
  Event asyncEvent(const Path& p, const Instr& in, EventKind kind, int address, int op) const;
  // semantics_tensor.cpp: cp.async.bulk.tensor, tensormap.replace, .multicast::cluster (D46-D48)
  struct Dest {
    int data = -1, mbar = -1;  // declared locations in one destination CTA (-1: none declared)
    bool own = false;          // not multicast: the operands' own addresses
  };
  void stepTensor(Path p, const Instr& in, int op);
  void stepTensormapReplace(Path& p, const Instr& in) const;
  void tensorCopy(Path p, const Instr& in, int op);
  void tensorElements(Path p, const Instr& in, int op, int mapRead, int64_t address);
  int tensorOf(int64_t address) const;
  void multicastCopy(Path p, const Instr& in, int op);
  std::vector<Dest> destinations(const Path& p, const Instr& in, int dstOp, int mbarOp) const;
  int destAddress(const Path& p, const Instr& in, const Dest& d, const Operand& o, int decl,
                  int64_t offset) const;
  void copyElement(Path& p, const Instr& in, int op, int src, int64_t init, const std::vector<int>& dsts,
                   Taint dep, std::vector<int>* group) const;
  void completeCopy(Path p, const Instr& in, int op, const std::vector<Dest>& dests, int mbarOp,
                    int64_t bytes);
  Event barrierEvent(const Path& p, const Instr& in, EventKind kind) const;
};

}  // namespace model::detail
