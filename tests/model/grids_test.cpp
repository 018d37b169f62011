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
