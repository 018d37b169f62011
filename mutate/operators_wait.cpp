// proxy-fence-drop and mbarrier-wait-drop: the Hopper-era synchronisation. A dropped proxy fence
// leaves two proxies' views of memory unordered; a dropped wait lets a thread run past a barrier
// phase (or an asynchronous group, or a prerequisite grid) that has not completed.
#include "litmus/ptx_format.h"
#include "mutate/edit.h"

namespace mutate::detail {
namespace {

using litmus::BarOp;
using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

bool isAsyncWait(const Instr& in) {
  if (in.op == Opcode::GridDep) return in.gridOp == litmus::GridOp::Wait;
  if (in.op != Opcode::Async) return false;
  return in.asyncOp == litmus::AsyncOp::Wait || in.asyncOp == litmus::AsyncOp::CpWait ||
         in.asyncOp == litmus::AsyncOp::CpWaitAll || in.asyncOp == litmus::AsyncOp::WgmmaWait;
}

// The backward branch on the wait's predicate that makes `code[i]` a spin loop, or -1.
int spinBranch(const std::vector<Instr>& code, size_t i) {
  const std::string& p = code[i].args.at(0).name;
  for (size_t j = i + 1; j < code.size(); ++j) {
    const Instr& b = code[j];
    if (b.op == Opcode::Label) continue;
    if (b.op != Opcode::Bra) return -1;  // the loop must close right after the wait
    const int target = labelIndex(code, b.target);
    return b.guard == p && target >= 0 && target <= static_cast<int>(i) ? static_cast<int>(j) : -1;
  }
  return -1;
}

// A barrier operand's value when it is known statically: an immediate, or a register that the
// thread's `init` sets and its code never writes.
std::optional<int64_t> staticValue(const litmus::Thread& t, const Instr& in, int index) {
  if (index < 0 || static_cast<size_t>(index) >= in.args.size()) return std::nullopt;
  const Operand& a = in.args[static_cast<size_t>(index)];
  if (a.kind == Operand::Kind::Imm) return a.imm;
  if (a.kind != Operand::Kind::Reg) return std::nullopt;
  for (const Instr& x : t.code)
    if (regsWritten(x).count(a.name)) return std::nullopt;
  const auto it = t.initRegs.find(a.name);
  return it == t.initRegs.end() ? 0 : it->second;
}

// Does thread `t` surely reach a barrier `id` (unguarded, not jumped over, no exit)? Then it
// counts in the barrier's implicit thread count.
bool reachesBarrier(const litmus::Thread& t, int64_t id) {
  int at = -1;
  for (size_t i = 0; i < t.code.size() && at < 0; ++i) {
    const Instr& b = t.code[i];
    if (b.op != Opcode::Bar || (b.barOp != BarOp::Sync && b.barOp != BarOp::Arrive) || !b.guard.empty())
      continue;
    if (staticValue(t, b, litmus::barOperands(b, false).id) == id) at = static_cast<int>(i);
  }
  if (at < 0) return false;
  for (size_t j = 0; j < t.code.size(); ++j) {
    const Instr& x = t.code[j];
    if (x.op == Opcode::Exit) return false;
    if (x.op == Opcode::Bra && static_cast<int>(j) < at && labelIndex(t.code, x.target) > at) return false;
  }
  return true;
}

// bar.sync -> bar.arrive in thread t: the thread still arrives (no other thread waits forever)
// but no longer waits. bar.arrive needs a thread count, so every bar.sync and bar.arrive on that
// barrier in the CTA gets the count it had implicitly (32 per litmus thread of the CTA).
std::optional<Mutation> syncToArrive(const litmus::Test& test, size_t t, size_t i) {
  const litmus::Thread& me = test.threads[t];
  const Instr& in = me.code[i];
  const litmus::BarOperands ops = litmus::barOperands(in, false);
  if (test.dat3mBarriers) return std::nullopt;
  if (ops.count >= 0) {  // the count is there already
    Mutation m = replaced(test, Category::MbarrierWaitDrop, t, i, in);
    m.test.threads[t].code[i].barOp = BarOp::Arrive;
    m.change = where(me, in) + " -> '" + litmus::formatInstr(m.test.threads[t].code[i]) + "'";
    return m;
  }
  const std::optional<int64_t> id = staticValue(me, in, ops.id);
  if (!id) return std::nullopt;
  // A thread that ends (or exits) without reaching the barrier no longer counts in it: the
  // implicit count is a constant only when every thread of the CTA surely reaches it.
  int64_t inCta = 0;
  for (const litmus::Thread& o : test.threads) {
    if (o.cta != me.cta || o.grid != me.grid) continue;
    if (!reachesBarrier(o, *id)) return std::nullopt;
    ++inCta;
  }
  Mutation m = replaced(test, Category::MbarrierWaitDrop, t, i, in);
  for (litmus::Thread& o : m.test.threads) {
    if (o.cta != me.cta || o.grid != me.grid) continue;
    for (Instr& b : o.code) {
      if (b.op != Opcode::Bar || (b.barOp != BarOp::Sync && b.barOp != BarOp::Arrive)) continue;
      const litmus::BarOperands bo = litmus::barOperands(b, false);
      const std::optional<int64_t> other = staticValue(o, b, bo.id);
      if (bo.count >= 0 || (other && *other != *id)) continue;
      if (!other) return std::nullopt;  // a barrier that may be this one, or not
      b.args.push_back(Operand{Operand::Kind::Imm, "", 32 * inCta, false, b.loc});
    }
  }
  Instr& mine = m.test.threads[t].code[i];
  mine.barOp = BarOp::Arrive;
  m.change = where(me, in) + " -> '" + litmus::formatInstr(mine) + "'";
  return m;
}

bool laterClusterArrive(const std::vector<Instr>& code, size_t i) {
  for (size_t j = i + 1; j < code.size(); ++j)
    if (code[j].op == Opcode::Bar && code[j].barOp == BarOp::ClusterArrive) return true;
  return false;
}

}  // namespace

std::vector<Mutation> proxyFenceDrop(const litmus::Test& test) {
  std::vector<Mutation> out;
  for (size_t t = 0; t < test.threads.size(); ++t)
    for (size_t i = 0; i < test.threads[t].code.size(); ++i)
      if (test.threads[t].code[i].op == Opcode::FenceProxy)
        out.push_back(dropped(test, Category::ProxyFenceDrop, t, i));
  return out;
}

// An mbarrier wait that spins becomes one try (its loop branch dropped); bar.sync becomes
// bar.arrive; barrier.cluster.wait (when the thread arrives no more after it), the bulk and
// non-bulk cp.async group waits, wgmma.wait_group and griddepcontrol.wait are dropped.
std::vector<Mutation> waitDrop(const litmus::Test& test) {
  std::vector<Mutation> out;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const litmus::Thread& th = test.threads[t];
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      if (in.op == Opcode::Mbarrier &&
          (in.mbarOp == litmus::MbarOp::TestWait || in.mbarOp == litmus::MbarOp::TryWait)) {
        if (const int j = spinBranch(th.code, i); j >= 0) {
          Mutation m = dropped(test, Category::MbarrierWaitDrop, t, static_cast<size_t>(j));
          m.change = where(th, in) + " tried once: drop '" + litmus::formatInstr(th.code[static_cast<size_t>(j)]) + "'";
          out.push_back(std::move(m));
        }
      } else if (in.op == Opcode::Bar && in.barOp == BarOp::Sync && in.guard.empty()) {
        if (auto m = syncToArrive(test, t, i)) out.push_back(std::move(*m));
      } else if (in.op == Opcode::Bar && in.barOp == BarOp::ClusterWait && !laterClusterArrive(th.code, i)) {
        out.push_back(dropped(test, Category::MbarrierWaitDrop, t, i));
      } else if (isAsyncWait(in)) {
        out.push_back(dropped(test, Category::MbarrierWaitDrop, t, i));
      }
    }
  }
  return out;
}

}  // namespace mutate::detail
