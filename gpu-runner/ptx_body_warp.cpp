// The test body, continued: the warp collectives (vote.sync, match.sync, activemask, redux.sync;
// PTX ISA §9.7.13.9-12) as written, each lane of the test one lane of a hardware warp (warp:).
// Their results go to the lanes' 64-bit litmus registers, which the tally observes.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "gpu-runner/ptx_body.h"
#include "litmus/instructions.h"
#include "litmus/ptx_format.h"

namespace gpu {

using litmus::Type;
using litmus::WarpOp;

// vote's source and predicate destinations, and match.all's p, are predicates.
std::vector<size_t> warpPredicatePositions(const Instr& in) {
  if (in.warpOp == WarpOp::Ballot) return {1};
  if (litmus::warpOpInfo(in.warpOp).shape == litmus::WarpShape::Vote) return {0, 1};
  if (in.warpOp == WarpOp::MatchAll && litmus::destCount(in) == 2) return {1};
  return {};
}

void BodyEmitter::warpCollective(const Instr& in) {
  if (litmus::takesPredicate(in.warpOp) && !in.warpSync)
    refuse(in, "ptxas does not accept 'vote' without '.sync' on .target sm_70 and higher (§9.7.13.8: "
               "deprecated); write vote.sync with the member mask");
  if (plan_.mode != Mode::Fixed) refuse(in, "a warp collective needs test threads placed in one warp (warp:)");
  const std::string g = laneGuard(in);
  const std::string mn = litmus::warpMnemonic(in) + "." + litmus::toString(in.type);
  if (in.warpOp == WarpOp::Activemask) {
    const std::string t = w();
    out_.op(g + mn + " " + t);
    return out_.op(g + "cvt.u64.u32 " + reg(in.args[0].name) + ", " + t);
  }
  const int mi = litmus::warpMaskIndex(in);
  const Operand& src = in.args[static_cast<size_t>(litmus::destCount(in))];
  const std::string mask = in.args[static_cast<size_t>(mi)].kind == Operand::Kind::Imm
                               ? hex(static_cast<uint64_t>(in.args[static_cast<size_t>(mi)].imm) & 0xffffffff)
                               : narrow(in.args[static_cast<size_t>(mi)], 32, g);
  const std::string d = reg(in.args[0].name);
  if (litmus::warpOpInfo(in.warpOp).shape == litmus::WarpShape::Vote)  // vote.sync.{all,any,uni}.pred d, {!}a, mask
    return out_.op(g + mn + " " + d + ", " + (src.negated ? "!" : "") + reg(src.name) + ", " + mask);
  const std::string t = w();
  if (in.warpOp == WarpOp::Ballot) {
    out_.op(g + mn + " " + t + ", " + (src.negated ? "!" : "") + reg(src.name) + ", " + mask);
  } else {
    const std::string a = narrow(src, in.type == Type::B64 ? 64 : 32, g);
    const std::string dp = litmus::destCount(in) == 2 ? t + "|" + reg(in.args[1].name) : t;
    out_.op(g + mn + " " + dp + ", " + a + ", " + mask);
  }
  // match and ballot give lane masks (unsigned); redux.sync.*.s32 a signed value
  out_.op(g + (in.type == Type::S32 ? "cvt.s64.s32 " : "cvt.u64.u32 ") + d + ", " + t);
}

}  // namespace gpu
