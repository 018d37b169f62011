// Checks that both front ends share: names resolve (locations, registers, labels, threads),
// placement is consistent, aliases lead to a real location. Also fills the defaults that depend
// on the whole test (alias roots, observed terms).
#include <map>
#include <set>

#include "litmus/parse.h"

namespace litmus {
namespace {

// The instructions whose first operand is a destination register.
bool writesFirstArg(const Instr& in) {
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::Atom:
    case Opcode::Mov:
    case Opcode::Arith:
    case Opcode::Setp:
    case Opcode::Selp: return !in.args.empty() && in.args[0].kind == Operand::Kind::Reg;
    case Opcode::Bar:
      return in.barOp == BarOp::RedPopc || in.barOp == BarOp::RedAnd || in.barOp == BarOp::RedOr;
    default: return false;
  }
}

std::set<std::string> writtenRegisters(const Thread& t) {
  std::set<std::string> regs;
  for (const auto& [name, value] : t.initRegs) regs.insert(name);
  for (const Instr& in : t.code)
    if (writesFirstArg(in)) regs.insert(in.args[0].name);
  return regs;
}

void checkUniqueNames(const Test& test) {
  if (test.threads.empty()) throw Error({test.file, 1, 1}, "test has no threads");
  std::set<std::string> seen;
  for (const Thread& t : test.threads)
    if (!seen.insert(t.name).second) throw Error(t.loc, "thread " + t.name + " defined twice");
  seen.clear();
  for (const Location& l : test.locations) {
    if (!seen.insert(l.name).second) throw Error(l.loc, "location '" + l.name + "' defined twice");
    // a location with one of these names could not be told apart from the word in a condition
    for (const char* word : {"true", "false", "and", "or", "not", "exists", "forall"})
      if (l.name == word) throw Error(l.loc, "location name '" + l.name + "' is reserved");
  }
}

// An alias of an alias names the same memory: point every alias at the root location.
void resolveAliases(Test& test) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < test.locations.size(); ++i) index[test.locations[i].name] = i;
  for (Location& l : test.locations) {
    if (l.aliasOf.empty()) continue;
    std::string root = l.aliasOf;
    for (size_t steps = 0;; ++steps) {
      auto it = index.find(root);
      if (it == index.end())
        throw Error(l.loc, "'" + l.name + "' is an alias of unknown location '" + root + "'");
      if (steps > test.locations.size()) throw Error(l.loc, "alias cycle through '" + l.name + "'");
      const Location& next = test.locations[it->second];
      if (next.aliasOf.empty()) break;
      root = next.aliasOf;
    }
    const Location& r = test.locations[index[root]];
    l.aliasOf = root;
    l.init = r.init;
    l.space = r.space;
  }
}

void checkPlacement(const Test& test) {
  for (size_t j = 0; j < test.threads.size(); ++j) {
    const Thread& b = test.threads[j];
    for (size_t i = 0; i < j; ++i) {
      const Thread& a = test.threads[i];
      std::string pair = "threads " + a.name + " and " + b.name;
      if (a.cta == b.cta && a.cluster != b.cluster)
        throw Error(b.loc, pair + " share CTA " + std::to_string(a.cta) + " but not cluster");
      if (a.cta == b.cta && a.gpu != b.gpu)
        throw Error(b.loc, pair + " share CTA " + std::to_string(a.cta) + " but not GPU");
      if (a.cluster == b.cluster && a.gpu != b.gpu)
        throw Error(b.loc, pair + " share cluster " + std::to_string(a.cluster) + " but not GPU");
    }
  }
}

// Position of a branch target inside its instruction, for a caret on the label itself.
SourceLoc targetLoc(const Instr& in) {
  SourceLoc loc = in.loc;
  size_t at = in.text.rfind(in.target);
  if (loc.col && at != std::string::npos) loc.col += static_cast<int>(at);
  return loc;
}

void checkThread(const Thread& t, const std::set<std::string>& locations) {
  std::map<std::string, int> labels;
  for (const Instr& in : t.code)
    if (in.op == Opcode::Label) ++labels[in.target];
  std::set<std::string> regs = writtenRegisters(t);
  auto unwritten = [&](const std::string& r, const SourceLoc& loc) {
    throw Error(loc,
                "register '" + r + "' of " + t.name + " is used but never written or initialised");
  };
  for (const Instr& in : t.code) {
    if (!in.guard.empty() && !regs.count(in.guard)) unwritten(in.guard, in.loc);
    for (size_t i = writesFirstArg(in) ? 1 : 0; i < in.args.size(); ++i) {
      const Operand& a = in.args[i];
      if (a.kind == Operand::Kind::Reg && !regs.count(a.name)) unwritten(a.name, a.loc);
      if (a.kind == Operand::Kind::Addr && !locations.count(a.name))
        throw Error(a.loc, "unknown location '" + a.name + "'");
    }
    if (in.op != Opcode::Bra) continue;
    auto it = labels.find(in.target);
    if (it == labels.end()) throw Error(targetLoc(in), "unknown label '" + in.target + "'");
    if (it->second > 1)
      throw Error(targetLoc(in),
                  "branch to label '" + in.target + "', which is defined twice in " + t.name);
  }
}

class TermChecker {
 public:
  explicit TermChecker(const Test& test) {
    for (const Location& l : test.locations) locations_.insert(l.name);
    for (const Thread& t : test.threads) regs_[t.name] = writtenRegisters(t);
  }
  void check(const Term& t) const {
    if (t.kind == Term::Kind::Mem && !locations_.count(t.name))
      throw Error(t.loc, "condition names unknown location '" + t.name + "'");
    if (t.kind != Term::Kind::Reg) return;
    auto it = regs_.find(t.thread);
    if (it == regs_.end()) throw Error(t.loc, "condition names unknown thread " + t.thread);
    if (!it->second.count(t.name))
      throw Error(t.loc, "condition names register '" + t.name + "' of " + t.thread +
                             ", which is never written or initialised");
  }
  void check(const Cond& c) const {
    if (c.kind == Cond::Kind::Cmp) {
      check(c.lhs);
      check(c.rhs);
    }
    for (const Cond& k : c.kids) check(k);
  }

 private:
  std::set<std::string> locations_;
  std::map<std::string, std::set<std::string>> regs_;
};

}  // namespace

void validate(Test& test) {
  checkUniqueNames(test);
  resolveAliases(test);
  checkPlacement(test);
  std::set<std::string> locations;
  for (const Location& l : test.locations) locations.insert(l.name);
  for (const Thread& t : test.threads) checkThread(t, locations);
  TermChecker terms(test);
  terms.check(test.condition);
  for (const Term& t : test.observed) terms.check(t);
  if (test.observed.empty()) test.observed = conditionTerms(test.condition);
}

}  // namespace litmus
