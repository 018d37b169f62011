// Execution barriers: bar{.cta} / barrier{.cta} (sync, arrive, red) and barrier.cluster.
#include "litmus/instr_parser.h"

namespace litmus::instr_detail {

void InstrParser::parseBar() {
  if (parts_.size() > 1 && parts_[0].s == "barrier" && parts_[1].s == "cluster")
    return parseClusterBarrier();
  if (parts_.size() > 1 && parts_[0].s == "bar" && parts_[1].s == "warp") return parseWarpSync();
  in_.op = Opcode::Bar;
  in_.scope = Scope::Cta;
  std::optional<Piece> op, kind, type;
  for (size_t i = 1; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "cta" && !in_.scopeExplicit) {
      in_.scopeExplicit = true;
    } else if (p.s == "aligned") {
      // alignment is a promise about warp convergence, which the model does not track
    } else if (p.s == "sync" || p.s == "arrive" || p.s == "red") {
      if (op)
        fail(p.off, "second barrier operation " + dotted(p.s) + " (already " + dotted(op->s) + ")");
      op = p;
    } else if ((p.s == "popc" || p.s == "and" || p.s == "or") && !kind) {
      kind = p;
    } else if ((p.s == "u32" || p.s == "pred") && !type) {
      type = p;
    } else {
      fail(p.off, "unknown qualifier " + dotted(p.s) + " on '" + name() + "'");
    }
  }
  if (!op) fail(parts_[0].off, "'" + name() + "' requires .sync, .arrive or .red");
  std::string full = name() + "." + std::string(op->s);
  if (op->s != "red") {
    if (kind || type)
      fail((kind ? kind : type)->off,
           "unknown qualifier " + dotted((kind ? kind : type)->s) + " on '" + full + "'");
    in_.barOp = op->s == "sync" ? BarOp::Sync : BarOp::Arrive;
    // A third operand is the Dat3M form ID, INSTANCE, COUNT (Test::dat3mBarriers says how the
    // operands read); kept as written.
    return takeOperands({Slot::Val}, {Slot::Val, Slot::Val},
                        "'" + full + "' expects a barrier id and an optional thread count");
  }
  if (!kind) fail(op->off, "'" + full + "' requires .popc, .and or .or");
  bool popc = kind->s == "popc";
  in_.barOp = popc ? BarOp::RedPopc : kind->s == "and" ? BarOp::RedAnd : BarOp::RedOr;
  std::string want = popc ? "u32" : "pred";
  if (!type || type->s != want)
    fail(type ? type->off : kind->off,
         "'" + full + "." + std::string(kind->s) + "' requires ." + want);
  in_.type = popc ? Type::U32 : Type::Pred;
  std::string msg = "'" + full +
                    "' expects a destination, a barrier id, an optional thread "
                    "count and a predicate";
  if (ops_.size() == 3) return takeOperands({Slot::Reg, Slot::Val, Slot::Pred}, {}, msg);
  takeOperands({Slot::Reg, Slot::Val, Slot::Val, Slot::Pred}, {}, msg);
}

// barrier.cluster.arrive{.release|.relaxed}{.aligned}, barrier.cluster.wait{.acquire}{.aligned}
// (§9.7.13.3): arrive defaults to .release, wait to .acquire.
void InstrParser::parseClusterBarrier() {
  in_.op = Opcode::Bar;
  in_.scope = Scope::Cluster;
  std::optional<Piece> op, sem;
  for (size_t i = 2; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "aligned") continue;
    if ((p.s == "arrive" || p.s == "wait") && !op) {
      op = p;
    } else if ((p.s == "release" || p.s == "relaxed" || p.s == "acquire") && !sem) {
      sem = p;
    } else {
      fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'barrier.cluster'");
    }
  }
  if (!op) fail(parts_[1].off, "'barrier.cluster' requires .arrive or .wait");
  const bool arrive = op->s == "arrive";
  in_.barOp = arrive ? BarOp::ClusterArrive : BarOp::ClusterWait;
  in_.sem = arrive ? Sem::Release : Sem::Acquire;
  if (sem) {
    const bool ok = arrive ? sem->s != "acquire" : sem->s == "acquire";
    if (!ok)
      fail(sem->off, dotted(sem->s) + " is not a memory order of 'barrier.cluster." +
                         std::string(op->s) + "'");
    in_.sem = sem->s == "relaxed" ? Sem::Relaxed : in_.sem;
    in_.semExplicit = true;
  }
  takeOperands({}, {}, "'barrier.cluster." + std::string(op->s) + "' takes no operands");
}

}  // namespace litmus::instr_detail
