#include "semantics/semantics.h"

#include "model/readings.h"

#include <algorithm>
#include <bit>
#include <bitset>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <stdexcept>

#include "base/limit_error.h"
#include "litmus/instructions.h"
#include "model/barriers.h"
#include "model/bitrel.h"
#include "semantics/collectives.h"
#include "semantics/interpreter.h"
#include "semantics/launch.h"

namespace model {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;
using litmus::Type;

int Program::vaOf(const std::string& name) const {
  const auto element = litmus::splitElementName(name);
  if (!element) return -1;
  const auto it = declIndex.find(element->first);
  return it == declIndex.end() ? -1 : addressOf(it->second, element->second);
}

int Program::addressOf(int decl, int64_t offset) const {
  const auto it = addressIds.find({decl, offset});
  return it == addressIds.end() ? -1 : it->second;
}

std::string Program::locName(int loc) const {
  return litmus::elementName(locNames[loc], locOffset[loc]);
}

std::vector<int> barrierParticipants(const Program& prog, int64_t key) {
  if (isCollectiveKey(key)) return collectiveParticipants(prog, key);
  const BarrierName b = barrierName(key);
  const litmus::Test& test = *prog.test;
  // Dat3M: the threads whose code names this barrier (an id or instance in a register might).
  auto names = [&](const litmus::Thread& th) {
    for (const Instr& in : th.code) {
      if (in.op != Opcode::Bar || !(in.barOp == litmus::BarOp::Sync || in.barOp == litmus::BarOp::Arrive))
        continue;
      const litmus::BarOperands o = litmus::barOperands(in, true);
      auto is = [&](int i, int64_t v) {  // absent operands are 0; registers might be anything
        if (i < 0) return v == 0;
        return in.args[i].kind != Operand::Kind::Imm || in.args[i].imm == v;
      };
      if (is(o.id, b.id) && is(o.instance, b.instance)) return true;
    }
    return false;
  };
  std::vector<int> out;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const litmus::Thread& th = test.threads[t];
    if (th.gpu != b.gpu) continue;
    const bool cluster = b.kind == BarrierKind::Cluster;
    if ((cluster ? th.cluster : th.cta) != b.group) continue;
    if (!cluster && test.dat3mBarriers && !names(th)) continue;
    out.push_back(static_cast<int>(t));
  }
  return out;
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

// Every element address `x+K` the test uses: memory operands (each element of a vector atom/red)
// in program text order, then the condition and the observed terms; then the words of bulk copies
// that some other access or copy uses (a word nobody else touches cannot change the outcome, so
// copies leave it out: D30).
std::vector<std::pair<std::string, int64_t>> usedAddresses(const litmus::Test& test) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& th : test.threads)
    for (const Instr& in : th.code) {
      const int a = litmus::addressIndex(in);
      for (size_t i = 0; i < in.args.size(); ++i) {
        const std::string loc = litmus::addressLocation(th, in.args[i]);
        if (loc.empty()) continue;
        const int elems = static_cast<int>(i) == a ? in.vec : 1;
        for (int e = 0; e < elems; ++e)
          out.emplace_back(loc, in.args[i].imm + int64_t{e} * litmus::elementBytes(in));
      }
    }
  std::vector<litmus::Term> terms = litmus::conditionTerms(test.condition);
  terms.insert(terms.end(), test.observed.begin(), test.observed.end());
  for (const auto& t : terms)
    if (t.kind == litmus::Term::Kind::Mem)
      if (auto element = litmus::splitElementName(t.name)) out.push_back(*element);
  std::set<std::pair<std::string, int64_t>> used(out.begin(), out.end());
  for (bool grew = true; grew;) {  // a copy of a copy: until no copy adds a word
    grew = false;
    for (const auto& th : test.threads)
      for (const Instr& in : th.code) {
        const auto ranges = litmus::bulkRanges(in);
        if (ranges.empty()) continue;
        const Operand &dst = in.args[ranges[0].operand], &src = in.args[ranges[1].operand];
        const std::string d = litmus::addressLocation(th, dst), s = litmus::addressLocation(th, src);
        for (int64_t k = 0; k < ranges[0].bytes; k += 4) {
          const std::pair<std::string, int64_t> to{d, dst.imm + k}, from{s, src.imm + k};
          if (used.count(to) == used.count(from)) continue;
          for (const auto& w : {to, from})
            if (used.insert(w).second) out.push_back(w);
          grew = true;
        }
      }
  }
  return out;
}

}  // namespace

namespace {

// %cluster_ctarank and the other special registers (docs/format.md): a cluster's CTAs form a row
// along x, ranked in increasing CTA number.
int64_t specialValue(const std::string& name, const litmus::Placement& place, size_t t) {
  if (name == "cluster_ctarank" || name == "cluster_ctaid.x") return place.rank[t];
  if (name == "cluster_nctarank" || name == "cluster_nctaid.x") return place.ctas[t];
  if (name == "cluster_nctaid.y" || name == "cluster_nctaid.z" || name == "is_explicit_cluster") return 1;
  if (name == "laneid") return place.lane[t];
  return 0;  // cluster_ctaid.y, .z
}

// A barrier instruction whose barrier has no thread count (all threads of the CTA or cluster).
bool countless(const litmus::Test& test, const Instr& in) {
  using litmus::BarOp;
  if (in.op == Opcode::Warp) return in.warpOp != litmus::WarpOp::Activemask;  // exits count (D41)
  if (in.op != Opcode::Bar || in.barOp == litmus::BarOp::WarpSync) return false;
  if (in.barOp == BarOp::ClusterArrive || in.barOp == BarOp::ClusterWait) return true;
  return litmus::barOperands(in, test.dat3mBarriers).count < 0;
}

}  // namespace

Program buildProgram(const litmus::Test& test) {
  Program p;
  p.test = &test;
  p.activemaskConverged = pins(test, "D42", "converged");
  std::map<std::string, int>& declIndex = p.declIndex;
  for (size_t i = 0; i < test.locations.size(); ++i)
    declIndex.emplace(test.locations[i].name, static_cast<int>(i));  // the first, as a search finds
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
      p.locOwnerCta.push_back(l.ownerCta);
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
      p.vaView.push_back(l.viewOf.empty() ? d : declIndex.at(l.viewOf));
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
  const litmus::Placement place = litmus::placementOf(test);
  std::map<int, int> firstInCta;  // litmus::threadInCta, without a search per location
  for (size_t t = 0; t < test.threads.size(); ++t) firstInCta.emplace(test.threads[t].cta, static_cast<int>(t));
  for (const auto& l : test.locations) {
    const auto found = firstInCta.find(l.ownerCta);
    const int owner = l.ownerCta < 0 || found == firstInCta.end() ? -1 : found->second;
    p.ownerRank.push_back(owner < 0 ? -1 : place.rank[owner]);
  }
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const auto& th = test.threads[t];
    Program::ThreadInfo info;
    for (const auto& [name, v] : th.initRegs) regIndex(info, name);
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      p.countlessBarriers |= countless(test, in);
      if (in.op == Opcode::Label) info.labels[in.target] = static_cast<int>(i);
      for (const auto& a : in.args)
        if (a.kind == Operand::Kind::Reg) regIndex(info, a.name);
      if (!in.guard.empty()) regIndex(info, in.guard);
    }
    info.initRegs.assign(info.regNames.size(), 0);
    for (const auto& [name, v] : th.initRegs) info.initRegs[info.regId.at(name)] = v;
    for (size_t r = 0; r < info.regNames.size(); ++r)
      if (litmus::isPlacementRegister(info.regNames[r]))
        info.initRegs[r] = litmus::placementRegister(test, t, info.regNames[r]);
      else if (litmus::isSpecialRegister(info.regNames[r]))
        info.initRegs[r] = specialValue(info.regNames[r], place, t);
    info.lanes = place.lanes[t];
    info.lane = place.lane[t];
    info.rank = place.rank[t];
    p.threads.push_back(std::move(info));
  }
  placeGrids(test, p);
  return p;
}

// ---- the interpreter -----------------------------------------------------------------------

namespace detail {


// The operands whose values decide what `in` does (which location, barrier, count): every
// register address, and the numeric operands of barriers, mbarrier counts and cluster
// instructions. Values that only flow into registers and memory stay lazy; predicates (guards,
// branch conditions, bar.red's predicate, a wait's result) fork two ways where they are used.
std::vector<int> Interpreter::decidingOperands(const Instr& in) const {
  std::vector<int> out;
  for (size_t i = 0; i < in.args.size(); ++i)
    if (in.args[i].kind == Operand::Kind::RegAddr) out.push_back(static_cast<int>(i));
  auto regs = [&](size_t from, size_t to) {
    for (size_t i = from; i < to && i < in.args.size(); ++i)
      if (in.args[i].kind == Operand::Kind::Reg) out.push_back(static_cast<int>(i));
  };
  switch (in.op) {
    case Opcode::Bar:
      if (isReduction(in.barOp)) regs(1, in.args.size() - 1);  // not the result, nor the predicate
      else regs(0, in.args.size());
      break;
    case Opcode::Mbarrier: {
      using litmus::MbarOp;
      const MbarOp op = in.mbarOp;
      if (op == MbarOp::Init) regs(1, 2);
      else if (op == MbarOp::Arrive || op == MbarOp::ArriveDrop) regs(2, 3);
      else if (op == MbarOp::ExpectTx || op == MbarOp::CompleteTx) regs(1, 2);
      break;
    }
    case Opcode::Mapa:
    case Opcode::GetCtaRank: regs(1, in.args.size()); break;
    case Opcode::Elect: regs(2, 3); break;
    case Opcode::Warp: if (litmus::warpMaskIndex(in) >= 0) regs(litmus::warpMaskIndex(in), in.args.size()); break;
    case Opcode::Async:  // tensor coordinates and the ctaMask (semantics_tensor.cpp)
      if (in.tensorDims > 0 || in.multicast) regs(0, in.args.size());
      break;
    default: break;
  }
  return out;
}

int64_t Interpreter::num(const Path& p, const Operand& o) const {
  const auto k = tryKnow(p, value(p, o));
  if (!k) throw std::logic_error("'" + th_.code[p.pc].text + "': operand %" + o.name + " not known");
  return *k;
}

bool Interpreter::concretize(Path& p, const Instr& in) {
  std::vector<int> lazy;
  for (int i : decidingOperands(in)) {
    Operand o = in.args[i];
    if (o.kind == Operand::Kind::RegAddr) o.kind = Operand::Kind::Reg;
    const Val v = value(p, o);
    if (tryKnow(p, v)) continue;
    for (int r : readsOf(v))
      if (!p.trace.vals[r].known()) lazy.push_back(r);
  }
  if (lazy.empty()) return true;
  std::sort(lazy.begin(), lazy.end());
  lazy.erase(std::unique(lazy.begin(), lazy.end()), lazy.end());
  // Every combination of values of those reads, as the domain gives them (each read's value then
  // fixed on its path, and checked against reads-from like any other).
  std::function<void(size_t, Path&)> fix = [&](size_t i, Path& q) {
    if (i == lazy.size()) {
      for (const auto& g : q.trace.guards)
        if (auto k = tryKnow(q, g.v); k && (*k != 0) != g.truth) return;  // contradicts a decision
      explore(std::move(q));
      return;
    }
    const int r = lazy[i];
    for (int64_t v : domain_[q.trace.events[r].loc]) {
      Path c = q;
      c.trace.vals[r] = Val(v);
      c.trace.events[r].value = v;
      fix(i + 1, c);
    }
  };
  fix(0, p);
  return false;
}

// Non-memory and write-only instructions: advance p in place.
bool Interpreter::stepPure(Path& p, const Instr& in) {
  const litmus::Type type = in.type;
  auto norm = [type](const Val& v) { return lift(v, [type](int64_t x) { return normalize(type, x); }); };
  switch (in.op) {
    case Opcode::Label:
    case Opcode::Nop:
    case Opcode::SetMaxNReg: break;  // the warp's register budget only
    case Opcode::Mov:
      setReg(p, in.args[0], norm(value(p, in.args[1])), taintOf(p, in.args[1]));
      break;
    case Opcode::Arith: {
      const auto& a = in.args[1];
      const Operand& b = in.args.size() > 2 ? in.args[2] : a;
      const litmus::ArithOp op = in.arith;
      setReg(p, in.args[0],
             lift(value(p, a), value(p, b),
                   [op, type](int64_t x, int64_t y) { return normalize(type, applyArith(op, type, x, y)); }),
             taintOf(p, a) | taintOf(p, b));
      break;
    }
    case Opcode::Setp: {
      const litmus::CmpOp cmp = in.cmp;
      setReg(p, in.args[0],
             lift(value(p, in.args[1]), value(p, in.args[2]),
                   [cmp, type](int64_t x, int64_t y) -> int64_t { return compare(cmp, type, x, y); }),
             taintOf(p, in.args[1]) | taintOf(p, in.args[2]));
      break;
    }
    case Opcode::Mapa:
    case Opcode::GetCtaRank:
    case Opcode::Elect: stepCluster(p, in); break;
    case Opcode::Selp:
      setReg(p, in.args[0],
             lift({value(p, in.args[1]), value(p, in.args[2]), value(p, in.args[3])},
                   [](std::span<const int64_t> x) { return x[2] != 0 ? x[0] : x[1]; }),
             taintOf(p, in.args[1]) | taintOf(p, in.args[2]) | taintOf(p, in.args[3]));
      break;
    case Opcode::St: {
      Event e = memEvent(p, in, EventKind::Write, addressOf(p, in, 0));
      emit(p, e, taintOf(p, in.args[1]), norm(value(p, in.args[1])));
      break;
    }
    case Opcode::Fence: {
      // restricted fences (.mbarrier_init, .sync_restrict) order only some operations (D29)
      Event f = baseEvent(p, in, EventKind::Fence);
      f.restrict = in.restrict;
      emit(p, f, {});
      break;
    }
    case Opcode::FenceProxy: {
      Event e = baseEvent(p, in, EventKind::ProxyFence);
      e.proxyFence = in.proxyKind;
      if (in.proxyKind == litmus::FenceProxyKind::TensormapAcquire) {  // [a], 128: its range
        // a register from mapa (validation resolved every other register to its location)
        if (in.args[0].kind == Operand::Kind::RegAddr) operandAddress(p, in, in.args[0], 0);
        e.va = prog_.vaDecl[prog_.vaOf(litmus::addressLocation(th_, in.args[0]))];
        e.offset = in.args[0].imm;
        e.value = in.args[1].imm;
      }
      emit(p, e, {});
      break;
    }
    case Opcode::Bra: return stepBranch(p, in);
    case Opcode::Cvta: stepCvta(p, in); break;
    case Opcode::Clc: stepQueryCancel(p, in); break;
    case Opcode::CreatePolicy: setReg(p, in.args[0], 0, {}); break;  // an opaque policy (format.md)
    default: break;
  }
  ++p.pc;
  return true;
}

// A branch whose condition the path does not know forks: not taken on a copy, taken here.
bool Interpreter::stepBranch(Path& p, const Instr& in) {
  if (in.cmp != litmus::CmpOp::None) {
    p.ctrl |= taintOf(p, in.args[0]) | taintOf(p, in.args[1]);
    const litmus::CmpOp cmp = in.cmp;
    const litmus::Type type = in.type;
    const Val c = lift(value(p, in.args[0]), value(p, in.args[1]),
                        [cmp, type](int64_t x, int64_t y) -> int64_t { return compare(cmp, type, x, y); });
    const auto taken = truthOf(p, c);
    if (taken && !*taken) {
      ++p.pc;
      return true;
    }
    if (!taken) {
      Path q = p;
      decide(q, c, false);
      ++q.pc;
      explore(std::move(q));
      decide(p, c, true);
    }
  }
  const int target = info_.labels.at(in.target);
  if (target <= p.pc && spinBackEdge_[p.pc]) {  // see markSpinLoops
    // The path ends here, and also stands for spinning forever: that is a hang when the
    // iteration just made can repeat, its reads seeing final values (checked by the engines).
    p.trace.spinFrom = static_cast<int>(p.trace.events.size()) - spinReads_[p.pc];
    p.trace.stuckAt = p.pc;
    finish(std::move(p), Stuck::Spinning);
    return false;
  }
  if (target <= p.pc && ++p.backJumps[p.pc] > unroll_) {
    out_.bounded = true;
    out_.dropped.push_back(std::move(p.trace));
    return false;
  }
  p.pc = target;
  return true;
}

void Interpreter::explore(Path p) {
  while (p.pc < static_cast<int>(th_.code.size())) {
    deadline_.check();  // paths double at every undecided branch
    const Instr& in = th_.code[p.pc];
    if (!in.guard.empty()) {
      const int g = info_.regId.at(in.guard);
      p.ctrl |= p.taint[g];
      const Val v = p.regs[g];
      auto holds = truthOf(p, v);
      if (!holds) {  // not known: a copy decides the other way
        Path q = p;
        decide(q, v, in.guardNegated);
        ++q.pc;
        explore(std::move(q));
        decide(p, v, !in.guardNegated);
        holds = !in.guardNegated;
      }
      if (*holds == in.guardNegated) {
        ++p.pc;
        continue;
      }
    }
    if (!concretize(p, in)) return;
    if (litmus::readsMemory(in)) {
      stepRead(std::move(p), in);
      return;
    }
    if (in.op == Opcode::Bar) {
      stepBarrier(std::move(p), in);
      return;
    }
    if (in.op == Opcode::Mbarrier) {
      stepMbarrier(std::move(p), in);
      return;
    }
    if (in.op == Opcode::Async) {
      stepAsync(std::move(p), in);
      return;
    }
    if (in.op == Opcode::Clc && in.clcOp == litmus::ClcOp::TryCancel) {
      stepTryCancel(std::move(p), in);
      return;
    }
    if (in.op == Opcode::Exit) break;  // exit, ret: the thread ends here
    if (in.op == Opcode::Warp) return stepWarp(std::move(p), in);
    if (in.op == Opcode::GridDep) return stepGrid(std::move(p), in);
    if (!stepPure(p, in)) return;
  }
  finish(std::move(p), Stuck::No);
}

void Interpreter::finish(Path p, Stuck stuck) {
  if (stuck == Stuck::No) exitTrigger(p);  // D38 (semantics/launch.cpp)
  if (stuck == Stuck::No && prog_.countlessBarriers) {
    // The exit: an arrival at the barriers without a count that this thread did not reach, which
    // orders the waits of those phases after it but releases nothing (D25). It belongs to no
    // instruction.
    Event e;
    e.kind = EventKind::Arrive;
    e.thread = thread_;
    e.cta = th_.cta;
    e.cluster = th_.cluster;
    e.gpu = th_.gpu;
    e.po = static_cast<int>(p.trace.events.size());
    e.sem = litmus::Sem::Relaxed;
    e.scope = litmus::Scope::Cluster;
    e.barrier = kExitBarrier;
    if (e.po >= kMaxTraceEvents)
      throw litmus::LimitError(th_.loc, "thread " + th_.name + " has more than " + std::to_string(kMaxTraceEvents) + " events: too large for the model (lower --unroll)");
    p.trace.events.push_back(e);
    p.trace.vals.emplace_back(0);
  }
  for (const Val& v : p.regs) p.trace.regs.push_back(tryKnow(p, v).value_or(0));
  p.trace.regVals = std::move(p.regs);
  p.trace.stuck = stuck;
  out_.traces.push_back(std::move(p.trace));
}

// A read's value stays lazy (model/value.h): reads-from settles it.
void Interpreter::stepRead(Path p, const Instr& in) {
  if (in.op != Opcode::Ld) return stepRmw(std::move(p), in, 0);
  const int address = addressOf(p, in, 0);
  Event r = memEvent(p, in, EventKind::Read, address);
  const int k = emitRead(p, r);
  Taint t;
  t[k] = true;
  const litmus::Type type = in.type;
  setReg(p, in.args[0], lift(p.trace.vals[k], [type](int64_t x) { return normalize(type, x); }), t);
  ++p.pc;
  explore(std::move(p));
}

// Element `elem` of an atom/red: a read and a write linked by rmw. A vector atom/red is one such
// RMW per element, on the element's own location, in element order (D21): atomicity holds per
// element only (§9.7.13.5). Operands: see litmus::Instr::args.
void Interpreter::stepRmw(Path p, const Instr& in, int elem) {
  using litmus::Sem;
  const int address = addressOf(p, in, elem);
  const int a = litmus::addressIndex(in);
  const Operand& b = in.args[a + 1 + elem];
  const bool hasC = in.atomOp == litmus::AtomOp::Cas;
  Event r = memEvent(p, in, EventKind::Read, address);
  const Sem sem = in.sem;
  r.red = in.op == Opcode::Red;
  // Acquire belongs to the read half, release to the write half; a red never acquires (§8.8).
  r.sem = (!r.red && (sem == Sem::Acquire || sem == Sem::AcqRel)) ? Sem::Acquire : Sem::Relaxed;
  const Val bv = value(p, b), cv = hasC ? value(p, in.args[3]) : Val(0);
  Event w = memEvent(p, in, EventKind::Write, address);
  w.sem = (sem == Sem::Release || sem == Sem::AcqRel) ? Sem::Release : Sem::Relaxed;
  const Taint data = taintOf(p, b) | (hasC ? taintOf(p, in.args[3]) : Taint{});
  const litmus::AtomOp op = in.atomOp;
  const litmus::Type type = in.type;
  auto update = [&](const Val& old) {
    // exch writes its operand whatever it read: its value must not use the read (a settled
    // value would see a cycle where the dependencies have none)
    const Val o = op == litmus::AtomOp::Exch ? Val(0) : old;
    return lift({o, bv, cv}, [op, type](std::span<const int64_t> x) {
      return normalize(type, applyAtom(op, type, x[0], x[1], x[2]));
    });
  };
  // the new value depends on the old, except for exch
  const int rk = emitRmw(p, r, w, data, update, op == litmus::AtomOp::Exch);
  if (in.op == Opcode::Atom) {
    Taint t;
    t[rk] = true;
    setReg(p, in.args[elem], lift(p.trace.vals[rk], [type](int64_t x) { return normalize(type, x); }), t);
  }
  if (elem + 1 < in.vec) return stepRmw(std::move(p), in, elem + 1);
  ++p.pc;
  explore(std::move(p));
}

}  // namespace detail

using detail::Interpreter;


TraceSet enumerateTraces(const Program& prog, int thread, const Domain& domain, int unroll,
                         const litmus::Deadline& deadline) {
  return Interpreter(prog, thread, domain, unroll, deadline).run();
}

}  // namespace model
