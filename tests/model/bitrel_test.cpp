#include <doctest/doctest.h>

#include "model/bitrel.h"
#include "semantics/semantics.h"

using model::BitRel;

namespace {

BitRel fromEdges(int n, std::initializer_list<std::pair<int, int>> es) {
  BitRel r(n);
  for (auto [a, b] : es) r.set(a, b);
  return r;
}

}  // namespace

TEST_CASE("composition follows herd's sequence") {
  const BitRel a = fromEdges(4, {{0, 1}, {2, 3}});
  const BitRel b = fromEdges(4, {{1, 2}, {3, 0}});
  const BitRel ab = a * b;
  CHECK(ab == fromEdges(4, {{0, 2}, {2, 0}}));
  CHECK((b * a) == fromEdges(4, {{1, 3}, {3, 1}}));
}

TEST_CASE("transitive closure and acyclicity agree with Boost.Graph") {
  const BitRel chain = fromEdges(5, {{0, 1}, {1, 2}, {2, 3}});
  const BitRel c = plus(chain);
  CHECK(c.get(0, 3));
  CHECK_FALSE(c.get(3, 0));
  CHECK(c.irreflexive());
  CHECK(model::isAcyclic(chain));
  CHECK(model::findCycle(chain).empty());

  BitRel loop = chain;
  loop.set(3, 1);
  CHECK_FALSE(plus(loop).irreflexive());
  const auto cyc = model::findCycle(loop);
  REQUIRE(cyc.size() == 4);  // 1 -> 2 -> 3 -> 1
  CHECK(cyc.front() == cyc.back());
  for (size_t i = 0; i + 1 < cyc.size(); ++i) CHECK(loop.get(cyc[i], cyc[i + 1]));
}

TEST_CASE("a self loop is a cycle") {
  const BitRel r = fromEdges(3, {{2, 2}});
  CHECK(model::findCycle(r) == std::vector<int>{2, 2});
}

TEST_CASE("inverse, difference, subset, diag") {
  const BitRel r = fromEdges(3, {{0, 1}, {1, 2}});
  CHECK(inv(r) == fromEdges(3, {{1, 0}, {2, 1}}));
  CHECK((r - fromEdges(3, {{0, 1}})) == fromEdges(3, {{1, 2}}));
  CHECK(fromEdges(3, {{0, 1}}).subsetOf(r));
  CHECK_FALSE(r.subsetOf(fromEdges(3, {{0, 1}})));
  BitRel::Row s;
  s[1] = true;
  CHECK((BitRel::diag(3, s) * r) == fromEdges(3, {{1, 2}}));
  CHECK(star(BitRel(2)) == BitRel::identity(2));
}

TEST_CASE("typed values wrap and sign-extend") {
  using litmus::Type;
  CHECK(model::normalize(Type::U32, 0x1'0000'0001) == 1);
  CHECK(model::normalize(Type::S32, 0xffffffff) == -1);
  CHECK(model::normalize(Type::U16, -1) == 0xffff);
  CHECK(model::normalize(Type::None, -5) == -5);
}

// The fast operations against their definitions, on random relations of every density: acyclic
// against plus(r).irreflexive(), composition and inverse against the pairs they are made of.
TEST_CASE("acyclic, composition and inverse agree with their definitions on random relations") {
  uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  int cyclic = 0, dags = 0;
  for (int round = 0; round < 2000; ++round) {
    const int n = 1 + static_cast<int>(next() % 40);
    const int per = 1 + static_cast<int>(next() % 200);  // edge odds in 1/1000
    BitRel a(n), b(n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (static_cast<int>(next() % 1000) < per && (round % 2 || i < j)) a.set(i, j);
        if (static_cast<int>(next() % 1000) < per) b.set(i, j);
      }
    const bool expected = plus(a).irreflexive();
    CHECK(model::acyclic(a) == expected);
    (expected ? dags : cyclic) += 1;
    BitRel comp(n), tr(n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (a.get(i, j)) tr.set(j, i);
        for (int k = 0; k < n; ++k)
          if (a.get(i, k) && b.get(k, j)) comp.set(i, j);
      }
    CHECK((a * b) == comp);
    CHECK(inv(a) == tr);
  }
  CHECK(cyclic > 200);  // both answers were exercised
  CHECK(dags > 200);
}
