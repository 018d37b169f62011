// Issue 30: the phases outside the engines are near-linear and under the deadline, and addresses
// from the file or from registers never overflow. Each case took minutes, crashed or computed
// with undefined behaviour before. Times are bounded loosely (a loaded 2-core machine); the old
// code was off by orders of magnitude.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "base/memory_limit.h"
#include "checker/checker.h"
#include "litmus/parse.h"
#include "semantics/collectives.h"
#include "semantics/semantics.h"

namespace {

// Seconds since t0, in release-build seconds: the sanitizer build runs several times slower (the
// ctest `limits` gives it the same slack), and what these bounds tell apart is seconds from minutes.
double secondsSince(std::chrono::steady_clock::time_point t0) {
  const double slack = cli::kAddressSanitizer ? 4 : 1;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / slack;
}

// n locations, each stored to once by P0 (in one thread: a long trace, but one path).
litmus::Test manyLocations(int n) {
  litmus::Test t;
  t.name = "many";
  t.file = "many.yaml";
  litmus::Thread th;
  th.name = "P0";
  for (int i = 0; i < n; ++i) {
    litmus::Location l;
    l.name = "x" + std::to_string(i);
    t.locations.push_back(l);
  }
  for (int i = 0; i < 100; ++i)
    th.code.push_back(litmus::parseInstruction("st.global.u32 [x" + std::to_string(i) + "], 1;", {"many.yaml", 1, 1},
                                               litmus::Dialect::Ptx));
  t.threads.push_back(th);
  litmus::validate(t);
  return t;
}

}  // namespace

TEST_CASE("value domains of 40,000 locations take no n x n work") {
  const litmus::Test t = manyLocations(40000);
  const model::Program p = model::buildProgram(t);
  const auto t0 = std::chrono::steady_clock::now();
  const model::Domain d = model::valueDomain(p, 2);
  CHECK(secondsSince(t0) < 2);  // an n x n matrix and a Warshall closure: minutes
  REQUIRE(d.size() >= 40000);
  CHECK(d[0] == std::set<int64_t>{0, 1});
  CHECK(d[39999] == std::set<int64_t>{0});
}

TEST_CASE("placement and validation of 40,000 threads in one CTA are near-linear") {
  litmus::Test t;
  t.name = "wide";
  t.file = "wide.yaml";
  t.locations.push_back(litmus::Location{});
  t.locations.back().name = "x";
  const litmus::Instr ld = litmus::parseInstruction("ld.global.u32 %r0, [x];", {"wide.yaml", 1, 1}, litmus::Dialect::Ptx);
  for (int i = 0; i < 40000; ++i) {
    litmus::Thread th;
    th.name = "P" + std::to_string(i);
    th.cta = 0;
    th.warp = i / 32;
    th.code.push_back(ld);
    t.threads.push_back(th);
  }
  const auto t0 = std::chrono::steady_clock::now();
  litmus::validate(t);  // calls placementOf too
  const litmus::Placement p = litmus::placementOf(t);
  CHECK(secondsSince(t0) < 2);  // a string per pair of threads: minutes
  CHECK(p.lane[33] == 1);
  CHECK(p.lanes[33] == 32);
  CHECK(p.ctas[39999] == 1);
}

TEST_CASE("warp fates of 40,000 threads combine without comparing every pair") {
  // one trace per thread, no fates, except two threads that disagree on a collective's outcome
  std::vector<std::vector<std::vector<model::WarpFate>>> fates(40000, {{}});
  int visited = 0;
  auto count = [&](const std::vector<int>&) { return ++visited, true; };
  const auto t0 = std::chrono::steady_clock::now();
  model::forEachAgreeingCombination(fates, count);
  CHECK(visited == 1);
  fates[5] = {{{7, 0, true}}, {{7, 0, false}}};
  fates[39000] = {{{7, 0, false}}};
  visited = 0;
  model::forEachAgreeingCombination(fates, count);
  CHECK(visited == 1);  // only thread 5's second trace agrees with thread 39000
  CHECK(secondsSince(t0) < 2);
}

TEST_CASE("the deadline covers reading") {
  const std::string y = "name: " + std::string(20'000'000, 'A') + "\nthreads: {P0: {code: 'st.u32 [x], 1;'}}\n";
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(litmus::parseYaml(y, "long.yaml", litmus::Deadline(0.2)), litmus::Deadline::Expired);
  CHECK(secondsSince(t0) < 1.5);  // yaml-cpp alone takes about 10 s over 20 MB
}

TEST_CASE("time spent reading counts against the check's timeout") {
  const litmus::Test t = litmus::parseYaml(
      "name: mp\nlocations: {x: 0}\nthreads: {P0: {code: 'st.global.u32 [x], 1;'}}\ncondition: exists (x == 1)\n",
      "mp.yaml");
  checker::Options o;
  o.timeoutSeconds = 5;
  o.spentSeconds = 5;
  const checker::Result r = checker::check(t, o);
  CHECK(r.outcome.status == litmus::Status::Unknown);
  CHECK(r.outcome.statusDetail == "timeout after 5 s");
  CHECK(std::string(litmus::toString(r.outcome.unknownReason)) == "timeout");
  o.spentSeconds = 0;
  CHECK(checker::check(t, o).outcome.status == litmus::Status::Done);
}

TEST_CASE("a wgmma tile that ends past the last byte is a located error") {
  const litmus::Test t = litmus::parseYaml(R"(name: wgmma-huge
locations:
  a: {space: shared, cta: 0}
  b: {space: shared, cta: 0}
threads:
  P0:
    cta: 0
    code: |
      st.shared.u32 [a+9223372036854775800], 1;
      wgmma.fence.sync.aligned;
      wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1}, [a+9223372036854775800], [b], 1, 1, 1, 0, 0;
      wgmma.commit_group.sync.aligned;
      wgmma.wait_group.sync.aligned 0;
condition: 'exists (P0:d0 == 0)'
)",
                                           "w.yaml");
  std::string what = "no error";
  try {
    checker::check(t, checker::Options{});
  } catch (const litmus::Error& e) {
    what = e.what();
  }
  // the tile's 2 KiB from byte 2^63 - 8 would wrap to a negative offset
  CHECK(what.rfind("w.yaml:11:69: error: 'wgmma.mma_async", 0) == 0);
  CHECK(what.find("reaches past byte 9223372036854775807 of 'a'") != std::string::npos);
}

TEST_CASE("too many locations for the engines is an Unknown, not bad input") {
  const litmus::Test t = manyLocations(1100);
  const checker::Result r = checker::check(t, checker::Options{});
  CHECK(r.outcome.status == litmus::Status::Unknown);
  CHECK(r.outcome.statusDetail == "many.yaml:1:1: test has more than 1024 events (1100 initial writes): too large for the engines");
  CHECK(std::string(litmus::toString(r.outcome.unknownReason)) == "too-large");
}
