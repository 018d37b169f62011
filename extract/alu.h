// Pure instructions on values the extraction knows: integer and predicate arithmetic, moves,
// conversions and address arithmetic (an address plus a number stays an address).
#pragma once

#include <vector>

#include "extract/op.h"
#include "extract/value.h"

namespace extract {

// Whether `op` is a pure instruction: it writes registers only, from its operands.
bool isPure(const Op& op);
// Whether it computes on floating-point values (its result is then Unknown).
bool isFloat(const Op& op);

// The values of the destinations (in operand order, a `p|q` pair as two) from the values of the
// sources (every operand after the destinations, a `{a, b}` vector as its elements). A source that
// is not Int/Addr makes the destinations Unknown; callers handle Dyn sources themselves.
std::vector<Value> evalPure(const Op& op, const std::vector<Value>& src);

// Destination and source operand counts of an instruction as evalPure and the evaluator read it.
int destCount(const Op& op);

// A value cut to `bytes` bytes, sign-extended when `isSigned`.
int64_t normalize(int64_t v, int bytes, bool isSigned);

}  // namespace extract
