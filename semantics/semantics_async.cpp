// The interpreter's steps for clusters and asynchronous operations: addresses in registers
// (mapa, getctarank: D32), elect.sync (D33), and cp.async.bulk, st.async, red.async and
// tensormap.cp_fenceproxy with their completion (D30, D31).
#include <bit>

#include "litmus/instructions.h"
#include "semantics/interpreter.h"
#include "semantics/mbarrier.h"

namespace model::detail {

namespace {

// A .shared::cluster address as mapa leaves it in a register: the CTA rank above bit 32, the
// declared location + 1 below (so that no address is 0).
int64_t packAddress(int rank, int decl) { return (int64_t{rank} << 32) | (decl + 1); }
int rankOf(int64_t address) { return static_cast<int>(address >> 32); }
int declOf(int64_t address) { return static_cast<int>(address & 0xffffffff) - 1; }

}  // namespace

int Interpreter::operandAddress(const Path& p, const Instr& in, const Operand& addr, int64_t extra) const {
  const int decl = prog_.vaDecl[prog_.vaOf(litmus::addressLocation(th_, addr))];
  if (addr.kind == Operand::Kind::RegAddr) {
    // Only the owner's copy of a shared location exists in a test (D32).
    const int rank = rankOf(num(p, Operand{Operand::Kind::Reg, addr.name, 0, false, addr.loc}));
    if (rank != prog_.ownerRank[decl])
      throw litmus::Error(addr.loc, "'" + in.text + "': %" + addr.name + " holds the address of '" +
                                        prog_.test->locations[decl].name + "' in CTA rank " +
                                        std::to_string(rank) + ", but it lives in CTA rank " +
                                        std::to_string(prog_.ownerRank[decl]) + " of the cluster");
  }
  return prog_.addressOf(decl, offsetPast(in, addr, decl, extra));
}

// Validation checked the ranges of typed accesses and copies; a wgmma tile or a multicast
// destination is checked here, where its extent is known.
int64_t Interpreter::offsetPast(const Instr& in, const Operand& addr, int decl, int64_t extra) const {
  const std::optional<int64_t> offset = litmus::offsetPlus(addr.imm, extra);
  if (!offset)
    throw litmus::Error(addr.loc, "'" + in.text + "' reaches past byte 9223372036854775807 of '" +
                                      prog_.test->locations[decl].name + "', the last an address can name");
  return *offset;
}

// mapa, getctarank and elect.sync only compute registers.
void Interpreter::stepCluster(Path& p, const Instr& in) {
  const Operand& src = in.args[1];
  if (in.op == Opcode::Mapa) {
    const int decl = src.kind == Operand::Kind::Addr ? prog_.vaDecl[prog_.vaOf(src.name)]
                                                     : declOf(num(p, src));
    const int64_t rank = num(p, in.args[2]);
    setReg(p, in.args[0], packAddress(static_cast<int>(rank), decl), taintOf(p, in.args[2]) | taintOf(p, src));
  } else if (in.op == Opcode::GetCtaRank) {
    // a location named bare: the CTA that holds it (its owner, or the thread's own CTA)
    int64_t rank = 0;
    if (src.kind == Operand::Kind::Addr) {
      rank = prog_.ownerRank[prog_.vaDecl[prog_.vaOf(src.name)]];
      if (rank < 0) rank = info_.rank;
    } else {
      rank = rankOf(num(p, src));
    }
    setReg(p, in.args[0], rank, taintOf(p, src));
  } else {
    // elect.sync: the lowest lane of the member mask among the lanes the warp has (D33)
    const int64_t mask = num(p, in.args[2]) & ((int64_t{1} << info_.lanes) - 1);
    const int leader = mask == 0 ? -1 : std::countr_zero(static_cast<uint64_t>(mask));
    if (in.args[0].kind == Operand::Kind::Reg) setReg(p, in.args[0], leader, taintOf(p, in.args[2]));
    setReg(p, in.args[1], leader == info_.lane, taintOf(p, in.args[2]));
  }
}

Event Interpreter::asyncEvent(const Path& p, const Instr& in, EventKind kind, int address, int op) const {
  Event e = memEvent(p, in, kind, address);
  e.async = op;
  return e;
}

// cp.async.bulk, st.async, red.async: events of one asynchronous operation (D30), numbered by
// the position of its first event. tensormap.cp_fenceproxy is a synchronous generic copy.
void Interpreter::stepAsync(Path p, const Instr& in) {
  using litmus::AsyncOp;
  const int op = static_cast<int>(p.trace.events.size());
  if (litmus::isCpAsyncOrWgmma(in)) return stepCpAsync(std::move(p), in);  // D43-D45
  switch (in.asyncOp) {
    case AsyncOp::Commit:
      p.groups.push_back(std::move(p.openGroup));
      p.openGroup.clear();
      break;
    case AsyncOp::Wait: waitGroups(p, in); break;
    case AsyncOp::Copy:
      if (in.multicast) return stepTensor(std::move(p), in, op);  // semantics_tensor.cpp
      return copyWords(std::move(p), in, 0, op);
    case AsyncOp::TensormapCp: return copyWords(std::move(p), in, 0, op);
    case AsyncOp::TensorLoad:
    case AsyncOp::TensorStore:
    case AsyncOp::TensormapReplace: return stepTensor(std::move(p), in, op);
    case AsyncOp::Store: {
      if (in.sem == litmus::Sem::Release) return stepAsyncRelease(std::move(p), in);
      Event w = asyncEvent(p, in, EventKind::Write, addressOf(p, in, 0), op);
      w.sem = litmus::Sem::Weak;
      w.scope = litmus::Scope::None;
      const litmus::Type type = in.type;
      emit(p, w, taintOf(p, in.args[1]),
           lift(value(p, in.args[1]), [type](int64_t x) { return normalize(type, x); }));
      return completeTx(std::move(p), in, op, 2, litmus::elementBytes(in));
    }
    case AsyncOp::Reduce: {  // the relaxed .cluster RMW, then the complete-tx
      if (in.sem == litmus::Sem::Release) return stepAsyncRelease(std::move(p), in);
      const int address = addressOf(p, in, 0);
      Event r = asyncEvent(p, in, EventKind::Read, address, op);
      Event w = asyncEvent(p, in, EventKind::Write, address, op);
      const Val b = value(p, in.args[1]);
      const litmus::AtomOp aop = in.atomOp;
      const litmus::Type type = in.type;
      emitRmw(p, r, w, taintOf(p, in.args[1]), [&](const Val& old) {
        return lift(old, b, [aop, type](int64_t x, int64_t y) {
          return normalize(type, applyAtom(aop, type, x, y, 0));
        });
      });
      return completeTx(std::move(p), in, op, 2, litmus::elementBytes(in));
    }
    case AsyncOp::None:
    default: break;  // cp.async, wgmma: stepCpAsync above
  }
  ++p.pc;
  explore(std::move(p));
}

// Word `word` (4 bytes) of a bulk copy, forking on the value read; words that no other access
// uses are left out (D30). Then the copy completes: on its mbarrier, with the implicit proxy fence
// that makes the async writes visible to the generic proxy, or in its bulk async-group.
void Interpreter::copyWords(Path p, const Instr& in, size_t word, int op) {
  const bool async = in.asyncOp == litmus::AsyncOp::Copy;
  const int64_t size = in.args[2].imm;
  auto address = [&](int operand) { return operandAddress(p, in, in.args[operand], int64_t(word) * 4); };
  while (static_cast<int64_t>(word) * 4 < size && (address(0) < 0 || address(1) < 0)) ++word;
  if (static_cast<int64_t>(word) * 4 < size) {
    const int dst = address(0), src = address(1);
    Event r = memEvent(p, in, EventKind::Read, src);
    Event w = memEvent(p, in, EventKind::Write, dst);
    for (Event* e : {&r, &w}) {
      e->sem = litmus::Sem::Weak;
      e->scope = litmus::Scope::None;
      if (async) e->proxy = litmus::Proxy::Async;
      if (async) e->async = op;
    }
    const int rk = emitRead(p, r);
    Taint t;
    t[rk] = true;
    const int wk = emit(p, w, t, p.trace.vals[rk]);
    if (async && in.bulkGroup) p.openGroup.insert(p.openGroup.end(), {rk, wk});
    return copyWords(std::move(p), in, word + 1, op);
  }
  if (!async) {  // tensormap.cp_fenceproxy: the release half of the tensormap proxy fence
    Event f = baseEvent(p, in, EventKind::ProxyFence);
    f.proxyFence = litmus::FenceProxyKind::TensormapRelease;
    emit(p, f, {});
  } else if (!in.bulkGroup) {
    Event f = baseEvent(p, in, EventKind::ProxyFence);
    f.proxyFence = litmus::FenceProxyKind::Async;
    f.async = op;
    emit(p, f, {});
    return completeTx(std::move(p), in, op, 3, size);
  }
  ++p.pc;
  explore(std::move(p));
}

// The complete-tx of `bytes` on the mbarrier operand: an RMW, release at cluster scope, part of
// the asynchronous operation (§9.7.13.15.2; D28, D30).
void Interpreter::completeTx(Path p, const Instr& in, int op, int mbarOperand, int64_t bytes) {
  completeTxAt(p, in, op, operandAddress(p, in, in.args[mbarOperand], 0), bytes);
  ++p.pc;
  explore(std::move(p));
}

void Interpreter::completeTxAt(Path& p, const Instr& in, int op, int address, int64_t bytes) {
  Event r = asyncEvent(p, in, EventKind::Read, address, op);
  r.proxy = litmus::Proxy::Generic;  // the mbarrier is accessed through the generic proxy
  r.sem = litmus::Sem::Relaxed;
  r.scope = litmus::Scope::Cluster;
  r.mbarrier = true;
  Event w = r;
  w.kind = EventKind::Write;
  w.sem = litmus::Sem::Release;
  emitRmw(p, r, w, {}, [bytes](const Val& old) {
    litmus::Instr tx;
    tx.op = Opcode::Mbarrier;
    tx.mbarOp = litmus::MbarOp::CompleteTx;
    return lift(old, [tx, bytes](int64_t v) { return mbarrierUpdate(tx, v, bytes); });
  });
}

// cvta and `mov d, LOCATION`: the address of a location, as mapa packs it, with the rank of the
// CTA that holds it (D32: the only copy the test has); from a register, the address it holds.
void Interpreter::stepCvta(Path& p, const Instr& in) {
  const Operand& src = in.args[1];
  if (src.kind == Operand::Kind::Reg) return setReg(p, in.args[0], value(p, src), taintOf(p, src));
  const int decl = prog_.vaDecl[prog_.vaOf(src.name)];
  setReg(p, in.args[0], packAddress(prog_.ownerRank[decl], decl), {});
}

// cp.async.bulk.wait_group{.read} N: every committed group but the newest N is complete (only its
// reads, with .read); the thread's later events come after its events and after an implicit
// proxy fence: without .read it makes the writes visible to the generic proxy; with .read it
// orders the async-proxy source reads before the thread's later generic writes of the source,
// which "completed reading from their source locations" (§9.7.9.25.4) promises (D30, D34).
void Interpreter::waitGroups(Path& p, const Instr& in) {
  const size_t keep = static_cast<size_t>(in.args[0].imm);
  if (p.groups.size() <= keep) return;
  const int now = static_cast<int>(p.trace.events.size());
  const size_t done = p.groups.size() - keep;
  for (size_t g = 0; g < done; ++g)
    for (int e : p.groups[g]) {
      Event& ev = p.trace.events[e];
      if ((!in.readOnly || ev.isRead()) && ev.joinPo == Event::kNever) ev.joinPo = now;
    }
  if (!in.readOnly) p.groups.erase(p.groups.begin(), p.groups.begin() + static_cast<long>(done));
  Event f = baseEvent(p, in, EventKind::ProxyFence);
  f.proxyFence = litmus::FenceProxyKind::Async;
  emit(p, f, {});
}

}  // namespace model::detail
