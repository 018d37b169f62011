// The test body: each litmus instruction becomes the PTX instruction as written (same operation,
// memory order, scope, state space and proxy), with only register moves around it where PTX types
// need them: litmus registers are 64-bit, so a .u32 atom reads its operand from a 32-bit
// temporary. This file: operands, guards, addresses, memory accesses, register instructions.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <cstdio>

#include "gpu-runner/ptx_body.h"
#include "gpu-runner/wait_trace.h"
#include "litmus/ptx_format.h"

namespace gpu {

using litmus::Opcode;

std::string mnemonicAsWritten(const Instr& in) {
  std::string_view s = in.text;
  if (!s.empty() && s[0] == '@') s = s.substr(std::min(s.size(), s.find_first_of(" \t") + 1));
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t')) s.remove_prefix(1);
  return std::string(s.substr(0, s.find_first_of(" \t;")));
}

void BodyEmitter::emit() {
  if (tp_.warpgroup) {  // the first lane of the warpgroup's first warp performs its memory operations
    out_.op("setp.eq.and.u32 %h_lane0, %h_warp, " + imm(tp_.warp) + ", %h_lane0");
    out_.op("not.pred %h_notlane0, %h_lane0");
  }
  initRegisters();
  asyncPrologue();
  tensorPrologue();
  const auto& code = test_.threads[static_cast<size_t>(t_)].code;
  const WaitSites sites = plan_.tracing() ? waitSites(test_) : WaitSites{};
  for (size_t i = 0; i < code.size(); ++i) {
    w_ = x_ = h_ = o_ = c_ = 0;
    // a loop's site before its label: stored when control falls into the loop, not per iteration
    if (const auto s = sites.ids.find({t_, i}); s != sites.ids.end()) emitTraceSiteOf(out_, plan_, t_, s->second);
    if (code[i].op != Opcode::Label) out_.comment(code[i].text);
    instr(code[i]);
  }
  w_ = x_ = h_ = o_ = c_ = 0;
  if (std::any_of(code.begin(), code.end(), [](const Instr& in) { return in.op == Opcode::Exit; }))
    out_.label(label(kExitLabel));
  emitTraceSiteOf(out_, plan_, t_, kSiteDrain);
  wgmmaDrain();
  drain();
}

void BodyEmitter::instr(const Instr& in) {
  switch (in.op) {
    case Opcode::Ld: return ld(in);
    case Opcode::St: return st(in);
    case Opcode::Atom:
    case Opcode::Red: return rmw(in);
    case Opcode::Fence: return fence(in);
    case Opcode::FenceProxy: return fenceProxy(in);
    case Opcode::Bar: return bar(in);
    case Opcode::Mbarrier: return mbarrier(in);
    case Opcode::Async: return asyncInstr(in);
    case Opcode::Mapa: return mapa(in);
    case Opcode::GetCtaRank: return getctarank(in);
    case Opcode::Elect: return elect(in);
    case Opcode::Warp: return warpCollective(in);
    case Opcode::Mov: return mov(in);
    case Opcode::Arith: return arith(in);
    case Opcode::Setp: return setp(in);
    case Opcode::Selp: return selp(in);
    case Opcode::Bra: return bra(in);
    case Opcode::Label: return out_.label(label(in.target));
    case Opcode::Nop:
    case Opcode::SetMaxNReg:  // the kernel's .maxnreg: planRegisterCount (plan_rules.cpp)
      return out_.op(std::string("setmaxnreg.") + (in.atomOp == litmus::AtomOp::Inc ? "inc" : "dec") +
                     ".sync.aligned.u32 " + std::to_string(in.args[0].imm));
    case Opcode::Cvta:
    case Opcode::Exit:
    case Opcode::Nanosleep:
    case Opcode::CreatePolicy: return miscInstr(in);
    case Opcode::GridDep:  // §9.7.13.13: every lane executes it
      return out_.op(laneGuard(in) + (in.gridOp == litmus::GridOp::Wait ? "griddepcontrol.wait" : "griddepcontrol.launch_dependents"));
    default: refuse(in, "the runner has no PTX for this instruction yet");
  }
}

void BodyEmitter::refuse(const Instr& in, const std::string& why) const {
  throw litmus::Error(in.loc, "the GPU runner cannot run '" + in.text + "': " + why);
}

// A 64-bit value operand: the register, or the literal. A special register (%cluster_ctarank,
// ...) is read into a temporary first.
std::string BodyEmitter::value64(const Operand& op) {
  if (op.kind != Operand::Kind::Reg) return imm(op.imm);
  // %tid, %ctaid, ...: the placement's value (the model's), not this instance's
  if (litmus::isPlacementRegister(op.name)) return imm(litmus::placementRegister(test_, static_cast<size_t>(t_), op.name));
  if (!litmus::isSpecialRegister(op.name)) return reg(op.name);
  const std::string t = w(), d = x();
  out_.op("mov.u32 " + t + ", %" + op.name);
  out_.op("cvt.u64.u32 " + d + ", " + t);
  return d;
}

// A value of `bits` bits in a fresh temporary (b16, b32 or b128), or the 64-bit operand itself.
std::string BodyEmitter::narrow(const Operand& op, int bits, const std::string& guard) {
  if (bits == 64) {
    if (op.kind == Operand::Kind::Reg) return value64(op);
    const std::string t = x();
    out_.op(guard + "mov.b64 " + t + ", " + hex(static_cast<uint64_t>(op.imm)));
    return t;
  }
  if (bits == 128) {
    const std::string lo = narrow(op, 64, guard), t = o();
    out_.op(guard + "mov.b128 " + t + ", {" + lo + ", 0}");
    return t;
  }
  const std::string t = bits == 16 ? h() : w();
  const std::string b = std::to_string(bits);
  if (op.kind == Operand::Kind::Reg)
    out_.op(guard + "cvt.u" + b + ".u64 " + t + ", " + value64(op));
  else
    out_.op(guard + "mov.b" + b + " " + t + ", " +
            hex(static_cast<uint64_t>(op.imm) & ((uint64_t{1} << bits) - 1)));
  return t;
}

// dst (64-bit) = a `bits`-bit temporary, extended as the type says (docs: semantics/arith.h).
void BodyEmitter::widen(const std::string& dst, const std::string& tmp, int bits, Type type,
                        const std::string& guard) {
  if (bits == 64) return out_.op(guard + "mov.b64 " + dst + ", " + tmp);
  if (bits == 128) return out_.op(guard + "mov.b128 {" + dst + ", " + x() + "}, " + tmp);
  const std::string b = std::to_string(bits);
  const char* s = litmus::isSignedType(type) ? "s" : "u";
  out_.op(guard + "cvt." + s + "64." + s + b + " " + dst + ", " + tmp);
}

// Litmus values are the type's width, sign- or zero-extended (model::normalize).
void BodyEmitter::normalize(const std::string& r, Type type, const std::string& guard) {
  const int bits = litmus::typeBits(type);
  if (bits <= 1 || bits >= 64) return;
  if (litmus::isSignedType(type)) {
    out_.op(guard + "shl.b64 " + r + ", " + r + ", " + std::to_string(64 - bits));
    out_.op(guard + "shr.s64 " + r + ", " + r + ", " + std::to_string(64 - bits));
  } else {
    out_.op(guard + "and.b64 " + r + ", " + r + ", " + hex((uint64_t{1} << bits) - 1));
  }
}

std::string BodyEmitter::atWidth(const Operand& op, Type type, const std::string& guard) {
  const int bits = litmus::typeBits(type);
  if (bits <= 1 || bits >= 64 || isFloat(type)) return value64(op);
  const std::string t = x();
  out_.op(guard + "mov.b64 " + t + ", " + value64(op));
  normalize(t, type, guard);
  return t;
}

// ---- guards -------------------------------------------------------------------------------
// The test's own guard, as a prefix, for instructions every lane executes.
std::string BodyEmitter::laneGuard(const Instr& in) const {
  if (in.guard.empty()) return "";
  return std::string(in.guardNegated ? "@!" : "@") + reg(in.guard) + " ";
}

// Memory operations: in warp mode only lane 0 performs them.
std::string BodyEmitter::memGuard(const Instr& in) {
  if (!warpMode_) return laneGuard(in);
  if (in.guard.empty()) return "@%h_lane0 ";
  const std::string p = c();
  if (in.guardNegated) {
    out_.op("not.pred " + p + ", " + reg(in.guard));
    out_.op("and.pred " + p + ", " + p + ", %h_lane0");
  } else {
    out_.op("and.pred " + p + ", " + reg(in.guard) + ", %h_lane0");
  }
  return "@" + p + " ";
}

// A predicate lane 0 holds, made the same in every lane (warp mode), so the warp stays whole.
std::string BodyEmitter::uniform(const std::string& pred, bool negated) {
  const std::string p = c(), u = c();
  if (negated) {
    out_.op("not.pred " + p + ", " + pred);
    out_.op("and.pred " + p + ", " + p + ", %h_lane0");
  } else {
    out_.op("and.pred " + p + ", " + pred + ", %h_lane0");
  }
  out_.op("vote.sync.any.pred " + u + ", " + p + ", 0xffffffff");
  return u;
}

// ---- addresses ----------------------------------------------------------------------------
const LocPlan& BodyEmitter::locOf(const Operand& a) const {
  for (const LocPlan& l : plan_.locs)
    if (l.name == a.name) return l;
  throw litmus::Error(a.loc, "unknown location '" + a.name + "'");
}

// "[%a0+4]": the register that holds the location's address in the instruction's state space;
// for [%r] (a mapa address), the register itself, narrowed for the 32-bit shared window.
std::string BodyEmitter::address(const Instr& in, const Operand& a) { return address(in, a, in.space); }

std::string BodyEmitter::address(const Instr& in, const Operand& a, litmus::Space space) {
  if (a.kind == Operand::Kind::RegAddr) {
    std::string r = reg(a.name);
    if (space != litmus::Space::Generic && space != litmus::Space::Global) {  // 64-bit as they are
      if (space != litmus::Space::SharedCluster && space != litmus::Space::Shared &&
          space != litmus::Space::SharedCta)
        refuse(in, "an address register is reached with a shared, global or generic address");
      r = w();
      out_.op("cvt.u32.u64 " + r + ", " + reg(a.name));
    }
    return "[" + r + (a.imm ? "+" + std::to_string(a.imm) : "") + "]";
  }
  if (a.kind != Operand::Kind::Addr) refuse(in, "this address operand is not supported by the runner");
  const LocPlan& l = locOf(a);
  const size_t v = static_cast<size_t>(&l - plan_.locs.data());
  using litmus::Space;
  std::string r;
  switch (space) {
    case Space::Generic: r = "%g" + std::to_string(v); break;
    case Space::Global:
      if (l.shared)
        refuse(in, "'" + l.name + "' is in shared memory, the instruction addresses global memory");
      r = "%a" + std::to_string(v);
      break;
    case Space::Shared:
    case Space::SharedCta:
    case Space::SharedCluster:
      if (!l.shared)
        refuse(in, "'" + l.name + "' is in global memory, the instruction addresses shared memory");
      r = "%s" + std::to_string(v);
      break;
    default:
      refuse(in, "the runner keeps no locations in ." + std::string(litmus::toString(space)) + " memory");
  }
  return "[" + r + (a.imm ? "+" + std::to_string(a.imm) : "") + "]";
}

// ---- ld / st ------------------------------------------------------------------------------
std::string BodyEmitter::order(const Instr& in) {
  using litmus::Sem;
  switch (in.sem) {
    case Sem::Weak: return in.semExplicit ? ".weak" : "";
    case Sem::Volatile: return ".volatile";
    case Sem::Mmio: return ".mmio.relaxed.sys";
    default: return std::string(".") + litmus::toString(in.sem) + "." + litmus::toString(in.scope);
  }
}

std::string BodyEmitter::space(const Instr& in) {
  return in.space == litmus::Space::Generic ? "" : std::string(".") + litmus::toString(in.space);
}

// ld/st have no 16-bit float types: .f16/.bf16 move the same bits as .b16 (and x2 as .b32).
std::string BodyEmitter::accessType(Type t) {
  switch (t) {
    case Type::None: return "b64";
    case Type::F16:
    case Type::BF16: return "b16";
    case Type::F16x2:
    case Type::BF16x2: return "b32";
    default: return litmus::toString(t);
  }
}

void BodyEmitter::ld(const Instr& in) {
  checkProxy(in);
  if (const LocPlan* t = aliasThrough(in, litmus::Proxy::Texture)) return texLoad(in, *t);
  if (const LocPlan* t = aliasThrough(in, litmus::Proxy::Surface)) return surfaceLoad(in, *t);
  if (const LocPlan* t = aliasThrough(in, litmus::Proxy::Constant)) return constantLoad(in, *t);
  const std::string g = memGuard(in);
  const std::string nc = in.proxy == litmus::Proxy::Texture ? ".nc" : "";
  const std::string mn = "ld" + order(in) + space(in) + nc + "." + accessType(in.type);
  const std::string d = reg(in.args[0].name), a = address(in, in.args[1]);
  if (in.type == Type::F32 || in.type == Type::B128) {
    const std::string t = in.type == Type::F32 ? w() : o();
    out_.op(g + mn + " " + t + ", " + a);
    widen(d, t, in.type == Type::F32 ? 32 : 128, in.type, g);
  } else {
    out_.op(g + mn + " " + d + ", " + a);  // the wider register is zero/sign-extended (PTX 6.4)
  }
}

void BodyEmitter::st(const Instr& in) {
  checkProxy(in);
  if (const LocPlan* t = aliasThrough(in, litmus::Proxy::Surface)) return surfaceStore(in, *t);
  const std::string g = memGuard(in);
  const std::string mn = "st" + order(in) + space(in) + "." + accessType(in.type);
  const Operand& v = in.args[1];
  std::string src;
  if (in.type == Type::F32)
    src = narrow(v, 32, g);
  else if (in.type == Type::B128)
    src = narrow(v, 128, g);
  else
    src = value64(v);
  out_.op(g + mn + " " + address(in, in.args[0]) + ", " + src);
}

// ---- atom / red ---------------------------------------------------------------------------
// Untyped (herd) atomics are 64-bit: PTX needs a type, the model computes on 64-bit values.
std::string BodyEmitter::rmwType(const Instr& in) const {
  if (in.type != Type::None) return litmus::toString(in.type);
  using litmus::AtomOp;
  switch (in.atomOp) {
    case AtomOp::Add:
    case AtomOp::Sub: return "u64";
    case AtomOp::Min:
    case AtomOp::Max: return "s64";
    case AtomOp::Inc:
    case AtomOp::Dec: refuse(in, "PTX has .inc/.dec only for .u32; give the instruction that type");
    default: return "b64";
  }
}

std::string BodyEmitter::rmwMnemonic(const Instr& in, bool asAtom) const {
  using litmus::Sem;
  std::string mn = asAtom ? "atom" : "red";
  if (in.semExplicit || in.sem != Sem::Relaxed) mn += std::string(".") + litmus::toString(in.sem);
  if (in.scopeExplicit || in.scope != litmus::Scope::Gpu) mn += std::string(".") + litmus::toString(in.scope);
  mn += space(in);
  mn += std::string(".") + (in.atomOp == litmus::AtomOp::Sub ? "add" : litmus::toString(in.atomOp));
  const bool half =
      in.type == Type::F16 || in.type == Type::BF16 || in.type == Type::F16x2 || in.type == Type::BF16x2;
  if (half) mn += ".noftz";
  if (in.vec > 1) mn += ".v" + std::to_string(in.vec);
  return mn + "." + rmwType(in);
}

void BodyEmitter::rmw(const Instr& in) {
  if (in.proxy != litmus::Proxy::Generic) refuse(in, "only generic-proxy atomics have a PTX form");
  using litmus::Sem;
  // PTX red has no acquire half; herd's red.acquire/.acq_rel is an atom whose result is unused.
  const bool asAtom = in.op == Opcode::Atom || in.sem == Sem::Acquire || in.sem == Sem::AcqRel;
  if (asAtom && in.op == Opcode::Red) out_.comment("red with acquire semantics: PTX spells it as an atom");
  const std::string g = memGuard(in);
  const int bits = in.type == Type::None ? 64 : litmus::typeBits(in.type);
  const int dests = in.op == Opcode::Atom ? in.vec : 0;
  const size_t ai = static_cast<size_t>(litmus::addressIndex(in));
  const int operands = in.atomOp == litmus::AtomOp::Cas ? 2 : in.vec;
  std::vector<std::string> srcs;
  for (int k = 0; k < operands; ++k) {
    Operand v = in.args[ai + 1 + static_cast<size_t>(k)];
    if (in.atomOp == litmus::AtomOp::Sub && v.kind == Operand::Kind::Imm) {         // herd's atom.sub:
      srcs.push_back(imm(static_cast<int64_t>(0 - static_cast<uint64_t>(v.imm))));  // add the negation
    } else if (in.atomOp == litmus::AtomOp::Sub) {
      const std::string t = x();
      out_.op(g + "neg.s64 " + t + ", " + value64(v));
      srcs.push_back(t);
    } else if (bits == 64 && !isFloat(in.type)) {
      srcs.push_back(value64(v));
    } else {
      srcs.push_back(narrow(v, bits, g));
    }
  }
  std::vector<std::string> tmps;
  for (int k = 0; k < (asAtom ? std::max(dests, 1) : 0); ++k) {
    const bool direct = k < dests && bits == 64 && in.args[static_cast<size_t>(k)].name != "_";
    tmps.push_back(direct        ? reg(in.args[static_cast<size_t>(k)].name)
                   : bits == 16  ? h()
                   : bits == 32  ? w()
                   : bits == 128 ? o()
                                 : x());
  }
  auto list = [&](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : ", ") + e;
    return in.vec > 1 ? "{" + s + "}" : s;
  };
  std::string text = g + rmwMnemonic(in, asAtom) + " ";
  if (asAtom) text += list(tmps) + ", ";
  text += address(in, in.args[ai]) + ", ";
  text += in.vec > 1 ? list(srcs) : srcs[0] + (srcs.size() > 1 ? ", " + srcs[1] : "");
  out_.op(text);
  for (int k = 0; k < dests; ++k) {
    const Operand& d = in.args[static_cast<size_t>(k)];
    if (d.name == "_" || tmps[static_cast<size_t>(k)] == reg(d.name)) continue;
    widen(reg(d.name), tmps[static_cast<size_t>(k)], bits, in.type, g);
  }
}

// ---- register instructions and control flow -----------------------------------------------
void BodyEmitter::mov(const Instr& in) {
  const std::string g = laneGuard(in), d = reg(in.args[0].name);
  out_.op(g + "mov.b64 " + d + ", " + value64(in.args[1]));
  normalize(d, in.type, g);
}

void BodyEmitter::arith(const Instr& in) {
  using litmus::ArithOp;
  if (isFloat(in.type)) refuse(in, "floating-point arithmetic is not supported by the runner yet");
  const std::string mnText = mnemonicAsWritten(in);
  if (mnText.find(".hi") != std::string::npos || mnText.find(".wide") != std::string::npos)
    refuse(in, "the model computes the low half of a product; mul.hi/.wide would differ");
  // operands at the type's width: div, rem, shr, min and max see their upper bits (D52)
  const std::string g = laneGuard(in), d = reg(in.args[0].name), a = atWidth(in.args[1], in.type, g);
  const bool u = litmus::typeBits(in.type) > 0 && !litmus::isSignedType(in.type);
  const std::string sx = u ? "u64" : "s64";
  // a shift amount is an unsigned value of its own, whatever the type
  const bool shift = in.arith == ArithOp::Shl || in.arith == ArithOp::Shr;
  const std::string b = in.args.size() < 3 ? "" : shift ? value64(in.args[2]) : atWidth(in.args[2], in.type, g);
  switch (in.arith) {
    case ArithOp::Add: out_.op(g + "add.s64 " + d + ", " + a + ", " + b); break;
    case ArithOp::Sub: out_.op(g + "sub.s64 " + d + ", " + a + ", " + b); break;
    case ArithOp::Mul: out_.op(g + "mul.lo.s64 " + d + ", " + a + ", " + b); break;
    case ArithOp::Div:
    case ArithOp::Rem: {  // by 0 the model's value is 0, by -1 the wrapped negation or 0 (D52)
      const bool div = in.arith == ArithOp::Div;
      const std::string z = c(), t = x();
      out_.op(g + std::string(div ? "div." : "rem.") + sx + " " + t + ", " + a + ", " + b);
      if (!u) {
        const std::string m = c(), n = x();
        out_.op("setp.eq.s64 " + m + ", " + b + ", -1");
        if (div) out_.op("neg.s64 " + n + ", " + a);
        out_.op("selp.b64 " + t + ", " + (div ? n : std::string("0")) + ", " + t + ", " + m);
      }
      out_.op("setp.eq.s64 " + z + ", " + b + ", 0");
      out_.op(g + "selp.b64 " + d + ", 0, " + t + ", " + z);
      break;
    }
    case ArithOp::And: out_.op(g + "and.b64 " + d + ", " + a + ", " + b); break;
    case ArithOp::Or: out_.op(g + "or.b64 " + d + ", " + a + ", " + b); break;
    case ArithOp::Xor: out_.op(g + "xor.b64 " + d + ", " + a + ", " + b); break;
    case ArithOp::Shl:
    case ArithOp::Shr: {  // the amount read unsigned and clamped, as the model does (D52)
      const std::string n = x(), m = w();
      out_.op("min.u64 " + n + ", " + b + ", 64");
      out_.op("cvt.u32.u64 " + m + ", " + n);
      out_.op(g + (in.arith == ArithOp::Shl ? "shl.b64 " : "shr." + sx + " ") + d + ", " + a + ", " + m);
      break;
    }
    case ArithOp::Min: out_.op(g + "min." + sx + " " + d + ", " + a + ", " + b); break;
    case ArithOp::Max: out_.op(g + "max." + sx + " " + d + ", " + a + ", " + b); break;
    case ArithOp::Neg: out_.op(g + "neg.s64 " + d + ", " + a); break;
    case ArithOp::Not: out_.op(g + "not.b64 " + d + ", " + a); break;
    default: refuse(in, "unknown arithmetic operation");
  }
  normalize(d, in.type, g);
}

void BodyEmitter::setp(const Instr& in) {
  if (isFloat(in.type)) refuse(in, "floating-point comparisons are not supported by the runner yet");
  const bool u = litmus::typeBits(in.type) > 0 && !litmus::isSignedType(in.type);
  const std::string g = laneGuard(in), a = atWidth(in.args[1], in.type, g), b = atWidth(in.args[2], in.type, g);
  out_.op(g + "setp." + litmus::toString(in.cmp) + (u ? ".u64 " : ".s64 ") + reg(in.args[0].name) + ", " + a +
          ", " + b);
}

void BodyEmitter::selp(const Instr& in) {
  const std::string g = laneGuard(in), d = reg(in.args[0].name);
  out_.op(g + "selp.b64 " + d + ", " + value64(in.args[1]) + ", " + value64(in.args[2]) + ", " +
          reg(in.args[3].name));
  normalize(d, in.type, g);
}

// D20: registers start at 0 unless the test gives them a value.
void BodyEmitter::initRegisters() {
  const auto& init = test_.threads[static_cast<size_t>(t_)].initRegs;
  for (const auto& [name, r] : tp_.regs) {
    auto it = init.find(name);
    const int64_t v = it == init.end() ? 0 : it->second;
    if (r.pred)
      out_.op(std::string("setp.ne.u32 ") + r.ptx + ", %h_one, " + (v ? "0" : "1"));
    else
      out_.op("mov.b64 " + r.ptx + ", " + std::to_string(v));
  }
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string word(const std::string& lp, int w) { return "[" + lp + "+" + std::to_string(4 * w) + "]"; }

void emitBody(PtxText& out, const litmus::Test& test, const Plan& plan, int thread) {
  BodyEmitter(out, test, plan, thread).emit();
}

void declareBodyRegisters(PtxText& out, const Plan& plan) {
  out.op(".reg .b32 %w<24>");
  out.op(".reg .b64 %x<24>");
  out.op(".reg .b16 %hh<20>");
  if (plan.ptxVersion >= "8.3") out.op(".reg .b128 %o<8>");  // .b128 needs PTX 8.3
  out.op(".reg .pred %c<12>");
  for (const ThreadPlan& t : plan.threads)
    for (const auto& [name, r] : t.regs) out.op(std::string(r.pred ? ".reg .pred " : ".reg .b64 ") + r.ptx);
}

}  // namespace gpu
