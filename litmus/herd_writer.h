// Writing a test in the herd `.litmus` dialect that litmus/herd.cpp reads (the Dat3M PTX corpus's),
// for `litmus convert --to herd`. Only tests that fit the dialect are written; the others are
// refused with the construct named (docs/interop.md).
#pragma once

#include <string>

#include "litmus/test.h"

namespace litmus {

// The test as herd text. The expectation, liveness, reason and family travel as herd info lines
// (`Expect=unreachable`), which herd7 keeps as test info and ignores. Throws litmus::Error at the
// offending construct's position when the dialect cannot say it: several grids, warps, shared-
// memory layouts (`cta:` of a location), per-element initial values, tensor maps, an `observe:`
// list, PTX-style `bar` operands, or an instruction the herd front end does not read back the same.
std::string toHerd(const Test&);

}  // namespace litmus
