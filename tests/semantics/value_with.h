// Test helper: evaluating lazy trace values under a one-value domain.
#pragma once

#include <doctest/doctest.h>

#include "semantics/semantics.h"

// The value a trace computes when each lazy read returns the one value its location's domain
// holds (model/value.h: the interpreter leaves read values lazy).
inline int64_t valueWith(const model::Trace& tr, const model::Val& v, const model::Domain& dom) {
  int64_t out = 0;
  int n = 0;
  model::forEachAssignment(tr, model::lazyReadsOf(tr, v), dom, [&](const model::ReadLookup& look) {
    out = *model::evaluate(v, look);
    ++n;
  });
  REQUIRE(n == 1);
  return out;
}
