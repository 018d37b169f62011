// Non-bulk cp.async and its completion mechanisms (PTX ISA §9.7.9.25.3, §9.7.13.15.15;
// docs/model.md D43, D44), each emitted as written, and the end of a thread that issued them.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>

#include "gpu-runner/ptx_body.h"

namespace gpu {

using litmus::AsyncOp;
using litmus::Space;

namespace {
bool isCopy(const Instr& in) {
  return in.op == litmus::Opcode::Async &&
         (in.asyncOp == AsyncOp::CpCopyCa || in.asyncOp == AsyncOp::CpCopyCg);
}
}  // namespace

void BodyEmitter::cpAsyncInstr(const Instr& in) {
  const std::string g = memGuard(in);
  switch (in.asyncOp) {
    case AsyncOp::CpCopyCa:
    case AsyncOp::CpCopyCg: return cpCopy(in, g);
    case AsyncOp::CpCommit: return out_.op(g + "cp.async.commit_group");
    case AsyncOp::CpWait: return out_.op(g + "cp.async.wait_group " + imm(in.args[0].imm));
    case AsyncOp::CpWaitAll: return out_.op(g + "cp.async.wait_all");
    case AsyncOp::CpArrive:
    case AsyncOp::CpArriveNoinc:
      return out_.op(g + "cp.async.mbarrier.arrive" +
                     (in.asyncOp == AsyncOp::CpArriveNoinc ? ".noinc" : "") + space(in) + ".b64 " +
                     address(in, in.args[0]));
    default: return wgmmaInstr(in);  // ptx_body_wgmma.cpp
  }
}

// Both addresses must be aligned to cp-size (§9.7.9.25.3.1); the plan aligns a copied location to
// 16 bytes, so the offsets decide.
void BodyEmitter::cpCopy(const Instr& in, const std::string& g) {
  const int64_t size = in.args[2].imm;
  for (size_t a = 0; a < 2; ++a)
    if (in.args[a].imm % size != 0)
      refuse(in, "cp.async needs addresses aligned to cp-size (" + imm(size) + " bytes)");
  std::string text = g + (in.asyncOp == AsyncOp::CpCopyCg ? "cp.async.cg" : "cp.async.ca") +
                     space(in) + ".global " + address(in, in.args[0], in.space) + ", " +
                     address(in, in.args[1], Space::Global) + ", " + imm(size);
  if (in.args.size() > 3) text += ", " + imm(in.args[3].imm);
  out_.op(text);
}

// After the thread's last instruction: its copies complete before the final values are read
// (an uncommitted one in a last group, as wait_all commits first).
void BodyEmitter::cpAsyncDrain() {
  const auto& code = test_.threads[static_cast<size_t>(t_)].code;
  if (std::none_of(code.begin(), code.end(), isCopy)) return;
  out_.comment("the end: the thread's cp.async complete");
  out_.op(std::string(warpMode_ ? "@%h_lane0 " : "") + "cp.async.wait_all");
}

}  // namespace gpu
