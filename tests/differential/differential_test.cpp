#include <doctest/doctest.h>

#include <cstdlib>
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

}  // namespace

// The two engines evaluate one model text in two different ways; on random tests (seeded, so
// that a failure reproduces) they must allow exactly the same final states. LITMUS_DIFF_COUNT
// sets how many (default 1000).
TEST_CASE("explicit and symbolic engines agree on random tests") {
  const char* env = std::getenv("LITMUS_DIFF_COUNT");
  const int count = env ? std::atoi(env) : 1000;
  int withStates = 0;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(count); ++seed) {
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
  CHECK(withStates == count);
}
