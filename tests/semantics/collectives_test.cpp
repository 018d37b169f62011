#include <doctest/doctest.h>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "semantics/collectives.h"

namespace {

litmus::Instr parse(const char* text) {
  return litmus::parseInstruction(text, {"t", 1, 1}, litmus::Dialect::Ptx);
}

int64_t result(const char* text, int lane, const std::vector<std::pair<int, int64_t>>& ops) {
  return model::collectiveResult(parse(text), lane, ops);
}

model::Trace trace(std::vector<int64_t> keys, model::Stuck stuck) {
  model::Trace tr;
  for (int64_t k : keys)
    for (auto kind : {model::EventKind::Arrive, model::EventKind::Wait}) {
      model::Event e;
      e.kind = kind;
      e.barrier = k;
      tr.events.push_back(e);
    }
  tr.stuck = stuck;
  return tr;
}

}  // namespace

TEST_CASE("warp collectives compute their results from the lanes' operands (§9.7.13.9-12)") {
  CHECK(result("vote.sync.ballot.b32 %r, %p, 7", 0, {{0, 1}, {1, 0}, {2, 1}}) == 5);
  CHECK(result("vote.sync.all.pred %q, %p, 3", 1, {{0, 1}, {1, 0}}) == 0);
  CHECK(result("vote.sync.any.pred %q, %p, 3", 1, {{0, 1}, {1, 0}}) == 1);
  CHECK(result("vote.sync.uni.pred %q, %p, 3", 1, {{0, 0}, {1, 0}}) == 1);
  CHECK(result("match.any.sync.b32 %r, %v, 7", 2, {{0, 5}, {1, 7}, {2, 5}}) == 5);
  CHECK(result("match.all.sync.b32 %r, %v, 7", 2, {{0, 5}, {1, 7}, {2, 5}}) == 0);
  CHECK(result("match.all.sync.b32 %r, %v, 3", 0, {{0, 5}, {1, 5}}) == 3);
  CHECK(result("redux.sync.add.u32 %r, %v, 3", 0, {{0, 0xffffffff}, {1, 2}}) == 1);  // truncated
  CHECK(result("redux.sync.min.s32 %r, %v, 3", 0, {{0, -1}, {1, 1}}) == -1);
  CHECK(result("redux.sync.min.u32 %r, %v, 3", 0, {{0, 0xffffffff}, {1, 1}}) == 1);
  CHECK(result("redux.sync.max.u32 %r, %v, 3", 0, {{0, 0xffffffff}, {1, 1}}) == 0xffffffff);
  CHECK(result("redux.sync.xor.b32 %r, %v, 3", 0, {{0, 6}, {1, 3}}) == 5);
  CHECK(result("redux.sync.and.b32 %r, %v, 3", 0, {{0, 6}, {1, 3}}) == 2);
  // f32: +0.0 > -0.0; .abs; NaN left out without .NaN, canonical NaN with it or when all are NaN
  CHECK(result("redux.sync.max.f32 %f, %g, 3", 0, {{0, 0x80000000}, {1, 0}}) == 0);
  CHECK(result("redux.sync.min.f32 %f, %g, 3", 0, {{0, 0x80000000}, {1, 0}}) == 0x80000000);
  CHECK(result("redux.sync.max.abs.f32 %f, %g, 3", 0, {{0, 0xc0000000}, {1, 0x3f800000}}) == 0x40000000);
  CHECK(result("redux.sync.min.f32 %f, %g, 3", 0, {{0, 0x7fc00000}, {1, 0x3f800000}}) == 0x3f800000);
  CHECK(result("redux.sync.min.NaN.f32 %f, %g, 3", 0, {{0, 0x7fc00000}, {1, 0x3f800000}}) == 0x7fffffff);
  CHECK(result("redux.sync.min.f32 %f, %g, 1", 0, {{0, 0x7fc00000}}) == 0x7fffffff);
}

TEST_CASE("warp keys tell the mask and the collective apart; lanes of one phase share its fate") {
  using model::BarrierKind;
  const int64_t a = model::warpKey(BarrierKind::Collective, 3, 0, 0x3);
  const int64_t b = model::warpKey(BarrierKind::Collective, 3, 0, 0x2);
  const int64_t w = model::warpKey(BarrierKind::Warp, 0, 0, 0xffffffff);
  CHECK(a != b);
  CHECK(model::isCollectiveKey(a));
  CHECK_FALSE(model::isCollectiveKey(w));
  CHECK(model::isWarpKey(w));
  CHECK(model::warpKeyMask(w) == 0xffffffffu);
  CHECK_FALSE(model::isWarpKey(model::barrierKey(model::BarrierName{})));
  CHECK_FALSE(model::isWarpKey(model::kExitBarrier));
  const auto done = model::warpFates(trace({a}, model::Stuck::No));
  const auto hangs = model::warpFates(trace({a}, model::Stuck::AtWait));
  CHECK_FALSE(model::fatesAgree(done, hangs));
  CHECK(model::fatesAgree(done, done));
  CHECK(model::fatesAgree(hangs, model::warpFates(trace({b}, model::Stuck::No))));
  // 20 lanes, each completing or hanging: only the two uniform combinations are visited
  std::vector<std::vector<std::vector<model::WarpFate>>> fates(20, {done, hangs});
  int visited = 0;
  model::forEachAgreeingCombination(fates, [&](const std::vector<int>&) { return ++visited, true; });
  CHECK(visited == 2);
}

TEST_CASE("warp collectives print back as written") {
  for (const char* text : {"vote.sync.ballot.b32 %r1, !%p, 0xffffffff", "vote.any.pred %q, %p",
                           "match.all.sync.b64 %r1|%p, %rd2, %r9", "match.any.sync.b32 %r1, %r2, 3",
                           "activemask.b32 %r1", "redux.sync.min.abs.NaN.f32 %f1, %f2, 0xffffffff",
                           "redux.sync.add.s32 %r1, %r2, 0xff"}) {
    CAPTURE(text);
    const litmus::Instr in = parse(text);
    const litmus::Instr again = parse(litmus::formatInstr(in).c_str());
    CHECK(litmus::formatInstr(again) == litmus::formatInstr(in));
    CHECK(again.warpOp == in.warpOp);
    CHECK(again.args.size() == in.args.size());
    CHECK(again.absVal == in.absVal);
    CHECK(again.nanVal == in.nanVal);
  }
}
