// The interpreter's barrier steps: bar/barrier and barrier.cluster (arrive and wait events), and
// mbarrier operations on the mbarrier's location (semantics/mbarrier.h).
#include "model/barriers.h"
#include "semantics/collectives.h"
#include "semantics/interpreter.h"
#include "semantics/mbarrier.h"

namespace model::detail {

// The barrier an Arrive or Wait of `in` uses, and how it behaves (docs/model.md D23-D25).
// bar/barrier{.cta} operands: PTX {id[, count]} with the count in threads, each litmus thread a
// warp of 32; Dat3M {id[, instance[, count]]} with the count in litmus threads; bar.red puts a
// destination first and a predicate last.
Event Interpreter::barrierEvent(const Path& p, const Instr& in, EventKind kind) const {
  using litmus::BarOp;
  using litmus::Scope;
  using litmus::Sem;
  Event e = baseEvent(p, in, kind);
  e.barOp = in.barOp;
  BarrierName name;
  name.gpu = th_.gpu;
  auto fail = [&](const std::string& what) {
    throw litmus::Error(in.loc, "'" + in.text + "': " + what);
  };
  if (in.barOp == BarOp::WarpSync) {
    // the lanes of the member mask that the test has (D33); acts as bar.sync among them
    name.kind = BarrierKind::Warp;
    name.group = th_.cta;
    name.id = th_.warp < 0 ? 0x8000 + thread_ : th_.warp;
    e.scope = Scope::Cta;
    e.sem = kind == EventKind::Arrive ? Sem::Release : Sem::AcqRel;
    const int64_t mask = num(p, in.args[0]);
    for (int lane = 0; lane < info_.lanes; ++lane) e.count += (mask >> lane) & 1;
  } else if (in.barOp == BarOp::ClusterArrive || in.barOp == BarOp::ClusterWait) {
    name.kind = BarrierKind::Cluster;
    name.group = th_.cluster;
    e.scope = Scope::Cluster;
    e.sem = in.sem;  // arrive: .release (default) or .relaxed; wait: .acquire
  } else {
    name.group = th_.cta;
    // Barrier synchronization acts as release-acquire at CTA scope (ASPLOS'19, D23): the arrival
    // releases; the wait of bar.sync/red is an acq_rel fence as well.
    e.scope = Scope::Cta;
    e.sem = kind == EventKind::Arrive ? Sem::Release : Sem::AcqRel;
    const bool dat3m = prog_.test->dat3mBarriers && (in.barOp == BarOp::Sync || in.barOp == BarOp::Arrive);
    const litmus::BarOperands o = litmus::barOperands(in, dat3m);
    name.id = num(p, in.args[o.id]);
    if (o.instance >= 0) name.instance = num(p, in.args[o.instance]);
    const int64_t count = o.count < 0 ? 0 : num(p, in.args[o.count]);
    if (dat3m) {  // the count in litmus threads
      if (name.id < 0 || name.id > 0xffff || name.instance < 0 || name.instance > 0xffff)
        fail("barrier id and instance must lie in 0-65535");
      if (o.count >= 0 && count <= 0) fail("the thread count must be positive");
      e.count = static_cast<int>(count);
    } else {
      if (name.id < 0 || name.id > 15) fail("barrier id " + std::to_string(name.id) + " is out of range 0-15");
      if (o.count >= 0 && (count <= 0 || count % 32 != 0))
        fail("thread count " + std::to_string(count) + " is not a positive multiple of 32");
      e.count = static_cast<int>(count / 32);
    }
  }
  if (name.gpu > 0xff || name.group > 0xffff) fail("GPU, CTA or cluster number too large for a barrier");
  e.barrier = barrierKey(name);
  // bar.warp.sync: lanes meet only "with the same membermask value" (§9.7.13.2)
  if (in.barOp == BarOp::WarpSync)
    e.barrier = warpKey(BarrierKind::Warp, 0, warpOf(*prog_.test, thread_), static_cast<uint32_t>(num(p, in.args[0])));
  return e;
}

// bar.sync/red arrive and wait; bar.arrive and barrier.cluster.arrive only arrive; the cluster
// wait only waits. A wait forks: it returns (with each result bar.red can give), or it never does
// and the trace ends there.
void Interpreter::stepBarrier(Path p, const Instr& in) {
  using litmus::BarOp;
  const BarOp op = in.barOp;
  if (op != BarOp::ClusterWait) {
    Event a = barrierEvent(p, in, EventKind::Arrive);
    Taint t;
    if (isReduction(op)) {  // the predicate's truth is part of the arrival: fork if not known
      const Operand& pred = in.args.back();
      const Val v = value(p, pred);
      auto holds = truthOf(p, v);
      if (!holds) {
        Path q = p;
        decide(q, v, false);
        decide(p, v, true);
        holds = true;
        a.value = false != pred.negated;
        emit(q, a, taintOf(q, pred));
        finishBarrier(std::move(q), in);
      }
      a.value = *holds != pred.negated;
      t = taintOf(p, pred);
    }
    emit(p, a, t);
  }
  finishBarrier(std::move(p), in);
}

// After the arrival (if any): bar.arrive and the cluster arrive go on; the others wait.
void Interpreter::finishBarrier(Path p, const Instr& in) {
  using litmus::BarOp;
  const BarOp op = in.barOp;
  if (op == BarOp::Arrive || op == BarOp::ClusterArrive) {  // bar.warp.sync waits, like bar.sync
    ++p.pc;
    return explore(std::move(p));
  }
  const Event wait = barrierEvent(p, in, EventKind::Wait);
  Path hang = p;
  emit(hang, wait, {});
  hang.trace.stuckAt = hang.pc;
  finish(std::move(hang), Stuck::AtWait);
  // bar.red.popc counts the litmus threads whose predicate holds (one active lane per warp, D24).
  std::vector<int64_t> results{0};
  if (op == BarOp::RedAnd || op == BarOp::RedOr) results.push_back(1);
  if (op == BarOp::RedPopc)
    for (size_t k = 1; k <= prog_.test->threads.size(); ++k) results.push_back(static_cast<int64_t>(k));
  for (int64_t v : results) {
    Path q = p;
    Event w = wait;
    w.value = v;
    emit(q, w, {});
    if (isReduction(op)) setReg(q, in.args[0], v, {});
    ++q.pc;
    explore(std::move(q));
  }
}


// mbarrier operations on the value of the mbarrier's location (semantics/mbarrier.h, D28): init and
// inval are weak writes; arrive, arrive_drop, expect_tx and complete_tx atomic read-modify-writes
// (release or relaxed); test_wait/try_wait a read that acquires only when it returns true.
void Interpreter::stepMbarrier(Path p, const Instr& in) {
  using litmus::MbarOp;
  const MbarOp op = in.mbarOp;
  auto next = [&](Path q) {
    ++q.pc;
    explore(std::move(q));
  };
  if (op == MbarOp::PendingCount) {
    setReg(p, in.args[0], lift(value(p, in.args[1]), [](int64_t v) { return mbarrierPending(v); }),
           taintOf(p, in.args[1]));
    return next(std::move(p));
  }
  const int address = addressOf(p, in, 0);
  if (op == MbarOp::Init || op == MbarOp::Inval) {
    Event w = memEvent(p, in, EventKind::Write, address);
    w.mbarrierInit = op == MbarOp::Init;  // what fence.mbarrier_init orders (D29)
    MbarState st;
    Taint t;
    if (op == MbarOp::Init) {
      const int64_t count = num(p, in.args[1]);
      if (count < 1 || count > kMbarMaxCount)
        throw litmus::Error(in.loc, "'" + in.text + "': count " + std::to_string(count) +
                                        " out of range 1-" + std::to_string(kMbarMaxCount));
      st = MbarState{true, 0, count, count, 0};
      t = taintOf(p, in.args[1]);
    }
    w.value = st.pack();
    emit(p, w, t);
    return next(std::move(p));
  }
  const bool wait = op == MbarOp::TestWait || op == MbarOp::TryWait;
  Event r = memEvent(p, in, EventKind::Read, address);
  r.atomic = !wait;
  r.mbarrier = true;
  if (wait) {
    // Whether the phase completed decides the acquire: fork on it (both ways if not known).
    const Val token = value(p, in.args[2]);
    const Taint tt = taintOf(p, in.args[2]);
    const int k = emitRead(p, r, tt);
    const Val done = lift(p.trace.vals[k], token, [&in](int64_t cur, int64_t tok) -> int64_t {
      return mbarrierPhaseDone(in, cur, tok);
    });
    Taint t = tt;
    t[k] = true;
    auto finishWait = [&](Path q, bool returns) {
      if (!returns) q.trace.events[k].sem = litmus::Sem::Relaxed;  // only a wait that returns true acquires
      setReg(q, in.args[0], int64_t{returns}, t);
      next(std::move(q));
    };
    if (const auto known = truthOf(p, done)) return finishWait(std::move(p), *known);
    Path q = p;
    decide(q, done, false);
    finishWait(std::move(q), false);
    decide(p, done, true);
    return finishWait(std::move(p), true);
  }
  r.sem = litmus::Sem::Relaxed;  // arrivals release; none acquires
  const bool arrive = op == MbarOp::Arrive || op == MbarOp::ArriveDrop;
  const int na = arrive ? 2 : 1;  // the count or tx-count operand
  const bool given = static_cast<int>(in.args.size()) > na;
  const int64_t n = given ? num(p, in.args[na]) : 1;
  if (n < 0 || n > (in.expectTx || !arrive ? kMbarMaxTx : kMbarMaxCount))
    throw litmus::Error(in.loc, "'" + in.text + "': count " + std::to_string(n) + " out of range");
  Event w = memEvent(p, in, EventKind::Write, address);
  w.mbarrier = true;
  r.plainArrive = w.plainArrive = arrive && !in.expectTx;
  const int rk = emitRmw(p, r, w, given ? taintOf(p, in.args[na]) : Taint{}, [&in, n](const Val& old) {
    return lift(old, [&in, n](int64_t v) { return mbarrierUpdate(in, v, n); });
  });
  if (arrive) {
    Taint t;
    t[rk] = true;
    setReg(p, in.args[0], p.trace.vals[rk], t);  // the state before the arrival (§9.7.13.15.13)
  }
  next(std::move(p));
}


}  // namespace model::detail
