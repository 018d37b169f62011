// The test body, continued: fences, execution barriers, mbarriers, cluster addressing (mapa,
// getctarank) and branches, each as written; in warp mode, made whole-warp operations.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "gpu-runner/ptx_body.h"
#include "litmus/ptx_format.h"

namespace gpu {

using litmus::Opcode;

// ---- fences and barriers ------------------------------------------------------------------
void BodyEmitter::fence(const Instr& in) {
  using litmus::FenceRestrict;
  std::string mn;
  if (mnemonicAsWritten(in).rfind("membar", 0) == 0) {
    mn = mnemonicAsWritten(in);
  } else if (in.restrict == FenceRestrict::MbarrierInit) {
    mn = "fence.mbarrier_init.release.cluster";
  } else {
    mn = "fence";
    if (in.semExplicit || in.sem != litmus::Sem::AcqRel) mn += std::string(".") + litmus::toString(in.sem);
    if (in.restrict == FenceRestrict::SharedCta) mn += ".sync_restrict::shared::cta";
    if (in.restrict == FenceRestrict::SharedCluster) mn += ".sync_restrict::shared::cluster";
    mn += std::string(".") + litmus::toString(in.scope);
  }
  out_.op(memGuard(in) + mn);
}

void BodyEmitter::fenceProxy(const Instr& in) {
  using K = litmus::FenceProxyKind;
  switch (in.proxyKind) {
    case K::Alias:
    case K::Async:
    case K::AsyncGlobal:
    case K::AsyncSharedCta:
    case K::AsyncSharedCluster: break;
    case K::AsyncGenericRelease:
    case K::AsyncGenericAcquire:
    case K::TensormapRelease:
    case K::TensormapAcquire:  // the uni-directional halves carry a scope
      return out_.op(memGuard(in) + "fence.proxy." + litmus::toString(in.proxyKind) + "." +
                     litmus::toString(in.scope) +
                     (in.proxyKind == K::TensormapAcquire  // [a], 128: the map, a generic address
                          ? " " + address(in, in.args[0], litmus::Space::Generic) + ", 128"
                          : ""));
    case K::Texture:
    case K::Surface:
    case K::Constant: refuse(in, noPtxForm(in));  // refused by makePlan first
    default: refuse(in, "this proxy fence is not supported by the runner yet");
  }
  out_.op(memGuard(in) + "fence.proxy." + litmus::toString(in.proxyKind));
}

// A barrier operand as the u32 PTX wants; in warp mode lane 0's value, so the warp agrees.
std::string BodyEmitter::barOperand(const Operand& op) {
  if (op.kind == Operand::Kind::Imm) return imm(op.imm);
  const std::string t = w();
  out_.op("cvt.u32.u64 " + t + ", " + reg(op.name));
  if (!warpMode_) return t;
  const std::string u = w();
  out_.op("shfl.sync.idx.b32 " + u + ", " + t + ", 0, 0x1f, 0xffffffff");
  return u;
}

std::string BodyEmitter::barPredicate(const Instr& in, const Operand& p) {
  using litmus::BarOp;
  if (!warpMode_) return (p.negated ? "!" : "") + reg(p.name);
  // Lane 0 is the litmus thread; the other lanes must not sway the reduction (D24).
  const std::string q = c();
  if (p.negated)
    out_.op("not.pred " + q + ", " + reg(p.name));
  else
    out_.op("mov.pred " + q + ", " + reg(p.name));
  if (in.barOp == BarOp::RedAnd)
    out_.op("or.pred " + q + ", " + q + ", %h_notlane0");
  else
    out_.op("and.pred " + q + ", " + q + ", %h_lane0");
  return q;
}

void BodyEmitter::bar(const Instr& in) {
  using litmus::BarOp;
  std::string g;
  if (!in.guard.empty())
    g = "@" + (warpMode_ ? uniform(reg(in.guard), in.guardNegated) : reg(in.guard)) + " ";
  std::string mn = mnemonicAsWritten(in);
  if (in.barOp == BarOp::WarpSync) {  // the mask names the test's lanes, which are the warp's
    if (plan_.mode != Mode::Fixed) refuse(in, "bar.warp.sync needs test threads placed in one warp (warp:)");
    return out_.op(g + "bar.warp.sync " + barOperand(in.args[0]));
  }
  if (in.barOp == BarOp::ClusterArrive || in.barOp == BarOp::ClusterWait) return out_.op(g + mn);
  const litmus::BarOperands bo = litmus::barOperands(in, test_.dat3mBarriers);
  std::string ops;
  if (test_.dat3mBarriers) {
    ops = dat3mOperands(in, bo);
    if (mn.rfind("bar.", 0) != 0 && mn.rfind("barrier.", 0) != 0) mn = "bar." + mn;
  } else {
    ops = barOperand(in.args[static_cast<size_t>(bo.id)]);
    if (bo.count >= 0) ops += ", " + barOperand(in.args[static_cast<size_t>(bo.count)]);
  }
  if (in.barOp == BarOp::Sync || in.barOp == BarOp::Arrive) return out_.op(g + mn + " " + ops);
  const std::string pred = barPredicate(in, in.args.back());
  const std::string d = reg(in.args[0].name);
  if (in.barOp == BarOp::RedPopc) {
    const std::string t = w();
    out_.op(g + mn + " " + t + ", " + ops + ", " + pred);
    out_.op(g + "cvt.u64.u32 " + d + ", " + t);
  } else {
    out_.op(g + mn + " " + d + ", " + ops + ", " + pred);
  }
}

// Dat3M's (ID, INSTANCE{, COUNT in litmus threads}) as a PTX barrier id and a thread count; without
// a count, the threads of this CTA whose code names the barrier take part (D25).
std::string BodyEmitter::dat3mOperands(const Instr& in, const litmus::BarOperands& bo) const {
  const int64_t id = in.args[static_cast<size_t>(bo.id)].imm;
  const int64_t instance = bo.instance >= 0 ? in.args[static_cast<size_t>(bo.instance)].imm : 0;
  const int cta = test_.threads[static_cast<size_t>(t_)].cta;
  const int64_t litmusThreads = bo.count >= 0 ? in.args[static_cast<size_t>(bo.count)].imm
                                              : plan_.dat3mParticipants.at({cta, id, instance});
  return std::to_string(plan_.dat3mIds.at({id, instance})) + ", " + std::to_string(32 * litmusThreads);
}

void BodyEmitter::mbarrier(const Instr& in) {
  using litmus::MbarOp;
  std::string mn = std::string("mbarrier.") + litmus::toString(in.mbarOp);
  if (in.expectTx) mn += ".expect_tx";
  if (in.noComplete) mn += ".noComplete";
  if (in.parity) mn += ".parity";
  if (in.semExplicit) mn += std::string(".") + litmus::toString(in.sem);
  if (in.scopeExplicit) mn += std::string(".") + litmus::toString(in.scope);
  mn += space(in) + ".b64";
  const std::string g = memGuard(in);
  auto u32 = [&](const Operand& op) {
    return op.kind == Operand::Kind::Imm ? imm(op.imm) : narrow(op, 32, g);
  };
  std::vector<std::string> ops;
  switch (in.mbarOp) {
    case MbarOp::Init: ops = {address(in, in.args[0]), u32(in.args[1])}; break;
    case MbarOp::Inval: ops = {address(in, in.args[0])}; break;
    case MbarOp::ExpectTx:
    case MbarOp::CompleteTx: ops = {address(in, in.args[0]), u32(in.args[1])}; break;
    case MbarOp::Arrive:
    case MbarOp::ArriveDrop: {
      // A .shared::cluster arrive returns no state (PTX requires the sink '_').
      const bool sink = in.space == litmus::Space::SharedCluster || in.args[0].name == "_";
      if (sink && in.args[0].name != "_" && stateIsRead(in.args[0].name))
        refuse(in, "a .shared::cluster arrive returns no state on the GPU, and the test reads it");
      ops = {sink ? "_" : reg(in.args[0].name), address(in, in.args[1])};
      if (in.args.size() > 2) ops.push_back(u32(in.args[2]));
      break;
    }
    case MbarOp::TestWait:
    case MbarOp::TryWait: {
      const Operand& s = in.args[2];
      ops = {reg(in.args[0].name), address(in, in.args[1]), in.parity ? u32(s) : value64(s)};
      break;
    }
    case MbarOp::PendingCount: {
      const std::string t = w();
      out_.op(g + mn + " " + t + ", " + value64(in.args[1]));
      return out_.op(g + "cvt.u64.u32 " + reg(in.args[0].name) + ", " + t);
    }
    default: refuse(in, "this mbarrier operation is not supported by the runner yet");
  }
  std::string text = g + mn + " ";
  for (size_t i = 0; i < ops.size(); ++i) text += (i ? ", " : "") + ops[i];
  out_.op(text);
}

bool BodyEmitter::stateIsRead(const std::string& r) const {
  for (const Instr& other : test_.threads[static_cast<size_t>(t_)].code)
    for (size_t i = static_cast<size_t>(litmus::destCount(other)); i < other.args.size(); ++i)
      if (other.args[i].kind == Operand::Kind::Reg && other.args[i].name == r) return true;
  for (const ObsPlan& o : plan_.observed)
    if (o.kind == ObsPlan::Kind::Reg && o.thread == t_ && o.reg == r) return true;
  return false;
}

// ---- cluster address arithmetic ------------------------------------------------------------
// The shared-window address of a bare location: this CTA's copy (%l) or the owner's (%s).
std::string BodyEmitter::sharedAddress(const Operand& a, bool owner) const {
  const LocPlan& l = locOf(a);
  if (!l.shared) throw litmus::Error(a.loc, "'" + l.name + "' is not in shared memory");
  return (owner ? "%s" : "%l") + std::to_string(&l - plan_.locs.data());
}

// An address operand of mapa/getctarank in the width and window the instruction uses.
std::string BodyEmitter::clusterOperand(const Instr& in, const Operand& a, bool owner) {
  const bool wide = in.type == Type::U64, generic = in.space == litmus::Space::Generic;
  if (a.kind == Operand::Kind::Addr) {
    const std::string s32 = sharedAddress(a, owner);
    if (!wide && !generic) return s32;
    const std::string t = x();
    out_.op("cvt.u64.u32 " + t + ", " + s32);
    if (generic) out_.op("cvta.shared.u64 " + t + ", " + t);
    return t;
  }
  if (wide || generic) return value64(a);
  const std::string t = w();
  out_.op("cvt.u32.u64 " + t + ", " + value64(a));
  return t;
}

void BodyEmitter::mapa(const Instr& in) {
  const bool wide = in.type == Type::U64 || in.space == litmus::Space::Generic;
  const std::string mn = "mapa" + space(in) + "." + litmus::toString(in.type);
  const std::string a = clusterOperand(in, in.args[1], false);
  const Operand& r = in.args[2];
  const std::string rank = r.kind == Operand::Kind::Imm ? imm(r.imm) : narrow(r, 32, "");
  const std::string d = reg(in.args[0].name);
  if (wide) return out_.op(laneGuard(in) + mn + " " + d + ", " + a + ", " + rank);
  const std::string t = w();
  out_.op(laneGuard(in) + mn + " " + t + ", " + a + ", " + rank);
  out_.op(laneGuard(in) + "cvt.u64.u32 " + d + ", " + t);
}

// A bare location's CTA is its owner's when the test places it, else the thread's own (model).
void BodyEmitter::getctarank(const Instr& in) {
  const Operand& a = in.args[1];
  const bool owner = a.kind == Operand::Kind::Addr && locOf(a).placed;
  const std::string src = clusterOperand(in, a, owner), t = w();
  out_.op(laneGuard(in) + "getctarank" + space(in) + "." + litmus::toString(in.type) + " " + t + ", " + src);
  out_.op(laneGuard(in) + "cvt.u64.u32 " + reg(in.args[0].name) + ", " + t);
}

// elect.sync d|p, membermask: the hardware's election among the test's lanes (Fixed mode).
void BodyEmitter::elect(const Instr& in) {
  if (plan_.mode != Mode::Fixed) refuse(in, "elect.sync needs test threads placed in one warp (warp:)");
  const std::string g = laneGuard(in), mask = barOperand(in.args[2]);
  const bool sink = in.args[0].name == "_";
  const std::string d = sink ? "_" : w();
  out_.op(g + "elect.sync " + d + "|" + reg(in.args[1].name) + ", " + mask);
  if (!sink) out_.op(g + "cvt.u64.u32 " + reg(in.args[0].name) + ", " + d);
}

void BodyEmitter::bra(const Instr& in) {
  const std::string target = label(in.target);
  std::string pred;
  bool negated = in.guardNegated;
  if (in.cmp != litmus::CmpOp::None) {  // herd's beq a, b, L
    if (!in.guard.empty()) refuse(in, "a guarded compare-and-branch is not supported by the runner");
    pred = c();
    out_.op("setp." + std::string(litmus::toString(in.cmp)) + ".s64 " + pred + ", " + value64(in.args[0]) +
            ", " + value64(in.args[1]));
    negated = false;
  } else if (!in.guard.empty()) {
    pred = reg(in.guard);
  }
  if (pred.empty()) return out_.op((warpMode_ ? "bra.uni " : "bra ") + target);
  if (warpMode_) return out_.op("@" + uniform(pred, negated) + " bra.uni " + target);
  out_.op(std::string(negated ? "@!" : "@") + pred + " bra " + target);
}
}  // namespace gpu
