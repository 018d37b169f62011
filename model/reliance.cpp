#include "model/reliance.h"

#include <string>

#include "litmus/instructions.h"

namespace model {

using litmus::ArithOp;
using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

namespace {

bool isReg(const Operand& o) { return o.kind == Operand::Kind::Reg; }
bool sameReg(const Operand& a, const Operand& b) { return isReg(a) && isReg(b) && a.name == b.name; }
bool isZero(const Operand& o) { return o.kind == Operand::Kind::Imm && o.imm == 0; }

// An instruction whose result ignores a register it names: a syntactic dependency that is only
// apparent (§8.10.4 lets implementations drop those; D9 keeps every syntactic dependency).
bool apparentDependency(const Instr& in, const Instr* next) {
  const auto& a = in.args;
  switch (in.op) {
    case Opcode::Arith:
      if (a.size() < 3) return false;
      if ((in.arith == ArithOp::Mul || in.arith == ArithOp::And) && (isZero(a[1]) || isZero(a[2]))) return true;
      return (in.arith == ArithOp::Xor || in.arith == ArithOp::Sub) && sameReg(a[1], a[2]);
    case Opcode::Setp: return a.size() >= 3 && sameReg(a[1], a[2]);
    case Opcode::Selp: return a.size() >= 4 && a[1].kind == a[2].kind && a[1].name == a[2].name && a[1].imm == a[2].imm;
    case Opcode::Bra:  // a conditional branch to the very next instruction
      return (!in.guard.empty() || in.cmp != litmus::CmpOp::None) && next && next->op == Opcode::Label &&
             next->target == in.target;
    default: return false;
  }
}

bool releasesOrAcquires(litmus::Sem s) {
  return s == litmus::Sem::Release || s == litmus::Sem::Acquire || s == litmus::Sem::AcqRel;
}

// A reliance on a decision that has no readings (GCC 12 warns about the fields a designated
// initializer leaves out, which -Werror turns into a failed build).
litmus::Reliance reliance(const char* decision, const char* text) {
  litmus::Reliance r;
  r.decision = decision;
  r.text = text;
  return r;
}

}  // namespace

std::vector<litmus::Reliance> reliances(const litmus::Test& test) {
  bool d9 = false, d21 = false, d22 = false, d33 = false, d34 = false;
  for (const auto& t : test.threads)
    for (size_t i = 0; i < t.code.size(); ++i) {
      const Instr& in = t.code[i];
      d9 = d9 || apparentDependency(in, i + 1 < t.code.size() ? &t.code[i + 1] : nullptr);
      d21 = d21 || (litmus::isRmw(in) && in.vec > 1 && releasesOrAcquires(in.sem));
      d22 = d22 || ((in.op == Opcode::Ld || in.op == Opcode::St) && in.type == litmus::Type::B128);
      d33 = d33 || in.op == Opcode::Elect;
      d34 = d34 || (in.op == Opcode::Async && in.readOnly);
    }
  std::vector<litmus::Reliance> out;
  if (d9) out.push_back(reliance("D9", "No-Thin-Air keeps a dependency that is only apparent (§8.10.4 lets it be dropped)"));
  if (d21) out.push_back(reliance("D21", "the elements of a releasing or acquiring vector atom/red are ordered element 0 first"));
  if (d22) out.push_back(reliance("D22", "a .b128 load or store is one single-copy-atomic access"));
  if (d33) out.push_back(reliance("D33", "elect.sync elects the lowest lane of the mask"));
  if (d34) out.push_back(reliance("D34", "cp.async.bulk.wait_group.read also acts as a generic-async proxy fence"));
  return out;
}

litmus::Reliance loopBoundReliance(int unroll) {
  return reliance("D19", ("loops unrolled at most " + std::to_string(unroll) +
                          " times (--unroll): longer executions were not explored").c_str());
}

}  // namespace model
