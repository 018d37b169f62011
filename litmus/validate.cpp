// Checks that both front ends share: names resolve (locations, registers, labels, threads),
// placement is consistent, aliases lead to a real location. Also fills the defaults that depend
// on the whole test (alias roots, observed terms).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "litmus/test_index.h"

namespace litmus {
namespace {

std::set<std::string> writtenRegisters(const Thread& t) {
  std::set<std::string> regs;
  for (const auto& [name, value] : t.initRegs) regs.insert(name);
  for (const Instr& in : t.code)
    for (int i = 0; i < destCount(in); ++i) regs.insert(in.args[i].name);
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
void resolveAliases(Test& test, const Deadline& deadline) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < test.locations.size(); ++i) index[test.locations[i].name] = i;
  for (Location& l : test.locations) {
    if (l.aliasOf.empty()) continue;
    std::string root = l.aliasOf;
    for (size_t steps = 0;; ++steps) {
      deadline.check();  // a chain of n aliases takes n steps for each of them
      auto it = index.find(root);
      if (it == index.end())
        throw Error(l.loc, "'" + l.name + "' is an alias of unknown location '" + root + "'");
      if (steps > test.locations.size()) throw Error(l.loc, "alias cycle through '" + l.name + "'");
      const Location& next = test.locations[it->second];
      const bool generic = next.aliasOf.empty() || next.aliasProxy == Proxy::Generic;
      if (l.aliasProxy != Proxy::Generic && l.viewOf.empty() && generic) l.viewOf = next.name;
      if (next.aliasOf.empty()) break;
      root = next.aliasOf;
    }
    const Location& r = test.locations[index[root]];
    l.aliasOf = root;
    l.init = r.init;
    l.initAt = r.initAt;
    l.space = r.space;
  }
}

// The first pair (in file order of the later thread, then of the earlier) placed inconsistently.
// The threads before one that passed agree with each other, so each of them agrees with the
// first thread of its CTA and of its cluster: comparing with those two is enough (linear; every
// pair was quadratic).
void checkPlacement(const Test& test, const Deadline& deadline) {
  std::map<int, size_t> firstOfCta, firstOfCluster;
  for (size_t j = 0; j < test.threads.size(); ++j) {
    deadline.check();
    const Thread& b = test.threads[j];
    const auto cta = firstOfCta.emplace(b.cta, j).first, cluster = firstOfCluster.emplace(b.cluster, j).first;
    const Thread &c = test.threads[cta->second], &k = test.threads[cluster->second];
    const bool ctaClash = c.cluster != b.cluster || c.gpu != b.gpu, clusterClash = k.gpu != b.gpu;
    if (!ctaClash && !clusterClash) continue;
    const Thread& a = ctaClash && (!clusterClash || cta->second < cluster->second) ? c : k;
    const std::string pair = "threads " + a.name + " and " + b.name;
    if (a.cta == b.cta && a.cluster != b.cluster)
      throw Error(b.loc, pair + " share CTA " + std::to_string(a.cta) + " but not cluster");
    if (a.cta == b.cta && a.gpu != b.gpu)
      throw Error(b.loc, pair + " share CTA " + std::to_string(a.cta) + " but not GPU");
    throw Error(b.loc, pair + " share cluster " + std::to_string(a.cluster) + " but not GPU");
  }
}

// Position of a branch target inside its instruction, for a caret on the label itself.
SourceLoc targetLoc(const Instr& in) {
  SourceLoc loc = in.loc;
  size_t at = in.text.rfind(in.target);
  if (loc.col && at != std::string::npos) loc.col += static_cast<int>(at);
  return loc;
}

// Three `bar` operands are Dat3M's ID, INSTANCE, COUNT; PTX has at most two (Test::dat3mBarriers).
// In PTX form (§9.7.13.1) an immediate id lies in 0-15, an immediate thread count is a positive
// multiple of the warp size, and bar.arrive must give a count. (Register operands are checked
// when the model reads them.)
void checkBarrierOperands(const Test& test, const Instr& in) {
  if (in.op != Opcode::Bar || in.barOp == BarOp::ClusterArrive || in.barOp == BarOp::ClusterWait ||
      in.barOp == BarOp::WarpSync)
    return;
  const bool plain = in.barOp == BarOp::Sync || in.barOp == BarOp::Arrive;
  if (plain && in.args.size() == 3 && !test.dat3mBarriers)
    throw Error(in.args[2].loc, "a third barrier operand is the Dat3M form ID, INSTANCE, COUNT; "
                                "add 'barriers: dat3m' to read it so");
  if (test.dat3mBarriers && plain) return;
  const BarOperands o = barOperands(in, false);
  const Operand& id = in.args[o.id];
  if (id.kind == Operand::Kind::Imm && (id.imm < 0 || id.imm > 15))
    throw Error(id.loc, "barrier id " + std::to_string(id.imm) + " is out of range 0-15");
  if (in.barOp == BarOp::Arrive && o.count < 0)
    throw Error(in.loc, "'" + in.text + "' needs a thread count (bar.arrive a, b)");
  if (o.count < 0) return;
  const Operand& count = in.args[o.count];
  if (count.kind == Operand::Kind::Imm && (count.imm <= 0 || count.imm % 32 != 0))
    throw Error(count.loc, "thread count " + std::to_string(count.imm) +
                               " is not a positive multiple of the warp size 32 (each litmus "
                               "thread stands for a warp)");
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
    for (size_t i = destCount(in); i < in.args.size(); ++i) {
      const Operand& a = in.args[i];
      if (a.kind == Operand::Kind::Reg && !regs.count(a.name) && !isSpecialRegister(a.name))
        unwritten(a.name, a.loc);
      if (a.kind == Operand::Kind::RegAddr && a.imm < 0)
        throw Error(a.loc, "negative offset in '" + formatOperand(a, Type::None) + "': an address register %" +
                               a.name + " names its location or one of its elements [%" + a.name + "+K], K >= 0");
      if (a.kind != Operand::Kind::Addr) continue;
      if (!locations.count(a.name)) throw Error(a.loc, "unknown location '" + a.name + "'");
      if (a.imm < 0)
        throw Error(a.loc, "negative offset in '" + formatOperand(a, Type::None) +
                               "': an address names location '" + a.name +
                               "' or one of its elements [" + a.name + "+K], K >= 0");
    }
    if (in.op != Opcode::Bra) continue;
    auto it = labels.find(in.target);
    if (it == labels.end()) throw Error(targetLoc(in), "unknown label '" + in.target + "'");
    if (it->second > 1)
      throw Error(targetLoc(in),
                  "branch to label '" + in.target + "', which is defined twice in " + t.name);
  }
}

// The state space each address operand is reached in: (operand index, space). Bulk copies and
// tensormap.cp_fenceproxy name a destination and a source space; their mbarrier is in the
// destination's; st.async/red.async address .shared::cluster throughout.
std::vector<std::pair<size_t, Space>> operandSpaces(const Instr& in) {
  if (in.op == Opcode::Async) {
    switch (in.asyncOp) {
      case AsyncOp::Copy:
        if (in.bulkGroup) return {{0, in.space}, {1, in.srcSpace}};
        return {{0, in.space}, {1, in.srcSpace}, {3, in.space}};
      case AsyncOp::TensormapCp: return {{0, in.space}, {1, in.srcSpace}};
      case AsyncOp::CpCopyCa:
      case AsyncOp::CpCopyCg: return {{0, in.space}, {1, in.srcSpace}};
      case AsyncOp::CpArrive:
      case AsyncOp::CpArriveNoinc: return {{0, in.space}};
      case AsyncOp::WgmmaMma:  // the tiles the descriptors name are in .shared::cta
        return {{static_cast<size_t>(in.vec), Space::SharedCta}, {static_cast<size_t>(in.vec) + 1, Space::SharedCta}};
      case AsyncOp::Store:
      case AsyncOp::Reduce:
        if (in.sem == Sem::Release) return {{0, in.space}};  // the global forms (D51)
        return {{0, Space::SharedCluster}, {2, Space::SharedCluster}};
      default: return {};
    }
  }
  if (in.op == Opcode::Clc && in.clcOp == ClcOp::TryCancel) return {{0, in.space}, {1, in.space}};
  const int a = addressIndex(in);
  if (a < 0) return {};
  return {{static_cast<size_t>(a), in.space}};
}

// An instruction that names a state space must find its location there: `.global` on a shared
// location, or `.shared{::cta,::cluster}` on a global one, addresses memory the test does not
// declare. Generic addresses reach either; `.const` reads global memory through the constant
// proxy (§8.6). The GPU runner relies on this rule too.
void checkStateSpaces(const TestIndex& names, const Instr& in) {
  for (const auto& [index, space] : operandSpaces(in)) {
    if (index >= in.args.size() || in.args[index].kind != Operand::Kind::Addr) continue;
    const Operand& a = in.args[index];
    const Location* l = names.location(a.name);
    if (!l) continue;  // reported by checkThread
    const bool sharedLoc = l->space != Space::Global;
    const bool sharedAccess =
        space == Space::Shared || space == Space::SharedCta || space == Space::SharedCluster;
    if (space == Space::Global && sharedLoc)
      throw Error(a.loc, "'" + a.name + "' is in shared memory, but '" + in.text +
                             "' addresses it in .global memory");
    if (sharedAccess && !sharedLoc)
      throw Error(a.loc, "'" + a.name + "' is in global memory, but '" + in.text +
                             "' addresses it in ." + toString(space) +
                             " memory (a shared location is declared with 'space: shared')");
  }
}

class TermChecker {
 public:
  explicit TermChecker(const Test& test) {
    for (const Location& l : test.locations) locations_.insert(l.name);
    for (const Thread& t : test.threads) regs_[t.name] = writtenRegisters(t);
  }
  void check(const Term& t) const {
    if (t.kind == Term::Kind::Mem) {
      auto element = splitElementName(t.name);
      if (!element || !locations_.count(element->first))
        throw Error(t.loc, "condition names unknown location '" +
                               (element ? element->first : t.name) + "'");
    }
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

// §8.7.2: accesses whose byte ranges overlap without coinciding are outside the model. Every
// typed access (each element of a vector atom/red) covers [offset, offset + size) of its root
// location; untyped (herd-style) accesses have no size and are not checked. A condition term
// names the element starting at its offset, so it may not point inside an access either.
// Offsets may be as large as 2^63 - 1, so ranges end in uint64_t and are built by offsetPlus.
class MixedSizeCheck {
 public:
  explicit MixedSizeCheck(const Test& test) : test_(test) {
    for (const Location& l : test.locations) root_[l.name] = l.aliasOf.empty() ? l.name : l.aliasOf;
  }
  void run() {
    for (const Thread& t : test_.threads)
      for (const Instr& in : t.code) collect(t, in);
    // Accesses of one root, sorted by offset: a partial overlap shows between neighbours of
    // distinct (offset, size), comparing each with the widest range seen so far.
    for (auto& [root, all] : byRoot_) {
      std::stable_sort(all.begin(), all.end(),
                       [](const Access& x, const Access& y) { return x.offset < y.offset; });
      const Access* widest = nullptr;
      for (const Access& x : all) {
        if (widest && static_cast<uint64_t>(x.offset) < widest->end &&
            (x.offset != widest->offset || x.end != widest->end))
          fail(*widest, x);
        if (!widest || x.end > widest->end) widest = &x;
      }
    }
    checkTerms();
  }

 private:
  struct Access {
    const Thread* thread;
    const Instr* in;
    const std::string* root;
    int64_t offset;
    uint64_t end;  // one past the last byte: up to 2^63
  };
  void add(const Thread& t, const Instr& in, const Operand& addr, const std::string& loc, int64_t extra,
           int size) {
    const std::optional<int64_t> first = offsetPlus(addr.imm, extra);
    const std::optional<int64_t> last = first ? offsetPlus(*first, size - 1) : std::nullopt;
    if (!last)
      throw Error(addr.loc, "'" + in.text + "' reaches past byte 9223372036854775807 of '" + loc +
                                "', the last an address can name");
    const std::string& root = root_.at(loc);
    byRoot_[root].push_back({&t, &in, &root, *first, static_cast<uint64_t>(*last) + 1});
  }
  void collect(const Thread& t, const Instr& in) {
    for (const BulkRange& r : bulkRanges(in)) {  // a bulk copy accesses 4-byte words
      const Operand& addr = in.args[r.operand];
      const std::string loc = addressLocation(t, addr);
      for (int64_t k = 0; k < r.bytes && !loc.empty(); k += 4) add(t, in, addr, loc, k, 4);
    }
    int a = addressIndex(in), size = elementBytes(in);
    if (a < 0 || size == 0) return;
    const Operand& addr = in.args[a];
    const std::string loc = addressLocation(t, addr);
    if (loc.empty()) return;
    for (int i = 0; i < in.vec; ++i) add(t, in, addr, loc, int64_t{i} * size, size);
  }
  std::string describe(const Access& a) const {
    return "'" + a.in->text + "' (" + a.thread->name + ", bytes " + std::to_string(a.offset) + ".." +
           std::to_string(a.end - 1) + " of " + *a.root + ")";
  }
  [[noreturn]] void fail(const Access& a, const Access& b) const {
    // report at the instruction that comes later in the file
    const Access& later = std::tie(b.in->loc.line, b.in->loc.col) >=
                                  std::tie(a.in->loc.line, a.in->loc.col)
                              ? b
                              : a;
    const Access& earlier = &later == &b ? a : b;
    throw Error(later.in->loc,
                "mixed-size accesses are outside the PTX memory model (§8.7.2): " +
                    describe(earlier) + " and " + describe(later));
  }
  // Once no two ranges overlap partially, those of a root are disjoint or equal: the one that
  // could hold an offset is the last starting before it.
  void checkTerm(const Term& t) const {
    if (t.kind != Term::Kind::Mem) return;
    auto element = splitElementName(t.name);
    if (!element || !root_.count(element->first)) return;
    auto it = byRoot_.find(root_.at(element->first));
    if (it == byRoot_.end()) return;
    const std::vector<Access>& all = it->second;
    auto after = std::lower_bound(all.begin(), all.end(), element->second,
                                  [](const Access& a, int64_t v) { return a.offset < v; });
    if (after == all.begin()) return;
    const Access& a = *std::prev(after);
    if (a.offset < element->second && static_cast<uint64_t>(element->second) < a.end)
      throw Error(t.loc, "condition names '" + t.name + "', which lies inside the access " + describe(a) +
                             " (mixed sizes are outside the model, §8.7.2)");
  }
  void checkTerms() const {
    for (const Term& t : conditionTerms(test_.condition)) checkTerm(t);
    for (const Term& t : test_.observed) checkTerm(t);
  }

  const Test& test_;
  std::map<std::string, std::string> root_;
  std::map<std::string, std::vector<Access>> byRoot_;
};

}  // namespace

void checkClusters(const TestIndex& names, const Deadline& deadline);  // validate_cluster.cpp
void resolveAddressMoves(Test& test, const TestIndex& names);          // validate_address.cpp
void checkAddressForms(const TestIndex& names);
void resolveRegisterAddresses(Test& test, const TestIndex& names, const Deadline& deadline);  // validate_regaddr.cpp
void checkGrids(const Test& test, const Deadline& deadline);  // validate_grid.cpp

void validate(Test& test, const Deadline& deadline) {
  checkUniqueNames(test);
  resolveAliases(test, deadline);
  checkPlacement(test, deadline);
  const TestIndex names(test);  // the locations no longer change, only instructions do
  resolveAddressMoves(test, names);
  resolveRegisterAddresses(test, names, deadline);
  std::set<std::string> locations;
  for (const Location& l : test.locations) locations.insert(l.name);
  for (const Thread& t : test.threads) {
    deadline.check();
    checkThread(t, locations);
    for (const Instr& in : t.code) {
      checkBarrierOperands(test, in);
      checkStateSpaces(names, in);
      validateTensorInstr(names, t, in);
    }
  }
  checkClusters(names, deadline);
  checkAddressForms(names);
  checkGrids(test, deadline);
  TermChecker terms(test);
  terms.check(test.condition);
  for (const Term& t : test.observed) terms.check(t);
  MixedSizeCheck(test).run();
  if (test.observed.empty()) test.observed = conditionTerms(test.condition);
}

}  // namespace litmus
