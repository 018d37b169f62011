// Locations whose read-modify-writes are morally strong two by two (spin locks, counters, an
// mbarrier's updates): the explicit engine builds their coherence chain one RMW at a time
// (checker/explicit_order.cpp, rmwChains) instead of choosing each read's write on its own; each
// link reads the link before or a write that is no RMW's. The chain must lose no execution and add none: each case
// is checked by both engines, which must list the same final states and the same liveness.
#include <doctest/doctest.h>

#include <string>

#include "checker/checker.h"
#include "litmus/parse.h"

namespace {

void sameOnBothEngines(const std::string& yaml, size_t minStates) {
  const litmus::Test t = litmus::parseYaml(yaml, "chain.yaml");
  checker::Options o;
  o.maxStates = 0;
  o.engine = checker::Engine::Explicit;
  const litmus::Outcome ex = checker::check(t, o).outcome;
  o.engine = checker::Engine::Smt;
  const litmus::Outcome smt = checker::check(t, o).outcome;
  REQUIRE(ex.status == litmus::Status::Done);
  REQUIRE(smt.status == litmus::Status::Done);
  CHECK(ex.states == smt.states);
  CHECK(std::string(ex.liveness()) == smt.liveness());
  CHECK(ex.states.size() >= minStates);
}

// A test-and-set lock taken by `n` threads, each spinning on exch and releasing with an exch,
// with a plain load of the lock after the release (not part of the chain: it may read any write).
std::string spinLock(int n, const std::string& scope) {
  std::string y = "name: chain-lock\nlocations:\n  m: 0\n  c: 0\nthreads:\n";
  for (int t = 0; t < n; ++t) {
    const std::string p = "P" + std::to_string(t);
    y += "  " + p + ":\n    cta: " + std::to_string(t % 2) + "\n    code: |\n"
         "      L:\n"
         "      atom.relaxed." + scope + ".global.exch.b32 %r0, [m], 1;\n"
         "      setp.ne.u32 %s, %r0, 0;\n"
         "      @%s bra L;\n"
         "      atom.relaxed.gpu.global.add.u32 %r1, [c], 1;\n"
         "      atom.relaxed." + scope + ".global.exch.b32 %r2, [m], 0;\n"
         "      ld.relaxed.gpu.global.u32 %r3, [m];\n";
  }
  std::string observe = "[c, m";
  for (int t = 0; t < n; ++t) observe += ", P" + std::to_string(t) + ":r1, P" + std::to_string(t) + ":r3";
  return y + "condition: 'exists (c == " + std::to_string(n) + ")'\nliveness: may-hang\nobserve: " + observe + "]\n";
}

}  // namespace

TEST_CASE("rmw chains: a spin lock and a counter, both engines alike") {
  sameOnBothEngines(spinLock(2, "gpu"), 2);
  sameOnBothEngines(spinLock(3, "gpu"), 3);
}

TEST_CASE("rmw chains: RMWs that are not morally strong are no chain, and stay exact") {
  // .cta atomics in two CTAs are not morally strong: co may leave them unordered
  sameOnBothEngines(spinLock(2, "cta"), 2);
}

TEST_CASE("rmw chains: fetch-and-add counters read every order of their adds") {
  const std::string y =
      "name: chain-counter\nlocations:\n  x: 0\nthreads:\n"
      "  P0:\n    code: |\n      atom.relaxed.gpu.global.add.u32 %r0, [x], 1;\n"
      "      atom.relaxed.gpu.global.add.u32 %r1, [x], 2;\n"
      "  P1:\n    code: |\n      atom.relaxed.gpu.global.add.u32 %r0, [x], 4;\n"
      "      ld.relaxed.gpu.global.u32 %r1, [x];\n"
      "  P2:\n    code: |\n      atom.relaxed.gpu.global.exch.b32 %r0, [x], 8;\n"
      "condition: 'exists (x == 15)'\n"
      "observe: [x, P0:r0, P0:r1, P1:r0, P1:r1, P2:r0]\n";
  sameOnBothEngines(y, 10);
}

TEST_CASE("rmw chains: other writes beside the RMWs (a store, a weak store) start the chain again") {
  // Each RMW reads the RMW before it in the chain or a write that is not an RMW: here the strong
  // store of P0 and the weak store of P2, which may fall anywhere among the adds.
  const std::string y =
      "name: chain-mixed\nlocations:\n  x: 0\nthreads:\n"
      "  P0:\n    code: |\n      atom.relaxed.gpu.global.add.u32 %r0, [x], 1;\n"
      "      st.relaxed.gpu.global.u32 [x], 8;\n"
      "      atom.relaxed.gpu.global.add.u32 %r1, [x], 2;\n"
      "  P1:\n    code: |\n      atom.relaxed.gpu.global.add.u32 %r0, [x], 4;\n"
      "      ld.relaxed.gpu.global.u32 %r1, [x];\n"
      "  P2:\n    code: |\n      st.global.u32 [x], 16;\n"
      "      atom.relaxed.gpu.global.exch.b32 %r0, [x], 32;\n"
      "condition: 'exists (x == 15)'\n"
      "observe: [x, P0:r0, P0:r1, P1:r0, P1:r1, P2:r0]\n";
  sameOnBothEngines(y, 20);
}

// An mbarrier of count `count` that three threads arrive on, one of them with expect_tx and a
// complete_tx of its own, each then waiting for the phase; its init (a weak write, not an RMW) by
// P0, published by bar.sync or (unpublished) not, so that the arrivals may read the object before
// or after it.
std::string arrivals(bool published) {
  const std::string sync = published ? "      bar.sync 0;\n" : "";
  std::string y = "name: chain-mbarrier\nlocations:\n  x: 0\n  m: {space: shared}\nthreads:\n";
  y += "  P0:\n    code: |\n      mbarrier.init.shared.b64 [m], 3;\n" + sync +
       "      st.global.u32 [x], 1;\n"
       "      mbarrier.arrive.expect_tx.shared.b64 %s, [m], 4;\n"
       "      mbarrier.complete_tx.shared.b64 [m], 4;\n";
  for (const char* p : {"P1", "P2"})
    y += std::string("  ") + p + ":\n    code: |\n" + sync +
         "      mbarrier.arrive.shared.b64 %s, [m];\n"
         "      L:\n      mbarrier.try_wait.parity.shared.b64 %p, [m], 0;\n      @!%p bra L;\n"
         "      ld.global.u32 %r1, [x];\n";
  return y + "condition: 'exists (P1:r1 == 0)'\nobserve: [P1:r1, P2:r1]\n";
}

TEST_CASE("rmw chains: an mbarrier's arrivals and tx updates are a chain beside its init") {
  sameOnBothEngines(arrivals(true), 1);
  sameOnBothEngines(arrivals(false), 1);
}

TEST_CASE("rmw chains: a thread's RMWs through two addresses of one location") {
  const std::string y =
      "name: chain-alias\nlocations:\n  x: 0\n  xa: {alias-of: x}\nthreads:\n"
      "  P0:\n    code: |\n      atom.relaxed.gpu.global.add.u32 %r0, [x], 1;\n"
      "      atom.relaxed.gpu.global.add.u32 %r1, [xa], 2;\n"
      "  P1:\n    code: |\n      atom.relaxed.gpu.global.exch.b32 %r0, [x], 8;\n"
      "      st.relaxed.gpu.global.u32 [xa], 4;\n"
      "      ld.relaxed.gpu.global.u32 %r1, [xa];\n"
      "condition: 'exists (x == 3)'\n"
      "observe: [x, P0:r0, P0:r1, P1:r0, P1:r1]\n";
  sameOnBothEngines(y, 10);
}
