// The pure parts of `litmus run --gpus` (gpu-runner/multi.h): the list, the shares and their
// seeds, and the sum of the shares' results. tests/gpu/multi.sh runs it end to end.
#include <doctest/doctest.h>

#include <set>

#include "gpu-runner/multi.h"

namespace {

gpu::DeviceProbe machine(int count) {
  gpu::DeviceProbe p;
  p.ok = true;
  p.count = count;
  return p;
}

litmus::State state(std::vector<int64_t> v) {
  litmus::State s;
  s.values = std::move(v);
  return s;
}

}  // namespace

TEST_CASE("--gpus lists: all, or distinct device numbers") {
  std::string why;
  const auto all = gpu::parseGpuList("all", why);
  REQUIRE(all);
  CHECK(all->all);
  const auto list = gpu::parseGpuList("2,0,11", why);
  REQUIRE(list);
  CHECK_FALSE(list->all);
  CHECK(list->ordinals == std::vector<int>{2, 0, 11});
  for (const char* bad : {"", ",", "0,", ",1", "a", "0,x", "-1", "1.5", "0 1", "ALL", "99999"}) {
    CAPTURE(bad);
    CHECK_FALSE(gpu::parseGpuList(bad, why));
    CHECK(why.find("bad GPU") != std::string::npos);
  }
  CHECK_FALSE(gpu::parseGpuList("0,1,0", why));
  CHECK(why == "GPU 0 is named twice in '0,1,0'");
}

TEST_CASE("--gpus lists against the machine") {
  std::string why;
  CHECK(gpu::resolveGpus(*gpu::parseGpuList("all", why), machine(3), why) == std::vector<int>{0, 1, 2});
  CHECK(gpu::resolveGpus(*gpu::parseGpuList("2,1", why), machine(3), why) == std::vector<int>{2, 1});
  CHECK(gpu::resolveGpus(*gpu::parseGpuList("0,3", why), machine(3), why).empty());
  CHECK(why == "there is no GPU 3: this machine has 3 (0 to 2)");
  gpu::DeviceProbe none;
  none.message = "no usable CUDA device";
  CHECK(gpu::resolveGpus(*gpu::parseGpuList("all", why), none, why).empty());
  CHECK(why == "no usable CUDA device");
}

TEST_CASE("a test split over GPUs: shares add up to the count, seeds differ and repeat") {
  CHECK(gpu::splitCount(10, 3) == std::vector<uint64_t>{4, 3, 3});
  CHECK(gpu::splitCount(2, 3) == std::vector<uint64_t>{1, 1, 0});
  CHECK(gpu::splitCount(9, 1) == std::vector<uint64_t>{9});
  CHECK(gpu::splitCount(1000000007, 8).size() == 8);
  uint64_t sum = 0;
  for (uint64_t n : gpu::splitCount(1000000007, 8)) sum += n;
  CHECK(sum == 1000000007);
  CHECK(gpu::shareSeed(42, 0) == 42);  // one GPU runs what a run without --gpus runs
  std::set<uint64_t> seeds;
  for (size_t i = 0; i < 8; ++i) seeds.insert(gpu::shareSeed(42, i));
  CHECK(seeds.size() == 8);
  CHECK(gpu::shareSeed(42, 3) == gpu::shareSeed(42, 3));
  CHECK(gpu::shareSeed(42, 3) != gpu::shareSeed(43, 3));
  CHECK(gpu::shareSeed(1, 1) == 0xe99ff867dbf682c9ULL);  // splitmix64 of 1 ^ 0x9e3779b97f4a7c15, everywhere
}

TEST_CASE("the shares' results summed into one") {
  gpu::RunResult a, b;
  a.status = b.status = gpu::RunStatus::Ok;
  a.device = b.device = "Fake GPU (4 SMs, sm_90)";
  a.gpus = {0};
  b.gpus = {2};
  a.histogram = {{state({0, 0}), 5}, {state({1, 1}), 3}};
  b.histogram = {{state({0, 1}), 2}, {state({1, 1}), 4}};
  a.notRecorded = {{state({1, 0}), 2, 0, 1}};
  b.notRecorded = {{state({1, 0}), 2, 0, 6}, {state({0, 0}), 0, 1, 1}};
  a.overflow = 1;
  a.instances = 12;
  b.instances = 13;
  a.launches = 2;
  b.launches = 3;
  a.seconds = 0.5;
  b.seconds = 0.7;
  b.stoppedByBudget = true;
  const gpu::RunResult r = gpu::mergeResults({a, b});
  CHECK(r.status == gpu::RunStatus::Ok);
  CHECK(r.histogram == std::vector<std::pair<litmus::State, uint64_t>>{
                           {state({0, 0}), 5}, {state({0, 1}), 2}, {state({1, 1}), 7}});
  REQUIRE(r.notRecorded.size() == 2);
  CHECK(r.notRecorded[1].count == 7);
  CHECK(r.notRecordedCount() == 8);
  CHECK(r.overflow == 1);
  CHECK(r.instances == 25);
  CHECK(r.launches == 5);
  CHECK(r.seconds == 0.7);  // the slowest share
  CHECK(r.stoppedByBudget);
  CHECK(r.gpus == std::vector<int>{0, 2});
  CHECK(r.gpuInstances == std::vector<uint64_t>{12, 13});
  CHECK(r.device == "GPUs 0,2: Fake GPU (4 SMs, sm_90) each");
  b.device = "Other GPU";
  CHECK(gpu::mergeResults({a, b}).device == "GPU 0: Fake GPU (4 SMs, sm_90); GPU 2: Other GPU");
  // a share that did not end Ok: the most severe one decides, named by its GPU
  b.status = gpu::RunStatus::Timeout;
  b.message = "stopped by the watchdog";
  gpu::RunResult c = a;
  c.gpus = {1};
  c.status = gpu::RunStatus::Error;
  c.message = "cuLaunchKernel failed";
  CHECK(gpu::mergeResults({a, b}).status == gpu::RunStatus::Timeout);
  const gpu::RunResult bad = gpu::mergeResults({a, b, c});
  CHECK(bad.status == gpu::RunStatus::Error);
  CHECK(bad.message == "GPU 1: cuLaunchKernel failed");
  CHECK(gpu::mergeResults({a}).gpus == a.gpus);  // one share: as it is
}
