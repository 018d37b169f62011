// Spin loops (docs/model.md D19): which back edges of a thread's code close a loop whose failed
// iterations can be left out of the search without losing a final state.
#include <set>
#include <string>
#include <vector>

#include "semantics/interpreter.h"

namespace model::detail {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

namespace {

// The registers an instruction reads: every register operand but the destination (args[0] of
// the instructions that compute one), and the guard. Conservative for forms with several
// destinations (they count as read, which only makes a loop less likely to be a spin loop).
std::vector<std::string> registersRead(const Instr& in, bool writesFirst) {
  std::vector<std::string> regs;
  for (size_t a = writesFirst ? 1 : 0; a < in.args.size(); ++a)
    if (in.args[a].kind == Operand::Kind::Reg || in.args[a].kind == Operand::Kind::RegAddr)
      regs.push_back(in.args[a].name);
  if (!in.guard.empty()) regs.push_back(in.guard);
  return regs;
}

}  // namespace

// A failed iteration of a spin loop that only reads and computes registers can be left out: the
// execution without it has a subset of the relations (so it is consistent if the longer one is, all
// axioms being monotone) and the same final state, provided nothing after the loop's first exit
// branch writes a register, and no iteration reads a register value that an earlier iteration
// computed (a counter `add %i, %i, 1` makes each iteration differ, so none may be left out).
// Taking such a back edge therefore ends the path without losing any allowed final state,
// however large the unroll bound.
void Interpreter::markSpinLoops() {
  const auto& code = th_.code;
  spinBackEdge_.assign(code.size(), false);
  spinReads_.assign(code.size(), 0);
  for (size_t pc = 0; pc < code.size(); ++pc) {
    const Instr& br = code[pc];
    if (br.op != Opcode::Bra || !info_.labels.count(br.target)) continue;
    const size_t target = static_cast<size_t>(info_.labels.at(br.target));
    if (target > pc) continue;
    std::set<std::string> loopWrites, iterWrites;  // registers written in the loop / so far
    for (size_t i = target; i < pc; ++i)
      if (code[i].op != Opcode::Bra && !code[i].args.empty() &&
          code[i].args[0].kind == Operand::Kind::Reg)
        loopWrites.insert(code[i].args[0].name);
    auto carried = [&](const Instr& in, bool writesFirst) {
      for (const auto& r : registersRead(in, writesFirst))
        if (loopWrites.count(r) && !iterWrites.count(r)) return true;
      return false;
    };
    bool pure = true, afterExit = false;
    for (size_t i = target; i < pc && pure; ++i) {
      const Instr& in = code[i];
      if (in.op == Opcode::Bra) {
        pure = !carried(in, false);
        const auto t = info_.labels.find(in.target);
        if (t == info_.labels.end() || (t->second >= static_cast<int>(target) &&
                                        t->second <= static_cast<int>(pc)))
          pure = false;  // only exits may branch inside the loop
        afterExit = true;
        continue;
      }
      if (in.op == Opcode::Label) continue;
      const bool waits = in.op == Opcode::Mbarrier && (in.mbarOp == litmus::MbarOp::TestWait ||
                                                       in.mbarOp == litmus::MbarOp::TryWait);
      const bool computes = in.op == Opcode::Ld || in.op == Opcode::Mov || in.op == Opcode::Arith ||
                            in.op == Opcode::Setp || in.op == Opcode::Selp || waits ||
                            (in.op == Opcode::Mbarrier && in.mbarOp == litmus::MbarOp::PendingCount);
      pure = computes && in.guard.empty() && !afterExit && !carried(in, true);
      if (!in.args.empty() && in.args[0].kind == Operand::Kind::Reg) iterWrites.insert(in.args[0].name);
      spinReads_[pc] += in.op == Opcode::Ld || waits;
    }
    spinBackEdge_[pc] = pure && !carried(br, false);
  }
}

}  // namespace model::detail
