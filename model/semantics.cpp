#include "model/semantics.h"

#include <bit>
#include <bitset>
#include <cmath>
#include <cstring>
#include <functional>

#include "model/bitrel.h"

namespace model {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;
using litmus::Type;

int Program::vaOf(const std::string& name) const {
  const auto element = litmus::splitElementName(name);
  if (!element) return -1;
  for (size_t i = 0; i < test->locations.size(); ++i)
    if (test->locations[i].name == element->first)
      return addressOf(static_cast<int>(i), element->second);
  return -1;
}

int Program::addressOf(int decl, int64_t offset) const {
  const auto it = addressIds.find({decl, offset});
  return it == addressIds.end() ? -1 : it->second;
}

std::string Program::locName(int loc) const {
  return litmus::elementName(locNames[loc], locOffset[loc]);
}

namespace {

int regIndex(Program::ThreadInfo& t, const std::string& name) {
  auto it = t.regId.find(name);
  if (it != t.regId.end()) return it->second;
  const int id = static_cast<int>(t.regNames.size());
  t.regId[name] = id;
  t.regNames.push_back(name);
  return id;
}

void checkSupported(const Instr& in) {
  if (in.op == Opcode::Bar)
    throw litmus::Error(in.loc, "'" + in.text + "': barriers are not in the model yet");
}

// Every element address `x+K` the test uses: memory operands (each element of a vector atom/red)
// in program text order, then the condition and the observed terms.
std::vector<std::pair<std::string, int64_t>> usedAddresses(const litmus::Test& test) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& th : test.threads)
    for (const Instr& in : th.code) {
      const int a = litmus::addressIndex(in);
      if (a < 0) continue;
      const Operand& addr = in.args.at(a);
      for (int i = 0; i < in.vec; ++i)
        out.emplace_back(addr.name, addr.imm + int64_t{i} * litmus::elementBytes(in));
    }
  std::vector<litmus::Term> terms = litmus::conditionTerms(test.condition);
  terms.insert(terms.end(), test.observed.begin(), test.observed.end());
  for (const auto& t : terms)
    if (t.kind == litmus::Term::Kind::Mem)
      if (auto element = litmus::splitElementName(t.name)) out.push_back(*element);
  return out;
}

}  // namespace

Program buildProgram(const litmus::Test& test) {
  Program p;
  p.test = &test;
  std::map<std::string, int> declIndex;
  for (size_t i = 0; i < test.locations.size(); ++i)
    declIndex[test.locations[i].name] = static_cast<int>(i);
  // validate() points every alias at its root declaration
  auto rootOf = [&](int d) {
    const auto& l = test.locations[d];
    return l.aliasOf.empty() ? d : declIndex.at(l.aliasOf);
  };
  std::map<std::pair<int, int64_t>, int> physical;  // (root declaration, offset) -> location
  auto element = [&](int root, int64_t offset) {
    const int next = static_cast<int>(p.locNames.size());
    auto [it, fresh] = physical.emplace(std::make_pair(root, offset), next);
    if (fresh) {
      const auto& l = test.locations[root];
      p.locNames.push_back(l.name);
      p.locOffset.push_back(offset);
      p.locInit.push_back(litmus::initialValue(l, offset));
      p.locSpace.push_back(l.space);
    }
    return it->second;
  };
  auto address = [&](int d, int64_t offset) {
    const int next = static_cast<int>(p.vaNames.size());
    auto [it, fresh] = p.addressIds.emplace(std::make_pair(d, offset), next);
    if (fresh) {
      const auto& l = test.locations[d];
      p.vaNames.push_back(litmus::elementName(l.name, offset));
      p.vaDecl.push_back(d);
      p.vaOffset.push_back(offset);
      p.vaProxy.push_back(l.aliasOf.empty() ? litmus::Proxy::Generic : l.aliasProxy);
      p.vaLoc.push_back(element(rootOf(d), offset));
    }
  };
  for (size_t d = 0; d < test.locations.size(); ++d)
    if (test.locations[d].aliasOf.empty()) element(static_cast<int>(d), 0);
  for (size_t d = 0; d < test.locations.size(); ++d) address(static_cast<int>(d), 0);
  for (const auto& [name, offset] : usedAddresses(test)) {
    const auto it = declIndex.find(name);
    if (it != declIndex.end()) address(it->second, offset);
  }
  for (const auto& th : test.threads) {
    Program::ThreadInfo info;
    for (const auto& [name, v] : th.initRegs) regIndex(info, name);
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      checkSupported(in);
      if (in.op == Opcode::Label) info.labels[in.target] = static_cast<int>(i);
      for (const auto& a : in.args)
        if (a.kind == Operand::Kind::Reg) regIndex(info, a.name);
      if (!in.guard.empty()) regIndex(info, in.guard);
    }
    info.initRegs.assign(info.regNames.size(), 0);
    for (const auto& [name, v] : th.initRegs) info.initRegs[info.regId.at(name)] = v;
    p.threads.push_back(std::move(info));
  }
  return p;
}

// ---- the interpreter -----------------------------------------------------------------------

namespace {

using Taint = std::bitset<kMaxEvents>;  // trace-local indices of the reads a value depends on

struct Path {
  int pc = 0;
  std::vector<int64_t> regs;
  std::vector<Taint> taint;
  Taint ctrl;
  std::vector<int> backJumps;
  Trace trace;
};

class Interpreter {
 public:
  Interpreter(const Program& prog, int thread, const Domain& domain, int unroll)
      : prog_(prog), th_(prog.test->threads[thread]), info_(prog.threads[thread]),
        thread_(thread), domain_(domain), unroll_(unroll) {}

  TraceSet run() {
    markSpinLoops();
    Path p;
    p.regs = info_.initRegs;
    p.taint.assign(p.regs.size(), Taint{});
    p.backJumps.assign(th_.code.size(), 0);
    explore(std::move(p));
    return std::move(out_);
  }

 private:
  const Program& prog_;
  const litmus::Thread& th_;
  const Program::ThreadInfo& info_;
  int thread_;
  const Domain& domain_;
  int unroll_;
  TraceSet out_;
  std::vector<bool> spinBackEdge_;  // per instruction: a back edge closing a side-effect-free loop

  void markSpinLoops();

  int64_t value(const Path& p, const Operand& o) const {
    return o.kind == Operand::Kind::Reg ? p.regs[info_.regId.at(o.name)] : o.imm;
  }
  Taint taintOf(const Path& p, const Operand& o) const {
    return o.kind == Operand::Kind::Reg ? p.taint[info_.regId.at(o.name)] : Taint{};
  }
  void setReg(Path& p, const Operand& o, int64_t v, const Taint& t) const {
    const int r = info_.regId.at(o.name);
    p.regs[r] = v;
    p.taint[r] = t;
  }

  Event baseEvent(const Path& p, const Instr& in, EventKind kind) const {
    Event e;
    e.kind = kind;
    e.thread = thread_;
    e.cta = th_.cta;
    e.cluster = th_.cluster;
    e.gpu = th_.gpu;
    e.instr = p.pc;
    e.po = static_cast<int>(p.trace.events.size());
    e.sem = in.sem;
    e.scope = in.scope;
    if (in.sem == litmus::Sem::Volatile || in.sem == litmus::Sem::Mmio) {
      e.sem = litmus::Sem::Relaxed;  // §8.4.1, §8.4.2: formally .relaxed.sys
      e.scope = litmus::Scope::Sys;
    }
    if (e.sem == litmus::Sem::Weak) e.scope = litmus::Scope::None;
    return e;
  }

  // The address of element `elem` of a memory instruction (0 for scalar accesses).
  int addressOf(const Instr& in, int elem) const {
    const Operand& addr = in.args[litmus::addressIndex(in)];
    const int64_t offset = addr.imm + int64_t{elem} * litmus::elementBytes(in);
    return prog_.addressOf(prog_.vaDecl[prog_.vaOf(addr.name)], offset);
  }

  Event memEvent(const Path& p, const Instr& in, EventKind kind, int address) const {
    Event e = baseEvent(p, in, kind);
    e.va = prog_.vaDecl[address];
    e.offset = prog_.vaOffset[address];
    e.loc = prog_.vaLoc[address];
    e.proxy = in.proxy != litmus::Proxy::Generic ? in.proxy : prog_.vaProxy[address];
    // §8.3: shared memory is reachable from the cluster at most, which caps the scope.
    const auto space = prog_.locSpace[e.loc];
    const bool shared = space == litmus::Space::Shared || space == litmus::Space::SharedCta ||
                        space == litmus::Space::SharedCluster;
    if (shared && e.scope > litmus::Scope::Cluster) e.scope = litmus::Scope::Cluster;
    return e;
  }

  // Appends `e`, recording the reads it depends on; returns its trace-local index.
  int emit(Path& p, Event e, const Taint& data) const {
    const int k = static_cast<int>(p.trace.events.size());
    if (k >= kMaxEvents)
      throw litmus::Error(th_.code[p.pc].loc, "thread " + th_.name + " has too many events for the "
                                              "explicit engine (lower --unroll)");
    const Taint all = data | p.ctrl;
    for (int r = 0; r < k; ++r)
      if (all[r]) p.trace.dep.emplace_back(r, k);
    p.trace.events.push_back(e);
    return k;
  }

  void explore(Path p);
  bool stepPure(Path& p, const Instr& in);  // false: path dropped
  void stepRead(Path p, const Instr& in);
  void stepRmw(Path p, const Instr& in, int elem);
};

// A failed iteration of a spin loop that only reads and computes registers can be left out: the
// execution without it has a subset of the relations (so it is consistent if the longer one is, all
// axioms being monotone) and the same final state, provided nothing after the loop's first exit
// branch writes a register. Taking such a back edge therefore ends the path without losing any
// allowed final state, however large the unroll bound.
void Interpreter::markSpinLoops() {
  const auto& code = th_.code;
  spinBackEdge_.assign(code.size(), false);
  for (size_t pc = 0; pc < code.size(); ++pc) {
    const Instr& br = code[pc];
    if (br.op != Opcode::Bra || !info_.labels.count(br.target)) continue;
    const size_t target = static_cast<size_t>(info_.labels.at(br.target));
    if (target > pc) continue;
    bool pure = true, afterExit = false;
    for (size_t i = target; i < pc && pure; ++i) {
      const Instr& in = code[i];
      if (in.op == Opcode::Bra) {
        const auto t = info_.labels.find(in.target);
        if (t == info_.labels.end() || (t->second >= static_cast<int>(target) &&
                                        t->second <= static_cast<int>(pc)))
          pure = false;  // only exits may branch inside the loop
        afterExit = true;
        continue;
      }
      if (in.op == Opcode::Label) continue;
      const bool computes = in.op == Opcode::Ld || in.op == Opcode::Mov || in.op == Opcode::Arith ||
                            in.op == Opcode::Setp || in.op == Opcode::Selp;
      pure = computes && in.guard.empty() && !afterExit;
    }
    spinBackEdge_[pc] = pure;
  }
}

// Non-memory and write-only instructions: advance p in place.
bool Interpreter::stepPure(Path& p, const Instr& in) {
  switch (in.op) {
    case Opcode::Label:
    case Opcode::Nop: break;
    case Opcode::Mov:
      setReg(p, in.args[0], normalize(in.type, value(p, in.args[1])), taintOf(p, in.args[1]));
      break;
    case Opcode::Arith: {
      const auto& a = in.args[1];
      const Operand& b = in.args.size() > 2 ? in.args[2] : a;
      setReg(p, in.args[0], normalize(in.type, applyArith(in.arith, in.type, value(p, a), value(p, b))),
             taintOf(p, a) | taintOf(p, b));
      break;
    }
    case Opcode::Setp:
      setReg(p, in.args[0], compare(in.cmp, in.type, value(p, in.args[1]), value(p, in.args[2])),
             taintOf(p, in.args[1]) | taintOf(p, in.args[2]));
      break;
    case Opcode::Selp: {
      const bool c = value(p, in.args[3]) != 0;
      setReg(p, in.args[0], value(p, in.args[c ? 1 : 2]),
             taintOf(p, in.args[c ? 1 : 2]) | taintOf(p, in.args[3]));
      break;
    }
    case Opcode::St: {
      Event e = memEvent(p, in, EventKind::Write, addressOf(in, 0));
      e.value = normalize(in.type, value(p, in.args[1]));
      emit(p, e, taintOf(p, in.args[1]));
      break;
    }
    case Opcode::Fence:
      emit(p, baseEvent(p, in, EventKind::Fence), {});
      break;
    case Opcode::FenceProxy: {
      Event e = baseEvent(p, in, EventKind::ProxyFence);
      e.proxyFence = in.proxyKind;
      emit(p, e, {});
      break;
    }
    case Opcode::Bra: {
      bool taken = true;
      if (in.cmp != litmus::CmpOp::None) {
        taken = compare(in.cmp, in.type, value(p, in.args[0]), value(p, in.args[1]));
        p.ctrl |= taintOf(p, in.args[0]) | taintOf(p, in.args[1]);
      }
      if (!taken) break;
      const int target = info_.labels.at(in.target);
      if (target <= p.pc && spinBackEdge_[p.pc]) return false;  // see markSpinLoops
      if (target <= p.pc && ++p.backJumps[p.pc] > unroll_) {
        out_.bounded = true;
        return false;
      }
      p.pc = target;
      return true;
    }
    default: break;
  }
  ++p.pc;
  return true;
}

void Interpreter::explore(Path p) {
  while (p.pc < static_cast<int>(th_.code.size())) {
    const Instr& in = th_.code[p.pc];
    if (!in.guard.empty()) {
      const int g = info_.regId.at(in.guard);
      p.ctrl |= p.taint[g];
      if ((p.regs[g] != 0) == in.guardNegated) {
        ++p.pc;
        continue;
      }
    }
    if (in.op == Opcode::Ld || in.op == Opcode::Atom || in.op == Opcode::Red) {
      stepRead(std::move(p), in);
      return;
    }
    if (!stepPure(p, in)) return;
  }
  p.trace.regs = p.regs;
  out_.traces.push_back(std::move(p.trace));
}

// A read forks the path once per value the location may hold.
void Interpreter::stepRead(Path p, const Instr& in) {
  if (in.op != Opcode::Ld) return stepRmw(std::move(p), in, 0);
  const int address = addressOf(in, 0);
  for (int64_t v : domain_[prog_.vaLoc[address]]) {
    Path q = p;
    Event r = memEvent(q, in, EventKind::Read, address);
    r.value = v;
    const int k = emit(q, r, {});
    Taint t;
    t[k] = true;
    setReg(q, in.args[0], normalize(in.type, v), t);
    ++q.pc;
    explore(std::move(q));
  }
}

// Element `elem` of an atom/red: a read and a write linked by rmw, forking on the value read. A
// vector atom/red is one such RMW per element, on the element's own location, in element order
// (D21): atomicity holds per element only (§9.7.13.5). Operands: see litmus::Instr::args.
void Interpreter::stepRmw(Path p, const Instr& in, int elem) {
  using litmus::Sem;
  const int address = addressOf(in, elem);
  const int a = litmus::addressIndex(in);
  const Operand& b = in.args[a + 1 + elem];
  const bool hasC = in.atomOp == litmus::AtomOp::Cas;
  for (int64_t v : domain_[prog_.vaLoc[address]]) {
    Path q = p;
    Event r = memEvent(q, in, EventKind::Read, address);
    r.value = v;
    const Sem sem = in.sem;
    r.atomic = true;
    r.red = in.op == Opcode::Red;
    // Acquire belongs to the read half, release to the write half; a red never acquires (§8.8).
    r.sem = (!r.red && (sem == Sem::Acquire || sem == Sem::AcqRel)) ? Sem::Acquire : Sem::Relaxed;
    const int rk = emit(q, r, {});
    const int64_t bv = value(q, b), cv = hasC ? value(q, in.args[3]) : 0;
    Event w = memEvent(q, in, EventKind::Write, address);
    w.atomic = true;
    w.sem = (sem == Sem::Release || sem == Sem::AcqRel) ? Sem::Release : Sem::Relaxed;
    w.value = normalize(in.type, applyAtom(in.atomOp, in.type, v, bv, cv));
    Taint data = taintOf(q, b) | (hasC ? taintOf(q, in.args[3]) : Taint{});
    if (in.atomOp != litmus::AtomOp::Exch) data[rk] = true;  // the new value depends on the old
    const int wk = emit(q, w, data);
    q.trace.rmw.emplace_back(rk, wk);
    if (in.op == Opcode::Atom) {
      Taint t;
      t[rk] = true;
      setReg(q, in.args[elem], normalize(in.type, v), t);
    }
    if (elem + 1 < in.vec) {
      stepRmw(std::move(q), in, elem + 1);
      continue;
    }
    ++q.pc;
    explore(std::move(q));
  }
}

}  // namespace

TraceSet enumerateTraces(const Program& prog, int thread, const Domain& domain, int unroll) {
  return Interpreter(prog, thread, domain, unroll).run();
}

// Values reach a location only through chains of writes, each write of a chain a distinct event
// of one execution whose value depends (data or control, the `dep` of the trace) on a read of the
// previous write's location; without thin-air cycles (§8.10.4) a chain is no longer than the
// number of such writes one execution can make. Round k of the fixed point below adds the values made by
// chains of length k. Every write of a chain ending at location l writes a location that can feed
// l through dependencies (an ancestor of l, l included), so l takes new values only while k is
// below the most writes to l's ancestors one execution makes (the per-path maximum of each thread,
// summed); this bound grows with the paths found, and the loop ends when no location changes.
// (A single bound for all locations, the number of writes of an execution, is also sound, but
// vector atoms make it grow with every element and the domains with it.)
Domain valueDomain(const Program& prog, int unroll) {
  const size_t nloc = prog.locNames.size();
  Domain dom(nloc);
  for (size_t l = 0; l < nloc; ++l) dom[l].insert(prog.locInit[l]);
  for (size_t round = 0;; ++round) {
    Domain made(nloc);
    std::vector<std::vector<bool>> feeds(nloc, std::vector<bool>(nloc, false));  // [from][to]
    for (size_t l = 0; l < nloc; ++l) feeds[l][l] = true;
    // per thread, per trace: its writes by location
    std::vector<std::vector<std::vector<size_t>>> writes(prog.threads.size());
    for (size_t t = 0; t < prog.threads.size(); ++t)
      for (const auto& tr : enumerateTraces(prog, static_cast<int>(t), dom, unroll).traces) {
        std::vector<size_t> count(nloc, 0);
        for (const auto& e : tr.events)
          if (e.kind == EventKind::Write) {
            made[e.loc].insert(e.value);
            ++count[e.loc];
          }
        for (const auto& [r, w] : tr.dep)
          if (tr.events[r].kind == EventKind::Read && tr.events[w].kind == EventKind::Write)
            feeds[tr.events[r].loc][tr.events[w].loc] = true;
        writes[t].push_back(std::move(count));
      }
    for (size_t k = 0; k < nloc; ++k)  // transitive closure (Warshall)
      for (size_t i = 0; i < nloc; ++i)
        if (feeds[i][k])
          for (size_t j = 0; j < nloc; ++j) feeds[i][j] = feeds[i][j] || feeds[k][j];
    bool changed = false;
    for (size_t l = 0; l < nloc; ++l) {
      size_t bound = 1;  // rounds: the longest chain into l, plus the round that finds no more
      for (const auto& perTrace : writes) {
        size_t most = 0;
        for (const auto& count : perTrace) {
          size_t n = 0;
          for (size_t a = 0; a < nloc; ++a)
            if (feeds[a][l]) n += count[a];
          most = std::max(most, n);
        }
        bound += most;
      }
      if (round + 1 >= bound) continue;
      for (int64_t v : made[l]) changed = dom[l].insert(v).second || changed;
    }
    if (!changed) return dom;
  }
}

}  // namespace model
