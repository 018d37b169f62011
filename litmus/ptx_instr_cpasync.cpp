// Non-bulk cp.async and its completion mechanisms (PTX ISA §9.7.9.25.3, §9.7.13.15.15):
// cp.async.ca/.cg, cp.async.commit_group, cp.async.wait_group, cp.async.wait_all and
// cp.async.mbarrier.arrive{.noinc}; and the canonical spelling of these and of the wgmma and
// setmaxnreg forms (ptx_instr_wgmma.cpp) for formatInstr.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "litmus/instr_parser.h"

namespace litmus {
namespace instr_detail {

namespace {
bool isSharedCta(Space s) { return s == Space::Shared || s == Space::SharedCta; }
}  // namespace

// cp.async.{ca,cg,commit_group,wait_group,wait_all,mbarrier.arrive}: parts_[2] says which.
void InstrParser::parseCpAsyncNonBulk() {
  in_.op = Opcode::Async;
  const Piece& kind = parts_[2];
  auto noQualifiers = [&](size_t from, const std::string& full) {
    for (size_t i = from; i < parts_.size(); ++i)
      fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on '" + full + "'");
  };
  if (kind.s == "commit_group" || kind.s == "wait_all") {
    const std::string full = "cp.async." + std::string(kind.s);
    in_.asyncOp = kind.s == "wait_all" ? AsyncOp::CpWaitAll : AsyncOp::CpCommit;
    noQualifiers(3, full);
    return takeOperands({}, {}, "'" + full + "' takes no operands");
  }
  if (kind.s == "wait_group") {
    in_.asyncOp = AsyncOp::CpWait;
    noQualifiers(3, "cp.async.wait_group");
    takeOperands({Slot::Val}, {},
                 "'cp.async.wait_group' expects the number of groups that may stay pending");
    if (in_.args[0].kind != Operand::Kind::Imm || in_.args[0].imm < 0 || in_.args[0].imm > 63)
      fail(ops_[0].off,
           "'cp.async.wait_group' takes an immediate count 0-63 (an integer constant)");
    return;
  }
  if (kind.s == "mbarrier") return parseCpAsyncArrive();
  if (kind.s != "ca" && kind.s != "cg")
    fail(kind.off, "unknown instruction 'cp.async." + std::string(kind.s) +
                       "' (cp.async takes .ca or .cg, or is .commit_group, .wait_group, .wait_all "
                       "or .mbarrier.arrive)");
  parseCpAsyncCopy();
}

// cp.async.ca|cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src],
// cp-size{, src-size}{, cache-policy}. The cache hints and the prefetch size are performance
// hints only (§9.7.9.25.3.1), accepted and dropped with the cache-policy operand.
void InstrParser::parseCpAsyncCopy() {
  const bool cg = parts_[2].s == "cg";
  const std::string full = std::string("cp.async.") + (cg ? "cg" : "ca");
  in_.asyncOp = cg ? AsyncOp::CpCopyCg : AsyncOp::CpCopyCa;
  std::vector<Piece> spaces;
  bool hint = false, prefetch = false;
  for (size_t i = 3; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (spaceFromString(p.s) && spaces.size() < 2)
      spaces.push_back(p);
    else if (p.s == "L2::cache_hint" && !hint)
      hint = true;
    else if (cacheKind(p.s) == Cache::Prefetch && !prefetch)
      prefetch = true;
    else
      fail(p.off, "unknown qualifier " + dotted(p.s) + " on '" + full + "'");
  }
  if (spaces.size() != 2)
    fail(parts_[0].off,
         "'" + full + "' needs the destination and source state spaces .shared{::cta}.global");
  in_.space = *spaceFromString(spaces[0].s);
  in_.srcSpace = *spaceFromString(spaces[1].s);
  if (!isSharedCta(in_.space) || in_.srcSpace != Space::Global)
    fail(spaces[0].off,
         "'" + full + "' copies from .global to .shared or .shared::cta (§9.7.9.25.3.1)");
  std::vector<Slot> slots{Slot::Addr, Slot::Addr, Slot::Val};
  const std::string msg = "'" + full +
                          "' expects a destination, a source, cp-size and optionally src-size" +
                          std::string(hint ? ", then a cache policy" : "");
  if (!hint) {
    takeOperands(slots, {Slot::Val}, msg);
  } else {
    // the cache policy is last: with three or four operands before it
    if (ops_.size() == 5) slots.push_back(Slot::Val);
    slots.push_back(Slot::Reg);
    takeOperands(slots, {}, msg);
    in_.args.pop_back();
  }
  checkCpSizes(cg);
}

// cp-size is 4, 8 or 16 (16 only with .cg); src-size is at most cp-size (larger is undefined).
void InstrParser::checkCpSizes(bool cg) {
  const Operand& size = in_.args[2];
  if (size.kind != Operand::Kind::Imm || (size.imm != 4 && size.imm != 8 && size.imm != 16))
    fail(ops_[2].off, "cp-size must be the immediate 4, 8 or 16 (§9.7.9.25.3.1)");
  if (cg && size.imm != 16) fail(ops_[2].off, "'cp.async.cg' copies only 16 bytes (cp-size 16)");
  if (in_.args.size() < 4) return;
  const Operand& src = in_.args[3];
  if (src.kind != Operand::Kind::Imm)
    fail(ops_[3].off,
         "src-size or ignore-src in a register is not supported: the model needs the "
         "number of bytes copied as an immediate");
  if (src.imm < 0 || src.imm > size.imm)
    fail(ops_[3].off, "src-size " + std::to_string(src.imm) + " exceeds cp-size " +
                          std::to_string(size.imm) + " (undefined behaviour, §9.7.9.25.3.1)");
  if (src.imm % 4 != 0)
    fail(ops_[3].off,
         "a src-size that is not a multiple of 4 is not supported: the model copies "
         "4-byte words");
}

// cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] (§9.7.13.15.15).
void InstrParser::parseCpAsyncArrive() {
  const std::string want = "'cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]'";
  if (parts_.size() < 4 || parts_[3].s != "arrive") fail(parts_[2].off, "expected " + want);
  in_.asyncOp = AsyncOp::CpArrive;
  std::optional<Piece> space;
  for (size_t i = 4; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "noinc" && in_.asyncOp == AsyncOp::CpArrive)
      in_.asyncOp = AsyncOp::CpArriveNoinc;
    else if (spaceFromString(p.s) && !space)
      space = p;
    else if (p.s == "b64" && in_.type == Type::None)
      in_.type = Type::B64;
    else
      fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'cp.async.mbarrier.arrive'");
  }
  if (space) {
    in_.space = *spaceFromString(space->s);
    if (!isSharedCta(in_.space))
      fail(space->off,
           "the mbarrier of 'cp.async.mbarrier.arrive' is in .shared{::cta} (§9.7.13.15.15)");
  }
  if (in_.type != Type::B64) fail(parts_[0].off, "'cp.async.mbarrier.arrive' requires .b64");
  takeOperands({Slot::Addr}, {}, "'cp.async.mbarrier.arrive' expects the address of an mbarrier");
}

}  // namespace instr_detail

// The canonical mnemonic of the issue-14 forms of this file and ptx_instr_wgmma.cpp (the type,
// .b64 or .u32, follows it in formatInstr).
std::string cpAsyncMnemonic(const Instr& in) {
  if (in.op == Opcode::SetMaxNReg)
    return in.atomOp == AtomOp::Inc   ? "setmaxnreg.inc.sync.aligned"
           : in.atomOp == AtomOp::Dec ? "setmaxnreg.dec.sync.aligned"
                                      : "nop";
  const std::string space = in.space == Space::Generic ? "" : std::string(".") + toString(in.space);
  switch (in.asyncOp) {
    case AsyncOp::CpCopyCa: return "cp.async.ca" + space + ".global";
    case AsyncOp::CpCopyCg: return "cp.async.cg" + space + ".global";
    case AsyncOp::CpCommit: return "cp.async.commit_group";
    case AsyncOp::CpWait: return "cp.async.wait_group";
    case AsyncOp::CpWaitAll: return "cp.async.wait_all";
    case AsyncOp::CpArrive: return "cp.async.mbarrier.arrive" + space;
    case AsyncOp::CpArriveNoinc: return "cp.async.mbarrier.arrive.noinc" + space;
    case AsyncOp::WgmmaFence: return "wgmma.fence.sync.aligned";
    case AsyncOp::WgmmaMma: return "wgmma.mma_async.sync.aligned." + in.target;
    case AsyncOp::WgmmaCommit: return "wgmma.commit_group.sync.aligned";
    case AsyncOp::WgmmaWait: return "wgmma.wait_group.sync.aligned";
    default: return "nop";
  }
}

// wgmma.mma_async's operands: the accumulator registers in braces, then the rest.
std::string wgmmaOperands(const Instr& in) {
  std::string out = "{";
  for (int i = 0; i < in.vec; ++i)
    out += (i ? ", " : "") + formatOperand(in.args[static_cast<size_t>(i)], Type::None);
  out += "}";
  for (size_t i = static_cast<size_t>(in.vec); i < in.args.size(); ++i)
    out += ", " + formatOperand(in.args[i], Type::None);
  return out;
}

}  // namespace litmus
