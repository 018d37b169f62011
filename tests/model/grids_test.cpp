// Grids launched in one stream (model/grids.h, docs/model.md D37-D39): the launch order, the
// grid boundary relation, and when launches and grid waits may return or hang.
#include <doctest/doctest.h>

#include "litmus/parse.h"
#include "model/grids.h"

using model::Event;
using model::EventKind;

namespace {

Event at(int thread, int grid, EventKind kind = EventKind::Write, int count = 0) {
  Event e;
  e.kind = kind;
  e.thread = thread;
  e.grid = grid;
  e.count = count;
  return e;
}

constexpr auto N = model::Stuck::No, W = model::Stuck::AtWait, S = model::Stuck::Spinning;

const char* kThreeGrids = R"(name: t
locations: {x: 0}
threads:
  P0: {code: "st.global.u32 [x], 1;"}
  P1: {grid: 2, code: "ld.global.u32 %r0, [x];"}
  P2: {grid: 1, code: "griddepcontrol.wait;"}
grids:
  - {grid: 2, after: 1, launch: programmatic}
  - {grid: 1, after: 0, launch: serialized}
condition: exists (P1:r0 == 0)
)";

}  // namespace

TEST_CASE("launch order: the chain of grids:, and the grids complete at each start") {
  const litmus::Test t = litmus::parseYaml(kThreeGrids, "t.yaml");
  const litmus::LaunchOrder o = litmus::launchOrder(t);
  CHECK(o.grid == std::vector<int>{0, 1, 2});
  CHECK(o.programmatic == std::vector<bool>{false, false, true});
  // grid 2 (programmatic) may start with grid 1, which starts after grid 0 has completed
  CHECK(o.startAfter == std::vector<int>{0, 1, 1});
  // and the test reads back as itself, grids included
  const litmus::Test back = litmus::parseYaml(litmus::toYaml(t), "u.yaml");
  REQUIRE(back.grids.size() == 2);
  CHECK(back.grids[0].grid == 2);
  CHECK(back.grids[0].programmatic);
  CHECK(back.threads[1].grid == 2);
  CHECK(back.threads[2].code[0].gridOp == litmus::GridOp::Wait);
}

TEST_CASE("the grid boundary: every event of the grids a wait waits for, to the wait") {
  const std::vector<Event> ev = {at(0, 0), at(0, 0, EventKind::Read), at(1, 1),
                                 at(2, 2, EventKind::GridWait, 2), at(3, 2, EventKind::GridWait, 1)};
  const model::BitRel r = model::gridOrder(ev);
  CHECK(r.get(0, 3));
  CHECK(r.get(1, 3));
  CHECK(r.get(2, 3));       // grid 1 is among the first two
  CHECK(r.get(0, 4));
  CHECK_FALSE(r.get(2, 4));  // a programmatic start after grid 0 only
  CHECK_FALSE(r.get(3, 4));  // nor the other dependent thread
}

TEST_CASE("a launch or grid wait returns only when its grids end, hangs only when one does not") {
  const std::vector<Event> ev = {at(0, 0, EventKind::Read), at(1, 1, EventKind::GridWait, 1)};
  CHECK(model::gridsConsistent(ev, {N, N}));      // grid 0 ends, the wait returns
  CHECK_FALSE(model::gridsConsistent(ev, {N, W}));  // grid 0 ends, yet the wait hangs
  CHECK_FALSE(model::gridsConsistent(ev, {S, N}));  // grid 0 spins, yet the wait returns
  CHECK(model::gridsConsistent(ev, {S, W}));       // grid 0 spins, the wait hangs
  // a programmatic start (count 0) may return while grid 0 spins, or never happen
  const std::vector<Event> early = {at(0, 0, EventKind::Read), at(1, 1, EventKind::GridWait, 0)};
  CHECK(model::gridsConsistent(early, {S, N}));
  CHECK(model::gridsConsistent(early, {S, W}));
  CHECK_FALSE(model::gridsConsistent(early, {N, W}));
}

namespace {

Event in(int thread, int grid, int cta, EventKind kind, int instr = 0, int count = 0) {
  Event e = at(thread, grid, kind, count);
  e.cta = cta;
  e.instr = instr;
  return e;
}

}  // namespace

TEST_CASE("D38 gates: a programmatic launch returns only once each CTA before it triggered or ended") {
  // P0 (grid 0, CTA 0) reads; P1 (grid 1, CTA 1) is launched programmatically (count 0)
  const std::vector<Event> plain = {in(0, 0, 0, EventKind::Read), in(1, 1, 1, EventKind::GridWait, -1)};
  CHECK(model::gridsConsistent(plain, {S, N}));              // no-gate: an early start
  CHECK_FALSE(model::gridsConsistent(plain, {S, N}, true));  // gates: P0 neither triggered nor ended
  CHECK(model::gridsConsistent(plain, {N, N}, true));        // gates: P0's CTA ended
  CHECK(model::gridsConsistent(plain, {S, W}, true));        // gates: never launched while P0 spins
  const std::vector<Event> triggered = {in(0, 0, 0, EventKind::Trigger), in(0, 0, 0, EventKind::Read, 1),
                                        in(1, 1, 1, EventKind::GridWait, -1)};
  CHECK(model::gridsConsistent(triggered, {S, N}, true));  // triggered, then spins: may start
  CHECK(model::gridsConsistent(triggered, {S, W}, true));  // and is never promised to
  // a serialized launch (count 1) is not gated: it waits for completion anyway
  const std::vector<Event> serial = {in(0, 0, 0, EventKind::Read), in(1, 1, 1, EventKind::GridWait, -1, 1)};
  CHECK_FALSE(model::gridsConsistent(serial, {S, N}, true));
  CHECK(model::gridsConsistent(serial, {N, N}, true));
}

TEST_CASE("D38 gates: a read the trigger depends on is before every event of the dependent grid") {
  // P0: read (0), trigger (1); P1: launch (2), write (3); a second CTA of grid 0: P2 read (4), exit (5)
  const std::vector<Event> ev = {in(0, 0, 0, EventKind::Read), in(0, 0, 0, EventKind::Trigger, 3),
                                 in(1, 1, 1, EventKind::GridWait, -1), in(1, 1, 1, EventKind::Write, 0),
                                 in(2, 0, 2, EventKind::Read), in(2, 0, 2, EventKind::Trigger, -1)};
  using Pairs = std::vector<std::pair<int, int>>;
  CHECK(model::gateOrder(ev, {}).empty());  // the trigger depends on nothing: load buffering stays
  const Pairs both = model::gateOrder(ev, {{0, 1}, {4, 5}});
  CHECK(both == Pairs{{0, 2}, {0, 3}, {4, 2}, {4, 3}});  // the control dependency and the exit's
  // two triggers in one CTA: the earliest opens the gate, so only a read both depend on counts
  std::vector<Event> two = ev;
  two[4].cta = 0;
  two[5] = in(2, 0, 0, EventKind::Trigger, 1);
  CHECK(model::gateOrder(two, {{0, 1}, {4, 5}}).empty());
  // an exit counts only in a CTA with no trigger instruction
  std::vector<Event> exitToo = ev;
  exitToo[5].cta = 0;
  exitToo[4].cta = 0;
  CHECK(model::gateOrder(exitToo, {{0, 1}, {4, 5}}) == Pairs{{0, 2}, {0, 3}});
}
