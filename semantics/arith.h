// Typed value arithmetic of PTX on the model's 64-bit value representation: integers as
// themselves, floats as their IEEE bit pattern zero-extended, packed halves lane by lane.
#pragma once

#include <cstdint>

#include "litmus/test.h"

namespace model {

// Wraps (and sign-extends) a value to the width of a PTX type; Type::None is 64-bit signed.
int64_t normalize(litmus::Type t, int64_t v);
bool isUnsigned(litmus::Type t);
// The value an atom/red writes, given the value it read (`old`) and its operands.
int64_t applyAtom(litmus::AtomOp op, litmus::Type t, int64_t old, int64_t b, int64_t c);
int64_t applyArith(litmus::ArithOp op, litmus::Type t, int64_t a, int64_t b);
bool compare(litmus::CmpOp op, litmus::Type t, int64_t a, int64_t b);

}  // namespace model
