#include "semantics/mbarrier.h"

namespace model {

// Layout: bit 62 valid; bits 48-61 phase; 36-47 pending; 24-35 expected; 0-23 tx-count (two's
// complement). Litmus values are 64-bit integers, so one value holds the whole object.
int64_t MbarState::pack() const {
  const uint64_t txBits = static_cast<uint64_t>(tx) & 0xffffff;
  return static_cast<int64_t>((uint64_t{valid} << 62) | (static_cast<uint64_t>(phase & 0x3fff) << 48) |
                              (static_cast<uint64_t>(pending & 0xfff) << 36) |
                              (static_cast<uint64_t>(expected & 0xfff) << 24) | txBits);
}

MbarState MbarState::unpack(int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  MbarState s;
  s.valid = (u >> 62) & 1;
  s.phase = static_cast<int64_t>((u >> 48) & 0x3fff);
  s.pending = static_cast<int64_t>((u >> 36) & 0xfff);
  s.expected = static_cast<int64_t>((u >> 24) & 0xfff);
  const int64_t tx = static_cast<int64_t>(u & 0xffffff);
  s.tx = tx >= (int64_t{1} << 23) ? tx - (int64_t{1} << 24) : tx;
  return s;
}

namespace {

// Counts come from registers and may be any value; pack() keeps the fields' bits, so sums wrap
// (never signed overflow).
int64_t plus(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
int64_t minus(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }

// §9.7.13.15.2: a phase completes when its pending count reaches zero and its tx-count is zero;
// the object then moves to the next phase with the expected count reloaded.
void maybeComplete(MbarState& s) {
  if (s.pending != 0 || s.tx != 0) return;
  ++s.phase;
  s.pending = s.expected;
}

}  // namespace

int64_t mbarrierUpdate(const litmus::Instr& in, int64_t old, int64_t n) {
  using litmus::MbarOp;
  MbarState s = MbarState::unpack(old);
  if (!s.valid) return old;
  switch (in.mbarOp) {
    case MbarOp::Arrive:
    case MbarOp::ArriveDrop: {
      int64_t count = 1;
      if (in.expectTx) s.tx = plus(s.tx, n);  // expect-tx first, then the arrival (§9.7.13.15.11)
      else count = n;
      if (in.mbarOp == MbarOp::ArriveDrop) s.expected = minus(s.expected, count);
      s.pending = minus(s.pending, count);
      maybeComplete(s);
      break;
    }
    case MbarOp::ExpectTx: s.tx = plus(s.tx, n); break;
    case MbarOp::CompleteTx:
      s.tx = minus(s.tx, n);
      maybeComplete(s);
      break;
    default: break;
  }
  return s.pack();
}

bool mbarrierPhaseDone(const litmus::Instr& in, int64_t current, int64_t tokenOrParity) {
  const MbarState cur = MbarState::unpack(current);
  if (!cur.valid) return false;
  if (in.parity) return (cur.phase & 1) != (tokenOrParity & 1);
  return cur.phase != MbarState::unpack(tokenOrParity).phase;
}

int64_t mbarrierPending(int64_t token) { return MbarState::unpack(token).pending; }

}  // namespace model
