#include <doctest/doctest.h>

#include "model/barriers.h"

using model::BitRel;
using model::Event;
using model::EventKind;

namespace {

// One thread's bar.sync (or bar.red): an arrival and a wait on barrier 1.
void barSync(std::vector<Event>& ev, int thread, int count, litmus::BarOp op = litmus::BarOp::Sync,
             int64_t pred = 0, int64_t result = 0) {
  for (EventKind k : {EventKind::Arrive, EventKind::Wait}) {
    Event e;
    e.kind = k;
    e.thread = thread;
    e.barrier = 1;
    e.count = count;
    e.barOp = op;
    e.value = k == EventKind::Arrive ? pred : result;
    ev.push_back(e);
  }
}

constexpr auto N = model::Stuck::No, W = model::Stuck::AtWait, S = model::Stuck::Spinning;
const model::Participants kNone = [](int64_t) { return std::vector<int>{}; };

}  // namespace

TEST_CASE("a barrier without a count: every arrival synchronizes with every wait") {
  std::vector<Event> ev;
  barSync(ev, 0, 0);
  barSync(ev, 1, 0);
  const auto fills = model::barrierPhases(ev, {N, N}, kNone);
  REQUIRE(fills.size() == 1);
  CHECK(fills[0].get(0, 3));  // thread 0 arrives, thread 1's wait completes
  CHECK(fills[0].get(2, 1));
  CHECK(fills[0].get(0, 1));
  CHECK_FALSE(fills[0].get(1, 3));  // waits are not arrivals
}

TEST_CASE("a barrier without a count waits for a participant that is still running") {
  std::vector<Event> ev;
  barSync(ev, 0, 0);
  // thread 1 takes part (its code uses the barrier) but is blocked elsewhere and never arrives
  const model::Participants both = [](int64_t) { return std::vector<int>{0, 1}; };
  CHECK(model::barrierPhases(ev, {N, S}, both).empty());
  CHECK(model::barrierPhases(ev, {W, S}, both).size() == 1);  // thread 0 hangs
  CHECK(model::barrierPhases(ev, {N, N}, both).size() == 1);  // thread 1 exited
}

TEST_CASE("a counted barrier: which arrivals come first is a choice") {
  std::vector<Event> ev;
  for (int t = 0; t < 3; ++t) barSync(ev, t, 2);
  // three threads, count 2: one thread is always left waiting for a second phase
  CHECK(model::barrierPhases(ev, {N, N, N}, kNone).empty());
  const auto fills = model::barrierPhases(ev, {N, N, W}, kNone);
  REQUIRE(fills.size() == 1);
  CHECK(fills[0].get(0, 3));
  CHECK_FALSE(fills[0].get(4, 1));  // thread 2 did not complete with them
  CHECK(model::barrierPhases(ev, {W, N, N}, kNone).size() == 1);
  // with count 3 all complete together
  for (auto& e : ev) e.count = 3;
  CHECK(model::barrierPhases(ev, {N, N, N}, kNone).size() == 1);
  // count 4 never completes
  for (auto& e : ev) e.count = 4;
  CHECK(model::barrierPhases(ev, {N, N, N}, kNone).empty());
  CHECK(model::barrierPhases(ev, {W, W, W}, kNone).size() == 1);
}

TEST_CASE("bar.red returns the reduction of its phase's predicates") {
  using litmus::BarOp;
  std::vector<Event> ev;
  barSync(ev, 0, 0, BarOp::RedPopc, 1, 2);
  barSync(ev, 1, 0, BarOp::RedPopc, 1, 2);
  CHECK(model::barrierPhases(ev, {N, N}, kNone).size() == 1);
  ev[3].value = 1;  // thread 1 claims popc 1
  CHECK(model::barrierPhases(ev, {N, N}, kNone).empty());
  CHECK(model::barrierPhases(ev, {N, N}, kNone, false).size() == 1);
  CHECK(model::reduce(BarOp::RedAnd, {1, 0}) == 0);
  CHECK(model::reduce(BarOp::RedAnd, {1, 1}) == 1);
  CHECK(model::reduce(BarOp::RedOr, {0, 0}) == 0);
  CHECK(model::reduce(BarOp::RedOr, {0, 1}) == 1);
  CHECK(model::reduce(BarOp::RedPopc, {1, 0, 1}) == 2);
}

TEST_CASE("two threads each waiting at a different barrier for the other deadlock") {
  auto run = [](std::vector<std::vector<int64_t>> barriers, std::vector<model::Stuck> stuck) {
    std::vector<Event> ev;
    for (int t = 0; t < static_cast<int>(barriers.size()); ++t)
      for (int64_t b : barriers[t]) {
        barSync(ev, t, 0);
        ev[ev.size() - 2].barrier = ev.back().barrier = b;
      }
    const model::Participants both = [](int64_t) { return std::vector<int>{0, 1}; };
    return model::barrierPhases(ev, stuck, both).size();
  };
  CHECK(run({{0, 1}, {0, 1}}, {N, N}) == 1);  // the same order: both complete
  CHECK(run({{0, 1}, {1, 0}}, {N, N}) == 0);  // P0 waits at 0 for P1, P1 at 1 for P0
  CHECK(run({{0}, {1}}, {W, W}) == 1);        // so each hangs at its first wait
}
