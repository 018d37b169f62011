// The interpreter's steps for non-bulk cp.async with its completion mechanisms (D43, D44) and
// for wgmma as far as memory is concerned (D45).
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"
#include <stdexcept>

#include "semantics/interpreter.h"
#include "semantics/mbarrier.h"

namespace model::detail {

using litmus::AsyncOp;

namespace {

// Bytes per element of a wgmma multiplicand type (the third part of `target`, m64nNkK.d.a.b).
int64_t elementBytesOf(const std::string& type) {
  if (type == "tf32") return 4;
  if (type == "f16" || type == "bf16") return 2;
  return 1;  // e4m3, e5m2, s8, u8
}

// The bytes of the A and B tiles of wgmma.mma_async: A is 64 x K, B is K x N (§9.7.15.5.1).
std::pair<int64_t, int64_t> tileBytes(const std::string& target) {
  std::vector<std::string> parts;
  for (size_t b = 0, e; b <= target.size(); b = e + 1) {
    e = std::min(target.find('.', b), target.size());
    parts.push_back(target.substr(b, e - b));
  }
  const std::string& shape = parts.at(0);
  const size_t k = shape.find('k');
  const int64_t n = std::stoll(shape.substr(4, k - 4)), kk = std::stoll(shape.substr(k + 1));
  return {64 * kk * elementBytesOf(parts.at(2)), kk * n * elementBytesOf(parts.at(3))};
}

litmus::Instr mbarrierArrive() {
  litmus::Instr a;
  a.op = Opcode::Mbarrier;
  a.mbarOp = litmus::MbarOp::Arrive;
  return a;
}

}  // namespace

void Interpreter::stepCpAsync(Path p, const Instr& in) {
  switch (in.asyncOp) {
    case AsyncOp::CpCopyCa:
    case AsyncOp::CpCopyCg: cpCopy(p, in); break;
    case AsyncOp::CpCommit:
    case AsyncOp::CpWaitAll:
      p.cpAsync.committed.push_back(std::move(p.cpAsync.open));
      p.cpAsync.open.clear();
      if (in.asyncOp == AsyncOp::CpWaitAll) joinGroups(p, p.cpAsync, 0, in, false);
      break;
    case AsyncOp::CpWait:
      joinGroups(p, p.cpAsync, static_cast<size_t>(in.args[0].imm), in, false);
      break;
    case AsyncOp::CpArrive:
    case AsyncOp::CpArriveNoinc: cpArrive(p, in); break;
    case AsyncOp::WgmmaFence: break;  // orders register accesses only (§9.7.15.7.1)
    case AsyncOp::WgmmaMma: wgmmaReads(p, in); break;
    case AsyncOp::WgmmaCommit:
      p.wgmma.committed.push_back(std::move(p.wgmma.open));
      p.wgmma.open.clear();
      break;
    case AsyncOp::WgmmaWait:
      joinGroups(p, p.wgmma, static_cast<size_t>(in.args[0].imm), in, true);
      break;
    default: break;
  }
  ++p.pc;
  explore(std::move(p));
}

// cp.async (D43): per 4-byte word of cp-size, a weak generic read of the source and a weak
// generic write of the destination ("treated as a weak memory operation performed in the generic
// proxy", §9.7.9.25.3.1), one asynchronous operation; words past src-size are filled with zeros
// and read nothing. Words that no other access uses are left out (as for bulk copies, D30).
void Interpreter::cpCopy(Path& p, const Instr& in) {
  const int op = static_cast<int>(p.trace.events.size());
  const int64_t size = in.args[2].imm, copied = in.args.size() > 3 ? in.args[3].imm : size;
  for (int64_t k = 0; k < size; k += 4) {
    const int dst = operandAddress(p, in, in.args[0], k);
    if (dst < 0) continue;
    Event w = asyncEvent(p, in, EventKind::Write, dst, op);
    w.cpAsync = true;
    if (k >= copied) {  // zero fill
      w.value = 0;
      p.cpAsync.open.push_back(emit(p, w, {}));
      continue;
    }
    // usedAddresses marks the source word of every used destination word (a copy's range)
    const int src = operandAddress(p, in, in.args[1], k);
    if (src < 0) throw std::logic_error("'" + in.text + "': source word not in the address table");
    Event r = asyncEvent(p, in, EventKind::Read, src, op);
    r.cpAsync = true;
    const int rk = emitRead(p, r);
    Taint t;
    t[rk] = true;
    w.po = static_cast<int>(p.trace.events.size());
    const int wk = emit(p, w, t, p.trace.vals[rk]);
    p.cpAsync.open.insert(p.cpAsync.open.end(), {rk, wk});
  }
}

// cp.async.mbarrier.arrive (D44): without .noinc, an increment of the pending count now; then
// the arrive-on, an asynchronous operation that follows the thread's earlier cp.async (relations:
// arriveOnCopies) and releases them at .cta scope, as mbarrier.arrive's default .release.cta.
void Interpreter::cpArrive(Path& p, const Instr& in) {
  const int address = operandAddress(p, in, in.args[0], 0);
  auto rmw = [&](int64_t n, bool async) {
    const int op = static_cast<int>(p.trace.events.size());
    Event r = memEvent(p, in, EventKind::Read, address);
    r.mbarrier = true;
    r.sem = litmus::Sem::Relaxed;
    r.scope = litmus::Scope::Cta;
    if (async) {
      r.async = op;
      r.arriveOnCopies = true;
    }
    Event w = r;
    w.kind = EventKind::Write;
    if (async) w.sem = litmus::Sem::Release;
    emitRmw(p, r, w, {}, [n](const Val& old) {
      return lift(old, [n](int64_t v) { return mbarrierUpdate(mbarrierArrive(), v, n); });
    });
  };
  if (in.asyncOp == AsyncOp::CpArrive) rmw(-1, false);  // an arrival of -1: pending count + 1
  rmw(1, true);
}

// wgmma.mma_async (D45): the words of the A and B tiles that some other access uses, read weakly
// through the async proxy (§9.7.15.4) as one asynchronous operation. The product is not
// computed: the first accumulator register gets A's first word, the second B's (docs/format.md).
void Interpreter::wgmmaReads(Path& p, const Instr& in) {
  const int op = static_cast<int>(p.trace.events.size());
  const auto [aBytes, bBytes] = tileBytes(in.target);
  const size_t first = static_cast<size_t>(in.vec);
  for (size_t t = 0; t < 2; ++t) {
    const Operand& tile = in.args[first + t];
    for (int64_t k = 0; k < (t == 0 ? aBytes : bBytes); k += 4) {
      const int address = operandAddress(p, in, tile, k);
      if (address < 0) continue;
      Event r = asyncEvent(p, in, EventKind::Read, address, op);
      r.proxy = litmus::Proxy::Async;
      const int rk = emitRead(p, r);
      p.wgmma.open.push_back(rk);
      if (k == 0 && t < first) {
        Taint taint;
        taint[rk] = true;
        setReg(p, in.args[t], p.trace.vals[rk], taint);
      }
    }
  }
}

// cp.async.wait_group / wait_all and wgmma.wait_group: every committed group but the newest
// `keep` is complete; the thread's later events come after its events. A cp.async group's
// writes are generic (no fence: "does not provide any ordering ... for any other memory
// operation", §9.7.9.25.3.3); the completion of a wgmma is followed by an implicit
// generic-async proxy fence (§9.7.15.4).
void Interpreter::joinGroups(Path& p, AsyncGroups& g, size_t keep, const Instr& in,
                             bool proxyFence) {
  if (g.committed.size() <= keep) return;
  const int now = static_cast<int>(p.trace.events.size());
  const size_t done = g.committed.size() - keep;
  for (size_t k = 0; k < done; ++k)
    for (int e : g.committed[k])
      if (p.trace.events[e].joinPo == Event::kNever) p.trace.events[e].joinPo = now;
  g.committed.erase(g.committed.begin(), g.committed.begin() + static_cast<long>(done));
  if (!proxyFence) return;
  Event f = baseEvent(p, in, EventKind::ProxyFence);
  f.proxyFence = litmus::FenceProxyKind::Async;
  emit(p, f, {});
}

}  // namespace model::detail
