// The textual form of PTX: operation spellings both ways, cutting an instruction into words,
// reading and printing operands and literals, and the instruction printer. Kept in one place so
// that printing and reading cannot drift: formatInstr's output must read back to the same Instr.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "litmus/instructions.h"
#include "litmus/ptx_format.h"

namespace litmus {

const char* toString(AtomOp op) {
  switch (op) {
    case AtomOp::None: return "none";
    case AtomOp::And: return "and";
    case AtomOp::Or: return "or";
    case AtomOp::Xor: return "xor";
    case AtomOp::Cas: return "cas";
    case AtomOp::Exch: return "exch";
    case AtomOp::Add: return "add";
    case AtomOp::Sub: return "sub";
    case AtomOp::Inc: return "inc";
    case AtomOp::Dec: return "dec";
    case AtomOp::Min: return "min";
    case AtomOp::Max: return "max";
  }
  return "?";
}

const char* toString(ArithOp op) {
  switch (op) {
    case ArithOp::None: return "none";
    case ArithOp::Add: return "add";
    case ArithOp::Sub: return "sub";
    case ArithOp::Mul: return "mul";
    case ArithOp::Div: return "div";
    case ArithOp::Rem: return "rem";
    case ArithOp::And: return "and";
    case ArithOp::Or: return "or";
    case ArithOp::Xor: return "xor";
    case ArithOp::Shl: return "shl";
    case ArithOp::Shr: return "shr";
    case ArithOp::Min: return "min";
    case ArithOp::Max: return "max";
    case ArithOp::Neg: return "neg";
    case ArithOp::Not: return "not";
  }
  return "?";
}

const char* toString(CmpOp c) {
  switch (c) {
    case CmpOp::None: return "none";
    case CmpOp::Eq: return "eq";
    case CmpOp::Ne: return "ne";
    case CmpOp::Lt: return "lt";
    case CmpOp::Le: return "le";
    case CmpOp::Gt: return "gt";
    case CmpOp::Ge: return "ge";
  }
  return "?";
}

const char* toString(BarOp b) {
  switch (b) {
    case BarOp::None: return "none";
    case BarOp::Sync: return "sync";
    case BarOp::Arrive: return "arrive";
    case BarOp::RedPopc: return "red.popc";
    case BarOp::RedAnd: return "red.and";
    case BarOp::RedOr: return "red.or";
    case BarOp::ClusterArrive: return "arrive";
    case BarOp::ClusterWait: return "wait";
    case BarOp::WarpSync: return "warp.sync";
  }
  return "?";
}

const char* toString(FenceProxyKind k) {
  switch (k) {
    case FenceProxyKind::None: return "none";
    case FenceProxyKind::Alias: return "alias";
    case FenceProxyKind::Texture: return "texture";
    case FenceProxyKind::Surface: return "surface";
    case FenceProxyKind::Constant: return "constant";
    case FenceProxyKind::Async: return "async";
    case FenceProxyKind::AsyncGlobal: return "async.global";
    case FenceProxyKind::AsyncSharedCta: return "async.shared::cta";
    case FenceProxyKind::AsyncSharedCluster: return "async.shared::cluster";
    case FenceProxyKind::AsyncGenericRelease: return "async::generic.release.sync_restrict::shared::cta";
    case FenceProxyKind::AsyncGenericAcquire:
      return "async::generic.acquire.sync_restrict::shared::cluster";
    case FenceProxyKind::TensormapRelease: return "tensormap::generic.release";
    case FenceProxyKind::TensormapAcquire: return "tensormap::generic.acquire";
  }
  return "?";
}

// ---- spellings read back --------------------------------------------------------------------

// Qualifiers are spelled as toString prints them (test.h, ptx_format.h), so they are looked up
// through it; `first` skips the "none"/"generic" placeholders, which are not qualifiers.
namespace {
template <class E>
std::optional<E> byName(std::string_view s, E first, E last) {
  for (int i = static_cast<int>(first); i <= static_cast<int>(last); ++i)
    if (s == toString(static_cast<E>(i))) return static_cast<E>(i);
  return std::nullopt;
}
}  // namespace

std::optional<Sem> semFromString(std::string_view s) { return byName(s, Sem::Weak, Sem::Volatile); }
std::optional<Scope> scopeFromString(std::string_view s) {
  return byName(s, Scope::Cta, Scope::Sys);
}
std::optional<Space> spaceFromString(std::string_view s) {
  return byName(s, Space::Global, Space::Const);
}
std::optional<Type> typeFromString(std::string_view s) { return byName(s, Type::B8, Type::Pred); }
std::optional<AtomOp> atomOpFromString(std::string_view s) {
  return byName(s, AtomOp::And, AtomOp::Max);
}
std::optional<ArithOp> arithFromString(std::string_view s) {
  return byName(s, ArithOp::Add, ArithOp::Not);
}
// The unsigned spellings compare alike here: the type of the setp orders the values.
std::optional<CmpOp> cmpFromString(std::string_view s) {
  if (s == "lo") return CmpOp::Lt;
  if (s == "ls") return CmpOp::Le;
  if (s == "hi") return CmpOp::Gt;
  if (s == "hs") return CmpOp::Ge;
  return byName(s, CmpOp::Eq, CmpOp::Ge);
}
// herd's compare-and-branch: beq, bne, blt, ble, bgt, bge
std::optional<CmpOp> branchFromString(std::string_view s) {
  if (s.size() < 3 || s[0] != 'b') return std::nullopt;
  return byName(s.substr(1), CmpOp::Eq, CmpOp::Ge);
}

std::optional<FenceProxyKind> proxyKindFromString(std::string_view s) {
  return byName(s, FenceProxyKind::Alias, FenceProxyKind::AsyncSharedCluster);
}

// Instructions we recognise but do not model yet. A pattern matches the leading dot-separated
// parts of the mnemonic ("*" = any part, "x::*" = any part starting with "x::"); the message names
// the matched parts. Supporting one later means deleting its line and adding a handler.
namespace {
struct Unsupported {
  std::string_view parts[3];
};
constexpr Unsupported kUnsupported[] = {{{"cp", "reduce"}},
                                        {{"multimem"}},
                                        {{"tcgen05"}},
                                        {{"fence", "op_restrict::*"}}};

bool partMatches(std::string_view pattern, std::string_view part) {
  if (pattern == "*") return true;
  if (pattern.size() > 1 && pattern.substr(pattern.size() - 1) == "*")
    return part.substr(0, pattern.size() - 1) == pattern.substr(0, pattern.size() - 1);
  return pattern == part;
}
}  // namespace

std::optional<std::string> unsupportedInstruction(const std::vector<std::string_view>& parts) {
  for (const Unsupported& u : kUnsupported) {
    size_t n = 0;
    while (n < 3 && !u.parts[n].empty()) ++n;
    if (parts.size() < n) continue;
    bool match = true;
    for (size_t i = 0; i < n && match; ++i) match = partMatches(u.parts[i], parts[i]);
    if (!match) continue;
    std::string shown(parts[0]);
    for (size_t i = 1; i < n; ++i) shown.append(".").append(parts[i]);
    return shown;
  }
  return std::nullopt;
}

namespace lex {

namespace {
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
}  // namespace

InstrPieces splitInstruction(std::string_view text, const SourceLoc& loc) {
  auto fail = [&](size_t off, const std::string& msg) {
    throw Error({loc.file, loc.line, loc.col ? loc.col + static_cast<int>(off) : 0}, msg);
  };
  size_t b = 0, e = text.size();
  while (b < e && isSpace(text[b])) ++b;
  while (e > b && isSpace(text[e - 1])) --e;
  if (e > b && text[e - 1] == ';') --e;
  while (e > b && isSpace(text[e - 1])) --e;
  InstrPieces out;
  out.text = text.substr(b, e - b);
  out.off = static_cast<int>(b);
  if (b == e) fail(b, "empty instruction");
  if (text[e - 1] == ':' && isIdentifier(trim(text.substr(b, e - b - 1)))) {
    out.label = true;
    out.labelName = trim(text.substr(b, e - b - 1));
    return out;
  }
  size_t pos = b;
  if (text[pos] == '@') {
    size_t g = pos + 1;
    while (g < e && !isSpace(text[g])) ++g;
    std::string_view guard = text.substr(pos + 1, g - pos - 1);
    out.guardNegated = !guard.empty() && guard[0] == '!';
    if (out.guardNegated) guard.remove_prefix(1);
    if (!guard.empty() && guard[0] == '%') guard.remove_prefix(1);
    if (!isIdentifier(guard)) fail(pos, "malformed guard; expected @p or @!p");
    out.guard = guard;
    for (pos = g; pos < e && isSpace(text[pos]);) ++pos;
    if (pos == e) fail(b, "guard without an instruction");
  }
  size_t m = pos;
  while (m < e && !isSpace(text[m])) ++m;
  for (size_t s = pos; s <= m;) {
    size_t dot = std::min(text.find('.', s), m);
    if (dot == s) fail(s, "empty qualifier in '" + std::string(text.substr(pos, m - pos)) + "'");
    out.parts.push_back({text.substr(s, dot - s), static_cast<int>(s)});
    s = dot + 1;
  }
  if (trim(text.substr(m, e - m)).empty()) return out;
  int depth = 0;  // commas inside [..] and {..} do not separate operands
  for (size_t i = m, start = m; i <= e; ++i) {
    char c = i < e ? text[i] : ',';
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c != ',' || (depth > 0 && i < e)) continue;
    std::string_view raw = text.substr(start, i - start), t = trim(raw);
    size_t off = start + (t.empty() ? 0 : raw.find(t[0]));
    if (t.empty()) fail(off, "missing operand");
    out.operands.push_back({t, static_cast<int>(off)});
    start = i + 1;
  }
  return out;
}

std::optional<Operand> readRegister(std::string_view s, const SourceLoc& loc, bool allowNegation) {
  Operand o;
  o.kind = Operand::Kind::Reg;
  o.loc = loc;
  if (allowNegation && !s.empty() && s[0] == '!') {
    o.negated = true;
    s.remove_prefix(1);
  }
  if (!s.empty() && s[0] == '%') s.remove_prefix(1);
  // special registers with a component: %cluster_ctaid.x
  if (!isIdentifier(s) && !isSpecialRegister(std::string(s))) return std::nullopt;
  o.name = std::string(s);
  return o;
}

Operand readAddress(std::string_view s, const SourceLoc& loc) {
  const std::string bad =
      "malformed address '" + std::string(s) + "'; expected [x], [x+4] or [%r], [%r+4]";
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') throw Error(loc, bad);
  std::string_view inner = trim(s.substr(1, s.size() - 2));
  size_t sign = inner.find_first_of("+-");
  std::string_view base = trim(inner.substr(0, sign));
  Operand o;
  o.kind = Operand::Kind::Addr;
  if (!base.empty() && base[0] == '%') {  // an address mapa wrote into a register
    o.kind = Operand::Kind::RegAddr;
    base.remove_prefix(1);
  }
  if (!isIdentifier(base)) throw Error(loc, bad);
  o.name = std::string(base);
  o.loc = loc;
  if (sign != std::string_view::npos) {
    std::string_view digits = trim(inner.substr(sign + 1));
    if (digits.empty() || digits[0] == '-' || digits[0] == '+') throw Error(loc, bad);
    std::optional<int64_t> v = parseInteger(std::string(1, inner[sign]).append(digits));
    if (!v && isIntegerSyntax(digits))
      throw Error(loc, "offset " + std::string(digits) + " in '" + std::string(s) +
                           "' is out of range: an address names bytes 0 to 9223372036854775807");
    if (!v) throw Error(loc, bad);
    // parseInteger reads 2^63 and above as negative (the bits of a .u64): not for an offset
    if (inner[sign] == '+' && *v < 0)
      throw Error(loc, "offset " + std::string(digits) + " in '" + std::string(s) +
                           "' is out of range: an address names bytes 0 to 9223372036854775807");
    o.imm = *v;
  }
  return o;
}

namespace {
bool fitsType(int64_t v, Type t) {
  int bits = typeBits(t);
  if (t == Type::Pred) return v == 0 || v == 1;
  if (bits == 0 || bits >= 64) return true;
  // Both the signed and the unsigned reading of the bits are accepted, as ptxas does.
  return v >= -(int64_t(1) << (bits - 1)) && v <= (int64_t(1) << bits) - 1;
}
}  // namespace

Operand readImmediate(std::string_view s, const SourceLoc& loc, Type type) {
  std::string lit(s);
  Operand o;
  o.kind = Operand::Kind::Imm;
  o.loc = loc;
  if (isFloatType(type)) {
    std::optional<int64_t> bits = encodeFloat(lit, type);
    if (!bits)
      throw Error(loc, "malformed ." + std::string(toString(type)) + " literal '" + lit + "'");
    o.imm = *bits;
    return o;
  }
  std::optional<int64_t> v = parseInteger(lit);
  if (!v && isIntegerSyntax(lit)) throw Error(loc, "value " + lit + " out of range for 64 bits");
  if (!v) throw Error(loc, "malformed integer '" + lit + "'");
  if (!fitsType(*v, type))
    throw Error(loc, "value " + lit + " out of range for ." + std::string(toString(type)));
  o.imm = *v;
  return o;
}

}  // namespace lex

// ---- printer ---------------------------------------------------------------------------------

std::string formatOperand(const Operand& o, Type type) {
  switch (o.kind) {
    case Operand::Kind::Reg: return (o.negated ? "!%" : "%") + o.name;
    case Operand::Kind::Imm:
      return isFloatType(type) ? lex::formatFloat(o.imm, type) : std::to_string(o.imm);
    case Operand::Kind::Addr:
    case Operand::Kind::RegAddr: {
      const std::string base = (o.kind == Operand::Kind::RegAddr ? "%" : "") + o.name;
      if (o.imm == 0) return "[" + base + "]";
      return "[" + base + (o.imm > 0 ? "+" : "") + std::to_string(o.imm) + "]";
    }
    case Operand::Kind::None: return o.name;
  }
  return "?";
}

namespace {

std::string dot(const char* s) { return std::string(".") + s; }

// Memory order and scope of ld/st as written: defaulted weak prints nothing.
std::string accessOrder(const Instr& in) {
  switch (in.sem) {
    case Sem::Weak: return in.semExplicit ? ".weak" : "";
    case Sem::Volatile: return ".volatile";
    case Sem::Mmio: return ".mmio.relaxed.sys";
    default: return dot(toString(in.sem)) + dot(toString(in.scope));
  }
}

std::string accessMnemonic(const Instr& in) {
  bool load = in.op == Opcode::Ld;
  std::string base = load ? "ld" : "st";
  // herd's proxy pseudo-instructions, unless the PTX spelling (ld.global.nc, ld.const) says it
  if (in.proxy == Proxy::Surface) base = load ? "suld" : "sust";
  if (in.proxy == Proxy::Texture && in.space != Space::Global) base = "tld";
  if (in.proxy == Proxy::Constant && in.space != Space::Const) base = "cold";
  std::string out = base + accessOrder(in);
  if (in.space != Space::Generic) out += dot(toString(in.space));
  if (load && in.proxy == Proxy::Texture && in.space == Space::Global) out += ".nc";
  return out;
}

std::string rmwMnemonic(const Instr& in) {
  std::string out = in.op == Opcode::Atom ? "atom" : "red";
  if (in.semExplicit || in.sem != Sem::Relaxed) out += dot(toString(in.sem));
  if (in.scopeExplicit || in.scope != Scope::Gpu) out += dot(toString(in.scope));
  if (in.space != Space::Generic) out += dot(toString(in.space));
  out += dot(toString(in.atomOp));
  bool half = in.type == Type::F16 || in.type == Type::F16x2 || in.type == Type::BF16 ||
              in.type == Type::BF16x2;
  // the half types take .noftz wherever they are allowed (scalar .add, vector .add/.min/.max)
  if (half) out += ".noftz";
  if (in.vec > 1) out += ".v" + std::to_string(in.vec);
  return out;
}

std::string asyncMnemonic(const Instr& in) {
  const std::string completeTx = ".mbarrier::complete_tx::bytes";
  switch (in.asyncOp) {
    case AsyncOp::Copy:
      return "cp.async.bulk" + dot(toString(in.space)) + dot(toString(in.srcSpace)) +
             (in.bulkGroup ? ".bulk_group" : completeTx) + (in.multicast ? ".multicast::cluster" : "");
    case AsyncOp::Commit: return "cp.async.bulk.commit_group";
    case AsyncOp::Wait: return std::string("cp.async.bulk.wait_group") + (in.readOnly ? ".read" : "");
    case AsyncOp::Store:
      return std::string("st.async") + (in.semExplicit ? ".weak" : "") + ".shared::cluster" + completeTx;
    case AsyncOp::Reduce:
      return "red.async.relaxed.cluster.shared::cluster" + completeTx + dot(toString(in.atomOp));
    case AsyncOp::TensormapCp:
      return "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release" +
             dot(toString(in.scope)) + ".sync.aligned";
    case AsyncOp::TensorLoad:
    case AsyncOp::TensorStore:
    case AsyncOp::TensormapReplace:  // formatTensorInstr
    case AsyncOp::None: break;
    default: return cpAsyncMnemonic(in);  // cp.async, wgmma (ptx_instr_cpasync.cpp)
  }
  return "nop";
}

std::string mnemonic(const Instr& in) {
  const std::string name(opcodeInfo(in.op).name);  // the mnemonic's first words (litmus/instructions.cpp)
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St: return accessMnemonic(in);
    case Opcode::Atom:
    case Opcode::Red: return rmwMnemonic(in);
    case Opcode::Fence: {
      if (in.restrict == FenceRestrict::MbarrierInit) return "fence.mbarrier_init.release.cluster";
      const std::string restrict = in.restrict == FenceRestrict::SharedCta ? ".sync_restrict::shared::cta"
                                   : in.restrict == FenceRestrict::SharedCluster ? ".sync_restrict::shared::cluster"
                                                                                 : "";
      return name + (in.semExplicit || in.sem != Sem::AcqRel ? dot(toString(in.sem)) : "") +
             restrict + dot(toString(in.scope));
    }
    case Opcode::FenceProxy: {
      const bool uni = isUniDirectional(in.proxyKind);
      return name + dot(toString(in.proxyKind)) + (uni ? dot(toString(in.scope)) : "");
    }
    case Opcode::Async: return asyncMnemonic(in);
    case Opcode::Mapa:
    case Opcode::GetCtaRank: return name + (in.space != Space::Generic ? dot(toString(in.space)) : "");
    case Opcode::Elect: return name;
    case Opcode::Warp: return warpMnemonic(in);
    case Opcode::Bar:
      if (in.barOp == BarOp::ClusterArrive || in.barOp == BarOp::ClusterWait) {
        const bool dflt = in.sem == (in.barOp == BarOp::ClusterArrive ? Sem::Release : Sem::Acquire);
        return "barrier.cluster" + dot(toString(in.barOp)) +
               (in.semExplicit || !dflt ? dot(toString(in.sem)) : "");
      }
      // bar.red carries its type in the operation name (red.popc.u32, red.and.pred)
      return std::string("bar") + (in.scopeExplicit ? ".cta" : "") + dot(toString(in.barOp));
    case Opcode::Mbarrier: {
      std::string out = name + dot(toString(in.mbarOp));
      if (in.expectTx) out += ".expect_tx";
      if (in.noComplete) out += ".noComplete";
      if (in.parity) out += ".parity";
      if (in.semExplicit) out += dot(toString(in.sem));
      if (in.scopeExplicit) out += dot(toString(in.scope));
      if (in.space != Space::Generic) out += dot(toString(in.space));
      return out;
    }
    case Opcode::Mov: return name;
    case Opcode::Arith: return toString(in.arith);
    case Opcode::Setp: return name + dot(toString(in.cmp));
    case Opcode::Selp: return name;
    case Opcode::Bra:
      return in.cmp == CmpOp::None ? name : std::string("b").append(toString(in.cmp));
    case Opcode::SetMaxNReg: return cpAsyncMnemonic(in);  // ptx_instr_cpasync.cpp
    case Opcode::Nop: break;
    case Opcode::GridDep:
      return in.gridOp == GridOp::Wait ? "griddepcontrol.wait" : "griddepcontrol.launch_dependents";
    case Opcode::Label:
    case Opcode::Cvta:  // formatMiscInstr (ptx_instr_clc.cpp)
    case Opcode::Exit:
    case Opcode::Nanosleep:
    case Opcode::CreatePolicy:
    case Opcode::Clc: break;
  }
  return "nop";
}

}  // namespace

std::string formatInstr(const Instr& in) {
  if (in.op == Opcode::Label) return in.target + ":";
  if (std::string tensor = formatTensorInstr(in); !tensor.empty()) return tensor;
  std::string out;
  if (!in.guard.empty()) out += (in.guardNegated ? "@!%" : "@%") + in.guard + " ";
  if (std::optional<std::string> misc = formatMiscInstr(in)) return out + *misc;
  out += mnemonic(in);
  if (in.type != Type::None) out += dot(toString(in.type));
  // A warp collective's only immediate is its member mask, which the parser reads untyped too
  // (takeMaskedOperands).
  const bool typedValues = !(untypedImmediates(in) || in.op == Opcode::Warp);
  Type immType = typedValues ? in.type : Type::None;
  std::string ops;
  if (in.vec > 1 && isRmw(in)) {
    // {d0, ..}, [a], {b0, ..} (atom) or [a], {b0, ..} (red)
    auto brace = [&](size_t from) {
      std::string list;
      for (size_t i = from; i < from + static_cast<size_t>(in.vec) && i < in.args.size(); ++i)
        list += (i == from ? "" : ", ") + formatOperand(in.args[i], immType);
      return "{" + list + "}";
    };
    const size_t a = static_cast<size_t>(addressIndex(in));
    if (in.op == Opcode::Atom) ops = brace(0) + ", ";
    ops += formatOperand(in.args.at(a), immType) + ", " + brace(a + 1);
    return out + " " + ops;
  }
  if (in.op == Opcode::Warp && destCount(in) == 2)  // match.all.sync d|p, a, membermask
    return out + " " + formatOperand(in.args[0], Type::None) + "|" + formatOperand(in.args[1], Type::None) +
           ", " + formatOperand(in.args[2], Type::None) + ", " + formatOperand(in.args[3], Type::None);
  if (in.op == Opcode::Async && in.asyncOp == AsyncOp::WgmmaMma) return out + " " + wgmmaOperands(in);
  if (in.op == Opcode::Elect)  // elect.sync d|p, membermask
    return out + " " + formatOperand(in.args[0], Type::None) + "|" +
           formatOperand(in.args[1], Type::None) + ", " + formatOperand(in.args[2], Type::None);
  for (const Operand& a : in.args) {
    // mapa and getctarank name a location bare: `mapa.shared::cluster.u32 %r0, x, 1`
    const bool bare = (in.op == Opcode::Mapa || in.op == Opcode::GetCtaRank) && a.kind == Operand::Kind::Addr;
    ops += (ops.empty() ? "" : ", ") + (bare ? a.name : formatOperand(a, immType));
  }
  if (in.op == Opcode::Bra) ops += (ops.empty() ? "" : ", ") + in.target;
  return ops.empty() ? out : out + " " + ops;
}

}  // namespace litmus
