// Internal to model/: the interpreter that runs one thread's code along every path
// (semantics.h), shared by semantics.cpp (memory and control flow) and semantics_sync.cpp
// (barriers and mbarriers). Not part of the public API.
#pragma once

#include <bitset>
#include <string>
#include <vector>

#include "model/bitrel.h"
#include "model/semantics.h"

namespace model::detail {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

using Taint = std::bitset<kMaxEvents>;  // trace-local indices of the reads a value depends on

struct Path {
  int pc = 0;
  std::vector<int64_t> regs;
  std::vector<Taint> taint;
  Taint ctrl;
  std::vector<int> backJumps;
  Trace trace;
  // cp.async.bulk .bulk_group copies: the events of the copies not committed yet, and of each
  // committed group not completed yet, oldest first.
  std::vector<int> openGroup;
  std::vector<std::vector<int>> groups;
};

class Interpreter {
 public:
  Interpreter(const Program& prog, int thread, const Domain& domain, int unroll)
      : prog_(prog), th_(prog.test->threads[thread]), info_(prog.threads[thread]),
        thread_(thread), domain_(domain), unroll_(unroll) {}

  TraceSet run() {
    markSpinLoops();
    Path p;
    p.regs = info_.initRegs;
    p.taint.assign(p.regs.size(), Taint{});
    p.backJumps.assign(th_.code.size(), 0);
    explore(std::move(p));
    return std::move(out_);
  }

 private:
  const Program& prog_;
  const litmus::Thread& th_;
  const Program::ThreadInfo& info_;
  int thread_;
  const Domain& domain_;
  int unroll_;
  TraceSet out_;
  std::vector<bool> spinBackEdge_;  // per instruction: a back edge closing a side-effect-free loop
  std::vector<int> spinReads_;      // per spin back edge: the reads one iteration makes

  void markSpinLoops();

  int64_t value(const Path& p, const Operand& o) const {
    return o.kind == Operand::Kind::Reg ? p.regs[info_.regId.at(o.name)] : o.imm;
  }
  Taint taintOf(const Path& p, const Operand& o) const {
    return o.kind == Operand::Kind::Reg ? p.taint[info_.regId.at(o.name)] : Taint{};
  }
  void setReg(Path& p, const Operand& o, int64_t v, const Taint& t) const {
    const int r = info_.regId.at(o.name);
    p.regs[r] = v;
    p.taint[r] = t;
  }

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
    return e;
  }

  // Appends `e`, recording the reads it depends on; returns its trace-local index.
  int emit(Path& p, Event e, const Taint& data) const {
    const int k = static_cast<int>(p.trace.events.size());
    if (k >= kMaxEvents)
      throw litmus::Error(th_.code[p.pc].loc, "thread " + th_.name + " has too many events for the "
                                              "explicit engine (lower --unroll)");
    const Taint all = data | p.ctrl;
    for (int r = 0; r < k; ++r)
      if (all[r]) p.trace.dep.emplace_back(r, k);
    p.trace.events.push_back(e);
    return k;
  }

  // The read and write halves of one atomic read-modify-write, linked by rmw. The write depends on
  // `data`, and on the value read unless `blind` (exch). Returns the read's trace index.
  int emitRmw(Path& p, Event r, Event w, Taint data, bool blind = false) const {
    r.atomic = w.atomic = true;
    const int rk = emit(p, r, {});
    w.po = static_cast<int>(p.trace.events.size());
    if (!blind) data[rk] = true;
    const int wk = emit(p, w, data);
    p.trace.rmw.emplace_back(rk, wk);
    return rk;
  }

  void explore(Path p);
  void finish(Path p, Stuck stuck);
  bool stepPure(Path& p, const Instr& in);  // false: path dropped
  void stepRead(Path p, const Instr& in);
  void stepRmw(Path p, const Instr& in, int elem);
  void stepBarrier(Path p, const Instr& in);
  void stepMbarrier(Path p, const Instr& in);
  void stepAsync(Path p, const Instr& in);
  void stepCluster(Path& p, const Instr& in);
  void copyWords(Path p, const Instr& in, size_t word, int op);
  void completeTx(Path p, const Instr& in, int op, int mbarOperand, int64_t bytes);
  void waitGroups(Path& p, const Instr& in);
  Event asyncEvent(const Path& p, const Instr& in, EventKind kind, int address, int op) const;
  Event barrierEvent(const Path& p, const Instr& in, EventKind kind) const;
};

}  // namespace model::detail
