#include "gpu-runner/harness.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <tuple>

#include "gpu-runner/cuda_api.h"
#include "gpu-runner/params.h"
#include "gpu-runner/ptx_gen.h"

namespace gpu {

using cuda::CUdeviceptr;
using cuda::CUresult;

namespace {

// A failed driver call ends the run with its name and the driver's error.
struct DriverError {
  RunStatus status;
  std::string message;
};

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

// The driver and the context (open), and one job's module and buffers (load, alloc...,
// release), so that a worker keeps the context across tests.
class Device {
 public:
  Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device() {
    release();
    cuda::unload(api_);
  }

  // Frees the job's buffers and unloads its module: the next job starts with none of them.
  void release() {
    for (CUdeviceptr p : allocations_) api_.cuMemFree(p);
    for (const auto& [p, bytes] : reserved_) {
      api_.cuMemUnmap(p, bytes);
      api_.cuMemAddressFree(p, bytes);
    }
    for (cuda::CUmemGenericAllocationHandle h : handles_) api_.cuMemRelease(h);
    allocations_.clear();
    reserved_.clear();
    handles_.clear();
    if (module_ && api_.cuModuleUnload) api_.cuModuleUnload(module_);
    module_ = nullptr;
    test_ = tally_ = nullptr;
  }

  void open() {
    std::string why;
    if (!cuda::load(api_, why)) throw DriverError{RunStatus::NoDriver, why};
    check(api_.cuInit(0), "no usable CUDA device: cuInit", RunStatus::NoDevice);
    int count = 0;
    check(api_.cuDeviceGetCount(&count), "no usable CUDA device: cuDeviceGetCount", RunStatus::NoDevice);
    if (count == 0) throw DriverError{RunStatus::NoDevice, "no CUDA device found"};
    check(api_.cuDeviceGet(&dev_, 0), "cuDeviceGet", RunStatus::NoDevice);
    char name[256] = {};
    check(api_.cuDeviceGetName(name, sizeof name - 1, dev_), "cuDeviceGetName");
    sms_ = attribute(cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    const int major = attribute(cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    const int minor = attribute(cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    name_ = std::string(name) + " (" + std::to_string(sms_) + " SMs, sm_" + std::to_string(major) +
            std::to_string(minor) + ")";
    if (major < 9)
      throw DriverError{RunStatus::NoDevice,
                        "the runner needs an sm_90 (Hopper) or newer GPU; found " + name_};
    cuda::CUcontext ctx = nullptr;
    check(api_.cuDevicePrimaryCtxRetain(&ctx, dev_), "cuDevicePrimaryCtxRetain");
    check(api_.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  }

  void load(const std::string& ptx) {
    cuda::JitOptions jit;  // the same as --emit-sass's (sass.cpp)
    const CUresult r = api_.cuModuleLoadDataEx(&module_, ptx.c_str(), jit.count, jit.options, jit.values);
    if (r != cuda::CUDA_SUCCESS)
      throw DriverError{RunStatus::Error, "the CUDA driver rejected the generated PTX: " +
                                              cuda::errorText(api_, r) + "\n" + jit.text()};
    check(api_.cuModuleGetFunction(&test_, module_, "litmus_test"), "cuModuleGetFunction");
    check(api_.cuModuleGetFunction(&tally_, module_, "litmus_tally"), "cuModuleGetFunction");
  }

  // Hardware clusters of the test kernel that fit on the GPU at once: the spin barrier only lines
  // up warps that run at the same time, so a launch never asks for more.
  uint32_t residentClusters(const Shape& s, uint32_t threads) {
    if (s.clusterLaunch) {
      if (!attribute(cuda::CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) || !api_.cuLaunchKernelEx)
        throw DriverError{RunStatus::NoDevice,
                          "the test needs cluster launches, which this GPU or driver lacks"};
      if (api_.cuOccupancyMaxActiveClusters) {
        cuda::LaunchAttribute attr{};
        cuda::LaunchConfig cfg = config(static_cast<unsigned>(s.clusterSize), threads, s.clusterSize, attr);
        int n = 0;
        if (api_.cuOccupancyMaxActiveClusters(&n, test_, &cfg) == cuda::CUDA_SUCCESS && n > 0)
          return static_cast<uint32_t>(n);
      }
    }
    int perSm = 0;
    if (!api_.cuOccupancyMaxActiveBlocksPerMultiprocessor ||
        api_.cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, test_, static_cast<int>(threads), 0) !=
            cuda::CUDA_SUCCESS ||
        perSm <= 0)
      perSm = static_cast<int>(std::max(1u, 2048u / threads));
    return std::max(1u, static_cast<uint32_t>(perSm * sms_) / static_cast<uint32_t>(s.clusterSize));
  }

  CUdeviceptr alloc(uint64_t bytes) {
    CUdeviceptr p = 0;
    check(api_.cuMemAlloc(&p, std::max<uint64_t>(bytes, 256)),
          "cuMemAlloc (" + std::to_string(bytes) + " bytes)");
    allocations_.push_back(p);
    check(api_.cuMemsetD8(p, 0, std::max<uint64_t>(bytes, 256)), "cuMemsetD8");
    return p;
  }

  // One physical buffer of at least `bytes`, mapped at p and again at p + span, zeroed; returns p.
  // A location's alias reaches the same memory through the second mapping, as aliases do.
  CUdeviceptr allocTwice(uint64_t bytes, uint64_t& span) {
    if (!api_.cuMemCreate || !api_.cuMemMap || !api_.cuMemAddressReserve || !api_.cuMemSetAccess ||
        !api_.cuMemGetAllocationGranularity || !api_.cuMemUnmap || !api_.cuMemAddressFree || !api_.cuMemRelease)
      throw DriverError{RunStatus::NoDevice, "the test has aliases, which need the driver's virtual memory API"};
    cuda::MemAllocationProp prop{};
    prop.type = cuda::CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location = {cuda::CU_MEM_LOCATION_TYPE_DEVICE, dev_};
    size_t grain = 0;
    check(api_.cuMemGetAllocationGranularity(&grain, &prop, cuda::CU_MEM_ALLOC_GRANULARITY_MINIMUM),
          "cuMemGetAllocationGranularity");
    grain = std::max<size_t>(grain, 256);
    span = (std::max<uint64_t>(bytes, 256) + grain - 1) / grain * grain;
    cuda::CUmemGenericAllocationHandle h = 0;
    check(api_.cuMemCreate(&h, span, &prop, 0), "cuMemCreate (" + std::to_string(span) + " bytes)");
    handles_.push_back(h);
    CUdeviceptr p = 0;
    check(api_.cuMemAddressReserve(&p, 2 * span, grain, 0, 0), "cuMemAddressReserve");
    reserved_.emplace_back(p, 2 * span);
    check(api_.cuMemMap(p, span, 0, h, 0), "cuMemMap");
    check(api_.cuMemMap(p + span, span, 0, h, 0), "cuMemMap (the alias)");
    const cuda::MemAccessDesc access{{cuda::CU_MEM_LOCATION_TYPE_DEVICE, dev_},
                                     cuda::CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    check(api_.cuMemSetAccess(p, 2 * span, &access, 1), "cuMemSetAccess");
    check(api_.cuMemsetD8(p, 0, span), "cuMemsetD8");
    return p;
  }

  // clusterSize 0: a plain launch. `programmatic`: the launch may overlap the previous one in the
  // stream (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION; docs/gpu-runner.md, "Grids").
  void launch(cuda::CUfunction f, uint32_t blocks, uint32_t threads, int clusterSize, void** args,
              bool programmatic = false) {
    if (clusterSize == 0 && !programmatic) {
      check(api_.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr), "cuLaunchKernel");
      return;
    }
    if (!api_.cuLaunchKernelEx)
      throw DriverError{RunStatus::NoDevice, "the test needs cuLaunchKernelEx, which this driver lacks"};
    cuda::LaunchAttribute attrs[2] = {};
    cuda::LaunchConfig cfg = config(blocks, threads, std::max(clusterSize, 1), attrs[0]);
    cfg.numAttrs = clusterSize > 0 ? 1 : 0;
    if (programmatic) {
      attrs[cfg.numAttrs].id = cuda::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      attrs[cfg.numAttrs].value.programmaticStreamSerializationAllowed = 1;
      ++cfg.numAttrs;
    }
    check(api_.cuLaunchKernelEx(&cfg, f, args, nullptr), "cuLaunchKernelEx");
  }

  void synchronize() { check(api_.cuCtxSynchronize(), "the test or tally kernel (cuCtxSynchronize)"); }
  void copyOut(void* dst, CUdeviceptr src, size_t bytes) {
    check(api_.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
  }
  // The module's tensor-map templates (`lt_tmap`, ptx_body_tensor.cpp): each map of the test
  // encoded with its dims and box over 32-bit elements, dense row-major strides, no swizzle or
  // interleave, zero fill out of bounds. `somewhere` is a valid global address for the encoding;
  // the tally points every instance's copy at its own slot of the tensor.
  void uploadTensorMaps(const std::vector<Job::TensorMap>& maps, CUdeviceptr somewhere) {
    std::vector<uint64_t> words;
    for (const Job::TensorMap& l : maps) {
      if (!api_.cuTensorMapEncodeTiled || !api_.cuModuleGetGlobal || !api_.cuMemcpyHtoD)
        throw DriverError{RunStatus::Error, "the CUDA driver has no cuTensorMapEncodeTiled"};
      const auto rank = static_cast<uint32_t>(l.dims.size());
      std::vector<uint64_t> dims(l.dims.begin(), l.dims.end()), strides;
      std::vector<uint32_t> box(l.box.begin(), l.box.end()), ones(rank, 1);
      uint64_t stride = 4;
      for (uint32_t i = 0; i + 1 < rank; ++i) strides.push_back(stride *= dims[i]);
      if (strides.empty()) strides.push_back(16);  // rank 1: none is read, but the driver wants an array
      uint64_t map[16] = {};
      check(api_.cuTensorMapEncodeTiled(map, cuda::CU_TENSOR_MAP_DATA_TYPE_UINT32, rank,
                                        reinterpret_cast<void*>(somewhere), dims.data(), strides.data(),
                                        box.data(), ones.data(), 0, 0, 0, 0),
            "cuTensorMapEncodeTiled (tensor map '" + l.name + "')");
      words.insert(words.end(), map, map + 16);
    }
    if (words.empty()) return;
    CUdeviceptr dst = 0;
    size_t bytes = 0;
    check(api_.cuModuleGetGlobal(&dst, &bytes, module_, "lt_tmap"), "cuModuleGetGlobal (lt_tmap)");
    check(api_.cuMemcpyHtoD(dst, words.data(), words.size() * 8), "cuMemcpyHtoD (lt_tmap)");
  }
  cuda::CUfunction testKernel() const { return test_; }
  cuda::CUfunction tallyKernel() const { return tally_; }
  const std::string& name() const { return name_; }

 private:
  cuda::Api api_;
  cuda::CUdevice dev_ = 0;
  cuda::CUmodule module_ = nullptr;
  cuda::CUfunction test_ = nullptr, tally_ = nullptr;
  std::vector<CUdeviceptr> allocations_;
  std::vector<std::pair<CUdeviceptr, uint64_t>> reserved_;  // address ranges of allocTwice
  std::vector<cuda::CUmemGenericAllocationHandle> handles_;
  int sms_ = 1;
  std::string name_;

  void check(CUresult r, const std::string& what, RunStatus status = RunStatus::Error) {
    if (r != cuda::CUDA_SUCCESS) throw DriverError{status, what + " failed: " + cuda::errorText(api_, r)};
  }
  int attribute(int which) {
    int v = 0;
    check(api_.cuDeviceGetAttribute(&v, which, dev_), "cuDeviceGetAttribute");
    return v;
  }
  static cuda::LaunchConfig config(unsigned blocks, unsigned threads, int clusterSize,
                                   cuda::LaunchAttribute& attr) {
    attr.id = cuda::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim = {static_cast<unsigned>(clusterSize), 1, 1};
    return cuda::LaunchConfig{blocks, 1, 1, threads, 1, 1, 0, nullptr, &attr, 1};
  }
};

namespace {

struct Buffers {
  CUdeviceptr loc[2] = {0, 0}, res = 0, shout = 0, spin = 0, scratch = 0, table = 0;
  uint64_t tableBytes = 0;
  uint64_t aliasSpan = 0;  // tests with aliases: where the second mapping of the locations starts
};

// The histogram table's entry (ptx_gen.h): a header, the observed values and two masks.
int entryBytes(int observed) { return 16 + 8 * (observed + 2); }

Buffers allocate(Device& d, const Job& job, const Shape& shape, const RunOptions& o) {
  Buffers b;
  const uint64_t n = maxInstances(shape, o.profile);
  for (CUdeviceptr& loc : b.loc)
    loc = job.aliases ? d.allocTwice(locationBytes(shape, o.profile), b.aliasSpan)
                      : d.alloc(locationBytes(shape, o.profile));
  if (b.aliasSpan > UINT32_MAX)
    throw DriverError{RunStatus::Error, "the location buffer is too large for an alias offset"};
  b.res = d.alloc(n * static_cast<uint64_t>(std::max(1, job.regResults)) * kResultSlotBytes);
  b.shout = d.alloc(n * static_cast<uint64_t>(std::max(1, job.sharedResults)) * kResultSlotBytes);
  b.spin = d.alloc(n * 4);
  b.scratch = d.alloc(kScratchBytes);
  b.tableBytes = static_cast<uint64_t>(kTableEntries) * static_cast<uint64_t>(entryBytes(job.observed)) + 8;
  b.table = d.alloc(b.tableBytes);
  return b;
}

void launchTally(Device& d, Buffers& b, CUdeviceptr cur, CUdeviceptr next, uint32_t mode, Launch& now,
                 Launch& following) {
  uint32_t m = mode;
  void* args[] = {
      &cur, &next, &b.res, &b.shout, &b.spin, &b.table, &m, now.words.data(), following.words.data()};
  const uint64_t threads = std::max<uint64_t>(now.words[kN], following.words[kN]);
  d.launch(d.tallyKernel(), static_cast<uint32_t>((threads + 255) / 256), 256, 0, args);
}

// With a budget, the launch queue is drained now and then so that the clock says how much GPU time
// has passed: each batch queues about an eighth of the budget (never more than what is left), so
// a run ends within a launch or so of its budget and the pipeline stalls a few times only.
class BudgetClock {
 public:
  BudgetClock(double budget, std::chrono::steady_clock::time_point start) : budget_(budget), start_(start) {}
  bool checkNow(uint64_t launches) const { return budget_ > 0 && launches == next_; }
  // After a synchronize: false when the budget is spent; else plans the next batch.
  bool carryOn(uint64_t launches) {
    const double spent = since(start_);
    if (spent >= budget_) return false;
    const double perLaunch = spent / static_cast<double>(std::max<uint64_t>(1, launches));
    const double ahead = std::min(budget_ - spent, budget_ / 8);
    next_ = launches + std::max<uint64_t>(1, static_cast<uint64_t>(ahead / std::max(perLaunch, 1e-7)));
    return true;
  }

 private:
  double budget_;
  std::chrono::steady_clock::time_point start_;
  uint64_t next_ = 1;  // the first look comes after one launch, which also warms the GPU up
};

void launchLoop(Device& d, Buffers& b, const Job& job, const Shape& shape, const RunOptions& o, RunResult& r) {
  Rng rng(o.seed);
  Launch none{}, cur = drawLaunch(shape, o.profile, rng);
  cur.words[kAliasSpan] = static_cast<uint32_t>(b.aliasSpan);
  cur.words[kEpoch] = 1;
  launchTally(d, b, b.loc[1], b.loc[0], kTallyInit, none, cur);
  d.synchronize();
  const auto start = std::chrono::steady_clock::now();
  auto lastProgress = start;
  BudgetClock budget(o.budgetSeconds, start);
  for (uint64_t e = 0; r.instances < o.count; ++e) {
    if (budget.checkNow(e)) {
      d.synchronize();
      if (!budget.carryOn(e)) {
        r.stoppedByBudget = true;
        break;
      }
    }
    Launch next = drawLaunch(shape, o.profile, rng);
    next.words[kAliasSpan] = static_cast<uint32_t>(b.aliasSpan);
    // Launches are numbered from 1 (the sentinel is 0); 2^32 - 1 launches are far beyond any run.
    next.words[kEpoch] = static_cast<uint32_t>(std::max<uint64_t>(1, (e + 2) & 0xffffffffu));
    CUdeviceptr here = b.loc[e % 2], there = b.loc[(e + 1) % 2];
    void* args[] = {&here, &b.res, &b.shout, &b.spin, &b.scratch, cur.words.data()};
    // one launch per grid, in the test's launch order, in one stream (plan.h); the tally after
    // the last one reads every grid's results
    for (size_t g = 0; g < job.gridProgrammatic.size(); ++g) {
      cur.words[kGrid] = static_cast<uint32_t>(g);
      d.launch(d.testKernel(), cur.blocks, cur.threads, shape.clusterLaunch ? shape.clusterSize : 0, args,
               job.gridProgrammatic[g]);
    }
    launchTally(d, b, here, there, kTallyRead | kTallyInit, cur, next);
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
  d.synchronize();
  r.seconds = since(start);
  if (o.progress) std::cerr << "\r\033[K" << std::flush;
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
  j.aliases = std::any_of(plan.locs.begin(), plan.locs.end(), [](const LocPlan& l) { return l.aliasOf >= 0; });
  j.regResults = plan.regResults;
  j.sharedResults = plan.sharedResults;
  j.observed = static_cast<int>(plan.observed.size());
  j.gridProgrammatic = plan.gridProgrammatic;
  for (size_t v = 0; v < plan.locs.size(); ++v)
    if (plan.locs[v].tensorMap >= 0)
      j.tensorMaps.push_back({test.locations[v].name, test.locations[v].tensorDims, test.locations[v].tensorBox});
  j.options = options;
  return j;
}

Session::Session() : device_(std::make_unique<Device>()) {}
Session::~Session() = default;

RunResult Session::run(const Job& job) {
  RunResult r;
  const RunOptions& options = job.options;
  Shape shape = job.shape;
  try {
    if (!open_) {
      device_->open();
      open_ = true;
    }
    Device& d = *device_;
    r.device = d.name();
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
    Buffers b = allocate(d, job, shape, options);
    d.uploadTensorMaps(job.tensorMaps, b.loc[0]);
    launchLoop(d, b, job, shape, options, r);
    r.status = RunStatus::Ok;
    std::vector<unsigned char> table(b.tableBytes);
    d.copyOut(table.data(), b.table, table.size());
    readTable(table, job.observed, r);
  } catch (const DriverError& e) {
    r.status = e.status;
    r.message = e.message;
  }
  if (open_) device_->release();
  return r;
}

}  // namespace gpu
