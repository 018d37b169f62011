// suite/shard.h and suite/parallel.h: the partition is fixed and complete, the pool hands results
// on in order and passes exceptions on in their place.
#include <doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "suite/parallel.h"
#include "suite/shard.h"

TEST_CASE("scale: shard syntax") {
  CHECK(suite::parseShard("1/1")->count == 1);
  CHECK(suite::parseShard("3/8")->index == 3);
  for (const char* bad : {"0/3", "4/3", "3", "/3", "3/", "1/0", "a/2", "1/2/3", "-1/2", "1/99999999"})
    CHECK_MESSAGE(!suite::parseShard(bad), bad);
}

TEST_CASE("scale: the hash is FNV-1a 64, whatever the platform") {
  CHECK(suite::stableHash("") == 14695981039346656037ull);
  CHECK(suite::stableHash("a") == 0xaf63dc4c8601ec8cull);
  CHECK(suite::stableHash("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("scale: every name is in exactly one shard") {
  for (uint64_t n : {1, 2, 3, 7}) {
    std::vector<int> sizes(n, 0);
    for (int i = 0; i < 500; ++i) {
      const std::string name = "MP+test" + std::to_string(i);
      int in = 0;
      for (uint64_t k = 1; k <= n; ++k)
        if (suite::inShard(name, {k, n})) ++in, ++sizes[k - 1];
      CHECK(in == 1);
    }
    for (int s : sizes) CHECK(s > 500 / static_cast<int>(n) / 2);  // roughly even
  }
}

TEST_CASE("scale: results come in input order, from several threads") {
  for (int jobs : {1, 2, 5}) {
    std::vector<size_t> order;
    std::atomic<int> running{0}, most{0};
    suite::orderedParallel<size_t>(
        40, jobs,
        [&](size_t i) {
          const int now = ++running;
          for (int m = most; now > m && !most.compare_exchange_weak(m, now);) {}
          // later items finish first, so that order is not an accident of timing
          std::this_thread::sleep_for(std::chrono::microseconds(200 * (40 - i % 8)));
          --running;
          return i * i;
        },
        [&](size_t i, size_t v) {
          CHECK(v == i * i);
          order.push_back(i);
        });
    REQUIRE(order.size() == 40);
    for (size_t i = 0; i < order.size(); ++i) CHECK(order[i] == i);
    if (jobs > 1) CHECK(most > 1);
  }
}

TEST_CASE("scale: an exception is rethrown after the results before it") {
  std::vector<size_t> seen;
  auto run = [&] {
    suite::orderedParallel<int>(
        20, 3,
        [](size_t i) -> int {
          if (i == 7) throw std::runtime_error("seven");
          return static_cast<int>(i);
        },
        [&](size_t i, int) { seen.push_back(i); });
  };
  CHECK_THROWS_WITH_AS(run(), "seven", std::runtime_error);
  CHECK(seen.size() == 7);
  CHECK(suite::defaultJobs() >= 1);
}
