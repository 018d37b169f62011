#include "semantics/arith.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace model {

using litmus::Type;

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


bool isUnsigned(Type t) { return !litmus::isSignedType(t) && !litmus::isFloatType(t) && t != Type::None; }

// D52: integers are two's complement of the type's width. The arithmetic is done on uint64_t,
// whose wrap-around C++ defines, and normalize() then cuts the result to the width; operands are
// first read at the instruction's width, as PTX registers of that type would hold them.
namespace {

int64_t wrapped(uint64_t v) { return static_cast<int64_t>(v); }  // modular since C++20

int64_t shiftLeft(uint64_t a, uint64_t amount) { return amount >= 64 ? 0 : wrapped(a << amount); }

// Signed shifts fill with the sign bit, unsigned and untyped ones with 0 (PTX ISA, shr).
int64_t shiftRight(bool unsignedShift, int64_t a, uint64_t amount) {
  if (unsignedShift) return amount >= 64 ? 0 : wrapped(static_cast<uint64_t>(a) >> amount);
  return a >> std::min<uint64_t>(amount, 63);  // arithmetic: C++20 defines >> of a negative
}

// Quotient or remainder truncated towards zero. By 0 the ISA gives "an unspecified,
// machine-specific value": the model's is 0 (D52). The quotient of the most negative value by -1
// does not fit and wraps to itself, as its low bits say; its remainder is 0.
int64_t divide(bool unsignedDiv, bool remainder, int64_t a, int64_t b) {
  if (b == 0) return 0;
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (unsignedDiv) return wrapped(remainder ? ua % ub : ua / ub);
  if (b == -1) return remainder ? 0 : wrapped(0 - ua);
  return remainder ? a % b : a / b;
}

bool isInteger(Type t) { return !litmus::isFloatType(t) && t != Type::Pred; }

}  // namespace

int64_t applyAtom(litmus::AtomOp op, Type t, int64_t old, int64_t b, int64_t c) {
  using litmus::AtomOp;
  if ((isHalf(t) || isPackedHalf(t)) &&
      (op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max))
    return halfLanes(op, t, old, b, isHalf(t) ? 1 : 2);
  old = normalize(t, old);
  b = normalize(t, b);
  c = normalize(t, c);
  const auto ub = static_cast<uint64_t>(b), uo = static_cast<uint64_t>(old);
  switch (op) {
    case AtomOp::And: return old & b;
    case AtomOp::Or: return old | b;
    case AtomOp::Xor: return old ^ b;
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return old == b ? c : old;
    case AtomOp::Sub: return wrapped(uo - ub);
    // .inc/.dec compare unsigned and stay in [0..b] (§9.7.13.5)
    case AtomOp::Inc: return uo >= ub ? 0 : wrapped(uo + 1);
    case AtomOp::Dec: return (uo == 0 || uo > ub) ? b : wrapped(uo - 1);
    case AtomOp::Min: return isUnsigned(t) ? wrapped(std::min(uo, ub)) : std::min(old, b);
    case AtomOp::Max: return isUnsigned(t) ? wrapped(std::max(uo, ub)) : std::max(old, b);
    case AtomOp::Add:
      switch (t) {
        case Type::F32: return fromF32(asF32(old) + asF32(b));
        case Type::F64: return fromF64(asF64(old) + asF64(b));
        default: return wrapped(uo + ub);
      }
    case AtomOp::None: break;
  }
  return old;
}

int64_t applyArith(litmus::ArithOp op, Type t, int64_t a, int64_t b) {
  using litmus::ArithOp;
  const bool u = isUnsigned(t);
  // the shift amount is an unsigned value of its own (a .u32 in PTX), not of the type
  const auto amount = static_cast<uint64_t>(b);
  if (isInteger(t)) {
    a = normalize(t, a);
    b = normalize(t, b);
  }
  const auto ua = static_cast<uint64_t>(a), ubv = static_cast<uint64_t>(b);
  switch (op) {
    case ArithOp::Add: return t == Type::F32 ? fromF32(asF32(a) + asF32(b)) : wrapped(ua + ubv);
    case ArithOp::Sub: return t == Type::F32 ? fromF32(asF32(a) - asF32(b)) : wrapped(ua - ubv);
    case ArithOp::Mul: return wrapped(ua * ubv);  // the low half (.lo)
    case ArithOp::Div: return divide(u, false, a, b);
    case ArithOp::Rem: return divide(u, true, a, b);
    case ArithOp::And: return a & b;
    case ArithOp::Or: return a | b;
    case ArithOp::Xor: return a ^ b;
    case ArithOp::Shl: return shiftLeft(ua, amount);
    case ArithOp::Shr: return shiftRight(u, a, amount);
    case ArithOp::Min: return u ? wrapped(std::min(ua, ubv)) : std::min(a, b);
    case ArithOp::Max: return u ? wrapped(std::max(ua, ubv)) : std::max(a, b);
    case ArithOp::Neg: return wrapped(0 - ua);
    case ArithOp::Not: return ~a;
    case ArithOp::None: break;
  }
  return a;
}

bool compare(litmus::CmpOp op, Type t, int64_t a, int64_t b) {
  using litmus::CmpOp;
  if (isInteger(t)) {  // at the type's width (D52)
    a = normalize(t, a);
    b = normalize(t, b);
  }
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

}  // namespace model
