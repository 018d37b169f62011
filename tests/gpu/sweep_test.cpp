#include <doctest.h>

#include "gpu-runner/sweep.h"

TEST_CASE("sweep: shares split count and budget, keep the first profile, draw the rest reproducibly") {
  gpu::RunOptions o;
  o.count = 10;
  o.budgetSeconds = 1.0;
  o.seed = 7;
  o.profile.delayMax = 123;
  const auto shares = gpu::sweepShares(o, 4);
  REQUIRE(shares.size() == 4);
  CHECK(shares[0].profile == o.profile);
  for (size_t k = 0; k < shares.size(); ++k) {
    CHECK(shares[k].count == 3);  // ceil(10 / 4)
    CHECK(shares[k].budgetSeconds == doctest::Approx(0.25));
    CHECK(shares[k].seed == 7 + k);
  }
  CHECK(shares[1].profile != shares[2].profile);
  CHECK(gpu::sweepShares(o, 4)[3].profile == shares[3].profile);
  o.seed = 8;
  CHECK(gpu::sweepShares(o, 4)[3].profile != shares[3].profile);
  CHECK(gpu::sweepShares(o, 1).size() == 1);
}

TEST_CASE("sweep: a drawn share as a whole run (run --cover's rounds) is a longer sweep's later share") {
  gpu::RunOptions o;
  o.count = 10;
  o.budgetSeconds = 1.0;
  o.seed = 7;
  const gpu::RunOptions third = gpu::drawnShare(o, 3);
  CHECK(third.count == 10);  // the whole count and budget, not a share of them
  CHECK(third.budgetSeconds == doctest::Approx(1.0));
  CHECK(third.seed == 10);
  CHECK(third.profile == gpu::sweepShares(o, 8)[3].profile);
  CHECK(gpu::drawnShare(o, 9).profile == gpu::sweepShares(o, 16)[9].profile);
  CHECK(third.profile != o.profile);
}

TEST_CASE("sweep: addRun adds histograms, not-recorded entries and counts") {
  litmus::State a, b;
  a.values = {1, 0};
  b.values = {1, 1};
  gpu::RunResult total, part;
  total.status = part.status = gpu::RunStatus::Ok;
  total.histogram = {{a, 5}};
  total.instances = 6;
  total.notRecorded = {{a, 1, 0, 1}};
  part.histogram = {{a, 2}, {b, 3}};
  part.notRecorded = {{a, 1, 0, 4}, {b, 2, 0, 1}};
  part.instances = 10;
  part.launches = 2;
  part.seconds = 0.5;
  part.stoppedByBudget = true;
  gpu::addRun(total, part);
  REQUIRE(total.histogram.size() == 2);
  CHECK(total.histogram[0].second + total.histogram[1].second == 10);
  CHECK(total.instances == 16);
  CHECK(total.launches == 2);
  CHECK(total.seconds == doctest::Approx(0.5));
  CHECK(total.stoppedByBudget);
  uint64_t missing = 0;
  for (const gpu::NotRecorded& n : total.notRecorded) missing += n.count;
  CHECK(missing == 6);
  CHECK(total.notRecorded.size() == 2);
}
