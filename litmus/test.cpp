// Vocabulary helpers for Test: enum spellings, condition printing, and the
// lexical helpers (ptx_format.h) that every front end uses to read names and integers.
#include "litmus/test.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "litmus/ptx_format.h"

namespace litmus {

const std::string& familyOf(const Test& test) { return test.family.empty() ? test.name : test.family; }

const char* toString(Sem s) {
  switch (s) {
    case Sem::Weak: return "weak";
    case Sem::Relaxed: return "relaxed";
    case Sem::Acquire: return "acquire";
    case Sem::Release: return "release";
    case Sem::AcqRel: return "acq_rel";
    case Sem::Sc: return "sc";
    case Sem::Volatile: return "volatile";
    case Sem::Mmio: return "mmio";
  }
  return "?";
}

const char* toString(Scope s) {
  switch (s) {
    case Scope::None: return "none";
    case Scope::Cta: return "cta";
    case Scope::Cluster: return "cluster";
    case Scope::Gpu: return "gpu";
    case Scope::Sys: return "sys";
  }
  return "?";
}

const char* toString(Space s) {
  switch (s) {
    case Space::Generic: return "generic";
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::SharedCta: return "shared::cta";
    case Space::SharedCluster: return "shared::cluster";
    case Space::Local: return "local";
    case Space::Const: return "const";
  }
  return "?";
}

const char* toString(Proxy p) {
  switch (p) {
    case Proxy::Generic: return "generic";
    case Proxy::Texture: return "texture";
    case Proxy::Surface: return "surface";
    case Proxy::Constant: return "constant";
    case Proxy::Async: return "async";
    case Proxy::Tensormap: return "tensormap";
  }
  return "?";
}

const char* toString(Type t) {
  switch (t) {
    case Type::None: return "none";
    case Type::B8: return "b8";
    case Type::B16: return "b16";
    case Type::B32: return "b32";
    case Type::B64: return "b64";
    case Type::B128: return "b128";
    case Type::U8: return "u8";
    case Type::U16: return "u16";
    case Type::U32: return "u32";
    case Type::U64: return "u64";
    case Type::S8: return "s8";
    case Type::S16: return "s16";
    case Type::S32: return "s32";
    case Type::S64: return "s64";
    case Type::F16: return "f16";
    case Type::F16x2: return "f16x2";
    case Type::BF16: return "bf16";
    case Type::BF16x2: return "bf16x2";
    case Type::F32: return "f32";
    case Type::F64: return "f64";
    case Type::Pred: return "pred";
  }
  return "?";
}

const char* toString(Expect e) {
  switch (e) {
    case Expect::None: return "none";
    case Expect::Reachable: return "reachable";
    case Expect::Unreachable: return "unreachable";
    case Expect::Always: return "always";
    case Expect::NotAlways: return "not-always";
  }
  return "?";
}

const char* toString(Quantifier q) {
  switch (q) {
    case Quantifier::Exists: return "exists";
    case Quantifier::NotExists: return "~exists";
    case Quantifier::Forall: return "forall";
  }
  return "?";
}

std::optional<Expect> parseExpect(const std::string& s) {
  for (Expect e : {Expect::Reachable, Expect::Unreachable, Expect::Always, Expect::NotAlways})
    if (s == toString(e)) return e;
  return std::nullopt;
}

int typeBits(Type t) {
  switch (t) {
    case Type::None: return 0;
    case Type::Pred: return 1;
    case Type::B8:
    case Type::U8:
    case Type::S8: return 8;
    case Type::B16:
    case Type::U16:
    case Type::S16:
    case Type::F16:
    case Type::BF16: return 16;
    case Type::B32:
    case Type::U32:
    case Type::S32:
    case Type::F32:
    case Type::F16x2:
    case Type::BF16x2: return 32;
    case Type::B64:
    case Type::U64:
    case Type::S64:
    case Type::F64: return 64;
    case Type::B128: return 128;
  }
  return 0;
}

bool isSignedType(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

bool isFloatType(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2 ||
         t == Type::F32 || t == Type::F64;
}

// ---- element addresses and operand layout ---------------------------------------------------

std::string elementName(const std::string& location, int64_t offset) {
  return offset == 0 ? location : location + "+" + std::to_string(offset);
}

std::optional<std::pair<std::string, int64_t>> splitElementName(std::string_view s) {
  size_t plus = s.find('+');
  std::string_view base = s.substr(0, plus);
  if (!lex::isIdentifier(base)) return std::nullopt;
  if (plus == std::string_view::npos) return std::make_pair(std::string(base), int64_t{0});
  std::string_view digits = s.substr(plus + 1);
  if (digits.empty() || digits[0] == '-' || digits[0] == '+') return std::nullopt;
  std::optional<int64_t> v = lex::parseInteger(digits);
  if (!v || *v < 0) return std::nullopt;
  return std::make_pair(std::string(base), *v);
}

std::optional<int64_t> offsetPlus(int64_t offset, int64_t extra) {
  int64_t sum = 0;
  if (offset < 0 || extra < 0 || __builtin_add_overflow(offset, extra, &sum)) return std::nullopt;
  return sum;
}

int64_t initialValue(const Location& loc, int64_t offset) {
  if (loc.initAt.empty()) return loc.init;
  auto it = loc.initAt.find(offset);
  return it == loc.initAt.end() ? 0 : it->second;
}

int destCount(const Instr& in) {
  switch (in.op) {
    case Opcode::Atom: return in.vec;
    case Opcode::Ld:
    case Opcode::Mov:
    case Opcode::Arith:
    case Opcode::Setp:
    case Opcode::Selp: return !in.args.empty() && in.args[0].kind == Operand::Kind::Reg ? 1 : 0;
    case Opcode::Mapa:
    case Opcode::GetCtaRank: return 1;
    case Opcode::Elect: return 2;  // the first may be the sink `_`
    case Opcode::Cvta:
    case Opcode::CreatePolicy: return 1;
    case Opcode::Clc:  // query_cancel: .v4 writes {x, y, z, w}, each may be the sink `_`
      return in.clcOp == ClcOp::TryCancel ? 0 : in.clcOp == ClcOp::FirstCtaid && in.clcDim < 0 ? 4 : 1;
    case Opcode::Warp: return in.warpOp == WarpOp::MatchAll && in.args.size() == 4 ? 2 : 1;  // d|p
    case Opcode::Bar:
      return in.barOp == BarOp::RedPopc || in.barOp == BarOp::RedAnd || in.barOp == BarOp::RedOr;
    case Opcode::Mbarrier:
      return in.mbarOp == MbarOp::Arrive || in.mbarOp == MbarOp::ArriveDrop ||
             in.mbarOp == MbarOp::TestWait || in.mbarOp == MbarOp::TryWait ||
             in.mbarOp == MbarOp::PendingCount;
    case Opcode::Async: return in.asyncOp == AsyncOp::WgmmaMma ? in.vec : 0;  // the accumulators
    default: return 0;
  }
}

int addressIndex(const Instr& in) {
  switch (in.op) {
    case Opcode::Ld: return 1;
    case Opcode::St:
    case Opcode::Red: return 0;
    case Opcode::Atom: return in.vec;
    case Opcode::Mbarrier:
      return in.mbarOp == MbarOp::PendingCount ? -1 : destCount(in);
    case Opcode::Async:
      return in.asyncOp == AsyncOp::Store || in.asyncOp == AsyncOp::Reduce ? 0 : -1;
    default: return -1;
  }
}

const char* toString(MbarOp op) {
  switch (op) {
    case MbarOp::None: return "";
    case MbarOp::Init: return "init";
    case MbarOp::Inval: return "inval";
    case MbarOp::Arrive: return "arrive";
    case MbarOp::ArriveDrop: return "arrive_drop";
    case MbarOp::ExpectTx: return "expect_tx";
    case MbarOp::CompleteTx: return "complete_tx";
    case MbarOp::TestWait: return "test_wait";
    case MbarOp::TryWait: return "try_wait";
    case MbarOp::PendingCount: return "pending_count";
  }
  return "";
}

std::string addressLocation(const Thread& t, const Operand& o) {
  if (o.kind == Operand::Kind::Addr) return o.name;
  if (o.kind != Operand::Kind::RegAddr) return "";
  // mapa, cvta and `mov d, LOCATION` write addresses; mapa and cvta may take theirs from a
  // register that holds one (a chain of at most 8, which validation checks)
  std::string reg = o.name;
  for (int hop = 0; hop < 8; ++hop) {
    const Instr* from = nullptr;
    for (const Instr& in : t.code)
      if ((in.op == Opcode::Mapa || in.op == Opcode::Cvta) && in.args[0].name == reg) {
        from = &in;
        break;
      }
    if (!from) return "";
    if (from->args[1].kind == Operand::Kind::Addr) return from->args[1].name;
    if (from->args[1].kind != Operand::Kind::Reg || from->args[1].name == reg) return "";
    reg = from->args[1].name;
  }
  return "";
}

std::vector<BulkRange> bulkRanges(const Instr& in) {
  if (in.op == Opcode::Async && (in.asyncOp == AsyncOp::CpCopyCa || in.asyncOp == AsyncOp::CpCopyCg))
    return {{0, in.args[2].imm}, {1, in.args[2].imm}};  // non-bulk cp.async: cp-size bytes
  if (in.op != Opcode::Async || (in.asyncOp != AsyncOp::Copy && in.asyncOp != AsyncOp::TensormapCp))
    return {};
  return {{0, in.args[2].imm}, {1, in.args[2].imm}};
}

// Counted per cluster and per warp in maps: comparing every pair of threads was quadratic
// (issue 30: 40,000 threads in one CTA).
Placement placementOf(const Test& test) {
  const size_t n = test.threads.size();
  Placement p;
  p.rank.assign(n, 0);
  p.ctas.assign(n, 0);
  p.lane.assign(n, 0);
  p.lanes.assign(n, 1);
  std::map<std::pair<int, int>, std::vector<int>> ctasOf;  // (gpu, cluster) -> CTAs, sorted
  std::map<std::pair<int, int>, int> lanesOf;              // (cta, warp) -> threads so far
  for (const Thread& t : test.threads) ctasOf[{t.gpu, t.cluster}].push_back(t.cta);
  for (auto& [cluster, ctas] : ctasOf) {
    std::sort(ctas.begin(), ctas.end());
    ctas.erase(std::unique(ctas.begin(), ctas.end()), ctas.end());
  }
  for (size_t i = 0; i < n; ++i) {
    const Thread& t = test.threads[i];
    if (t.warp >= 0) p.lane[i] = lanesOf[{t.cta, t.warp}]++;
  }
  for (size_t i = 0; i < n; ++i) {
    const Thread& t = test.threads[i];
    const std::vector<int>& ctas = ctasOf.at({t.gpu, t.cluster});
    p.rank[i] = static_cast<int>(std::lower_bound(ctas.begin(), ctas.end(), t.cta) - ctas.begin());
    p.ctas[i] = static_cast<int>(ctas.size());
    if (t.warp >= 0) p.lanes[i] = lanesOf.at({t.cta, t.warp});
  }
  return p;
}

int threadInCta(const Test& test, int cta) {
  for (size_t i = 0; i < test.threads.size(); ++i)
    if (test.threads[i].cta == cta) return static_cast<int>(i);
  return -1;
}

bool isSpecialRegister(const std::string& name) {
  for (const char* s : {"cluster_ctarank", "cluster_nctarank", "is_explicit_cluster", "laneid",
                        "cluster_ctaid.x", "cluster_ctaid.y", "cluster_ctaid.z", "cluster_nctaid.x",
                        "cluster_nctaid.y", "cluster_nctaid.z"})
    if (name == s) return true;
  return isPlacementRegister(name);
}

BarOperands barOperands(const Instr& in, bool dat3m) {
  BarOperands o;
  if (in.op != Opcode::Bar || in.barOp == BarOp::ClusterArrive || in.barOp == BarOp::ClusterWait ||
      in.barOp == BarOp::WarpSync)
    return o;
  const bool plain = in.barOp == BarOp::Sync || in.barOp == BarOp::Arrive;
  const int first = plain ? 0 : 1;
  const int ops = static_cast<int>(in.args.size()) - first - (plain ? 0 : 1);
  o.id = first;
  if (dat3m && plain) {
    if (ops >= 2) o.instance = first + 1;
    if (ops >= 3) o.count = first + 2;
  } else if (ops >= 2) {
    o.count = first + 1;
  }
  return o;
}

int elementBytes(const Instr& in) { return typeBits(in.type) / 8; }

std::string shownText(const Instr& in) {
  if (!in.origin.line) return in.text;
  return in.text + " (" + in.origin.file + ":" + std::to_string(in.origin.line) + ")";
}

// ---- conditions ----------------------------------------------------------------------------

std::string formatTerm(const Term& t) {
  switch (t.kind) {
    case Term::Kind::Reg: return t.thread + ":" + t.name;
    case Term::Kind::Mem: return t.name;
    case Term::Kind::Const: return std::to_string(t.value);
  }
  return "?";
}

namespace {

const char* cmpText(CmpOp c) {
  switch (c) {
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
    case CmpOp::None: break;
  }
  return "==";
}

// Every nested And/Or/Not is parenthesised so that the text reads back to the same tree shape,
// whatever the reader's precedence rules.
std::string formatInner(const Cond& c) {
  auto nested = [](const Cond& k) {
    bool compound = k.kind == Cond::Kind::And || k.kind == Cond::Kind::Or;
    return compound ? std::string("(").append(formatInner(k)).append(")") : formatInner(k);
  };
  switch (c.kind) {
    case Cond::Kind::True: return "true";
    case Cond::Kind::False: return "false";
    case Cond::Kind::Cmp: return formatTerm(c.lhs) + " " + cmpText(c.cmp) + " " + formatTerm(c.rhs);
    case Cond::Kind::Not: return c.kids.empty() ? "~true" : "~(" + formatInner(c.kids[0]) + ")";
    case Cond::Kind::And:
    case Cond::Kind::Or: {
      std::string out;
      for (size_t i = 0; i < c.kids.size(); ++i) {
        if (i) out += c.kind == Cond::Kind::And ? " /\\ " : " \\/ ";
        out += nested(c.kids[i]);
      }
      return out;
    }
  }
  return "?";
}

void collectTerms(const Cond& c, std::vector<Term>& out,
                  std::set<std::tuple<int, std::string, std::string>>& seen) {
  if (c.kind == Cond::Kind::Cmp) {
    for (const Term* t : {&c.lhs, &c.rhs}) {
      if (t->kind == Term::Kind::Const) continue;
      if (seen.insert({static_cast<int>(t->kind), t->thread, t->name}).second) out.push_back(*t);
    }
  }
  for (const Cond& k : c.kids) collectTerms(k, out, seen);
}

}  // namespace

std::string formatCondition(const Cond& c) {
  return std::string("(").append(formatInner(c)).append(")");
}

std::vector<Term> conditionTerms(const Cond& c) {
  std::vector<Term> out;
  std::set<std::tuple<int, std::string, std::string>> seen;
  collectTerms(c, out, seen);
  return out;
}

// ---- lexical helpers -----------------------------------------------------------------------

namespace lex {

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

static bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(isAlpha(c) || isDigit(c) || c == '_' || c == '$')) return false;
  return true;
}

bool looksNumeric(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return !s.empty() && isDigit(s[0]);
}

bool isIntegerSyntax(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) s.remove_prefix(2);
  if (s.empty()) return false;
  for (char c : s)
    if (!(isDigit(c) || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))))) return false;
  return true;
}

std::optional<int64_t> parseInteger(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  if (negative) {
    if (v > (uint64_t(1) << 63)) return std::nullopt;
    return static_cast<int64_t>(uint64_t(0) - v);
  }
  return static_cast<int64_t>(v);
}

}  // namespace lex
}  // namespace litmus
