// The interpreter's warp collectives (§9.7.13.8-12; docs/model.md D40-D42): each lane arrives with
// its operand and waits until every non-exited lane of the member mask has arrived; its result
// is then a value of the phase, settled by the engines like a read's (semantics/collectives.h).
#include "litmus/instructions.h"
#include "semantics/collectives.h"
#include "semantics/interpreter.h"

namespace model::detail {

using litmus::WarpOp;

// The lanes of this thread's warp, as a mask (every lane the test places in it).
static uint32_t warpLanes(int lanes) {
  return lanes >= 32 ? 0xffffffffu : (uint32_t{1} << lanes) - 1;
}

void Interpreter::stepWarp(Path p, const Instr& in) {
  auto next = [&](Path q) {
    ++q.pc;
    explore(std::move(q));
  };
  const uint32_t all = warpLanes(info_.lanes);
  if (in.warpOp == WarpOp::Activemask) {
    // Which lanes are converged here is not modelled: the lane itself and any of the others
    // (D42), one path each; 2^(lanes-1) paths, so small warps only.
    if (info_.lanes > 8)
      throw litmus::Error(in.loc, "'" + in.text + "': activemask in a warp of more than 8 lanes is not modelled "
                                  "(any subset of the other lanes may be active, D42)");
    const uint32_t own = uint32_t{1} << info_.lane, others = all & ~own;
    for (uint32_t sub = others;; sub = (sub - 1) & others) {  // every subset of the others
      // (under D42's reading `converged`, only all of them)
      if (prog_.activemaskConverged && sub != others) return;
      Path q = p;
      setReg(q, in.args[0], int64_t{own | sub}, {});
      next(std::move(q));
      if (sub == 0) return;
    }
  }
  // the deprecated vote: every non-exited lane of the warp, as vote.sync with the full mask (D42)
  const int mi = litmus::warpMaskIndex(in);
  const int64_t mask = mi < 0 ? all : num(p, in.args[mi]) & 0xffffffff;
  auto fail = [&](const std::string& what) { throw litmus::Error(in.loc, "'" + in.text + "': " + what); };
  if (!(mask >> info_.lane & 1))
    fail("the member mask " + std::to_string(mask) + " leaves out the executing lane " +
         std::to_string(info_.lane) + " (undefined behaviour, §9.7.13.9-12)");
  if (mask & ~int64_t{all})
    fail("the member mask names lanes that the warp does not have (it has " + std::to_string(info_.lanes) + ")");
  const int first = warpOf(*prog_.test, thread_);
  Event a = baseEvent(p, in, EventKind::Arrive);
  a.sem = litmus::Sem::Relaxed;  // a collective orders no memory (D40): its phase is no `bar`
  a.scope = litmus::Scope::Cta;
  a.barrier = warpKey(BarrierKind::Collective, collectiveSignature(in), first, static_cast<uint32_t>(mask));
  a.warpInstr = &in;
  a.lane = info_.lane;
  const Operand& src = in.args[destCount(in)];
  Val v = value(p, src);
  if (litmus::takesPredicate(in.warpOp)) {  // a predicate, maybe negated
    const bool neg = src.negated;
    v = lift(v, [neg](int64_t x) -> int64_t { return (x != 0) != neg; });
  }
  emit(p, a, taintOf(p, src), v);
  Event w = a;
  w.kind = EventKind::Wait;
  w.po = static_cast<int>(p.trace.events.size());
  w.loc = collectiveSlot(prog_, thread_, p.pc);
  Path hang = p;  // the wait never returns: its result is no fixed value
  emit(hang, w, {}, readValue(static_cast<int>(hang.trace.events.size())));
  hang.trace.stuckAt = hang.pc;
  finish(std::move(hang), Stuck::AtWait);
  const int k = emit(p, w, {}, readValue(static_cast<int>(p.trace.events.size())));
  const Val r = p.trace.vals[k];
  Taint t;
  t[k] = true;
  if (in.warpOp == WarpOp::MatchAll && destCount(in) == 2) {  // d|p: p holds when d is not 0
    setReg(p, in.args[1], lift(r, [](int64_t x) -> int64_t { return x != 0; }), t);
  }
  setReg(p, in.args[0], r, t);
  next(std::move(p));
}

}  // namespace model::detail
