// Validation of what clusters, distributed shared memory and warps add to a test: shared
// locations placed in a CTA are reached from other CTAs only through mapa; addresses in registers
// come from mapa; special registers are read-only; lanes of a warp and their member masks.
#include <iterator>
#include <map>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "litmus/test_index.h"

namespace litmus {
namespace {

// The location whose address register `reg` holds ("" if none).
std::string regLocation(const Thread& t, const std::string& reg) {
  Operand o;
  o.kind = Operand::Kind::RegAddr;
  o.name = reg;
  return addressLocation(t, o);
}

// The space of the address an address-producing instruction writes (see checkAddressRegisters).
Space addressSpaceOf(const Instr& w) {
  if (w.op == Opcode::Mapa) return w.space == Space::SharedCluster ? Space::SharedCluster : Space::Generic;
  const Space s = w.addrSpace;
  return s == Space::Shared ? Space::SharedCta : s;
}

void checkOwners(const TestIndex& names) {
  for (const Location& l : names.test().locations)
    if (l.ownerCta >= 0 && names.threadInCta(l.ownerCta) < 0)
      throw Error(l.loc, "'" + l.name + "' lives in the shared memory of CTA " +
                             std::to_string(l.ownerCta) + ", in which no thread runs");
}

// `[x]` from another CTA would be that CTA's own copy of x, which the test does not declare.
void checkDirectAccess(const TestIndex& names, const Thread& t, const Instr& in) {
  if (in.op == Opcode::Mapa || in.op == Opcode::GetCtaRank) return;
  for (const Operand& a : in.args) {
    if (a.kind != Operand::Kind::Addr) continue;
    const Location* l = names.location(a.name);
    if (!l || l->ownerCta < 0 || l->ownerCta == t.cta) continue;
    throw Error(a.loc, t.name + " runs in CTA " + std::to_string(t.cta) + ", but '" + a.name +
                           "' lives in the shared memory of CTA " + std::to_string(l->ownerCta) +
                           ": reach it through a .shared::cluster address from mapa");
  }
}

// mapa and getctarank name a shared location placed in a CTA of the thread's cluster.
void checkMapa(const TestIndex& names, const Thread& t, const Instr& in) {
  if (in.op != Opcode::Mapa && in.op != Opcode::GetCtaRank) return;
  const Operand& src = in.args[1];
  if (src.kind != Operand::Kind::Addr) return;  // a register: checked as an address register
  const Location* l = names.location(src.name);
  if (!l) throw Error(src.loc, "unknown location '" + src.name + "'");
  if (l->space == Space::Global || l->ownerCta < 0)
    throw Error(src.loc, "'" + src.name + "' must be a shared location placed in a CTA "
                         "(space: shared, cta: N) for '" + in.text + "'");
  const Thread& owner = names.test().threads[static_cast<size_t>(names.threadInCta(l->ownerCta))];
  if (owner.cluster != t.cluster || owner.gpu != t.gpu)
    throw Error(src.loc, "'" + src.name + "' lives in CTA " + std::to_string(l->ownerCta) +
                             ", outside the cluster of " + t.name);
}

// `[%r]`: %r is written only by instructions that produce an address (mapa, cvta, `mov d,
// LOCATION`), always of the same location, and accessed in the space its address is in: a
// .shared::cluster mapa address with .shared::cluster, a generic one (mapa.u64 without a space,
// cvta to generic) without a state space, a .shared::cta one (cvta.to.shared, mov of a shared
// location) with .shared{::cta,::cluster}, a global one with .global. Async operations name
// their spaces themselves.
void checkAddressRegisters(const Thread& t, const Instr& in) {
  for (const Operand& a : in.args) {
    if (a.kind != Operand::Kind::RegAddr) continue;
    if (t.initRegs.count(a.name))
      throw Error(a.loc, "address register %" + a.name + " must be written by mapa, cvta or "
                         "'mov d, LOCATION', not initialised");
    const Instr* first = nullptr;
    for (const Instr& w : t.code) {
      if (destCount(w) < 1 || w.args[0].name != a.name) continue;
      const bool producer = w.op == Opcode::Mapa || w.op == Opcode::Cvta;
      if (!producer || (w.args[1].kind != Operand::Kind::Addr && regLocation(t, w.args[0].name).empty()))
        throw Error(w.loc, "%" + a.name + " holds an address, so only 'mapa ..., LOCATION, rank', "
                           "'cvta ..., LOCATION' or 'mov ..., LOCATION' (or these from a register "
                           "holding an address) may write it");
      if (first && (regLocation(t, first->args[0].name) != regLocation(t, w.args[0].name) ||
                    addressSpaceOf(*first) != addressSpaceOf(w)))
        throw Error(w.loc, "%" + a.name + " is mapped from two locations or spaces");
      first = &w;
    }
    if (!first) throw Error(a.loc, "address register %" + a.name + " is never written by mapa, cvta or mov");
    const Space s = addressSpaceOf(*first);
    const bool shared = in.space == Space::Shared || in.space == Space::SharedCta || in.space == Space::SharedCluster;
    const bool ok = in.op == Opcode::Async || in.op == Opcode::Clc ||
                    (s == Space::SharedCluster ? in.space == Space::SharedCluster
                     : s == Space::SharedCta   ? shared
                                               : in.space == s);
    if (!ok)
      throw Error(a.loc, std::string("%") + a.name + " holds " +
                             (s == Space::SharedCluster ? "a .shared::cluster address: access it with .shared::cluster"
                              : s == Space::SharedCta   ? "a .shared::cta address: access it with .shared{::cta,::cluster}"
                              : s == Space::Global      ? "a .global address: access it with .global"
                                                        : "a generic address: access it without a state space"));
  }
}

// §9.7.13.15.13-14: an arrive on an mbarrier of another CTA (a generic address from mapa; the
// .shared::cluster form is checked by the parser) returns no state: the destination must be `_`.
void checkRemoteArriveSink(const TestIndex& names, const Thread& t, const Instr& in) {
  const bool arrive = in.op == Opcode::Mbarrier && (in.mbarOp == MbarOp::Arrive || in.mbarOp == MbarOp::ArriveDrop);
  if (!arrive || in.args.size() < 2 || in.args[0].name == "_" || in.args[1].kind != Operand::Kind::RegAddr) return;
  const Location* l = names.location(regLocation(t, in.args[1].name));
  if (!l || l->ownerCta < 0 || l->ownerCta == t.cta) return;
  throw Error(in.args[0].loc, "'" + in.text + "' arrives on '" + l->name + "' in the shared memory of CTA " +
                                  std::to_string(l->ownerCta) + ", so it returns no state: its destination "
                                  "must be the sink '_' (§9.7.13.15.13)");
}

void checkSpecialWrites(const Thread& t) {
  for (const auto& [reg, value] : t.initRegs)
    if (isSpecialRegister(reg)) throw Error(t.loc, "special register %" + reg + " cannot be initialised");
  for (const Instr& in : t.code)
    for (int i = 0; i < destCount(in); ++i)
      if (isSpecialRegister(in.args[i].name))
        throw Error(in.args[i].loc, "special register %" + in.args[i].name + " is read-only");
}

// Lanes of one warp (Thread::warp): at most 32, bar.warp.sync and elect.sync name their lane in
// the member mask, and bar{.cta} thread counts, which count warps of 32, are not mixed with them.
void checkWarps(const Test& test, const Placement& p) {
  std::map<int, bool> multiLane;  // per CTA
  for (size_t i = 0; i < test.threads.size(); ++i) {
    const Thread& t = test.threads[i];
    if (p.lanes[i] > 32) throw Error(t.loc, "more than 32 threads in warp " + std::to_string(t.warp));
    multiLane[t.cta] = multiLane[t.cta] || p.lanes[i] > 1;
    for (const Instr& in : t.code) {
      const bool warpSync = in.op == Opcode::Bar && in.barOp == BarOp::WarpSync;
      if (warpSync || in.op == Opcode::Elect || warpMaskIndex(in) >= 0) {  // the collectives too
        const Operand& mask = in.args.back();
        if (warpSync && mask.kind != Operand::Kind::Imm)
          throw Error(mask.loc, "the member mask of bar.warp.sync must be an immediate");
        if (mask.kind == Operand::Kind::Imm && !((mask.imm >> p.lane[i]) & 1))
          throw Error(mask.loc, t.name + " is lane " + std::to_string(p.lane[i]) +
                                    " of its warp, which the member mask leaves out");
        // lanes the test does not have would be threads that never arrive
        if (mask.kind == Operand::Kind::Imm && p.lanes[i] < 64 && (mask.imm >> p.lanes[i]) != 0)
          throw Error(mask.loc, "the member mask names lanes that the warp of " + t.name +
                                    " does not have (it has " + std::to_string(p.lanes[i]) + ")");
      }
    }
  }
  for (const Thread& t : test.threads)
    for (const Instr& in : t.code)
      if (in.op == Opcode::Bar && multiLane[t.cta] && barOperands(in, test.dat3mBarriers).count >= 0)
        throw Error(in.loc, "a thread count counts warps of 32, so it cannot be used in CTA " +
                                std::to_string(t.cta) + ", whose warps have several test threads");
}

}  // namespace

void checkClusters(const TestIndex& names, const Deadline& deadline) {
  checkOwners(names);
  for (const Thread& t : names.test().threads) {
    deadline.check();
    checkSpecialWrites(t);
    for (const Instr& in : t.code) {
      checkDirectAccess(names, t, in);
      checkMapa(names, t, in);
      checkAddressRegisters(t, in);
      checkRemoteArriveSink(names, t, in);
    }
  }
  checkWarps(names.test(), placementOf(names.test()));
}

}  // namespace litmus
