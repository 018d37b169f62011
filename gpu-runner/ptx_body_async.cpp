// Asynchronous operations (PTX ISA §9.7.9.25, §9.7.13.7; docs/model.md D30): cp.async.bulk with
// commit_group and wait_group, st.async and red.async, each as written; and their end. The final
// state is the one after every asynchronous operation has completed, and the hardware tells that
// only through the operation's mbarrier (or the thread's bulk groups), so the plan picks the
// mbarriers a thread waits on after its last instruction (Drain in plan.h) and the body emits the
// wait. Both live here, next to each other.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <optional>

#include "gpu-runner/ptx_body.h"
#include "litmus/instructions.h"
#include "litmus/ptx_format.h"

namespace gpu {

using litmus::AsyncOp;
using litmus::Error;
using litmus::Opcode;
using litmus::Space;

namespace {

// What the test does to one mbarrier that asynchronous operations complete on. Irregular: updates
// the runner does not count (arrive_drop, expect_tx, complete_tx, inval, .noComplete, operands in
// registers) or ones that may run other than once (guarded, in a loop, or skippable by a branch).
// others: some thread other than the initialising one arrives or expects bytes on it.
struct BarrierUse {
  int initThread = -1, inits = 0;
  int64_t count = 0, arrivals = 0, expected = 0, bytes = 0;
  bool waited = false, irregular = false, others = false;
  int updater = -1;  // the thread of the arrivals (others: more than one)
  // The initialising thread's last operation on it is a parity wait; for which parity (-1: not).
  int64_t lastWaitParity = -1;
  bool othersWait = false;  // a thread other than the initialising one waits on it
};
using BarrierKey = std::pair<int, int64_t>;  // location, byte offset

// Which instructions of a thread run exactly once: not guarded, not between a label and a branch
// back to it (a loop: a try_wait loop still leaves the arrivals before it once), not between a
// forward branch and its target, and not after an exit that may be skipped.
std::vector<bool> runsOnce(const std::vector<Instr>& code) {
  std::vector<bool> once(code.size(), true);
  std::map<std::string, size_t> labels;
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].op == Opcode::Label) labels[code[i].target] = i;
  for (size_t i = 0; i < code.size(); ++i) {
    if (!code[i].guard.empty()) once[i] = false;
    if (code[i].op == Opcode::Exit)
      for (size_t k = i; k < code.size(); ++k) once[k] = false;
    if (code[i].op != Opcode::Bra) continue;
    const auto at = labels.find(code[i].target);
    if (at == labels.end()) {
      std::fill(once.begin(), once.end(), false);
      break;
    }
    for (size_t k = std::min(at->second, i); k <= std::max(at->second, i); ++k) once[k] = false;
  }
  return once;
}

void useBarrier(BarrierUse& u, const Instr& in, int thread, bool once) {
  using litmus::MbarOp;
  auto immediate = [&](size_t i, int64_t& v) {
    if (i >= in.args.size()) return;
    if (in.args[i].kind == Operand::Kind::Imm)
      v = in.args[i].imm;
    else
      u.irregular = true;
  };
  switch (in.mbarOp) {
    case MbarOp::Init:
      ++u.inits;
      u.initThread = thread;
      immediate(1, u.count);
      break;
    case MbarOp::Arrive: {
      int64_t n = 1, tx = 0;
      immediate(2, in.expectTx ? tx : n);
      u.arrivals += n;
      u.expected += tx;
      u.irregular = u.irregular || in.noComplete;
      u.others = u.others || (u.updater >= 0 && u.updater != thread);
      u.updater = thread;
      break;
    }
    case MbarOp::TestWait:
    case MbarOp::TryWait:
      u.waited = true;
      u.othersWait = u.othersWait || thread != u.initThread;
      if (thread == u.initThread)
        u.lastWaitParity = in.parity && in.args.size() > 2 && in.args[2].kind == Operand::Kind::Imm ? in.args[2].imm : -1;
      return;
    default: u.irregular = true;
  }
  if (thread == u.initThread) u.lastWaitParity = -1;
  u.irregular = u.irregular || !once;
}

// The shared locations a multicast copy's mbarrier operand stands for in each CTA of its mask:
// the named one and every `copy-of` it in a CTA whose rank is in the mask.
std::vector<int> multicastBarriers(const Plan& plan, const Instr& in, int named) {
  const Operand& mask = in.args.back();
  const int root = plan.locs[static_cast<size_t>(named)].copyOf >= 0 ? plan.locs[static_cast<size_t>(named)].copyOf : named;
  std::vector<int> out;
  for (size_t v = 0; v < plan.locs.size(); ++v) {
    const LocPlan& l = plan.locs[v];
    if ((static_cast<int>(v) == root || l.copyOf == root) && mask.kind == Operand::Kind::Imm &&
        ((mask.imm >> l.ownerRank) & 1))
      out.push_back(static_cast<int>(v));
  }
  if (out.empty()) out.push_back(named);
  return out;
}

std::map<BarrierKey, BarrierUse> barrierUses(const litmus::Test& test, Plan& plan,
                                             const std::map<std::string, int>& byName) {
  std::map<BarrierKey, BarrierUse> uses;
  for (size_t i = 0; i < test.threads.size(); ++i) {
    const litmus::Thread& t = test.threads[i];
    const std::vector<bool> once = runsOnce(t.code);
    for (size_t k = 0; k < t.code.size(); ++k) {
      const Instr& in = t.code[k];
      const int a = in.op == Opcode::Mbarrier ? litmus::addressIndex(in) : asyncMbarrier(in);
      plan.threads[i].bulkDrain |=
          in.op == Opcode::Async && (in.asyncOp == litmus::AsyncOp::Copy || in.asyncOp == litmus::AsyncOp::TensorStore) &&
          in.bulkGroup;
      if (a < 0) continue;
      const Operand& o = in.args[static_cast<size_t>(a)];
      auto it = byName.find(litmus::addressLocation(t, o));
      if (it == byName.end()) continue;
      if (in.op == Opcode::Mbarrier) {
        useBarrier(uses[{it->second, o.imm}], in, static_cast<int>(i), once[k]);
        continue;
      }
      // a multicast completes its bytes on the mbarrier at the same offset in every CTA it writes
      const std::vector<int> targets = in.multicast ? multicastBarriers(plan, in, it->second) : std::vector<int>{it->second};
      for (int v : targets) {
        BarrierUse& u = uses[{v, o.imm}];
        u.bytes += in.asyncOp == litmus::AsyncOp::Copy         ? in.args[2].imm
                   : in.asyncOp == litmus::AsyncOp::TensorLoad ? tensorCopyBytes(test, in)
                                                               : litmus::elementBytes(in);
        u.irregular = u.irregular || !once[k];
      }
    }
  }
  return uses;
}

bool observedAtEnd(const litmus::Test& test, const std::string& loc) {
  for (const litmus::Term& term : test.observed) {
    const auto split = litmus::splitElementName(term.name);
    if (term.kind == litmus::Term::Kind::Mem && (split ? split->first : term.name) == loc) return true;
  }
  return false;
}

// The drain of one mbarrier (Drain in plan.h), or nullopt when the runner cannot tell when the
// bytes completed on it have landed. A arrivals and E expected bytes of the test, B bytes completed
// by its operations, count C. When the test's arrivals are all the initialising thread's (so they
// precede its end) and A is a multiple of C, the runner waits at that thread's end for the test's
// last phase, A / C - 1 (unless the thread's own last operation on it did): then every phase of the
// test has completed, each with its transaction count at zero. Bytes the test did not expect
// (E < B) can then only land in the next phase, so the runner adds it (C arrivals expecting
// B - E), which completes when they have landed: a destination CTA of a multicast that arrives
// without expect_tx outlives the copy.
std::optional<Drain> drainOf(const BarrierKey& key, const BarrierUse& u) {
  Drain d{Drain::Kind::Phase, key.first, key.second, u.bytes, u.count};
  if (u.arrivals == u.count && u.expected == u.bytes) return d;  // the test's phase 0 covers it
  if (u.arrivals == 0 && u.expected == 0 && !u.waited) {
    d.kind = Drain::Kind::Arrive;  // the runner's phase 0
    return d;
  }
  if (u.others || u.updater != u.initThread || u.arrivals == 0 || u.arrivals % u.count != 0 ||
      u.expected > u.bytes)
    return std::nullopt;
  const int64_t last = u.arrivals / u.count - 1;
  d.phase = last;
  if (u.expected == u.bytes) {  // the test's last phase covers every byte
    if (u.lastWaitParity != (last & 1)) d.first = last;
    return d;
  }
  // Only after the thread's own wait for that phase, and when no other thread waits on it: a
  // waiter that has not yet looked at the test's last phase would find the mbarrier two phases on,
  // at the same parity, and wait forever (the pipelines' consumers did on the H200; and where the
  // runner waited for the last phase itself, catalog/async/TMA-load-no-expect_tx hung once in
  // 2e7 instances; docs/findings.md F11).
  if (u.lastWaitParity != (last & 1) || u.othersWait) return std::nullopt;
  d.kind = Drain::Kind::Arrive;
  d.bytes = u.bytes - u.expected;
  d.phase = last + 1;
  return d;
}

// Gives each mbarrier it can wait on its drain (Drain in plan.h); returns who drains which.
std::map<BarrierKey, int> assignDrains(const litmus::Test& test, Plan& plan,
                                       const std::map<std::string, int>& byName) {
  std::map<BarrierKey, int> drainer;
  for (const auto& [key, u] : barrierUses(test, plan, byName)) {
    const LocPlan& l = plan.locs[static_cast<size_t>(key.first)];
    if (u.bytes == 0 || u.irregular || u.inits != 1 || u.count <= 0 ||
        test.threads[static_cast<size_t>(u.initThread)].cta != l.ownerCta)
      continue;
    const std::optional<Drain> d = drainOf(key, u);
    if (!d) continue;
    plan.threads[static_cast<size_t>(u.initThread)].drains.push_back(*d);
    drainer[key] = u.initThread;
  }
  return drainer;
}

}  // namespace

// Refuses an operation the runner cannot wait for when it writes another CTA (which must outlive
// it) or a final value. Returns, per CTA, the threads that must join it besides its accessors: a
// copy out of .shared::cta into another CTA completes there, and the source CTA must outlive it.
std::map<int, std::set<int>> planDrains(const litmus::Test& test, Plan& plan) {
  std::map<std::string, int> byName;
  for (size_t v = 0; v < plan.locs.size(); ++v) byName[plan.locs[v].name] = static_cast<int>(v);
  const std::map<BarrierKey, int> drainer = assignDrains(test, plan, byName);
  std::map<int, std::set<int>> joiners;
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code) {
      const int a = asyncMbarrier(in);
      if (a < 0) continue;
      const Operand& m = in.args[static_cast<size_t>(a)];
      auto dst = byName.find(litmus::addressLocation(t, in.args[0]));
      auto mb = byName.find(litmus::addressLocation(t, m));
      if (dst == byName.end() || mb == byName.end()) continue;
      const LocPlan& l = plan.locs[static_cast<size_t>(dst->second)];
      auto d = drainer.find({mb->second, m.imm});
      std::string why;
      if (d == drainer.end() && l.shared && l.ownerCta != t.cta)
        why = "CTA " + std::to_string(l.ownerCta) + ", which it writes, must outlive it";
      else if (d == drainer.end() && observedAtEnd(test, l.name))
        why = "the final value of '" + l.name + "' must be read after it lands";
      if (!why.empty())
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': " + why +
                                ", and the runner waits for it only through an mbarrier initialised once in "
                                "that CTA, on which the test does nothing else, or arrives as often as the "
                                "init count expecting exactly the bytes completed on it");
      if (d == drainer.end() || in.asyncOp != litmus::AsyncOp::Copy ||
          in.srcSpace != litmus::Space::SharedCta)
        continue;
      auto src = byName.find(litmus::addressLocation(t, in.args[1]));
      const int srcCta = src == byName.end() ? t.cta : plan.locs[static_cast<size_t>(src->second)].ownerCta;
      if (test.threads[static_cast<size_t>(d->second)].cta != srcCta) joiners[srcCta].insert(d->second);
    }
  return joiners;
}

// ---- the instructions ---------------------------------------------------------------------
void BodyEmitter::asyncInstr(const Instr& in) {
  if (litmus::isCpAsyncOrWgmma(in)) return cpAsyncInstr(in);  // ptx_body_cpasync.cpp
  switch (in.asyncOp) {
    case AsyncOp::Copy: return in.multicast ? tensorInstr(in) : bulkCopy(in);
    case AsyncOp::TensorLoad:
    case AsyncOp::TensorStore:
    case AsyncOp::TensormapReplace:
    case AsyncOp::TensormapCp: return tensorInstr(in);  // ptx_body_tensor.cpp
    case AsyncOp::Commit: return out_.op(memGuard(in) + "cp.async.bulk.commit_group");
    case AsyncOp::Wait:
      return out_.op(memGuard(in) + "cp.async.bulk.wait_group" + (in.readOnly ? ".read " : " ") +
                     imm(in.args[0].imm));
    case AsyncOp::Store:
    case AsyncOp::Reduce: return remoteAsync(in);
    default: refuse(in, "the runner has no PTX for this instruction yet");
  }
}

// Each lane (lane mode) or lane 0 (warp mode) copies its own instance's slots, which the plan
// aligns to 16 bytes; the mbarrier is addressed in the destination's space, as PTX wants.
void BodyEmitter::bulkCopy(const Instr& in) {
  const std::string g = memGuard(in);
  std::string text = g + "cp.async.bulk" + space(in) + "." + litmus::toString(in.srcSpace) +
                     (in.bulkGroup ? ".bulk_group " : ".mbarrier::complete_tx::bytes ");
  text += asyncAddress(in, in.args[0], in.space, true) + ", ";
  text += asyncAddress(in, in.args[1], in.srcSpace, true) + ", " + imm(in.args[2].imm);
  if (!in.bulkGroup) {
    checkMbarrierCta(in, in.args[0], in.args[3]);
    text += ", " + asyncAddress(in, in.args[3], in.space, false);
  }
  out_.op(text);
}

void BodyEmitter::remoteAsync(const Instr& in) {
  const LocPlan& l = target(in, in.args[0]);
  if (l.ownerCta == test_.threads[static_cast<size_t>(t_)].cta)
    refuse(in, "it must write the shared memory of another CTA of the cluster (§9.7.13.7: otherwise "
               "undefined), and '" + l.name + "' is in this thread's CTA");
  checkMbarrierCta(in, in.args[0], in.args[2]);
  const std::string g = memGuard(in), type = litmus::toString(in.type);
  const std::string mn =
      in.asyncOp == AsyncOp::Store
          ? std::string("st.async") + (in.semExplicit ? ".weak" : "") +
                ".shared::cluster.mbarrier::complete_tx::bytes." + type
          : std::string("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.") +
                litmus::toString(in.atomOp) + "." + type;
  const std::string a = asyncAddress(in, in.args[0], Space::SharedCluster, false);
  const std::string v = narrow(in.args[1], litmus::typeBits(in.type), g);  // the type's width
  const std::string m = asyncAddress(in, in.args[2], Space::SharedCluster, false);
  out_.op(g + mn + " " + a + ", " + v + ", " + m);
}

std::string BodyEmitter::asyncAddress(const Instr& in, const Operand& a, Space space, bool bulk) {
  if (bulk && a.imm % 16 != 0)
    refuse(in, "cp.async.bulk needs 16-byte aligned addresses, and " + litmus::formatOperand(a, in.type) +
                   " is not");
  if (a.kind == Operand::Kind::RegAddr)
    for (const Instr& m : test_.threads[static_cast<size_t>(t_)].code)
      if (m.op == Opcode::Mapa && m.args[0].name == a.name && m.space != Space::SharedCluster)
        refuse(in, "%" + a.name + " holds a generic address, and the runner gives asynchronous "
                                  "operations the .shared::cluster addresses of mapa.shared::cluster");
  return address(in, a, space);
}

const LocPlan& BodyEmitter::target(const Instr& in, const Operand& a) const {
  const std::string name = litmus::addressLocation(test_.threads[static_cast<size_t>(t_)], a);
  for (const LocPlan& l : plan_.locs)
    if (l.name == name) return l;
  refuse(in, "its address operand names no location");
}

void BodyEmitter::checkMbarrierCta(const Instr& in, const Operand& dst, const Operand& mbar) const {
  const LocPlan& d = target(in, dst);
  const LocPlan& m = target(in, mbar);
  if (d.shared && m.shared && d.ownerCta != m.ownerCta)
    refuse(in, "its destination and its mbarrier must be in the shared memory of one CTA, and '" + d.name +
                   "' is in CTA " + std::to_string(d.ownerCta) + ", '" + m.name + "' in CTA " +
                   std::to_string(m.ownerCta));
}

// ---- the start and the end ----------------------------------------------------------------
// The model's initial state is every proxy's, but the harness writes shared initial values with
// generic stores, and an async-proxy access is ordered after them only through a proxy fence
// (§9.7.13.4). The start barrier orders them before this fence, which orders nothing of the test:
// no test instruction comes before it in this thread, and none synchronizes with it.
void BodyEmitter::asyncPrologue() {
  const auto& code = test_.threads[static_cast<size_t>(t_)].code;
  if (std::none_of(code.begin(), code.end(),
                   [](const Instr& in) { return in.op == Opcode::Async && in.asyncOp == AsyncOp::Copy; }))
    return;
  out_.comment("the start: the initial values, visible to the async proxy of the bulk copies");
  out_.op(std::string(warpMode_ ? "@%h_lane0 " : "") + "fence.proxy.async");
}

// ---- the end ------------------------------------------------------------------------------
// After the thread's last instruction, so the waits order nothing the test does; in warp mode
// lane 0, which issued the operations, waits, and the other lanes go on to the results.
void BodyEmitter::drain() {
  cpAsyncDrain();
  lateCopies();
  const std::string lane0 = warpMode_ ? "@%h_lane0 " : "";
  if (tp_.bulkDrain) {
    out_.comment("the end: the thread's bulk copies complete (an uncommitted one in a last group)");
    out_.op(lane0 + "cp.async.bulk.commit_group");
    out_.op(lane0 + "cp.async.bulk.wait_group 0");
  }
  if (tp_.drains.empty()) return;
  const std::string T = "T" + std::to_string(t_) + "_DRAIN", state = x(), p = c();
  if (warpMode_) out_.op("@%h_notlane0 bra " + T + "ED");
  for (size_t i = 0; i < tp_.drains.size(); ++i) {
    const Drain& d = tp_.drains[i];
    const LocPlan& l = plan_.locs[static_cast<size_t>(d.loc)];
    const std::string m =
        "[%s" + std::to_string(d.loc) + (d.offset ? "+" + std::to_string(d.offset) : "") + "]";
    const std::string name = litmus::elementName(l.name, d.offset);
    if (d.first >= 0) {
      out_.comment("the end: the test's last phase (" + std::to_string(d.first) + ") of " + name + " completes");
      const std::string F = T + std::to_string(i) + "F";
      out_.label(F);
      out_.op("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 " + p + ", " + m + ", " + imm(d.first & 1));
      out_.op("@!" + p + " bra " + F);
    }
    if (d.kind == Drain::Kind::Arrive) {
      out_.comment("the end: the runner arrives on " + name + " for the " + std::to_string(d.bytes) +
                   " bytes completed on it; phase " + std::to_string(d.phase) + " completes when they have landed");
      if (d.count == 1) {
        out_.op("mbarrier.arrive.expect_tx.shared::cta.b64 " + state + ", " + m + ", " + imm(d.bytes));
      } else {
        out_.op("mbarrier.expect_tx.shared::cta.b64 " + m + ", " + imm(d.bytes));  // before the arrivals
        out_.op("mbarrier.arrive.shared::cta.b64 " + state + ", " + m + ", " + imm(d.count));
      }
    } else {
      out_.comment("the end: the test's arrivals on " + name + " complete phase " + std::to_string(d.phase) + " when the " +
                   std::to_string(d.bytes) + " bytes completed on it have landed");
    }
    const std::string L = T + std::to_string(i);
    out_.label(L);  // .acquire.cluster: the complete-tx may come from another CTA's thread
    out_.op("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 " + p + ", " + m + ", " + imm(d.phase & 1));
    out_.op("@!" + p + " bra " + L);
  }
  if (warpMode_) out_.label(T + "ED");
}

// The thread's last copy into each of its CTA's shared locations whose mbarrier no thread drains
// (a last fill without expect_tx: its phase completes before the bytes land, and nobody waits for
// them). Such a copy can outlive the CTA and land in the shared memory of a later block, whose
// mbarrier at that address it then completes: that block's consumers waited forever on the H200
// (docs/findings.md F11). Adding a phase that expects the bytes did not complete on the H200, so
// the thread waits, at its end, until the destination's first 16 bytes equal the source's, and
// 2 us more for the complete-tx that follows them; both bounded, as the source may change or equal
// what the destination held.
void BodyEmitter::lateCopies() {
  const litmus::Thread& t = test_.threads[static_cast<size_t>(t_)];
  std::map<std::pair<std::string, int64_t>, const Instr*> last;  // destination -> its last copy
  for (const Instr& in : t.code) {
    if (in.op != Opcode::Async || in.asyncOp != AsyncOp::Copy || in.multicast || in.bulkGroup ||
        in.srcSpace != Space::Global || in.args.size() < 4)
      continue;
    const LocPlan& d = target(in, in.args[0]);
    const LocPlan& m = target(in, in.args[3]);
    if (!d.shared || d.ownerCta != t.cta || target(in, in.args[1]).shared) continue;
    const int mv = static_cast<int>(&m - plan_.locs.data());
    bool drained = false;
    for (const ThreadPlan& tp : plan_.threads)
      for (const Drain& dr : tp.drains) drained = drained || (dr.loc == mv && dr.offset == in.args[3].imm);
    if (!drained) last[{d.name, in.args[0].imm}] = &in;
  }
  if (last.empty()) return;
  const std::string T = "T" + std::to_string(t_) + "_LATE";
  if (warpMode_) out_.op("@%h_notlane0 bra " + T + "ED");
  int k = 0;
  for (const auto& [dst, in] : last) {
    const std::string L = T + std::to_string(k++), n = x(), now = x(), s0 = x(), s1 = x(), d0 = x(),
                      d1 = x();
    const std::string p = c();
    out_.comment("the end: the copy into " + litmus::elementName(dst.first, dst.second) +
                 " lands in this CTA before it ends (bounded: no mbarrier phase waits for it)");
    out_.op("ld.volatile.global.v2.u64 {" + s0 + ", " + s1 + "}, " + address(*in, in->args[1], Space::Global));
    out_.op("mov.u64 " + n + ", 0");
    out_.label(L);
    out_.op("ld.volatile.shared.v2.u64 {" + d0 + ", " + d1 + "}, " + address(*in, in->args[0], Space::SharedCta));
    out_.op("setp.eq.u64 " + p + ", " + d0 + ", " + s0);
    out_.op("setp.eq.and.u64 " + p + ", " + d1 + ", " + s1 + ", " + p);
    out_.op("add.u64 " + n + ", " + n + ", 1");
    out_.op("setp.ge.or.u64 " + p + ", " + n + ", 1048576, " + p);
    out_.op("@!" + p + " bra " + L);
    out_.op("mov.u64 " + n + ", %globaltimer");
    out_.op("add.u64 " + n + ", " + n + ", 2000");
    out_.label(L + "T");
    out_.op("mov.u64 " + now + ", %globaltimer");
    out_.op("setp.lt.u64 " + p + ", " + now + ", " + n);
    out_.op("@" + p + " bra " + L + "T");
  }
  if (warpMode_) out_.label(T + "ED");
}

}  // namespace gpu
