// How a condition compares two values (`P1:r0 < 2`): signed 64-bit, as final states hold them.
// One definition for every reader of conditions: the evaluator here and the symbolic engine's
// translation of a condition into solver terms.
#pragma once

#include <cstdint>

#include "litmus/test.h"

namespace litmus {

bool compareValues(CmpOp op, int64_t a, int64_t b);

}  // namespace litmus
