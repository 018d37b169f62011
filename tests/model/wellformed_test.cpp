// The candidate domains both engines build from (model/wellformed.h): which fence pairs the
// Fence-SC order relates, and which write pairs coherence must order.
#include <doctest/doctest.h>

#include "model/wellformed.h"

using namespace model;

namespace {

Event fence(int thread, litmus::Sem sem, litmus::Scope scope) {
  Event e;
  e.kind = EventKind::Fence;
  e.thread = thread;
  e.cta = thread;  // one CTA per thread: .cta fences of two threads are not in each other's scope
  e.cluster = 0;
  e.gpu = 0;
  e.sem = sem;
  e.scope = scope;
  return e;
}

}  // namespace

TEST_CASE("fenceScPairs: morally strong pairs of fence.sc, in event order") {
  using litmus::Scope;
  using litmus::Sem;
  const std::vector<Event> ev = {fence(0, Sem::Sc, Scope::Gpu), fence(1, Sem::Sc, Scope::Gpu),
                                 fence(1, Sem::AcqRel, Scope::Gpu), fence(2, Sem::Sc, Scope::Cta),
                                 fence(2, Sem::Sc, Scope::Gpu)};
  // 3 is .cta: only its own thread's fence 4 is in its scope; 2 is not .sc
  const std::vector<std::pair<int, int>> want = {{0, 1}, {0, 4}, {1, 4}, {3, 4}};
  CHECK(fenceScPairs(ev) == want);
}

TEST_CASE("coherence domain: initial writes first, morally strong write pairs forced") {
  const std::vector<std::pair<int, int>> init = {{0, 2}, {0, 3}, {1, 4}};
  CHECK(initialWritesFirst({{2, 3}, {4}}, {0, 1}) == init);
  const std::vector<WritePair> pairs = writePairs({2, 3, 5}, [](int a, int b) { return a + b == 7; });
  REQUIRE(pairs.size() == 3);
  CHECK((pairs[0].a == 2 && pairs[0].b == 3 && !pairs[0].forced));
  CHECK((pairs[1].a == 2 && pairs[1].b == 5 && pairs[1].forced));
  CHECK((pairs[2].a == 3 && pairs[2].b == 5 && !pairs[2].forced));
}
