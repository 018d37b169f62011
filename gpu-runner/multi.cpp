#include "gpu-runner/multi.h"
#include "gpu-runner/sweep.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "gpu-runner/harness.h"
#include "gpu-runner/params.h"

namespace gpu {

std::optional<GpuList> parseGpuList(const std::string& text, std::string& why) {
  GpuList list;
  if (text == "all") {
    list.all = true;
    return list;
  }
  std::set<int> seen;
  size_t at = 0;
  for (;;) {
    const size_t comma = text.find(',', at);
    const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos) {
      why = "bad GPU '" + item + "' in '" + text + "' (all, or device numbers separated by commas: 0,1)";
      return std::nullopt;
    }
    const int g = std::stoi(item);
    if (!seen.insert(g).second) {
      why = "GPU " + item + " is named twice in '" + text + "'";
      return std::nullopt;
    }
    list.ordinals.push_back(g);
    if (comma == std::string::npos) return list;
    at = comma + 1;
  }
}

std::vector<int> resolveGpus(const GpuList& list, const DeviceProbe& probe, std::string& why) {
  if (!probe.ok) {
    why = probe.message;
    return {};
  }
  std::vector<int> out = list.ordinals;
  for (int g = 0; list.all && g < probe.count; ++g) out.push_back(g);
  for (int g : out)
    if (g >= probe.count) {
      why = "there is no GPU " + std::to_string(g) + ": this machine has " + std::to_string(probe.count) + " (0 to " +
            std::to_string(probe.count - 1) + ")";
      return {};
    }
  return out;
}

std::vector<uint64_t> splitCount(uint64_t count, size_t shares) {
  std::vector<uint64_t> out(shares, shares ? count / shares : 0);
  for (size_t i = 0; shares && i < count % shares; ++i) ++out[i];
  return out;
}

uint64_t shareSeed(uint64_t seed, size_t share) {
  if (share == 0) return seed;
  uint64_t state = seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(share));
  return splitmix64(state);
}

namespace {

int severity(RunStatus s) {
  switch (s) {
    case RunStatus::NoDriver: return 4;
    case RunStatus::NoDevice: return 3;
    case RunStatus::Error: return 2;
    case RunStatus::Timeout: return 1;
    case RunStatus::Ok: return 0;
  }
  return 2;
}

std::string devices(const std::vector<RunResult>& shares, const std::vector<int>& gpus) {
  bool same = true;
  for (const RunResult& s : shares) same = same && s.device == shares.front().device;
  if (same) return "GPUs " + formatGpus(gpus) + ": " + shares.front().device + " each";
  std::string out;
  for (const RunResult& s : shares)
    out += (out.empty() ? "GPU " : "; GPU ") + formatGpus(s.gpus) + ": " + s.device;
  return out;
}

}  // namespace

RunResult mergeResults(const std::vector<RunResult>& shares) {
  if (shares.size() == 1) return shares.front();
  RunResult r;
  r.status = RunStatus::Ok;
  for (const RunResult& s : shares) {
    if (severity(s.status) > severity(r.status)) {
      r.status = s.status;
      r.message = "GPU " + formatGpus(s.gpus) + ": " + s.message;
    }
    addOutcomes(r, s);
    if (!r.waits.taken) r.waits = s.waits;  // --trace-waits: the first share's that was traced
    r.seconds = std::max(r.seconds, s.seconds);  // the shares ran at the same time
    r.jitSeconds = std::max(r.jitSeconds, s.jitSeconds);
    r.overheadSeconds = std::max(r.overheadSeconds, s.overheadSeconds);
    r.workerSeconds = std::max(r.workerSeconds, s.workerSeconds);
    r.gpus.insert(r.gpus.end(), s.gpus.begin(), s.gpus.end());
    for (size_t i = 0; i < s.gpus.size(); ++i) r.gpuInstances.push_back(s.instances);
  }
  r.device = devices(shares, r.gpus);
  return r;
}

MultiRunner::MultiRunner(bool workerPerTest, std::vector<int> gpus, const DeviceProbe* probe) : gpus_(std::move(gpus)) {
  runners_.push_back(std::make_unique<Runner>(workerPerTest, gpus_));
  for (size_t i = 1; i < gpus_.size(); ++i)
    runners_.push_back(std::make_unique<Runner>(workerPerTest, std::vector<int>{gpus_[i]}));
  if (probe) runners_.front()->knowDevices(*probe);
}

MultiRunner::~MultiRunner() = default;

void MultiRunner::submit(const litmus::Test& test, const RunOptions& options) {
  if (!active_.empty()) collect();  // one test at a time
  std::set<int> testGpus;
  for (const litmus::Thread& t : test.threads) testGpus.insert(t.gpu);
  split_ = runners_.size() > 1 && testGpus.size() <= 1;
  if (!split_) {
    runners_.front()->submit(test, options);  // throws a refusal before anything starts
    active_ = {0};
    return;
  }
  const std::vector<uint64_t> counts = splitCount(options.count, runners_.size());
  for (size_t i = 0; i < runners_.size(); ++i) {
    if (counts[i] == 0) continue;
    RunOptions o = options;
    o.count = counts[i];
    o.seed = shareSeed(options.seed, i);
    o.progress = options.progress && i == 0;  // one progress line, the first share's
    runners_[i]->submit(test, o);  // the first throws a refusal before any other starts
    active_.push_back(i);
  }
}

RunResult MultiRunner::collect() {
  std::vector<RunResult> shares;
  for (size_t i : active_) {
    shares.push_back(runners_[i]->collect());
    // a worker that did not answer (killed, died) names no GPU: its runner's
    if (shares.back().gpus.empty() && !gpus_.empty())
      shares.back().gpus = split_ ? std::vector<int>{gpus_[i]} : gpus_;
  }
  active_.clear();
  if (shares.empty()) return RunResult{};
  RunResult r = mergeResults(shares);
  // with --gpus, the header says which device ran a test on one GPU too
  if (!gpus_.empty() && r.gpus.size() == 1 && !r.device.empty()) r.device = "GPU " + formatGpus(r.gpus) + ": " + r.device;
  return r;
}

// Every worker that will run a share of the test compiles it (each has a context of its own).
void MultiRunner::prefetch(const litmus::Test& test, const RunOptions& options) {
  std::set<int> testGpus;
  for (const litmus::Thread& t : test.threads) testGpus.insert(t.gpu);
  const bool split = runners_.size() > 1 && testGpus.size() <= 1;
  for (size_t i = 0; i < (split ? runners_.size() : 1); ++i) runners_[i]->prefetch(test, options);
}

RunResult MultiRunner::run(const litmus::Test& test, const RunOptions& options) {
  submit(test, options);
  return collect();
}

int MultiRunner::workersStarted() const {
  int n = 0;
  for (const auto& r : runners_) n += r->workersStarted();
  return n;
}

}  // namespace gpu
