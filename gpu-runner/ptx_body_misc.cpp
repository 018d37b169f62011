// The small forms of issue 14 item 7 in the test body: cvta and `mov d, LOCATION` (addresses
// in registers), exit/ret, nanosleep and createpolicy. clusterlaunchcontrol and the .release
// forms of st.async/red.async need sm_100 and are refused before this (plan_rules.cpp).
#include <bit>
#include <cstdio>

#include "gpu-runner/ptx_body.h"

namespace gpu {

using litmus::Opcode;
using litmus::Space;

void BodyEmitter::miscInstr(const Instr& in) {
  switch (in.op) {
    case Opcode::Cvta: return cvta(in);
    case Opcode::Exit: {  // to the end of the body, where the thread's results are stored
      Instr jump = in;
      jump.op = Opcode::Bra;
      jump.target = kExitLabel;
      return bra(jump);
    }
    case Opcode::Nanosleep: {
      const Operand& t = in.args[0];
      const std::string ns = t.kind == Operand::Kind::Imm ? imm(t.imm) : narrow(t, 32, laneGuard(in));
      return out_.op(laneGuard(in) + "nanosleep.u32 " + ns);
    }
    case Opcode::CreatePolicy: {  // the policy is an opaque 64-bit value
      char frac[16];
      std::snprintf(frac, sizeof frac, "0f%08X", static_cast<unsigned>(in.args[1].imm & 0xffffffff));
      return out_.op(laneGuard(in) + "createpolicy.fractional.L2::evict_last.b64 " + reg(in.args[0].name) +
                     ", " + frac);
    }
    default: refuse(in, "the runner has no PTX for this instruction yet");
  }
}

// The address of a location as the instruction gives it: the runner's own address registers
// (%g generic, %a global, %s the shared window of the thread's CTA), or cvta of a register.
void BodyEmitter::cvta(const Instr& in) {
  const std::string g = laneGuard(in), d = reg(in.args[0].name);
  const Operand& src = in.args[1];
  if (src.kind == Operand::Kind::Reg) {  // a register holding an address: the instruction itself
    const std::string mn = std::string("cvta") + (in.addrSpace != Space::Generic ? ".to" : "") + "." +
                           litmus::toString(in.space);
    if (in.type == Type::U64) return out_.op(g + mn + ".u64 " + d + ", " + reg(src.name));
    const std::string t = w();
    out_.op(g + mn + ".u32 " + t + ", " + reg(src.name));
    return out_.op(g + "cvt.u64.u32 " + d + ", " + t);
  }
  const LocPlan& l = locOf(src);
  const std::string v = std::to_string(&l - plan_.locs.data());
  switch (in.addrSpace) {
    case Space::Generic: return out_.op(g + "mov.b64 " + d + ", %g" + v);
    case Space::Global: return out_.op(g + "mov.b64 " + d + ", %a" + v);
    default: return out_.op(g + "cvt.u64.u32 " + d + ", %s" + v);  // the 32-bit shared window
  }
}

}  // namespace gpu
