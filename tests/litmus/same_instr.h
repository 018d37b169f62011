// sameInstr: two instructions equal in every field but the source text and position. Shared by
// the format round-trip tests and the herd conversion tests (tests/interop).
#pragma once

#include <tuple>
#include <vector>

#include "litmus/test.h"

namespace litmus::testing {

// Every field but the source position. The structured binding must name each field of Operand,
// so a field added to it breaks the build here until it is compared too.
inline auto comparable(const Operand& o) {
  const auto& [kind, name, imm, negated, loc] = o;
  (void)loc;
  return std::tie(kind, name, imm, negated);
}

// Every field but the source text and position, likewise named one by one by the binding: a new
// field of Instr does not compile here until it is compared.
inline bool sameInstr(const Instr& a, const Instr& b) {
  auto fields = [](const Instr& i) {
    const auto& [op, text, loc, origin, sem, scope, space, srcSpace, proxy, type, semExplicit,
                 scopeExplicit, atomOp, arith, cmp, barOp, mbarOp, restrict, expectTx, noComplete,
                 parity, proxyKind, asyncOp, bulkGroup, readOnly, warpOp, warpSync, absVal, nanVal,
                 tensorDims, vec, args, target, guard, guardNegated, addrSpace, clcOp, clcDim,
                 multicast, gridOp] = i;
    (void)text;
    (void)loc;
    std::vector<decltype(comparable(Operand{}))> operands;
    for (const Operand& o : args) operands.push_back(comparable(o));
    return std::make_tuple(op, sem, scope, space, srcSpace, proxy, type, semExplicit, scopeExplicit,
                           atomOp, arith, cmp, barOp, mbarOp, restrict, expectTx, noComplete,
                           parity, proxyKind, asyncOp, bulkGroup, readOnly, warpOp, warpSync,
                           absVal, nanVal, tensorDims, vec, operands, target, guard, guardNegated,
                           addrSpace, clcOp, clcDim, multicast, gridOp, origin.file, origin.line);
  };
  return fields(a) == fields(b);
}

}  // namespace litmus::testing
