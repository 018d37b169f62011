#include "gpu-runner/sweep.h"

#include <algorithm>
#include <array>
#include <map>

#include "gpu-runner/params.h"
#include "litmus/outcome.h"

namespace gpu {

std::vector<RunOptions> sweepShares(const RunOptions& options, int n) {
  if (n <= 1) return {options};
  std::vector<RunOptions> shares;
  const uint64_t per = (options.count + static_cast<uint64_t>(n) - 1) / static_cast<uint64_t>(n);
  for (int k = 0; k < n; ++k) {
    RunOptions o = k == 0 ? options : drawnShare(options, k);
    o.count = std::max<uint64_t>(1, per);
    o.budgetSeconds = options.budgetSeconds / n;
    shares.push_back(o);
  }
  return shares;
}

RunOptions drawnShare(const RunOptions& options, int k) {
  RunOptions o = options;
  o.seed = options.seed + static_cast<uint64_t>(k);
  // the draw depends on the test's seed and the share only, so a rerun repeats it
  uint64_t mix = options.seed * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(k);
  Rng rng(splitmix64(mix) ^ 0x5357454550ULL);
  o.profile = randomProfile(rng);
  return o;
}

namespace {

template <class Key>
void addCounts(std::vector<std::pair<Key, uint64_t>>& into, const std::vector<std::pair<Key, uint64_t>>& from) {
  std::map<Key, uint64_t> sum(into.begin(), into.end());
  for (const auto& [key, count] : from) sum[key] += count;
  into.assign(sum.begin(), sum.end());
}

}  // namespace

void addOutcomes(RunResult& total, const RunResult& part) {
  addCounts(total.histogram, part.histogram);
  std::map<NotRecorded, uint64_t> missing;  // keyed with count 0
  for (const std::vector<NotRecorded>* list : std::array<const std::vector<NotRecorded>*, 2>{&total.notRecorded, &part.notRecorded})
    for (NotRecorded n : *list) {
      const uint64_t c = n.count;
      n.count = 0;
      missing[n] += c;
    }
  std::vector<NotRecorded> merged;
  for (const auto& [key, c] : missing) {
    merged.push_back(key);
    merged.back().count = c;
  }
  total.notRecorded = std::move(merged);
  total.instances += part.instances;
  total.launches += part.launches;
  total.overflow += part.overflow;
  total.stoppedByBudget = total.stoppedByBudget || part.stoppedByBudget;
  total.stoppedByDeadline = total.stoppedByDeadline || part.stoppedByDeadline;
  total.freshWorker = total.freshWorker || part.freshWorker;
}

void addRun(RunResult& total, const RunResult& part) {
  addOutcomes(total, part);
  total.seconds += part.seconds;
  total.jitSeconds += part.jitSeconds;
  total.overheadSeconds += part.overheadSeconds;
  total.workerSeconds += part.workerSeconds;
  if (total.device.empty()) total.device = part.device;
  if (total.gpus.empty()) {
    total.gpus = part.gpus;
    total.gpuInstances = part.gpuInstances;
  } else if (total.gpus == part.gpus && total.gpuInstances.size() == part.gpuInstances.size()) {
    for (size_t i = 0; i < part.gpuInstances.size(); ++i) total.gpuInstances[i] += part.gpuInstances[i];
  }
}

const char* stoppedBy(const RunResult& r) {
  return r.stoppedByBudget ? "budget" : r.stoppedByDeadline ? "deadline" : "count";
}

uint64_t conditionHits(const litmus::Test& test, const RunResult& r) {
  uint64_t hits = 0;
  for (const auto& [state, count] : r.histogram)
    if (litmus::evalCondition(test.condition, test.observed, state)) hits += count;
  return hits;
}

}  // namespace gpu
