// mbarrier.* (PTX ISA §9.7.13.15): init, inval, arrive{.expect_tx|.noComplete}, arrive_drop,
// expect_tx, complete_tx, test_wait{.parity}, try_wait{.parity}, pending_count.
#include "litmus/instr_parser.h"

namespace litmus::instr_detail {

namespace {

std::optional<MbarOp> mbarOpFromString(std::string_view s) {
  for (MbarOp op : {MbarOp::Init, MbarOp::Inval, MbarOp::Arrive, MbarOp::ArriveDrop,
                    MbarOp::ExpectTx, MbarOp::CompleteTx, MbarOp::TestWait, MbarOp::TryWait,
                    MbarOp::PendingCount})
    if (s == toString(op)) return op;
  return std::nullopt;
}

bool isArrive(MbarOp op) { return op == MbarOp::Arrive || op == MbarOp::ArriveDrop; }
bool isWait(MbarOp op) { return op == MbarOp::TestWait || op == MbarOp::TryWait; }

}  // namespace

void InstrParser::parseMbarrier() {
  in_.op = Opcode::Mbarrier;
  if (parts_.size() < 2 || !mbarOpFromString(parts_[1].s))
    fail(parts_[0].off, "'mbarrier' requires an operation (init, inval, arrive, arrive_drop, "
                        "expect_tx, complete_tx, test_wait, try_wait or pending_count)");
  const MbarOp op = *mbarOpFromString(parts_[1].s);
  in_.mbarOp = op;
  const std::string full = "mbarrier." + std::string(parts_[1].s);
  // Operation modifiers come right after the operation; then the usual qualifier families.
  size_t next = 2;
  for (; next < parts_.size(); ++next) {
    const Piece& p = parts_[next];
    if (p.s == "expect_tx" && isArrive(op) && !in_.expectTx) in_.expectTx = true;
    else if (p.s == "noComplete" && isArrive(op) && !in_.noComplete) in_.noComplete = true;
    else if (p.s == "parity" && isWait(op) && !in_.parity) in_.parity = true;
    else break;
  }
  parts_.erase(parts_.begin() + 1, parts_.begin() + static_cast<long>(next));
  const bool memOrder = isArrive(op) || isWait(op) || op == MbarOp::ExpectTx || op == MbarOp::CompleteTx;
  Quals q = collect((memOrder ? kSem | kScope : 0) | (op == MbarOp::PendingCount ? 0 : kSpace) | kType);
  if (in_.type != Type::B64) fail(parts_[0].off, "'" + full + "' requires .b64");
  if (q.space && in_.space != Space::Shared && in_.space != Space::SharedCta &&
      in_.space != Space::SharedCluster)
    fail(q.space->off, "an mbarrier lives in shared memory (.shared, .shared::cta or .shared::cluster)");
  if (q.space && in_.space == Space::SharedCluster && !(isArrive(op) || op == MbarOp::ExpectTx ||
                                                        op == MbarOp::CompleteTx))
    fail(q.space->off, "'" + full + "' takes only a .shared::cta mbarrier (§9.7.13.15)");
  // Defaults (§9.7.13.15): arrivals release, waits acquire, at CTA scope; expect_tx and
  // complete_tx are relaxed.
  const Sem dflt = isWait(op) ? Sem::Acquire : isArrive(op) ? Sem::Release : Sem::Relaxed;
  in_.sem = memOrder ? dflt : Sem::Weak;
  in_.scope = memOrder ? Scope::Cta : Scope::None;
  if (q.sem) {
    const bool ok = q.semV == Sem::Relaxed || q.semV == dflt;
    if (!ok) fail(q.sem->off, dotted(q.sem->s) + " is not a memory order of '" + full + "'");
    in_.sem = q.semV;
    in_.semExplicit = true;
  }
  if (q.scope) {
    if (q.scopeV != Scope::Cta && q.scopeV != Scope::Cluster)
      fail(q.scope->off, "'" + full + "' takes scope .cta or .cluster");
    in_.scope = q.scopeV;
    in_.scopeExplicit = true;
  }
  // §9.7.13.15.11-16: the syntax gives .sem and .scope as one qualifier pair ({.sem.scope});
  // ptxas refuses either alone ("'.release' requires scope", "'.cta' requires order").
  if (q.sem && !q.scope)
    fail(q.sem->off, dotted(q.sem->s) + " on '" + full + "' requires a scope (.cta or .cluster) with it");
  if (q.scope && !q.sem)
    fail(q.scope->off, dotted(q.scope->s) + " on '" + full + "' requires a memory order (" +
                           (isWait(op) ? ".acquire or .relaxed" : isArrive(op) ? ".release or .relaxed" : ".relaxed") +
                           ") with it");
  if (in_.noComplete && (in_.expectTx || in_.sem != Sem::Release || in_.scope != Scope::Cta))
    fail(parts_[0].off, "'.noComplete' allows only .release.cta and no .expect_tx");
  // §9.7.13.15.13-14: the .noComplete forms name only a .shared{::cta} mbarrier
  if (in_.noComplete && q.space && in_.space == Space::SharedCluster)
    fail(q.space->off, "'" + full + ".noComplete' takes only a .shared{::cta} mbarrier (§9.7.13.15.13)");
  const std::string msg = "'" + full + "' expects ";
  switch (op) {
    case MbarOp::Init: return takeOperands({Slot::Addr, Slot::Val}, {}, msg + "an address and a count");
    case MbarOp::Inval: return takeOperands({Slot::Addr}, {}, msg + "an address");
    case MbarOp::ExpectTx:
    case MbarOp::CompleteTx:
      return takeOperands({Slot::Addr, Slot::Val}, {}, msg + "an address and a transaction count");
    case MbarOp::PendingCount:
      return takeOperands({Slot::Reg, Slot::Reg}, {}, msg + "a destination and a state");
    case MbarOp::TestWait:
    case MbarOp::TryWait:
      // try_wait's optional suspend-time hint only bounds how long one attempt may block
      takeOperands({Slot::Pred, Slot::Addr, Slot::Val}, {Slot::Val},
                   msg + "a predicate, an address, a state or parity and an optional time hint");
      if (in_.args.size() == 4) {
        if (op == MbarOp::TestWait) fail(in_.args[3].loc.col - loc_.col, msg + "three operands");
        in_.args.pop_back();
      }
      return;
    default: break;
  }
  if (in_.expectTx || in_.noComplete)
    takeOperands({Slot::Reg, Slot::Addr, Slot::Val}, {},
                 msg + "a state, an address and a " + (in_.expectTx ? "transaction " : "") + "count");
  else
    takeOperands({Slot::Reg, Slot::Addr}, {Slot::Val}, msg + "a state, an address and an optional count");
  checkArriveSink();
}

// §9.7.13.15.13-14: an arrive on an mbarrier in .shared::cluster (not in the thread's own
// .shared::cta) "cannot return a value. Sink symbol '_' is mandatory for the destination".
void InstrParser::checkArriveSink() {
  if (in_.space != Space::SharedCluster || in_.args.empty() || in_.args[0].name == "_") return;
  fail(ops_[0].off, "'mbarrier." + std::string(toString(in_.mbarOp)) +
                        "' on a .shared::cluster mbarrier returns no state: its destination must be the "
                        "sink '_' (§9.7.13.15.13)");
}

}  // namespace litmus::instr_detail
