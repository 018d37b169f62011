#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "checker/checker.h"
#include "litmus/parse.h"
#include "random_tests.h"

namespace {

std::set<litmus::State> states(const litmus::Test& t, checker::Engine e) {
  checker::Options o;
  o.engine = e;
  const auto r = checker::check(t, o);
  REQUIRE(r.outcome.status == litmus::Status::Done);
  return {r.outcome.states.begin(), r.outcome.states.end()};
}

// LITMUS_DIFF_SEEDS=FIRST-LAST picks the seeds (default 1-1000); CTest runs the range in parts,
// one per core.
std::pair<uint64_t, uint64_t> seedRange() {
  const char* env = std::getenv("LITMUS_DIFF_SEEDS");
  unsigned long long first = 1, last = 1000;
  if (env) REQUIRE_MESSAGE(std::sscanf(env, "%llu-%llu", &first, &last) == 2, "LITMUS_DIFF_SEEDS=" << env);
  REQUIRE(first <= last);
  return {first, last};
}

}  // namespace

// The two engines evaluate one model text in two different ways; on random tests (seeded, so
// that a failure reproduces) they must allow exactly the same final states.
TEST_CASE("explicit and symbolic engines agree on random tests") {
  const auto [first, last] = seedRange();
  uint64_t withStates = 0;
  for (uint64_t seed = first; seed <= last; ++seed) {
    const std::string text = difftest::randomTest(seed);
    CAPTURE(seed);
    CAPTURE(text);
    const litmus::Test t = litmus::parseYaml(text, "random-" + std::to_string(seed) + ".yaml");
    const auto a = states(t, checker::Engine::Explicit);
    const auto b = states(t, checker::Engine::Smt);
    CHECK(a == b);
    withStates += !a.empty();
  }
  // Every test has at least one allowed state (the model allows some execution of any program
  // without loops); an engine that allows nothing must not pass by agreeing with another.
  CHECK(withStates == last - first + 1);
}

// The generator is part of the test: a seed must keep naming the same test, and the cost bound
// must hold for every draw.
TEST_CASE("random tests are reproducible and within the cost bound") {
  CHECK(difftest::randomTest(7) == difftest::randomTest(7));
  CHECK(difftest::randomTest(7) != difftest::randomTest(8));
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    const litmus::Test t = litmus::parseYaml(difftest::randomTest(seed), "random.yaml");
    CAPTURE(seed);
    std::map<std::string, int> rmws;
    for (const auto& th : t.threads)
      for (const auto& in : th.code)
        if (in.text.rfind("atom", 0) == 0 || in.text.rfind("red", 0) == 0) {
          const auto open = in.text.find('['), close = in.text.find(']');
          CHECK(++rmws[in.text.substr(open + 1, close - open - 1)] <= difftest::GenOptions{}.maxRmwPerLocation);
        }
    CHECK(t.threads.size() >= 2);
    CHECK(t.threads.size() <= 4);
  }
}
