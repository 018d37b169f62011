// One PTX instruction (PTX or herd dialect) -> Instr. The text is cut into words by
// lex::splitInstruction; qualifiers are then matched one by one rather than by a grammar because
// PTX lets them come in any order, and the per-opcode handlers check the combinations the ISA
// allows, reporting the first offending token.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "base/suggest.h"
#include "litmus/instr_parser.h"
#include "litmus/instructions.h"

namespace litmus {
namespace instr_detail {

const InstrParser::Handler InstrParser::kHandlers[] = {
    {"ld", &InstrParser::parseLoad},     {"tld", &InstrParser::parseLoad},
    {"suld", &InstrParser::parseLoad},   {"cold", &InstrParser::parseLoad},
    {"st", &InstrParser::parseStore},    {"sust", &InstrParser::parseStore},
    {"atom", &InstrParser::parseRmw},    {"red", &InstrParser::parseRmw},
    {"fence", &InstrParser::parseFence}, {"membar", &InstrParser::parseMembar},
    {"bar", &InstrParser::parseBar},     {"barrier", &InstrParser::parseBar},
    {"mbarrier", &InstrParser::parseMbarrier},
    {"cp", &InstrParser::parseCpAsync},  {"tensormap", &InstrParser::parseTensormapCp},
    {"mapa", &InstrParser::parseMapa},   {"getctarank", &InstrParser::parseGetCtaRank},
    {"elect", &InstrParser::parseElect}, {"griddepcontrol", &InstrParser::parseGriddep},
    {"mov", &InstrParser::parseMov},     {"setp", &InstrParser::parseSetp},
    {"selp", &InstrParser::parseSelp},   {"bra", &InstrParser::parseBranch},
    {"goto", &InstrParser::parseBranch},
    {"clusterlaunchcontrol", &InstrParser::parseClc}, {"cvta", &InstrParser::parseCvta},
    {"nanosleep", &InstrParser::parseNanosleep}, {"createpolicy", &InstrParser::parseCreatePolicy},
    {"exit", &InstrParser::parseExit},   {"ret", &InstrParser::parseExit},
    {"vote", &InstrParser::parseWarp},   {"match", &InstrParser::parseWarp},
    {"activemask", &InstrParser::parseWarp}, {"redux", &InstrParser::parseWarp},
    {"wgmma", &InstrParser::parseWgmma}, {"setmaxnreg", &InstrParser::parseSetMaxNReg}};

std::vector<std::string_view> InstrParser::mnemonics() {
  std::vector<std::string_view> out;
  for (const Handler& h : kHandlers) out.push_back(h.mnemonic);
  return out;
}

Instr InstrParser::parse() {
  if (!split()) return in_;  // a label definition
  checkUnsupported();
  std::string_view m = parts_[0].s;
  for (const Handler& h : kHandlers)
    if (h.mnemonic == m) {
      (this->*h.fn)();
      return in_;
    }
  if (branchFromString(m)) {
    parseBranch();
  } else if (arithFromString(m)) {
    parseArith();
  } else {
    std::vector<std::string> known = {"add", "sub", "mul", "div", "rem", "and", "or", "xor",
                                      "shl", "shr", "min", "max", "neg", "not"};
    for (const Handler& h : kHandlers) known.emplace_back(h.mnemonic);
    fail(parts_[0].off, "unknown instruction '" + name() + "'" + didYouMean(std::string(m), known));
  }
  return in_;
}

// Fills text/loc/guard, parts_ and ops_. Returns false for a label definition.
bool InstrParser::split() {
  lex::InstrPieces pieces = lex::splitInstruction(text_, loc_);
  in_.text = std::string(pieces.text);
  in_.loc = at(pieces.off);
  if (pieces.label) {
    in_.op = Opcode::Label;
    in_.target = std::string(pieces.labelName);
    return false;
  }
  in_.guard = std::string(pieces.guard);
  in_.guardNegated = pieces.guardNegated;
  parts_ = std::move(pieces.parts);
  ops_ = std::move(pieces.operands);
  return true;
}

void InstrParser::checkUnsupported() const {
  std::vector<std::string_view> parts;
  for (const Piece& p : parts_) parts.push_back(p.s);
  if (std::optional<std::string> family = unsupportedInstruction(parts))
    fail(parts_[0].off, "'" + *family + "' is not supported yet");
}

// ---- qualifiers ------------------------------------------------------------------------------

template <class E>
bool InstrParser::setOnce(std::optional<Piece>& slot, E& value, std::optional<E> v, const Piece& p,
                          const char* what) {
  if (!v) return false;
  if (slot)
    fail(p.off,
         std::string("second ") + what + " " + dotted(p.s) + " (already " + dotted(slot->s) + ")");
  slot = p;
  value = *v;
  return true;
}

void InstrParser::setFlag(std::optional<Piece>& slot, const Piece& p) {
  if (slot) fail(p.off, dotted(p.s) + " written twice");
  slot = p;
}

Quals InstrParser::collect(unsigned allowed, std::initializer_list<std::string_view> ignored) {
  Quals q;
  for (size_t i = 1; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (std::find(ignored.begin(), ignored.end(), p.s) != ignored.end()) continue;
    if ((allowed & kSem) && setOnce(q.sem, q.semV, semFromString(p.s), p, "memory order")) continue;
    if ((allowed & kScope) && setOnce(q.scope, q.scopeV, scopeFromString(p.s), p, "scope"))
      continue;
    if ((allowed & kSpace) && setOnce(q.space, q.spaceV, spaceFromString(p.s), p, "state space"))
      continue;
    if ((allowed & kType) && setOnce(q.type, q.typeV, typeFromString(p.s), p, "type")) continue;
    if ((allowed & kOp) && setOnce(q.op, q.opV, atomOpFromString(p.s), p, "operation")) continue;
    if ((allowed & kCacheQ) && cacheKind(p.s)) {
      q.cache.push_back({p, *cacheKind(p.s)});
      q.hint = q.hint || p.s == "L2::cache_hint";
      continue;
    }
    if (std::optional<Piece>* flag = flagSlot(q, allowed, p.s)) {
      setFlag(*flag, p);
      continue;
    }
    fail(p.off, "unknown qualifier " + dotted(p.s) + " on '" + name() + "'");
  }
  if (q.type) in_.type = q.typeV;
  if (q.space) in_.space = q.spaceV;
  return q;
}

// Memory order, scope and cache qualifiers of ld/st and the herd pseudo-accesses.
void InstrParser::applyAccessOrder(const Quals& q, bool isLoad) {
  bool pseudo = name() != "ld" && name() != "st";
  if (q.sem) {
    Sem s = q.semV;
    bool ok = s == Sem::Weak || s == Sem::Relaxed || s == Sem::Volatile ||
              (isLoad ? s == Sem::Acquire : s == Sem::Release);
    // texture/surface/constant accesses are weak by nature
    if (pseudo) ok = s == Sem::Weak;
    if (!ok) fail(q.sem->off, dotted(q.sem->s) + " is not allowed on '" + name() + "'");
    in_.sem = s;
    in_.semExplicit = true;
  }
  if (q.mmio) {
    if (pseudo || in_.sem != Sem::Relaxed || !q.scope || q.scopeV != Scope::Sys)
      fail(q.mmio->off, "'.mmio' must be written as .mmio.relaxed.sys");
    in_.sem = Sem::Mmio;
  }
  bool strong = in_.sem != Sem::Weak && in_.sem != Sem::Volatile;
  if (strong && !q.scope)
    fail(q.sem->off, dotted(q.sem->s) + " requires a scope (.cta, .cluster, .gpu or .sys)");
  if (!strong && q.scope)
    fail(q.scope->off,
         std::string("a scope is not allowed on a .") + toString(in_.sem) + " access");
  if (q.scope) {
    in_.scope = q.scopeV;
    in_.scopeExplicit = true;
  }
  for (const auto& [p, kind] : q.cache) {
    bool ok = in_.sem == Sem::Weak || (in_.sem == Sem::Volatile && kind == Cache::Prefetch) ||
              (strong && in_.sem != Sem::Mmio && kind != Cache::Cop);
    if (!ok)
      fail(p.off, "cache qualifier " + dotted(p.s) + " is not allowed on a ." + toString(in_.sem) +
                      " access");
  }
}

// ---- operands --------------------------------------------------------------------------------

void InstrParser::takeOperands(std::vector<Slot> required, std::vector<Slot> optional,
                               const std::string& msg) {
  std::vector<Slot> slots(required);
  slots.insert(slots.end(), optional.begin(), optional.end());
  if (ops_.size() < required.size()) fail(parts_[0].off, msg);
  if (ops_.size() > slots.size()) fail(ops_[slots.size()].off, msg);
  for (size_t i = 0; i < ops_.size(); ++i) {
    std::optional<Operand> o = convert(ops_[i], slots[i]);
    if (!o) fail(ops_[i].off, msg);
    if (slots[i] == Slot::Label)
      in_.target = o->name;
    else
      in_.args.push_back(*o);
  }
}

// Operands of a memory instruction; with .L2::cache_hint a cache-policy register follows, which
// is checked and then dropped like the qualifier itself. `what` describes each operand.
void InstrParser::takeMemOperands(const Quals& q, const std::string& who, std::vector<Slot> slots,
                                  std::vector<std::string> what) {
  if (q.hint) {
    slots.push_back(Slot::Reg);
    what.push_back("a cache policy");
  }
  std::string msg = "'" + who + "' expects ";
  for (size_t i = 0; i < what.size(); ++i)
    msg += (i == 0 ? "" : i + 1 == what.size() ? " and " : ", ") + what[i];
  takeOperands(slots, {}, msg);
  if (q.hint) in_.args.pop_back();
}

std::optional<Operand> InstrParser::convert(const Piece& p, Slot slot) {
  std::string_view s = p.s;
  if (s[0] == '{') {
    const bool rmw = isRmw(in_);
    fail(p.off, rmw ? "a brace-enclosed vector operand needs a vector qualifier (.v2, .v4 or .v8)"
                    : "vector operands are not supported yet");
  }
  switch (slot) {
    case Slot::Label: {
      if (!isIdentifier(s)) return std::nullopt;
      Operand o;
      o.name = std::string(s);
      return o;
    }
    case Slot::Addr:
      if (s[0] == '[') return lex::readAddress(s, at(p.off));
      // herd writes locations bare: `ld.weak r0, x`, and elements `x+4`
      if (dialect_ == Dialect::Herd) {
        if (auto element = splitElementName(s)) {
          Operand o;
          o.kind = Operand::Kind::Addr;
          o.name = element->first;
          o.imm = element->second;
          o.loc = at(p.off);
          return o;
        }
      }
      return std::nullopt;
    case Slot::Reg: return lex::readRegister(s, at(p.off), false);
    case Slot::Sym: {  // mapa, getctarank: a location named bare, or a register written %r
      if (s[0] == '%') return lex::readRegister(s, at(p.off), false);
      if (!isIdentifier(s)) return std::nullopt;
      Operand o;
      o.kind = Operand::Kind::Addr;
      o.name = std::string(s);
      o.loc = at(p.off);
      return o;
    }
    case Slot::Pred: return lex::readRegister(s, at(p.off), true);
    case Slot::Val:
      // barrier ids and counts are plain numbers whatever the .u32/.pred of bar.red says
      if (lex::looksNumeric(s))
        return lex::readImmediate(s, at(p.off), untypedImmediates(in_) ? Type::None : in_.type);
      return lex::readRegister(s, at(p.off), false);
  }
  return std::nullopt;
}

// ---- opcodes ---------------------------------------------------------------------------------

void InstrParser::parseLoad() {
  std::string_view m = parts_[0].s;
  in_.op = Opcode::Ld;
  in_.proxy = m == "tld"    ? Proxy::Texture
              : m == "suld" ? Proxy::Surface
              : m == "cold" ? Proxy::Constant
                            : Proxy::Generic;
  // herd writes register moves as a bare `ld r0, 1`
  if (dialect_ == Dialect::Herd && m == "ld" && parts_.size() == 1 && ops_.size() == 2 &&
      (lex::looksNumeric(ops_[1].s) || ops_[1].s[0] == '%')) {
    in_.op = Opcode::Mov;
    return takeOperands({Slot::Reg, Slot::Val}, {}, "'ld' expects a register and a value");
  }
  Quals q = collect(kSem | kScope | kSpace | kType | kCacheQ | kMmio | kNc | kVec);
  if (q.vec) fail(q.vec->off, "vector ld/st is not supported yet");
  applyAccessOrder(q, true);
  if (q.nc) {
    if (m != "ld" || in_.space != Space::Global) fail(q.nc->off, "'.nc' requires 'ld.global'");
    if (in_.sem != Sem::Weak) fail(q.nc->off, "'.nc' is not allowed on a strong access");
    in_.proxy = Proxy::Texture;
  }
  if (in_.space == Space::Const) in_.proxy = Proxy::Constant;
  takeMemOperands(q, name(), {Slot::Reg, Slot::Addr}, {"a destination register", "an address"});
}

void InstrParser::parseStore() {
  if (parts_.size() > 1 && parts_[1].s == "async") return parseStAsync();
  in_.op = Opcode::St;
  if (name() == "sust") in_.proxy = Proxy::Surface;
  Quals q = collect(kSem | kScope | kSpace | kType | kCacheQ | kMmio | kVec);
  if (q.vec) fail(q.vec->off, "vector ld/st is not supported yet");
  applyAccessOrder(q, false);
  if (in_.space == Space::Const) fail(q.space->off, "'.const' is not allowed on '" + name() + "'");
  takeMemOperands(q, name(), {Slot::Addr, Slot::Val}, {"an address", "a value"});
}

void InstrParser::parseRmw() {
  if (parts_.size() > 1 && parts_[1].s == "async") return parseRedAsync();
  bool red = name() == "red";
  in_.op = red ? Opcode::Red : Opcode::Atom;
  Quals q = collect(kSem | kScope | kSpace | kType | kCacheQ | kOp | kNoftz | kVec);
  if (q.vec) in_.vec = q.vec->s == "v2" ? 2 : q.vec->s == "v4" ? 4 : 8;
  in_.sem = Sem::Relaxed;
  in_.scope = Scope::Gpu;
  if (q.sem) {
    Sem s = q.semV;
    if (s != Sem::Relaxed && s != Sem::Acquire && s != Sem::Release && s != Sem::AcqRel)
      fail(q.sem->off, dotted(q.sem->s) + " is not allowed on '" + name() + "'");
    // herd (and untyped, herd-style) tests write red.acq_rel; the ISA allows only these two
    if (red && q.type && dialect_ == Dialect::Ptx && s != Sem::Relaxed && s != Sem::Release)
      fail(q.sem->off, "red takes only .relaxed or .release");
    in_.sem = s;
    in_.semExplicit = true;
  }
  if (q.scope) {
    in_.scope = q.scopeV;
    in_.scopeExplicit = true;
  }
  if (q.space && (in_.space == Space::Local || in_.space == Space::Const))
    fail(q.space->off, dotted(q.space->s) + " is not allowed on '" + name() + "'");
  for (const auto& [p, kind] : q.cache)
    if (kind != Cache::Hint)
      fail(p.off, "cache qualifier " + dotted(p.s) + " is not allowed on '" + name() + "'");
  if (!q.op)
    fail(parts_[0].off, "'" + name() +
                            "' requires an operation (.add, .and, .or, .xor, .exch, "
                            ".cas, .inc, .dec, .min or .max)");
  in_.atomOp = q.opV;
  if (red && (q.opV == AtomOp::Cas || q.opV == AtomOp::Exch))
    fail(q.op->off, dotted(q.op->s) + " is not allowed on 'red'");
  if (q.vec) {
    checkVectorRmw(q);
    return takeVectorRmwOperands(q, red);
  }
  checkRmwTypes(q);
  std::string who = name() + "." + std::string(q.op->s);
  if (red) return takeMemOperands(q, who, {Slot::Addr, Slot::Val}, {"an address", "a value"});
  if (q.opV == AtomOp::Cas)
    return takeMemOperands(q, who, {Slot::Reg, Slot::Addr, Slot::Val, Slot::Val},
                           {"a destination", "an address", "a compare value", "a new value"});
  takeMemOperands(q, who, {Slot::Reg, Slot::Addr, Slot::Val},
                  {"a destination", "an address", "a value"});
}

// Operation/type pairs the ISA defines for atom and red. Untyped (herd-style) forms skip this.
void InstrParser::checkRmwTypes(const Quals& q) {
  Type t = q.typeV;
  bool half = t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2;
  if (q.noftz && !(q.opV == AtomOp::Add && half))
    fail(q.noftz->off, "'.noftz' applies only to .add on .f16, .f16x2, .bf16 or .bf16x2");
  if (!q.type) return;
  auto any = [t](std::initializer_list<Type> ts) {
    return std::find(ts.begin(), ts.end(), t) != ts.end();
  };
  bool ok = false;
  switch (q.opV) {
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor: ok = any({Type::B32, Type::B64}); break;
    case AtomOp::Exch: ok = any({Type::B32, Type::B64, Type::B128}); break;
    case AtomOp::Cas: ok = any({Type::B16, Type::B32, Type::B64, Type::B128}); break;
    case AtomOp::Add:
      ok = half || any({Type::U32, Type::U64, Type::S32, Type::F32, Type::F64});
      break;
    case AtomOp::Inc:
    case AtomOp::Dec: ok = t == Type::U32; break;
    case AtomOp::Min:
    case AtomOp::Max: ok = any({Type::U32, Type::U64, Type::S32, Type::S64}); break;
    case AtomOp::Sub:
      fail(q.op->off,
           "'.sub' is not a PTX " + name() + " operation; use .add with a negated value");
    case AtomOp::None: break;
  }
  std::string op = name() + "." + std::string(q.op->s);
  if (!ok) fail(q.type->off, "'" + op + "' does not take " + dotted(q.type->s));
  if (half && !q.noftz)
    fail(q.type->off, "'" + op + dotted(q.type->s).substr(1) + " requires .noftz");
}

// The vector forms (§9.7.13.5 atom, §9.7.13.6 red, PTX ISA 8.1):
//   .v2/.v4 .f32 with .add; .v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2 with .add, .min or
//   .max and .noftz; only .global or generic addressing.
void InstrParser::checkVectorRmw(const Quals& q) {
  std::string who = name() + "." + std::string(q.vec->s);
  if (q.space && in_.space != Space::Global)
    fail(q.space->off, "vector '" + name() + "' takes only .global (or generic addressing), not " +
                           dotted(q.space->s));
  if (q.opV != AtomOp::Add && q.opV != AtomOp::Min && q.opV != AtomOp::Max)
    fail(q.op->off, "'" + who + "' takes only .add, .min or .max, not " + dotted(q.op->s));
  if (!q.type)
    fail(q.vec->off, "'" + who + "' requires a type (.f32, .f16, .bf16, .f16x2 or .bf16x2)");
  Type t = q.typeV;
  bool half = t == Type::F16 || t == Type::BF16;
  bool packed = t == Type::F16x2 || t == Type::BF16x2;
  // e.g. atom.add.v2.f32, in the order of the ISA's syntax lines
  std::string full = name() + "." + std::string(q.op->s) + "." + std::string(q.vec->s) + "." +
                     std::string(q.type->s);
  if (!half && !packed && t != Type::F32)
    fail(q.type->off, "'" + who + "' does not take " + dotted(q.type->s) +
                          " (vector forms take .f32, .f16, .bf16, .f16x2 or .bf16x2)");
  if (t == Type::F32 && q.opV != AtomOp::Add)
    fail(q.op->off, "'" + full + "' takes only .add, not " + dotted(q.op->s));
  if (in_.vec == 8 && !half) fail(q.vec->off, "'.v8' is only for .f16 and .bf16, not " +
                                                  dotted(q.type->s));
  if (t == Type::F32 && q.noftz) fail(q.noftz->off, "'.noftz' is not allowed on '" + full + "'");
  if (t != Type::F32 && !q.noftz) fail(q.type->off, "'" + full + "' requires .noftz");
}

// `{d0, ..}, [a], {b0, ..}` for atom, `[a], {b0, ..}` for red, each list as long as the vector,
// and the cache policy of .L2::cache_hint.
void InstrParser::takeVectorRmwOperands(const Quals& q, bool red) {
  std::string n = std::to_string(in_.vec);
  std::string who = name() + "." + std::string(q.vec->s);
  std::string msg = "'" + who + "' expects " +
                    (red ? "an address and " + n + " values in braces"
                         : n + " destination registers in braces, an address and " + n +
                               " values in braces");
  if (q.hint) msg += ", then a cache policy";
  size_t want = (red ? 2 : 3) + (q.hint ? 1 : 0);
  if (ops_.size() < want) fail(parts_[0].off, msg);
  if (ops_.size() > want) fail(ops_[want].off, msg);
  size_t i = 0;
  if (!red) takeBraceList(ops_[i++], Slot::Reg, msg);
  std::optional<Operand> addr = convert(ops_[i], Slot::Addr);
  if (!addr) fail(ops_[i].off, msg);
  in_.args.push_back(*addr);
  takeBraceList(ops_[++i], Slot::Val, msg);
  if (q.hint && !convert(ops_[++i], Slot::Reg)) fail(ops_[i].off, msg);
}

// One brace-enclosed vector `{a, b, ..}` of exactly in_.vec elements, appended to args.
void InstrParser::takeBraceList(const Piece& p, Slot slot, const std::string& msg) {
  std::string_view s = p.s;
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') fail(p.off, msg);
  std::vector<Piece> elems;
  for (size_t b = 1, e; b < s.size(); b = e + 1) {
    e = std::min(s.find(',', b), s.size() - 1);
    std::string_view raw = s.substr(b, e - b), t = lex::trim(raw);
    int off = p.off + static_cast<int>(b + (t.empty() ? 0 : raw.find(t[0])));
    if (t.empty()) fail(off, "missing vector element");
    elems.push_back({t, off});
  }
  if (static_cast<int>(elems.size()) != in_.vec)
    fail(p.off, "'.v" + std::to_string(in_.vec) + "' needs " + std::to_string(in_.vec) +
                    " elements in braces, found " + std::to_string(elems.size()));
  for (const Piece& e : elems) {
    if (e.s[0] == '{' || e.s[0] == '[') fail(e.off, msg);
    std::optional<Operand> o = convert(e, slot);
    if (!o) fail(e.off, msg);
    in_.args.push_back(*o);
  }
}

void InstrParser::parseFence() {
  if (parts_.size() > 1 && parts_[1].s == "proxy") {
    in_.op = Opcode::FenceProxy;
    if (parts_.size() == 2)
      fail(parts_[1].off,
           "'fence.proxy' requires a proxy kind (.alias, .texture, .surface, "
           ".constant or .async)");
    if (parts_[2].s == "async::generic" || parts_[2].s == "tensormap::generic")
      return parseUniProxyFence();
    std::string kind(parts_[2].s);
    for (size_t i = 3; i < parts_.size(); ++i) kind += "." + std::string(parts_[i].s);
    std::optional<FenceProxyKind> k = proxyKindFromString(kind);
    if (!k) fail(parts_[2].off, "unknown qualifier " + dotted(kind) + " on 'fence.proxy'");
    in_.proxyKind = *k;
    return takeOperands({}, {}, "'fence.proxy' takes no operands");
  }
  in_.op = Opcode::Fence;
  in_.sem = Sem::AcqRel;
  // fence.mbarrier_init.release.cluster, fence.{acquire,release}.sync_restrict::shared::*.cluster
  std::optional<Piece> restrict;
  for (size_t i = 1; i < parts_.size(); ++i) {
    const std::string_view r = parts_[i].s;
    const FenceRestrict k = r == "mbarrier_init"                     ? FenceRestrict::MbarrierInit
                            : r == "sync_restrict::shared::cta"     ? FenceRestrict::SharedCta
                            : r == "sync_restrict::shared::cluster" ? FenceRestrict::SharedCluster
                                                                    : FenceRestrict::None;
    if (k == FenceRestrict::None) continue;
    if (restrict) fail(parts_[i].off, "a second restriction " + dotted(r) + " on 'fence'");
    restrict = parts_[i];
    in_.restrict = k;
    parts_.erase(parts_.begin() + static_cast<long>(i--));
  }
  Quals q = collect(kSem | kScope);
  if (q.sem) {
    Sem s = q.semV;
    if (s != Sem::Sc && s != Sem::AcqRel && s != Sem::Acquire && s != Sem::Release)
      fail(q.sem->off, dotted(q.sem->s) + " is not allowed on 'fence'");
    in_.sem = s;
    in_.semExplicit = true;
  }
  if (!q.scope) fail(parts_[0].off, "'fence' requires a scope (.cta, .cluster, .gpu or .sys)");
  in_.scope = q.scopeV;
  in_.scopeExplicit = true;
  if (restrict) {
    const Sem need = in_.restrict == FenceRestrict::SharedCluster ? Sem::Acquire : Sem::Release;
    if (in_.sem != need || in_.scope != Scope::Cluster)
      fail(restrict->off, dotted(restrict->s) + " requires ." + toString(need) + ".cluster");
  }
  takeOperands({}, {}, "'fence' takes no operands");
}

// membar.level is fence.sc.scope (§9.7.13.4); written out as such so it prints back as a fence.
void InstrParser::parseMembar() {
  in_.op = Opcode::Fence;
  in_.sem = Sem::Sc;
  in_.semExplicit = in_.scopeExplicit = true;
  if (parts_.size() < 2) fail(parts_[0].off, "'membar' requires a level (.cta, .gl or .sys)");
  if (parts_[1].s == "proxy") return parseMembarProxy();
  for (size_t i = 2; i < parts_.size(); ++i)
    fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on 'membar'");
  std::string_view l = parts_[1].s;
  if (l == "cta")
    in_.scope = Scope::Cta;
  else if (l == "gl")
    in_.scope = Scope::Gpu;
  else if (l == "sys")
    in_.scope = Scope::Sys;
  else
    fail(parts_[1].off, "unknown qualifier " + dotted(l) + " on 'membar'");
  takeOperands({}, {}, "'membar' takes no operands");
}

void InstrParser::parseMov() {
  in_.op = Opcode::Mov;
  collect(kType);
  takeOperands({Slot::Reg, Slot::Val}, {}, "'mov' expects a destination register and a value");
}

void InstrParser::parseArith() {
  in_.op = Opcode::Arith;
  in_.arith = *arithFromString(parts_[0].s);
  // mul's width selectors are accepted; the model computes the low half (.lo) in every case
  if (in_.arith == ArithOp::Mul)
    collect(kType, {"lo", "hi", "wide"});
  else
    collect(kType);
  if (in_.arith == ArithOp::Neg || in_.arith == ArithOp::Not)
    return takeOperands({Slot::Reg, Slot::Val}, {},
                        "'" + name() + "' expects a destination register and a value");
  takeOperands({Slot::Reg, Slot::Val, Slot::Val}, {},
               "'" + name() + "' expects a destination register and two values");
}

void InstrParser::parseSetp() {
  in_.op = Opcode::Setp;
  std::optional<Piece> cmp, type;
  for (size_t i = 1; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (setOnce(cmp, in_.cmp, cmpFromString(p.s), p, "comparison")) continue;
    if (setOnce(type, in_.type, typeFromString(p.s), p, "type")) continue;
    fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'setp'");
  }
  if (!cmp) fail(parts_[0].off, "'setp' requires a comparison (.eq, .ne, .lt, .le, .gt or .ge)");
  takeOperands({Slot::Reg, Slot::Val, Slot::Val}, {},
               "'setp' expects a predicate register and two values");
}

void InstrParser::parseSelp() {
  in_.op = Opcode::Selp;
  collect(kType);
  takeOperands({Slot::Reg, Slot::Val, Slot::Val, Slot::Reg}, {},
               "'selp' expects a destination register, two values and a predicate");
}

// bra / goto (unconditional unless guarded) and herd's compare-and-branch beq, bne, ...
void InstrParser::parseBranch() {
  in_.op = Opcode::Bra;
  if (std::optional<CmpOp> c = branchFromString(parts_[0].s)) {
    in_.cmp = *c;
    collect(0);
    return takeOperands({Slot::Val, Slot::Val, Slot::Label}, {},
                        "'" + name() + "' expects two values and a label");
  }
  collect(0, {"uni"});
  takeOperands({Slot::Label}, {}, "'" + name() + "' expects a label");
}

}  // namespace instr_detail

Instr parseInstruction(std::string_view text, const SourceLoc& loc, Dialect dialect) {
  return instr_detail::InstrParser(text, loc, dialect).parse();
}

}  // namespace litmus
