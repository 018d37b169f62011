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

// ---- typed arithmetic --------------------------------------------------------------------

namespace {

float asF32(int64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
int64_t fromF32(float f) { return std::bit_cast<uint32_t>(f); }
double asF64(int64_t v) { return std::bit_cast<double>(v); }
int64_t fromF64(double d) { return std::bit_cast<int64_t>(d); }

// IEEE binary16 / bfloat16 <-> float, round to nearest even (enough for litmus-sized values).
float halfToFloat(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v = exp == 0 ? std::ldexp(static_cast<float>(man), -24)
          : exp == 31 ? (man ? NAN : INFINITY)
                      : std::ldexp(static_cast<float>(man | 1024), exp - 25);
  return sign ? -v : v;
}
uint16_t floatToHalf(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 16) & 0x8000;
  const float a = std::fabs(f);
  if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7e00);
  if (a >= 65520.0f) return static_cast<uint16_t>(sign | 0x7c00);
  if (a < std::ldexp(1.0f, -14)) {  // subnormal
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(std::ldexp(a, 24))));
  }
  int e;
  const float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  uint32_t man = static_cast<uint32_t>(std::nearbyint(std::ldexp(m, 11)));  // 11 bits incl. hidden
  if (man == 2048) { man = 1024; ++e; }
  return static_cast<uint16_t>(sign | ((e + 14) << 10) | (man & 1023));
}
float bf16ToFloat(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }
uint16_t floatToBf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

// min/max of PTX floats: a NaN operand yields the other operand, and -0.0 is below +0.0.
float floatMin(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float floatMax(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// .add, .min or .max lane by lane on 16-bit floats (one lane for .f16/.bf16, two for the packed
// .f16x2/.bf16x2, whose lanes are computed independently).
int64_t halfLanes(litmus::AtomOp op, Type t, int64_t a, int64_t b, int lanes) {
  const bool bf = t == Type::BF16 || t == Type::BF16x2;
  int64_t out = 0;
  for (int i = 0; i < lanes; ++i) {
    const auto ha = static_cast<uint16_t>(a >> (16 * i)), hb = static_cast<uint16_t>(b >> (16 * i));
    const float fa = bf ? bf16ToFloat(ha) : halfToFloat(ha);
    const float fb = bf ? bf16ToFloat(hb) : halfToFloat(hb);
    const float s = op == litmus::AtomOp::Min   ? floatMin(fa, fb)
                    : op == litmus::AtomOp::Max ? floatMax(fa, fb)
                                                : fa + fb;
    out |= static_cast<int64_t>(bf ? floatToBf16(s) : floatToHalf(s)) << (16 * i);
  }
  return out;
}

bool isHalf(Type t) { return t == Type::F16 || t == Type::BF16; }
bool isPackedHalf(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }

}  // namespace

int64_t normalize(Type t, int64_t v) {
  switch (litmus::typeBits(t)) {
    case 0:
    case 64:
    case 128: return v;  // .b128 values are modelled in 64 bits (see docs/model.md)
    default: break;
  }
  const int bits = litmus::typeBits(t);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  const uint64_t u = static_cast<uint64_t>(v) & mask;
  if (litmus::isSignedType(t) && (u >> (bits - 1)))
    return static_cast<int64_t>(u | ~mask);
  return static_cast<int64_t>(u);
}

namespace {

bool isUnsigned(Type t) { return !litmus::isSignedType(t) && !litmus::isFloatType(t) && t != Type::None; }

int64_t applyAtom(litmus::AtomOp op, Type t, int64_t old, int64_t b, int64_t c) {
  using litmus::AtomOp;
  const auto ub = static_cast<uint64_t>(b), uo = static_cast<uint64_t>(old);
  if ((isHalf(t) || isPackedHalf(t)) &&
      (op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max))
    return halfLanes(op, t, old, b, isHalf(t) ? 1 : 2);
  switch (op) {
    case AtomOp::And: return old & b;
    case AtomOp::Or: return old | b;
    case AtomOp::Xor: return old ^ b;
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return old == b ? c : old;
    case AtomOp::Sub: return old - b;
    case AtomOp::Inc: return uo >= ub ? 0 : old + 1;
    case AtomOp::Dec: return (uo == 0 || uo > ub) ? b : old - 1;
    case AtomOp::Min: return isUnsigned(t) ? static_cast<int64_t>(std::min(uo, ub)) : std::min(old, b);
    case AtomOp::Max: return isUnsigned(t) ? static_cast<int64_t>(std::max(uo, ub)) : std::max(old, b);
    case AtomOp::Add:
      switch (t) {
        case Type::F32: return fromF32(asF32(old) + asF32(b));
        case Type::F64: return fromF64(asF64(old) + asF64(b));
        default: return old + b;
      }
    case AtomOp::None: break;
  }
  return old;
}

int64_t applyArith(litmus::ArithOp op, Type t, int64_t a, int64_t b) {
  using litmus::ArithOp;
  const bool u = isUnsigned(t);
  const auto ua = static_cast<uint64_t>(a), ubv = static_cast<uint64_t>(b);
  switch (op) {
    case ArithOp::Add: return t == Type::F32 ? fromF32(asF32(a) + asF32(b)) : a + b;
    case ArithOp::Sub: return t == Type::F32 ? fromF32(asF32(a) - asF32(b)) : a - b;
    case ArithOp::Mul: return a * b;
    case ArithOp::Div: return b == 0 ? 0 : (u ? static_cast<int64_t>(ua / ubv) : a / b);
    case ArithOp::Rem: return b == 0 ? 0 : (u ? static_cast<int64_t>(ua % ubv) : a % b);
    case ArithOp::And: return a & b;
    case ArithOp::Or: return a | b;
    case ArithOp::Xor: return a ^ b;
    case ArithOp::Shl: return b >= 64 ? 0 : static_cast<int64_t>(ua << b);
    case ArithOp::Shr: return b >= 64 ? (u ? 0 : (a < 0 ? -1 : 0)) : (u ? static_cast<int64_t>(ua >> b) : a >> b);
    case ArithOp::Min: return u ? static_cast<int64_t>(std::min(ua, ubv)) : std::min(a, b);
    case ArithOp::Max: return u ? static_cast<int64_t>(std::max(ua, ubv)) : std::max(a, b);
    case ArithOp::Neg: return -a;
    case ArithOp::Not: return ~a;
    case ArithOp::None: break;
  }
  return a;
}

bool compare(litmus::CmpOp op, Type t, int64_t a, int64_t b) {
  using litmus::CmpOp;
  if (isUnsigned(t)) {
    const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    switch (op) {
      case CmpOp::Lt: return ua < ub;
      case CmpOp::Le: return ua <= ub;
      case CmpOp::Gt: return ua > ub;
      case CmpOp::Ge: return ua >= ub;
      default: break;
    }
  }
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
    case CmpOp::None: break;
  }
  return false;
}

}  // namespace
}  // namespace model

// ---- the interpreter -----------------------------------------------------------------------

namespace model {
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
