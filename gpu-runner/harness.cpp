#include "gpu-runner/harness.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <tuple>

#include "gpu-runner/cuda_api.h"
#include "gpu-runner/device.h"
#include "gpu-runner/params.h"
#include "gpu-runner/ptx_gen.h"

namespace gpu {

using cuda::CUdeviceptr;
using cuda::CUresult;

namespace {

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

namespace {

struct Buffers {
  CUdeviceptr loc[2] = {0, 0}, res = 0, shout = 0, spin = 0, scratch = 0, table = 0;
  cuda::CUtexObject tex[2] = {0, 0};  // texture aliases: loc[i] as a texture
  Device::Image image[2];             // surface aliases: the array that shadows loc[i]
  CUdeviceptr cbank = 0;              // constant aliases: the module's constant bank (lt_cbank)
  uint64_t tableBytes = 0;
  uint64_t aliasSpan = 0;  // tests with aliases: where the second mapping of the locations starts
  CUdeviceptr trace = 0;   // --trace-waits: the host-mapped slots (wait_trace.h); 0: not traced
};

// The histogram table's entry (ptx_gen.h): a header, the observed values and two masks.
int entryBytes(int observed) { return 16 + 8 * (observed + 2); }

Buffers allocate(Device& d, const Job& job, const Shape& shape, const RunOptions& o) {
  Buffers b;
  const uint64_t n = maxInstances(shape, o.profile);
  for (CUdeviceptr& loc : b.loc)
    loc = job.aliases ? d.allocTwice(locationBytes(shape, o.profile), b.aliasSpan)
                      : d.alloc(locationBytes(shape, o.profile));
  if (job.texture)
    for (int i = 0; i < 2; ++i) b.tex[i] = d.texture(b.loc[i], locationBytes(shape, o.profile));
  if (job.surface)
    for (Device::Image& image : b.image) image = d.surfaceArray(locationBytes(shape, o.profile), job.arrayTexture);
  if (b.aliasSpan > UINT32_MAX)
    throw DriverError{RunStatus::Error, "the location buffer is too large for an alias offset"};
  b.res = d.alloc(n * static_cast<uint64_t>(std::max(1, job.regResults)) * kResultSlotBytes);
  b.shout = d.alloc(n * static_cast<uint64_t>(std::max(1, job.sharedResults)) * kResultSlotBytes);
  b.spin = d.alloc((n + 1) * 4);  // a counter per instance group, and the launch-wide one at N
  b.scratch = d.alloc(kScratchBytes);
  b.tableBytes = static_cast<uint64_t>(kTableEntries) * static_cast<uint64_t>(entryBytes(job.observed)) + 8;
  b.table = d.alloc(b.tableBytes);
  return b;
}

// Buffer i's surface array goes with it (ptx_tally.cpp: p_surf, p_nsurf after the others).
void launchTally(Device& d, Buffers& b, const Job& job, int cur, int next, uint32_t mode, Launch& now,
                 Launch& following) {
  uint32_t m = mode;
  std::vector<void*> args = {
      &b.loc[cur], &b.loc[next], &b.res, &b.shout, &b.spin, &b.table, &m, now.words.data(), following.words.data()};
  if (job.surface) {
    args.push_back(&b.image[cur].surface);
    args.push_back(&b.image[next].surface);
  }
  if (job.bankWords > 0) args.push_back(&b.cbank);
  const uint64_t threads = std::max<uint64_t>(now.words[kN], following.words[kN]);
  d.launch(d.tallyKernel(), static_cast<uint32_t>((threads + 255) / 256), 256, 0, args.data());
}

// With a budget, the launch queue is drained now and then so that the clock says how much GPU time
// has passed: each batch queues about an eighth of the budget (never more than what is left), so
// a run ends within a launch or so of its budget and the pipeline stalls a few times only. A batch
// has at most as many launches as were timed before it, so that an early estimate that is far off
// (launches differ: each draws its own stress) cannot queue far past the budget. Without that cap
// a sweep share once ran 17 times its budget on the H100 (results/h100/peer-same-machine).
// The watchdog's timeout sets a second limit, the deadline: a run whose launches keep finishing
// but are too slow for its count (a drawn stress profile can make them a thousand times slower)
// stops there with what it ran, so that only a launch that never finishes meets the watchdog.
class BudgetClock {
 public:
  BudgetClock(double budget, double deadline, std::chrono::steady_clock::time_point start)
      : budget_(budget), deadline_(deadline), start_(start) {
    limit_ = budget_ > 0 && (deadline_ <= 0 || budget_ < deadline_) ? budget_ : deadline_;
  }
  bool checkNow(uint64_t launches) const { return limit_ > 0 && launches == next_; }
  // After a synchronize: false when the budget or the deadline is spent; else plans the next batch.
  bool carryOn(uint64_t launches) {
    const double spent = since(start_);
    if (spent >= limit_) return false;
    const double perLaunch = spent / static_cast<double>(std::max<uint64_t>(1, launches));
    const double ahead = std::min(limit_ - spent, limit_ / 8);
    const uint64_t batch = std::max<uint64_t>(1, static_cast<uint64_t>(ahead / std::max(perLaunch, 1e-7)));
    next_ = launches + std::min(batch, std::max<uint64_t>(1, launches));
    return true;
  }
  // Which limit ended the run (after carryOn returned false).
  bool byBudget() const { return budget_ > 0 && limit_ == budget_; }

 private:
  double budget_, deadline_, limit_;
  std::chrono::steady_clock::time_point start_;
  uint64_t next_ = 1;  // the first look comes after one launch, which also warms the GPU up
};

// Every device of the job: the next launch's tests on the other devices must not start before
// the tally on the first has set their instances up (one GPU: one cuCtxSynchronize, as ever).
void synchronizeAll(Device& d) {
  for (int i = d.gpus(); i-- > 0;) d.synchronize(i);
}

// One launch of the test kernel per grid on every device, queued on all of them before any is
// waited for, so that the test GPUs' roles run at the same time. Every device gets the same
// record; a test across GPUs has one more parameter, p_gpu: device i plays test GPU i, and the
// roles of the other test GPUs leave at once.
void launchTests(Device& d, Buffers& b, const Job& job, const Shape& shape, Launch& cur, int buffer) {
  uint32_t gpu = 0;
  // the kernel's optional parameters in its order (ptx_kernel.cpp): p_gpu of a test across GPUs,
  // p_tex, p_surf and p_atex of one with images (never with p_gpu), p_trace of a traced one
  std::vector<void*> args = {&b.loc[buffer], &b.res, &b.shout, &b.spin, &b.scratch, cur.words.data()};
  if (job.gpus > 1) args.push_back(&gpu);
  if (job.texture) args.push_back(&b.tex[buffer]);
  if (job.surface) args.push_back(&b.image[buffer].surface);
  if (job.arrayTexture) args.push_back(&b.image[buffer].texture);
  if (job.bankWords > 0) args.push_back(&b.cbank);
  if (b.trace) args.push_back(&b.trace);
  for (int i = 0; i < d.gpus(); ++i) {
    d.select(i);
    gpu = static_cast<uint32_t>(i);
    // one launch per grid, in the test's launch order, in one stream (plan.h); the tally after
    // the last one reads every grid's results
    for (size_t g = 0; g < job.gridProgrammatic.size(); ++g) {
      cur.words[kGrid] = static_cast<uint32_t>(g);
      d.launch(d.testKernel(i), cur.blocks, cur.threads, shape.clusterLaunch ? shape.clusterSize : 0, args.data(),
               job.gridProgrammatic[g]);
    }
  }
  for (int i = 1; i < d.gpus(); ++i) d.synchronize(i);  // the tally reads what they wrote
  d.select(0);
}

void launchLoop(Device& d, Buffers& b, const Job& job, const Shape& shape, const RunOptions& o, double deadline,
                RunResult& r) {
  Rng rng(o.seed);
  Launch none{}, cur = drawLaunch(shape, o.profile, rng);
  cur.words[kAliasSpan] = static_cast<uint32_t>(b.aliasSpan);
  cur.words[kEpoch] = 1;
  launchTally(d, b, job, 1, 0, kTallyInit, none, cur);
  synchronizeAll(d);
  const auto start = std::chrono::steady_clock::now();
  auto lastProgress = start;
  BudgetClock budget(o.budgetSeconds, deadline, start);
  for (uint64_t e = 0; r.instances < o.count; ++e) {
    if (budget.checkNow(e)) {
      synchronizeAll(d);
      if (!budget.carryOn(e)) {
        (budget.byBudget() ? r.stoppedByBudget : r.stoppedByDeadline) = true;
        break;
      }
    }
    Launch next = drawLaunch(shape, o.profile, rng);
    next.words[kAliasSpan] = static_cast<uint32_t>(b.aliasSpan);
    // Launches are numbered from 1 (the sentinel is 0); 2^32 - 1 launches are far beyond any run.
    next.words[kEpoch] = static_cast<uint32_t>(std::max<uint64_t>(1, (e + 2) & 0xffffffffu));
    const int here = static_cast<int>(e % 2), there = 1 - here;
    launchTests(d, b, job, shape, cur, here);
    launchTally(d, b, job, here, there, kTallyRead | kTallyInit, cur, next);
    if (d.gpus() > 1) d.synchronize(0);
    r.instances += cur.instances;
    ++r.launches;
    cur = next;
    const auto now = std::chrono::steady_clock::now();
    if (o.progress && now - lastProgress > std::chrono::milliseconds(500)) {
      lastProgress = now;
      std::cerr << "\r\033[K" << job.name << ": " << r.instances << " / " << o.count << " instances queued"
                << std::flush;
    }
  }
  synchronizeAll(d);
  r.seconds = since(start);
  if (o.progress) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace

std::string formatGpus(const std::vector<int>& gpus) {
  std::string s;
  for (int g : gpus) s.append(s.empty() ? "" : ",").append(std::to_string(g));
  return s;
}

namespace {

// "Fake GPU (4 SMs, sm_90)", or across GPUs "GPU 0: NAME; GPU 1: NAME" (one NAME when they agree).
void describeDevices(const Device& d, RunResult& r) {
  r.gpus.clear();
  bool same = true;
  for (int i = 0; i < d.gpus(); ++i) {
    r.gpus.push_back(d.ordinal(i));
    same = same && d.name(i) == d.name(0);
  }
  r.device = d.name(0);
  if (d.gpus() == 1) return;
  if (same) {
    r.device = "GPUs ";
    r.device.append(formatGpus(r.gpus)).append(": ").append(d.name(0)).append(" each");
    return;
  }
  r.device.clear();
  for (int i = 0; i < d.gpus(); ++i)
    r.device.append(i ? "; GPU " : "GPU ").append(std::to_string(d.ordinal(i))).append(": ").append(d.name(i));
}

}  // namespace

void readTable(const std::vector<unsigned char>& table, int observed, RunResult& r) {
  const size_t entry = static_cast<size_t>(entryBytes(observed)), m = static_cast<size_t>(observed);
  std::map<litmus::State, uint64_t> counts;
  std::map<std::tuple<litmus::State, uint64_t, uint64_t>, uint64_t> missing;
  uint64_t total = 0;
  for (size_t e = 0; e < static_cast<size_t>(kTableEntries); ++e) {
    const unsigned char* p = table.data() + e * entry;
    uint32_t state = 0;
    uint64_t count = 0, terms = 0, threads = 0;
    std::memcpy(&state, p, 4);
    std::memcpy(&count, p + 8, 8);
    if (state != 2 || count == 0) continue;
    litmus::State s;
    s.values.resize(m);
    std::memcpy(s.values.data(), p + 16, 8 * m);
    std::memcpy(&terms, p + 16 + 8 * m, 8);
    std::memcpy(&threads, p + 24 + 8 * m, 8);
    if (terms || threads)
      missing[{s, terms, threads}] += count;
    else
      counts[s] += count;
    total += count;
  }
  std::memcpy(&r.overflow, table.data() + kTableEntries * entry, 8);
  r.histogram.assign(counts.begin(), counts.end());
  r.notRecorded.clear();
  for (const auto& [key, count] : missing)
    r.notRecorded.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), count});
  if (total + r.overflow != r.instances) {  // the harness checks itself on every run
    r.status = RunStatus::Error;
    r.message = "the histogram holds " + std::to_string(total + r.overflow) + " outcomes for " +
                std::to_string(r.instances) + " instances";
  }
}

Job makeJob(const litmus::Test& test, const Plan& plan, std::string ptx, const RunOptions& options) {
  Job j;
  j.name = test.name;
  j.ptx = std::move(ptx);
  j.shape = plan.shape;
  j.aliases = std::any_of(plan.locs.begin(), plan.locs.end(),
                          [](const LocPlan& l) { return l.aliasOf >= 0 && !l.texture; });
  j.texture = plan.hasTexture();
  j.surface = plan.hasSurface();
  j.arrayTexture = plan.hasArrayTexture();
  j.bankWords = plan.bankWords;
  j.regResults = plan.regResults;
  j.sharedResults = plan.sharedResults;
  j.observed = static_cast<int>(plan.observed.size());
  j.gridProgrammatic = plan.gridProgrammatic;
  j.gpus = plan.gpus;
  for (size_t v = 0; v < plan.locs.size(); ++v)
    if (plan.locs[v].tensorMap >= 0)
      j.tensorMaps.push_back({test.locations[v].name, test.locations[v].tensorDims, test.locations[v].tensorBox});
  j.options = options;
  return j;
}

Session::Session(std::vector<int> ordinals, uint64_t* traceSlots)
    : device_(std::make_unique<Device>(std::move(ordinals))), traceSlots_(traceSlots) {}
Session::~Session() = default;

// The share of the watchdog's timeout a run may spend before it stops launching (BudgetClock): the
// rest is the margin for the launches in flight, the table's read-back and the hand-over.
constexpr double kDeadlineShare = 0.75;

void Session::prefetch(const std::string& ptx, const std::string& cacheDir) {
  device_->jitCache(cacheDir);
  device_->prefetch(ptx);
}

RunResult Session::run(const Job& job) {
  const auto begin = std::chrono::steady_clock::now();
  RunResult r;
  const RunOptions& options = job.options;
  Shape shape = job.shape;
  try {
    device_->jitCache(options.jitCache);
    device_->open(job.gpus);
    Device& d = *device_;
    describeDevices(d, r);
    const auto jit = std::chrono::steady_clock::now();
    d.load(job.ptx);
    r.jitSeconds = since(jit);
    const uint32_t threads = blockThreads(shape, options.profile);
    const uint32_t resident = d.residentClusters(shape, threads);
    // Stressing blocks share the GPU with the testing ones; both must be resident together.
    shape.maxTestClusters =
        std::max<uint32_t>(static_cast<uint32_t>(shape.roles),
                           static_cast<uint32_t>(uint64_t{resident} * 100 /
                                                 (100 + static_cast<uint64_t>(options.profile.stressPct))));
    if (job.bankWords > 0) {  // every instance's words fit the constant bank (ptx_gen.h kBankWords)
      const uint64_t perGroup = uint64_t{groupsPerBlock(shape, options.profile)} * (shape.laneMode ? 32 : 1);
      const uint64_t groups = static_cast<uint64_t>(kBankWords / job.bankWords) / perGroup;
      if (groups == 0) throw DriverError{RunStatus::Error, "an instance group's constant-bank words exceed the bank"};
      shape.maxTestClusters = static_cast<uint32_t>(
          std::min<uint64_t>(shape.maxTestClusters, groups * static_cast<uint64_t>(shape.roles)));
    }
    Buffers b = allocate(d, job, shape, options);
    if (job.bankWords > 0) b.cbank = d.moduleGlobal("lt_cbank");
    if (options.traceWaits && job.gpus == 1) {  // as Plan::tracing; the runner cleared the slots
      if (!traceSlots_) throw DriverError{RunStatus::Error, "--trace-waits: the trace region could not be mapped"};
      b.trace = d.hostMapped(traceSlots_, TraceRegion::bytes());
    }
    d.uploadTensorMaps(job.tensorMaps, b.loc[0]);
    const double deadline =
        options.timeoutSeconds > 0 ? std::max(1e-3, kDeadlineShare * options.timeoutSeconds - since(begin)) : 0;
    launchLoop(d, b, job, shape, options, deadline, r);
    r.gpuInstances.assign(r.gpus.size(), r.instances);  // every device took part in every instance
    r.status = RunStatus::Ok;
    std::vector<unsigned char> table(b.tableBytes);
    d.copyOut(table.data(), b.table, table.size());
    readTable(table, job.observed, r);
  } catch (const DriverError& e) {
    r.status = e.status;
    r.message = e.message;
  }
  device_->release();
  return r;
}

}  // namespace gpu
