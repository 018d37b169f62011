#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include "checker/checker.h"
#include "features.h"
#include "litmus/parse.h"
#include "random_tests.h"

namespace {

// A random test is small (the generator's cost bound): an engine that needs this long is a
// failure to report, never a pass.
constexpr double kEngineTimeoutSeconds = 60;

struct Verdict {
  std::set<litmus::State> states;
  bool mayHang = false;
};

Verdict run(const litmus::Test& t, checker::Engine e) {
  checker::Options o;
  o.engine = e;
  o.timeoutSeconds = kEngineTimeoutSeconds;
  o.maxStates = 0;  // every state: the engines must list the same ones
  const auto r = checker::check(t, o);
  REQUIRE_MESSAGE(r.outcome.status == litmus::Status::Done,
                  checker::toString(e) << " engine gave no verdict: " << r.outcome.statusDetail);
  return {{r.outcome.states.begin(), r.outcome.states.end()}, !r.outcome.hang.empty()};
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

litmus::Test parseSeed(uint64_t seed) {
  return litmus::parseYaml(difftest::randomTest(seed), "random-" + std::to_string(seed) + ".yaml");
}

}  // namespace

// The two engines evaluate one model text in two different ways; on random tests (seeded, so
// that a failure reproduces) they must allow exactly the same final states and agree on whether
// some execution can hang. LITMUS_DIFF_SLOW=SECONDS prints the seeds slower than that (for
// tuning the cost bound); LITMUS_DIFF_DUMP=DIR writes each seed's test there first (to rerun one
// with `litmus check --engine both`).
TEST_CASE("explicit and symbolic engines agree on random tests") {
  const auto [first, last] = seedRange();
  const char* slowEnv = std::getenv("LITMUS_DIFF_SLOW");
  const double slow = slowEnv ? std::atof(slowEnv) : -1;
  const char* dump = std::getenv("LITMUS_DIFF_DUMP");
  uint64_t finishing = 0;
  for (uint64_t seed = first; seed <= last; ++seed) {
    const std::string text = difftest::randomTest(seed);
    CAPTURE(seed);
    CAPTURE(text);
    if (dump) std::ofstream(std::string(dump) + "/random-" + std::to_string(seed) + ".yaml") << text;
    const litmus::Test t = parseSeed(seed);
    const auto t0 = std::chrono::steady_clock::now();
    const Verdict a = run(t, checker::Engine::Explicit);
    const auto t1 = std::chrono::steady_clock::now();
    const Verdict b = run(t, checker::Engine::Smt);
    const auto t2 = std::chrono::steady_clock::now();
    const double se = std::chrono::duration<double>(t1 - t0).count();
    const double ss = std::chrono::duration<double>(t2 - t1).count();
    if (slow >= 0 && se + ss > slow)
      std::cerr << "seed " << seed << ": explicit " << se << " s, smt " << ss << " s, " << a.states.size()
                << " states\n";
    CHECK(a.states == b.states);
    CHECK(a.mayHang == b.mayHang);
    // Some execution either finishes or hangs: an engine that allows nothing must not pass by
    // agreeing with another that allows nothing either.
    CHECK((!a.states.empty() || a.mayHang));
    finishing += !a.states.empty();
  }
  // And most tests have an execution that finishes (about 90% of them).
  CHECK(finishing * 4 >= (last - first + 1) * 3);
}

// The generator is part of the test: a seed must keep naming the same test, every draw must
// parse and validate, and the cost bound must hold for every draw.
TEST_CASE("random tests are reproducible, valid and within the cost bound") {
  CHECK(difftest::randomTest(7) == difftest::randomTest(7));
  CHECK(difftest::randomTest(7) != difftest::randomTest(8));
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    CAPTURE(seed);
    litmus::Test t;
    REQUIRE_NOTHROW(t = parseSeed(seed));
    std::map<std::string, int> rmws;
    for (const auto& th : t.threads)
      for (const auto& in : th.code)
        if ((in.op == litmus::Opcode::Atom || in.op == litmus::Opcode::Red) && !in.args.empty()) {
          const auto open = in.text.find('['), close = in.text.find(']');
          CHECK(++rmws[in.text.substr(open + 1, close - open - 1)] <= difftest::GenOptions{}.maxRmwPerLocation);
        }
    CHECK(t.threads.size() >= 2);
    CHECK(t.threads.size() <= 4);
  }
}

// Each feature of the language appears in enough of the 1,000 seeds that the differential test
// exercises it; a generator change that drops a feature (or that the parser reads as another)
// fails here. LITMUS_DIFF_CENSUS=1 prints the counts.
TEST_CASE("random tests draw every feature of the language") {
  std::map<std::string, int> count;
  for (const auto& name : difftest::featureNames()) count[name] = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed)
    for (const auto& f : difftest::features(parseSeed(seed))) ++count[f];
  const bool print = std::getenv("LITMUS_DIFF_CENSUS") != nullptr;
  for (const auto& entry : count) {
    // not a structured binding: clang 14 cannot capture one in CAPTURE's lambda
    const std::string& name = entry.first;
    const auto n = entry.second;
    if (print) std::cerr << n << "\t" << name << "\n";
    CAPTURE(name);
    CHECK(n >= 15);  // 1.5% of the seeds; a feature the generator dropped counts 0
  }
  // features() names only what featureNames() lists.
  CHECK(count.size() == difftest::featureNames().size());
}
