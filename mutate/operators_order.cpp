// po-reverse and po-weaken: weakenings of program order itself. Reversing two accesses to
// different locations is what a machine that reorders them would show; removing a dependency is
// what a machine that speculates past it would show (MC Mutants' reversing-po and weakening-po
// mutators, adapted to PTX: our dependencies are data and control, addresses being static).
#include <algorithm>

#include "litmus/ptx_format.h"
#include "mutate/edit.h"

namespace mutate::detail {
namespace {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

bool meets(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& r) { return b.count(r) > 0; });
}

// The location an access names, through aliases to the memory behind it; "" when unknown.
std::string memoryOf(const litmus::Test& test, const litmus::Thread& t, const Instr& in) {
  const int ai = litmus::addressIndex(in);
  if (ai < 0 || static_cast<size_t>(ai) >= in.args.size()) return "";
  std::string loc = litmus::addressLocation(t, in.args[static_cast<size_t>(ai)]);
  for (int hop = 0; hop < 8 && !loc.empty(); ++hop) {
    const auto it = std::find_if(test.locations.begin(), test.locations.end(),
                                 [&](const litmus::Location& l) { return l.name == loc; });
    if (it == test.locations.end() || it->aliasOf.empty()) break;
    loc = it->aliasOf;
  }
  return loc;
}

// Two adjacent accesses can swap when they name different memory and neither feeds the other
// through a register (a same-location swap would break coherence by program order alone).
bool swappable(const litmus::Test& test, const litmus::Thread& t, const Instr& a, const Instr& b) {
  if (!isAccess(a) || !isAccess(b)) return false;
  const std::string ma = memoryOf(test, t, a), mb = memoryOf(test, t, b);
  if (ma.empty() || mb.empty() || ma == mb) return false;
  std::set<std::string> wb = regsWritten(b), rb = regsRead(b);
  rb.insert(wb.begin(), wb.end());
  return !meets(regsWritten(a), rb) && !meets(wb, regsRead(a));
}

// The value a store keeps once its data dependency is cut: the first non-zero constant the
// condition compares with (so that the value the condition waits for can still be written), else 1.
int64_t conditionConstant(const litmus::Cond& c) {
  if (c.kind == litmus::Cond::Kind::Cmp)
    for (const litmus::Term* t : {&c.lhs, &c.rhs})
      if (t->kind == litmus::Term::Kind::Const && t->value != 0) return t->value;
  for (const litmus::Cond& k : c.kids)
    if (int64_t v = conditionConstant(k); v != 0) return v;
  return 0;
}

}  // namespace

std::vector<Mutation> poReverse(const litmus::Test& test) {
  std::vector<Mutation> out;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const litmus::Thread& th = test.threads[t];
    for (size_t i = 0; i + 1 < th.code.size(); ++i) {
      if (!swappable(test, th, th.code[i], th.code[i + 1])) continue;
      std::vector<Instr> code = th.code;
      std::swap(code[i], code[i + 1]);
      out.push_back(withCode(test, Category::PoReverse, t, std::move(code),
                             th.name + ": swap '" + litmus::formatInstr(th.code[i]) + "' and '" +
                                 litmus::formatInstr(th.code[i + 1]) + "'"));
    }
  }
  return out;
}

// Registers are tainted by what a load or RMW read, and taint flows through register
// instructions. A store of a tainted register is data dependent on that read; a forward branch
// (or guard) on a tainted predicate makes what it skips control dependent on it. Backward
// branches (spin loops) are left alone: without the loop the outcome needs no reordering, only an
// early read.
std::vector<Mutation> poWeaken(const litmus::Test& test) {
  std::vector<Mutation> out;
  int64_t constant = conditionConstant(test.condition);
  if (constant == 0) constant = 1;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const litmus::Thread& th = test.threads[t];
    std::set<std::string> tainted;
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      const bool guardTainted = !in.guard.empty() && tainted.count(in.guard);
      if ((in.op == Opcode::St || in.op == Opcode::Red) && !litmus::isFloatType(in.type)) {
        Instr cut = in;
        bool changed = false;
        for (size_t a = static_cast<size_t>(litmus::addressIndex(in)) + 1; a < cut.args.size(); ++a)
          if (cut.args[a].kind == Operand::Kind::Reg && tainted.count(cut.args[a].name)) {
            cut.args[a] = Operand{Operand::Kind::Imm, "", constant, false, cut.args[a].loc};
            changed = true;
          }
        if (changed) out.push_back(replaced(test, Category::PoWeaken, t, i, cut));
      }
      if (in.op == Opcode::Bra && labelIndex(th.code, in.target) > static_cast<int>(i) &&
          (guardTainted || (in.cmp != litmus::CmpOp::None && meets(regsRead(in), tainted))))
        out.push_back(dropped(test, Category::PoWeaken, t, i));
      if (isAccess(in) && guardTainted) {
        Instr unguarded = in;
        unguarded.guard.clear();
        unguarded.guardNegated = false;
        out.push_back(replaced(test, Category::PoWeaken, t, i, unguarded));
      }
      const bool reads = in.op == Opcode::Ld || in.op == Opcode::Atom;
      std::set<std::string> sources = regsRead(in);
      if (!in.guard.empty()) sources.erase(in.guard);
      for (const std::string& r : regsWritten(in)) {
        if (reads || meets(sources, tainted))
          tainted.insert(r);
        else if (in.guard.empty())
          tainted.erase(r);
      }
    }
  }
  return out;
}

}  // namespace mutate::detail
