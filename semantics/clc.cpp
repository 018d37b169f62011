// The interpreter's steps for clusterlaunchcontrol (PTX ISA §9.7.13.17-18; docs/model.md D49,
// D50) and for the sm_100 .release forms of st.async and red.async (§9.7.13.7; D51).
#include <algorithm>
#include <set>

#include "semantics/arith.h"
#include "semantics/interpreter.h"

namespace model::detail {

namespace {

// The response of try_cancel is a 16-byte opaque value; litmus values are its low 64 bits
// (docs/model.md, .b128). D49 fixes an encoding: bit 0 says canceled, and a canceled response
// holds the first ctaid of the canceled cluster, x in bits 32-63 (y and z are 0: the test's grid
// is one row of CTAs along x). A failed response is kFailed (bit 0 clear).
constexpr int64_t kFailed = 2;
int64_t canceledResponse(int64_t ctaidX) { return 1 | (ctaidX << 32); }
// field -1: is_canceled; 0..2: ctaid x, y, z; 3: the unspecified 4th element of .v4 (0)
int64_t decode(int64_t response, int field) {
  if (field < 0) return response & 1;
  return field == 0 ? static_cast<int64_t>(static_cast<uint64_t>(response) >> 32) : 0;
}

}  // namespace

// try_cancel: either the request fails, or it cancels a cluster that has not started (D49: the
// test's grid has further clusters after its own CTAs, none of them started). Successful
// responses name distinct clusters: thread t's k-th success names the cluster whose first CTA
// is N + C * (t + T * k), N the test's CTA count rounded up to the cluster size C, T the number
// of threads. After a failure no cluster is left to cancel, so the thread's later requests fail
// too (the ISA leaves such a request undefined; D49).
void Interpreter::stepTryCancel(Path p, const Instr& in) {
  if (p.clcFailed) return writeResponse(std::move(p), in, kFailed);
  Path failed = p;
  failed.clcFailed = true;
  writeResponse(std::move(failed), in, kFailed);
  const litmus::Test& test = *prog_.test;
  std::set<int> ctas, cluster;
  for (const litmus::Thread& t : test.threads) {
    ctas.insert(t.cta);
    if (t.cluster == th_.cluster && t.gpu == th_.gpu) cluster.insert(t.cta);
  }
  const int64_t c = static_cast<int64_t>(cluster.size());
  const int64_t n = (*ctas.rbegin() + 1 + c - 1) / c * c;
  const int64_t first = n + c * (thread_ + static_cast<int64_t>(test.threads.size()) * p.clcCanceled);
  ++p.clcCanceled;
  writeResponse(std::move(p), in, canceledResponse(first));
}

// The response: a weak 16-byte write through the async proxy to [addr] (with
// .multicast::cluster::all, to the copy of [addr] in every CTA of the cluster: D50), then, as a
// bulk copy completes (D30), the implicit generic-async proxy fence and a complete-tx of 16 bytes
// on each receiving CTA's mbarrier. Copies no other access uses are left out.
void Interpreter::writeResponse(Path p, const Instr& in, int64_t response) {
  const int op = static_cast<int>(p.trace.events.size());
  std::set<int> ctas{th_.cta};
  if (in.multicast)
    for (const litmus::Thread& t : prog_.test->threads)
      if (t.cluster == th_.cluster && t.gpu == th_.gpu) ctas.insert(t.cta);
  auto addressIn = [&](const Operand& a, int cta) {
    if (cta == th_.cta) return operandAddress(p, in, a, 0);
    const std::string copy = litmus::multicastCopy(*prog_.test, litmus::addressLocation(th_, a), th_.cta, cta);
    const int decl = copy.empty() ? -1 : prog_.vaOf(copy);
    return decl < 0 ? -1 : prog_.addressOf(decl, a.imm);
  };
  std::vector<int> mbars;
  for (int cta : ctas) {
    if (const int address = addressIn(in.args[0], cta); address >= 0) {
      Event w = asyncEvent(p, in, EventKind::Write, address, op);
      w.sem = litmus::Sem::Weak;
      w.scope = litmus::Scope::None;
      w.proxy = litmus::Proxy::Async;
      emit(p, w, {}, Val(response));
    }
    mbars.push_back(addressIn(in.args[1], cta));
  }
  Event f = baseEvent(p, in, EventKind::ProxyFence);
  f.proxyFence = litmus::FenceProxyKind::Async;
  f.async = op;
  emit(p, f, {});
  for (int m : mbars)
    if (m >= 0) completeTxAt(p, in, op, m, 16);
  ++p.pc;
  explore(std::move(p));
}

// query_cancel decodes a response held in a register (D49); get_first_ctaid of a failed response
// is undefined in the ISA and gives the bits of the failed response here.
void Interpreter::stepQueryCancel(Path& p, const Instr& in) {
  const Operand& resp = in.args.back();
  const Val v = value(p, resp);
  const Taint t = taintOf(p, resp);
  auto field = [&](int f) { return lift(v, [f](int64_t x) { return decode(x, f); }); };
  if (in.clcOp == litmus::ClcOp::IsCanceled) return setReg(p, in.args[0], field(-1), t);
  if (in.clcDim >= 0) return setReg(p, in.args[0], field(in.clcDim), t);
  for (int i = 0; i < 4; ++i)
    if (in.args[static_cast<size_t>(i)].kind == Operand::Kind::Reg) setReg(p, in.args[static_cast<size_t>(i)], field(i), t);
}

// st.async.release / red.async.release on global memory (D51): a strong operation, release at
// its scope, through the generic proxy, performed asynchronously: it comes after the thread's
// earlier events (the release orders them before it, model/relations.cpp) but before none of its
// later ones, and it has no completion mechanism.
void Interpreter::stepAsyncRelease(Path p, const Instr& in) {
  const int op = static_cast<int>(p.trace.events.size());
  const int address = operandAddress(p, in, in.args[0], 0);
  const litmus::Type type = in.type;
  const Val b = value(p, in.args[1]);
  Event w = asyncEvent(p, in, EventKind::Write, address, op);
  if (in.asyncOp == litmus::AsyncOp::Store) {
    emit(p, w, taintOf(p, in.args[1]), lift(b, [type](int64_t x) { return normalize(type, x); }));
  } else {
    Event r = asyncEvent(p, in, EventKind::Read, address, op);
    r.sem = litmus::Sem::Relaxed;
    r.red = true;
    const litmus::AtomOp aop = in.atomOp;
    emitRmw(p, r, w, taintOf(p, in.args[1]), [&](const Val& old) {
      return lift(old, b, [aop, type](int64_t x, int64_t y) { return normalize(type, applyAtom(aop, type, x, y, 0)); });
    });
  }
  ++p.pc;
  explore(std::move(p));
}

}  // namespace model::detail
