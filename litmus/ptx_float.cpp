// Floating-point literals of PTX, both ways: decimal and hex forms into the bits of .f16, .bf16,
// .f32 and .f64 (rounding to nearest even, as PTX's default .rn), and bits back into text that
// reads back to the same bits.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "litmus/ptx_format.h"

namespace litmus {

namespace {

// IEEE binary16 from binary32, rounding to nearest even (the PTX default .rn).
uint16_t floatToHalf(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  int exp = static_cast<int>((x >> 23) & 0xffu);
  if (exp == 255) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  int e = exp - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t half, rem, mid;
  if (e <= 0) {  // subnormal or zero
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    int shift = 14 - e;
    half = mant >> shift;
    rem = mant & ((1u << shift) - 1);
    mid = 1u << (shift - 1);
  } else {
    half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    rem = mant & 0x1fffu;
    mid = 0x1000u;
  }
  if (rem > mid || (rem == mid && (half & 1))) ++half;  // a carry correctly bumps the exponent
  return static_cast<uint16_t>(sign | half);
}

double halfToDouble(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v = exp == 0    ? std::ldexp(mant, -24)
             : exp == 31 ? (mant ? NAN : INFINITY)
                         : std::ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t floatToBf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

std::optional<uint64_t> hexBits(std::string_view s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

namespace lex {

std::optional<int64_t> encodeFloat(std::string_view s, Type type) {
  bool negative = !s.empty() && s[0] == '-';
  std::string_view body = negative ? s.substr(1) : s;
  double v = 0;
  bool hexF = body.size() == 10 && (body.substr(0, 2) == "0f" || body.substr(0, 2) == "0F");
  bool hexD = body.size() == 18 && (body.substr(0, 2) == "0d" || body.substr(0, 2) == "0D");
  if (hexF || hexD) {
    std::optional<uint64_t> bits = hexBits(body.substr(2));
    if (!bits) return std::nullopt;
    // exact bit patterns of the literal's own type are kept as written (NaN payloads included)
    if (hexF && type == Type::F32 && !negative) return static_cast<int64_t>(*bits);
    if (hexD && type == Type::F64 && !negative) return static_cast<int64_t>(*bits);
    v = hexF ? std::bit_cast<float>(static_cast<uint32_t>(*bits)) : std::bit_cast<double>(*bits);
    if (negative) v = -v;
  } else {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  }
  switch (type) {
    case Type::F32: return std::bit_cast<uint32_t>(static_cast<float>(v));
    case Type::F64: return std::bit_cast<int64_t>(v);
    case Type::F16: return floatToHalf(static_cast<float>(v));
    case Type::BF16: return floatToBf16(static_cast<float>(v));
    default: return std::nullopt;
  }
}

std::string formatFloat(int64_t bits, Type type) {
  char buf[40];
  if (type == Type::F32) {
    std::snprintf(buf, sizeof buf, "0f%08X", static_cast<unsigned>(bits & 0xffffffffu));
    return buf;
  }
  if (type == Type::F64) {
    std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(bits));
    return buf;
  }
  if (type != Type::F16 && type != Type::BF16) return std::to_string(bits);
  uint16_t h = static_cast<uint16_t>(bits);
  double v =
      type == Type::F16 ? halfToDouble(h) : std::bit_cast<float>(static_cast<uint32_t>(h) << 16);
  // Every finite half value is exact in a double, so its shortest decimal form reads back to
  // the same bits; infinities and NaNs go through the f32 hex form.
  if (!std::isfinite(v))
    return formatFloat(std::bit_cast<uint32_t>(static_cast<float>(v)), Type::F32);
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

}  // namespace lex
}  // namespace litmus
