// Integer arithmetic at the edges of the range (docs/model.md D52, issue 30): two's-complement
// wrap-around, shift amounts read unsigned and clamped, division by 0 and INT_MIN / -1, operands
// read at the instruction's width. The old code crashed (SIGFPE) or had undefined behaviour here.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "semantics/arith.h"

using litmus::ArithOp;
using litmus::AtomOp;
using litmus::CmpOp;
using litmus::Type;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// What the model stores: the operation, then the result cut to the type's width.
int64_t arith(ArithOp op, Type t, int64_t a, int64_t b = 0) { return model::normalize(t, model::applyArith(op, t, a, b)); }
int64_t atom(AtomOp op, Type t, int64_t old, int64_t b) { return model::normalize(t, model::applyAtom(op, t, old, b, 0)); }

}  // namespace

TEST_CASE("add, sub, mul and neg wrap around in two's complement") {
  CHECK(arith(ArithOp::Add, Type::S64, kMax, 1) == kMin);
  CHECK(arith(ArithOp::Sub, Type::S64, kMin, 1) == kMax);
  CHECK(arith(ArithOp::Mul, Type::S64, kMax, 2) == -2);
  CHECK(arith(ArithOp::Mul, Type::S64, kMin, -1) == kMin);
  CHECK(arith(ArithOp::Neg, Type::S64, kMin) == kMin);
  CHECK(arith(ArithOp::Add, Type::U64, -1, 2) == 1);
  CHECK(arith(ArithOp::Add, Type::None, kMax, kMax) == -2);  // herd's untyped registers: 64 bits
  CHECK(arith(ArithOp::Add, Type::S32, 2147483647, 1) == -2147483648);
  CHECK(arith(ArithOp::Add, Type::U32, 4294967295, 2) == 1);
  CHECK(arith(ArithOp::Neg, Type::S16, -32768) == -32768);
}

TEST_CASE("atomic add, sub, inc and dec wrap around like the arithmetic") {
  CHECK(atom(AtomOp::Add, Type::S64, kMax, 1) == kMin);
  CHECK(atom(AtomOp::Add, Type::U64, -1, 1) == 0);
  CHECK(atom(AtomOp::Sub, Type::S64, kMin, 1) == kMax);
  CHECK(atom(AtomOp::Add, Type::U32, 4294967295, 1) == 0);
  // inc(r, s) = r >= s ? 0 : r + 1 and dec(r, s) = r == 0 || r > s ? s : r - 1, unsigned
  CHECK(atom(AtomOp::Inc, Type::U64, kMax, -1) == kMin);
  CHECK(atom(AtomOp::Dec, Type::U64, kMin, -1) == kMax);
  CHECK(atom(AtomOp::Inc, Type::U32, 4294967295, 4294967295) == 0);
  CHECK(atom(AtomOp::Dec, Type::U32, 0, 5) == 5);
  // an operand register wider than the type is read at its width: -1 is 0xffffffff as a .u32
  CHECK(atom(AtomOp::Inc, Type::U32, 7, -1) == 8);
}

TEST_CASE("shift amounts are unsigned and clamped at the width") {
  CHECK(arith(ArithOp::Shl, Type::B64, 1, 63) == kMin);
  CHECK(arith(ArithOp::Shl, Type::B64, 1, 64) == 0);
  CHECK(arith(ArithOp::Shl, Type::B64, 1, -1) == 0);  // -1 is 2^64 - 1 read unsigned
  CHECK(arith(ArithOp::Shl, Type::B64, 1, kMin) == 0);
  CHECK(arith(ArithOp::Shr, Type::S64, -5, -1) == -1);
  CHECK(arith(ArithOp::Shr, Type::S64, 5, kMin) == 0);
  CHECK(arith(ArithOp::Shr, Type::U64, -1, 63) == 1);
  CHECK(arith(ArithOp::Shr, Type::U64, -1, -1) == 0);
  CHECK(arith(ArithOp::Shr, Type::B64, -1, 64) == 0);
  CHECK(arith(ArithOp::Shl, Type::B32, 1, 32) == 0);
  CHECK(arith(ArithOp::Shr, Type::S32, -8, 40) == -1);
  CHECK(arith(ArithOp::Shr, Type::U32, 4294967295, 33) == 0);
  CHECK(arith(ArithOp::Shr, Type::U32, 4294967295, 31) == 1);
}

TEST_CASE("division and remainder by 0 and of the most negative value by -1 (D52)") {
  CHECK(arith(ArithOp::Div, Type::S64, kMin, -1) == kMin);
  CHECK(arith(ArithOp::Rem, Type::S64, kMin, -1) == 0);
  CHECK(arith(ArithOp::Div, Type::None, kMin, -1) == kMin);
  CHECK(arith(ArithOp::Div, Type::S64, 7, 0) == 0);
  CHECK(arith(ArithOp::Rem, Type::S64, 7, 0) == 0);
  CHECK(arith(ArithOp::Div, Type::U64, 7, 0) == 0);
  CHECK(arith(ArithOp::Rem, Type::U64, 7, 0) == 0);
  CHECK(arith(ArithOp::Div, Type::S32, -2147483648, -1) == -2147483648);
  CHECK(arith(ArithOp::Div, Type::S64, -7, 2) == -3);  // truncated towards zero
  CHECK(arith(ArithOp::Rem, Type::S64, -7, 2) == -1);
  CHECK(arith(ArithOp::Div, Type::U64, -1, 2) == kMax);
}

TEST_CASE("operands are read at the instruction's width") {
  const int64_t wide = 0x1'0000'0004;  // 4 as a .u32 or .s32
  CHECK(arith(ArithOp::Div, Type::U32, wide, 2) == 2);
  CHECK(arith(ArithOp::Rem, Type::U32, wide, 3) == 1);
  CHECK(arith(ArithOp::Shr, Type::U32, wide, 1) == 2);
  CHECK(arith(ArithOp::Max, Type::S32, -4294967295, 0) == 1);
  CHECK(arith(ArithOp::Min, Type::U32, -1, 5) == 5);
  CHECK(model::compare(CmpOp::Lt, Type::U32, wide, 5));
  CHECK(model::compare(CmpOp::Eq, Type::S32, -1, 4294967295));
  CHECK_FALSE(model::compare(CmpOp::Eq, Type::S64, -1, 4294967295));
}
