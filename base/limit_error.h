// A test too large for an engine's limits (events per thread or per execution, combinations of
// operand values): not bad input but a check that cannot finish, so the checker ends the test
// Unknown (exit 3) with where it grew too large, as it does for time and memory.
#pragma once

#include "base/error.h"

namespace litmus {

class LimitError : public Error {
 public:
  using Error::Error;
};

}  // namespace litmus
