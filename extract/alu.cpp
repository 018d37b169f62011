// The arithmetic of pure instructions. Values are kept as 64-bit integers cut to the width of the
// instruction's type (zero-extended; sign-extended when read by a signed instruction).
#include "extract/alu.h"
#include "extract/ptx_module.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <set>
#include <string>

namespace extract {

namespace {

using K = Value::Kind;

const std::set<std::string> kPure = {"mov", "add", "sub", "mul", "mad", "mul24", "mad24", "div", "rem",
                                     "abs", "neg", "min", "max", "and", "or", "xor", "not", "cnot",
                                     "shl", "shr", "shf", "setp", "selp", "slct", "cvt", "cvta",
                                     "isspacep", "bfe", "bfi", "prmt", "popc", "clz", "brev", "lop3",
                                     "bmsk", "szext", "fma", "rcp", "sqrt", "rsqrt", "ex2", "lg2",
                                     "sin", "cos", "tanh", "copysign", "testp", "set", "sad", "cvt.pack",
                                     "fns", "dp4a", "dp2a", "addc", "subc", "madc"};

uint64_t mask(int bytes) { return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1; }

// The compare operation of setp: eq ne lt le gt ge (signed by type), lo ls hi hs (unsigned).
std::optional<bool> compare(const std::string& cmp, int64_t a, int64_t b, bool isSigned) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (cmp == "eq") return a == b;
  if (cmp == "ne") return a != b;
  if (cmp == "lo" || (cmp == "lt" && !isSigned)) return ua < ub;
  if (cmp == "ls" || (cmp == "le" && !isSigned)) return ua <= ub;
  if (cmp == "hi" || (cmp == "gt" && !isSigned)) return ua > ub;
  if (cmp == "hs" || (cmp == "ge" && !isSigned)) return ua >= ub;
  if (cmp == "lt") return a < b;
  if (cmp == "le") return a <= b;
  if (cmp == "gt") return a > b;
  if (cmp == "ge") return a >= b;
  return std::nullopt;
}

// Combines setp's result with its optional predicate (`setp.eq.and.s32 p, a, b, q`).
bool combine(const std::string& boolOp, bool r, bool q) {
  if (boolOp == "and") return r && q;
  if (boolOp == "or") return r || q;
  if (boolOp == "xor") return r != q;
  return r;
}

// Address arithmetic: an address plus or minus a number, the difference of two addresses of one
// object, and masks that clear low bits (alignment; objects are taken to be 1024-byte aligned).
std::optional<Value> addressArith(const std::string& head, const Value& a, const Value& b) {
  if (head == "add" && a.kind == K::Addr && b.isInt()) return Value::addr(a.obj, a.i + b.i, a.window);
  if (head == "add" && b.kind == K::Addr && a.isInt()) return Value::addr(b.obj, b.i + a.i, b.window);
  if (head == "sub" && a.kind == K::Addr && b.isInt()) return Value::addr(a.obj, a.i - b.i, a.window);
  if (head == "sub" && a.kind == K::Addr && b.kind == K::Addr && a.obj == b.obj) return Value::num(a.i - b.i);
  if (head == "and" && a.kind == K::Addr && b.isInt() && (~static_cast<uint64_t>(b.i) & 0xffffffff) < 1024)
    return Value::addr(a.obj, a.i & b.i, a.window);
  return std::nullopt;
}

// The bit-field and permutation instructions: bfe, bfi, lop3, prmt (default mode), shf, bmsk.
std::optional<int64_t> bitOp(const Op& op, const std::vector<int64_t>& v, int w, bool sgn) {
  const std::string& h = op.parts[0];
  const int64_t a = v.size() > 0 ? v[0] : 0, b = v.size() > 1 ? v[1] : 0, c = v.size() > 2 ? v[2] : 0;
  const uint64_t ua = static_cast<uint64_t>(a) & mask(w);
  if (h == "bfe") {  // bfe d, a, pos, len
    const int pos = static_cast<int>(b & 0xff), len = static_cast<int>(c & 0xff);
    if (len == 0 || pos >= 8 * w) return sgn && a < 0 && pos >= 8 * w ? -1 : 0;
    const uint64_t field = (ua >> pos) & (len >= 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1);
    if (sgn && len < 64 && ((field >> (len - 1)) & 1)) return static_cast<int64_t>(field | (~uint64_t{0} << len));
    return static_cast<int64_t>(field);
  }
  if (h == "bfi" && v.size() == 4) {  // bfi d, f, b, pos, len
    const int pos = static_cast<int>(c & 0xff), len = static_cast<int>(v[3] & 0xff);
    const uint64_t m = (len >= 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1) << pos;
    return static_cast<int64_t>((static_cast<uint64_t>(b) & ~m) | ((static_cast<uint64_t>(a) << pos) & m));
  }
  if (h == "lop3" && v.size() == 4) {  // lop3 d, a, b, c, immLut
    uint64_t r = 0;
    for (int bit = 0; bit < 64; ++bit) {
      const int idx = (((static_cast<uint64_t>(a) >> bit) & 1) << 2) | (((static_cast<uint64_t>(b) >> bit) & 1) << 1) |
                      ((static_cast<uint64_t>(c) >> bit) & 1);
      r |= static_cast<uint64_t>((v[3] >> idx) & 1) << bit;
    }
    return static_cast<int64_t>(r);
  }
  if (h == "prmt" && v.size() == 3 && op.parts.size() == 2) {  // default mode only
    const uint64_t bytes = (static_cast<uint64_t>(b & 0xffffffff) << 32) | (static_cast<uint64_t>(a) & 0xffffffff);
    uint64_t r = 0;
    for (int i = 0; i < 4; ++i) {
      const int sel = static_cast<int>((c >> (4 * i)) & 0xf);
      uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
      if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * i);
    }
    return static_cast<int64_t>(r);
  }
  if (h == "shf" && v.size() == 3) {  // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c
    const uint64_t pair = (static_cast<uint64_t>(b & 0xffffffff) << 32) | (static_cast<uint64_t>(a) & 0xffffffff);
    int n = static_cast<int>(c & 0xffffffff);
    n = op.has("wrap") ? n & 31 : std::min(n, 32);
    return op.has("l") ? static_cast<int64_t>((pair << n) >> 32) : static_cast<int64_t>(pair >> n);
  }
  if (h == "bmsk") {  // bmsk.clamp/wrap.b32 d, a (start), b (width)
    const int start = static_cast<int>(a & 0xff), width = static_cast<int>(b & 0xff);
    if (start >= 32) return 0;
    const int end = std::min(32, start + width);
    return static_cast<int64_t>(((uint64_t{1} << end) - 1) & ~((uint64_t{1} << start) - 1));
  }
  return std::nullopt;
}

// Integer binary and unary operations; nullopt for those not listed.
std::optional<int64_t> intOp(const Op& op, const std::vector<int64_t>& v, int w, bool sgn) {
  const std::string& h = op.parts[0];
  const int64_t a = v.size() > 0 ? v[0] : 0, b = v.size() > 1 ? v[1] : 0, c = v.size() > 2 ? v[2] : 0;
  const uint64_t ua = static_cast<uint64_t>(a) & mask(w), ub = static_cast<uint64_t>(b);
  const bool hi = op.has("hi"), wide = op.has("wide");
  auto mul = [&](int64_t x, int64_t y) -> int64_t {
    if (wide) return x * y;  // 32 x 32 -> 64 (operands already sign- or zero-extended)
    if (hi) {
      const __int128 p = sgn ? static_cast<__int128>(x) * y
                             : static_cast<__int128>(static_cast<unsigned __int128>(static_cast<uint64_t>(x) & mask(w)) *
                                                     (static_cast<uint64_t>(y) & mask(w)));
      return static_cast<int64_t>(p >> (8 * w));
    }
    return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  };
  if (h == "add") return a + b;
  if (h == "sub") return a - b;
  if (h == "mul" || h == "mul24") return mul(a, b);
  if (h == "mad" || h == "mad24") return mul(a, b) + c;
  if (h == "div") return b == 0 ? std::nullopt : std::optional<int64_t>(sgn ? a / b : static_cast<int64_t>(ua / (ub & mask(w))));
  if (h == "rem") return b == 0 ? std::nullopt : std::optional<int64_t>(sgn ? a % b : static_cast<int64_t>(ua % (ub & mask(w))));
  if (h == "and") return a & b;
  if (h == "or") return a | b;
  if (h == "xor") return a ^ b;
  if (h == "not") return op.has("pred") ? !a : ~a;
  if (h == "cnot") return a == 0;
  if (h == "neg") return -a;
  if (h == "abs") return a < 0 ? -a : a;
  if (h == "min") return sgn ? std::min(a, b) : static_cast<int64_t>(std::min(ua, ub & mask(w)));
  if (h == "max") return sgn ? std::max(a, b) : static_cast<int64_t>(std::max(ua, ub & mask(w)));
  if (h == "shl") return ub >= static_cast<uint64_t>(8 * w) ? 0 : static_cast<int64_t>(ua << ub);
  if (h == "shr") {
    if (ub >= static_cast<uint64_t>(8 * w)) return sgn && a < 0 ? -1 : 0;
    return sgn ? a >> ub : static_cast<int64_t>(ua >> ub);
  }
  if (h == "popc") return std::popcount(ua);
  if (h == "clz") return w == 8 ? std::countl_zero(ua) : std::countl_zero(static_cast<uint32_t>(ua));
  if (h == "brev") {
    uint64_t r = 0;
    for (int i = 0; i < 8 * w; ++i) r |= ((ua >> i) & 1) << (8 * w - 1 - i);
    return static_cast<int64_t>(r);
  }
  return bitOp(op, v, w, sgn);
}

// The signedness and width a source is read with (`cvt` and `mul.wide` read their source type).
struct Reading {
  int bytes;
  bool isSigned;
};

Reading sourceReading(const Op& op) {
  if (op.is("cvt")) {  // cvt.dtype.atype: the last type is the source's
    for (auto it = op.parts.rbegin(); it != op.parts.rend(); ++it)
      if (int b = typeBytes(*it)) return {b, (*it)[0] == 's'};
  }
  return {op.typeBytes() ? op.typeBytes() : 8, op.typeSigned()};
}

int resultBytes(const Op& op) {
  if (op.is("setp") || op.is("isspacep")) return 1;
  if (op.has("wide")) return 2 * op.typeBytes();
  if (op.is("cvt")) {
    for (size_t i = 1; i < op.parts.size(); ++i)
      if (int b = typeBytes(op.parts[i])) return b;
  }
  return op.typeBytes() ? op.typeBytes() : 8;
}

// A pure instruction on an address: conversions and cvta keep it (cvta changes its window),
// isspacep asks for its window, mad and add/sub move it, comparisons of one object's addresses
// compare offsets, and a null test says not null.
std::optional<Value> addressResult(const Op& op, const std::vector<Value>& src) {
  const std::string& h = op.parts[0];
  if ((h == "cvt" || h == "cvta") && src.size() == 1 && src[0].kind == K::Addr) {
    Value v = src[0];
    if (h == "cvta") {
      const Window w = op.has("shared") || op.has("shared::cta") ? Window::SharedCta
                       : op.has("shared::cluster")               ? Window::SharedCluster
                       : op.has("global")                        ? Window::Global
                       : op.has("param")                         ? Window::Param
                       : op.has("local")                         ? Window::Local
                                                                 : Window::Generic;
      v.window = op.has("to") ? w : Window::Generic;
    }
    return v;
  }
  if (h == "cvta" && src.size() == 1 && src[0].isInt()) return src[0];  // a null pointer stays null
  if (h == "isspacep" && src.size() == 1 && src[0].kind == K::Addr) {
    const Window w = src[0].window;
    const bool shared = w == Window::SharedCta || w == Window::SharedCluster;
    return Value::num(op.has("global") ? w == Window::Global : op.has("shared") ? shared : 0);
  }
  if (h == "mad" && src.size() == 3 && src[0].isInt() && src[1].isInt() && src[2].kind == K::Addr) {
    const Reading r = sourceReading(op);
    const int64_t p = normalize(src[0].i, r.bytes, r.isSigned) * normalize(src[1].i, r.bytes, r.isSigned);
    return Value::addr(src[2].obj, src[2].i + p, src[2].window);
  }
  if (src.size() != 2) return std::nullopt;
  if (h == "setp" && src[0].kind == K::Addr && src[1].kind == K::Addr && src[0].obj == src[1].obj) {
    if (auto r = compare(op.parts[1], src[0].i, src[1].i, true)) return Value::num(*r);
    return std::nullopt;
  }
  if (h == "setp" && (src[0].isInt() || src[1].isInt()) && (src[0].i == 0 || src[1].i == 0) &&
      (op.parts[1] == "eq" || op.parts[1] == "ne"))  // a null test of an address
    return Value::num(op.parts[1] == "ne");
  return addressArith(h, src[0], src[1]);
}

}  // namespace

int64_t normalize(int64_t v, int bytes, bool isSigned) {
  if (bytes >= 8 || bytes <= 0) return v;
  const uint64_t u = static_cast<uint64_t>(v) & mask(bytes);
  if (isSigned && (u >> (8 * bytes - 1)) & 1) return static_cast<int64_t>(u | ~mask(bytes));
  return static_cast<int64_t>(u);
}

bool isPure(const Op& op) { return !op.parts.empty() && kPure.count(op.parts[0]) > 0; }

bool isFloat(const Op& op) {
  for (const std::string& p : op.parts)
    if (p == "f16" || p == "f16x2" || p == "bf16" || p == "bf16x2" || p == "f32" || p == "f64" || p == "tf32")
      return !(op.is("mov") || op.is("selp") || (op.is("cvt") && false));
  return op.is("fma") || op.is("rcp") || op.is("sqrt") || op.is("rsqrt") || op.is("ex2") || op.is("lg2") ||
         op.is("sin") || op.is("cos") || op.is("tanh") || op.is("testp") || op.is("copysign");
}

int destCount(const Op& op) {
  if (op.args.empty()) return 0;
  const Arg& d = op.args[0];
  return d.kind == Arg::Kind::Pair || d.kind == Arg::Kind::Vec ? static_cast<int>(d.elems.size()) : 1;
}

std::vector<Value> evalPure(const Op& op, const std::vector<Value>& src) {
  const int nd = destCount(op);
  std::vector<Value> out(nd, Value::unknown());
  const std::string& h = op.parts[0];
  if (isFloat(op) || h == "addc" || h == "subc" || h == "madc" || op.has("cc")) return out;
  const int wOut = resultBytes(op);
  if (h == "selp" && src.size() == 3) {
    if (src[2].isInt()) out[0] = src[2].i ? src[0] : src[1];
    return out;
  }
  if (h == "mov" && nd == 1 && src.size() == 1) {
    out[0] = src[0].isInt() ? Value::num(normalize(src[0].i, wOut, false)) : src[0];
    return out;
  }
  if (std::any_of(src.begin(), src.end(), [](const Value& v) { return v.kind == K::Addr; }) ||
      (h == "cvta" && src.size() == 1)) {
    if (std::optional<Value> v = addressResult(op, src)) out[0] = *v;
    return out;
  }
  for (const Value& v : src)
    if (!v.isInt()) return out;
  const Reading r = sourceReading(op);
  std::vector<int64_t> v;
  for (const Value& s : src) v.push_back(normalize(s.i, r.bytes, r.isSigned));
  if (h == "setp") {
    std::optional<bool> c = v.size() >= 2 ? compare(op.parts[1], v[0], v[1], r.isSigned) : std::nullopt;
    if (!c) return out;
    const std::string boolOp = op.parts.size() > 2 && !typeBytes(op.parts[2]) ? op.parts[2] : "";
    const bool q = v.size() > 2 && v[2];
    out[0] = Value::num(combine(boolOp, *c, q));
    if (nd == 2) out[1] = Value::num(combine(boolOp, !*c, q));
    return out;
  }
  if (h == "mov" && nd > 1 && v.size() == 1) {  // mov.b64 {lo, hi}, d: unpack
    const int part = wOut / nd;
    for (int i = 0; i < nd; ++i) out[i] = Value::num(normalize(v[0] >> (8 * part * i), part, false));
    return out;
  }
  if (h == "mov" && nd == 1 && v.size() > 1) {  // mov.b64 d, {lo, hi}: pack
    const int part = wOut / static_cast<int>(v.size());
    uint64_t packed = 0;
    for (size_t i = 0; i < v.size(); ++i)
      packed |= (static_cast<uint64_t>(v[i]) & mask(part)) << (8 * part * i);
    out[0] = Value::num(static_cast<int64_t>(packed));
    return out;
  }
  if (h == "cvt" && v.size() == 1) {
    out[0] = Value::num(normalize(v[0], wOut, false));
    return out;
  }
  if (std::optional<int64_t> x = intOp(op, v, r.bytes, r.isSigned)) out[0] = Value::num(normalize(*x, wOut, false));
  return out;
}

}  // namespace extract
