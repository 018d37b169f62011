// The mbarrier object (PTX ISA §9.7.13.15) as the value of its shared-memory location: every
// mbarrier operation reads and/or writes that value, so phases, pending arrivals and the tx-count
// take part in an execution like any other memory value (docs/model.md D28).
#pragma once

#include <cstdint>

#include "litmus/test.h"

namespace model {

struct MbarState {
  bool valid = false;     // initialised (and not invalidated)
  int64_t phase = 0;      // number of completed phases
  int64_t pending = 0;    // arrivals still expected in the current phase
  int64_t expected = 0;   // arrivals expected per phase
  int64_t tx = 0;         // tx-count: bytes still to be transferred (may go below zero)

  int64_t pack() const;
  static MbarState unpack(int64_t v);
};

// The largest arrival count and tx-count magnitude the packing holds.
constexpr int64_t kMbarMaxCount = (int64_t{1} << 12) - 1;
constexpr int64_t kMbarMaxTx = (int64_t{1} << 23) - 1;

// The new value of the mbarrier after `in` (an arrive, arrive_drop, expect_tx or complete_tx)
// with operand `n` (arrival count, or tx-count) on value `old`. An operation on an mbarrier that
// is not initialised changes nothing (the ISA leaves it undefined).
int64_t mbarrierUpdate(const litmus::Instr& in, int64_t old, int64_t n);

// test_wait/try_wait: has the phase named by `token` (a state from arrive) or by `parity`
// completed, seen from mbarrier value `current`? Never on an mbarrier that is not initialised.
bool mbarrierPhaseDone(const litmus::Instr& in, int64_t current, int64_t tokenOrParity);

// pending_count: the arrivals still pending in a state returned by arrive.
int64_t mbarrierPending(int64_t token);

}  // namespace model
