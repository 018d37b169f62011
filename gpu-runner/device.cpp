#include "gpu-runner/device.h"

#include <algorithm>
#include <thread>

#include "gpu-runner/ptx_gen.h"

namespace gpu {

using cuda::CUdeviceptr;
using cuda::CUresult;

namespace {

cuda::LaunchConfig config(unsigned blocks, unsigned threads, int clusterSize, cuda::LaunchAttribute& attr) {
  attr.id = cuda::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim = {static_cast<unsigned>(clusterSize), 1, 1};
  return cuda::LaunchConfig{blocks, 1, 1, threads, 1, 1, 0, nullptr, &attr, 1};
}

}  // namespace

Device::Device(std::vector<int> ordinals) : ordinals_(std::move(ordinals)) {}

Device::~Device() {
  release();
  compiler_.reset();  // its threads call the driver
  cuda::unload(api_);
}

// Half the host's cores, at most 4: compiling a module takes about a third of the time a campaign
// spends on a test (issue 32), so two threads keep up and the rest stay for the GPU's feeding.
void Device::startCompiler() {
  std::lock_guard<std::mutex> lock(jitMu_);
  if (compiler_ || open_.empty() || !api_.cuLinkCreate || !api_.cuLinkAddData || !api_.cuLinkComplete ||
      !api_.cuLinkDestroy)
    return;
  int version = 0;
  if (api_.cuDriverGetVersion) api_.cuDriverGetVersion(&version);
  const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency() / 2), 1, 4);
  compiler_ = std::make_unique<Compiler>(api_, open_[0].ctx, open_[0].name, version, jitDir_, threads);
  for (const std::string& ptx : ahead_) compiler_->prefetch(ptx);
  ahead_.clear();
}

void Device::jitCache(const std::string& dir) {
  std::lock_guard<std::mutex> lock(jitMu_);
  if (jitDirSet_) return;
  jitDir_ = dir;
  jitDirSet_ = true;
}

void Device::prefetch(const std::string& ptx) {
  std::lock_guard<std::mutex> lock(jitMu_);
  if (compiler_)
    compiler_->prefetch(ptx);
  else if (ahead_.size() < 16)
    ahead_.push_back(ptx);
}

void Device::check(CUresult r, const std::string& what, RunStatus status) {
  if (r != cuda::CUDA_SUCCESS) throw DriverError{status, what + " failed: " + cuda::errorText(api_, r)};
}

int Device::attribute(const Gpu& g, int which) {
  int v = 0;
  check(api_.cuDeviceGetAttribute(&v, which, g.dev), "cuDeviceGetAttribute");
  return v;
}

void Device::openDriver() {
  std::string why;
  if (!cuda::load(api_, why)) throw DriverError{RunStatus::NoDriver, why};
  check(api_.cuInit(0), "no usable CUDA device: cuInit", RunStatus::NoDevice);
  check(api_.cuDeviceGetCount(&count_), "no usable CUDA device: cuDeviceGetCount", RunStatus::NoDevice);
  if (count_ == 0) throw DriverError{RunStatus::NoDevice, "no CUDA device found"};
  driver_ = true;
}

// Device i of the worker's list: its primary context, and (i > 0) peer access to the first's memory.
void Device::openGpu(size_t i) {
  Gpu g;
  g.ordinal = i < ordinals_.size() ? ordinals_[i] : static_cast<int>(i);
  if (g.ordinal >= count_)
    throw DriverError{RunStatus::NoDevice, "GPU " + std::to_string(g.ordinal) + " is not there: the driver sees " +
                                               std::to_string(count_) + " device" + (count_ == 1 ? "" : "s")};
  check(api_.cuDeviceGet(&g.dev, g.ordinal), "cuDeviceGet", RunStatus::NoDevice);
  char name[256] = {};
  check(api_.cuDeviceGetName(name, sizeof name - 1, g.dev), "cuDeviceGetName");
  g.sms = attribute(g, cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  const int major = attribute(g, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  const int minor = attribute(g, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  g.name = std::string(name) + " (" + std::to_string(g.sms) + " SMs, sm_" + std::to_string(major) +
           std::to_string(minor) + ")";
  if (major < 9)
    throw DriverError{RunStatus::NoDevice, "the runner needs an sm_90 (Hopper) or newer GPU; found " + g.name};
  check(api_.cuDevicePrimaryCtxRetain(&g.ctx, g.dev), "cuDevicePrimaryCtxRetain");
  open_.push_back(g);
}

void Device::open(int gpus) {
  if (!driver_) openDriver();
  while (open_.size() < static_cast<size_t>(gpus)) openGpu(open_.size());
  startCompiler();
  gpus_ = gpus;
  for (size_t i = 1; i < static_cast<size_t>(gpus); ++i) {
    Gpu& g = open_[i];
    if (g.peer) continue;
    if (!api_.cuDeviceCanAccessPeer || !api_.cuCtxEnablePeerAccess)
      throw DriverError{RunStatus::NoDevice, "the test runs across GPUs, which needs the driver's peer access API"};
    int can = 0;
    check(api_.cuDeviceCanAccessPeer(&can, g.dev, open_[0].dev), "cuDeviceCanAccessPeer");
    if (!can)
      throw DriverError{RunStatus::Error, "GPU " + std::to_string(g.ordinal) + " cannot access the memory of GPU " +
                                              std::to_string(open_[0].ordinal) + " (no peer access)"};
    select(static_cast<int>(i));
    const CUresult r = api_.cuCtxEnablePeerAccess(open_[0].ctx, 0);
    if (r != cuda::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
      check(r, "cuCtxEnablePeerAccess (GPU " + std::to_string(g.ordinal) + " to GPU " +
                   std::to_string(open_[0].ordinal) + ")");
    g.peer = true;
  }
  select(0);
}

void Device::select(int i) {
  if (i == current_) return;
  check(api_.cuCtxSetCurrent(open_[static_cast<size_t>(i)].ctx), "cuCtxSetCurrent");
  current_ = i;
}

void Device::release() {
  if (open_.empty()) return;
  select(0);
  for (cuda::CUtexObject t : textures_) api_.cuTexObjectDestroy(t);
  textures_.clear();
  for (cuda::CUsurfObject sf : surfaces_) api_.cuSurfObjectDestroy(sf);
  surfaces_.clear();
  for (cuda::CUarray a : arrays_) api_.cuArrayDestroy(a);
  arrays_.clear();
  for (CUdeviceptr p : allocations_) api_.cuMemFree(p);
  for (const auto& [p, bytes] : reserved_) {
    api_.cuMemUnmap(p, bytes);
    api_.cuMemAddressFree(p, bytes);
  }
  for (cuda::CUmemGenericAllocationHandle h : handles_) api_.cuMemRelease(h);
  allocations_.clear();
  reserved_.clear();
  handles_.clear();
  for (size_t i = open_.size(); i-- > 0;) {
    Gpu& g = open_[i];
    if (g.module && api_.cuModuleUnload) {
      select(static_cast<int>(i));
      api_.cuModuleUnload(g.module);
    }
    g.module = nullptr;
    g.test = g.tally = nullptr;
  }
}

void Device::load(const std::string& ptx) {
  for (int i = 0; i < gpus_; ++i) {
    Gpu& g = open_[static_cast<size_t>(i)];
    select(i);
    cuda::JitOptions jit;  // the same as --emit-sass's (sass.cpp) and the compiler's (jit.cpp)
    CUresult r = cuda::CUDA_SUCCESS;
    std::string log;
    if (compiler_ && g.name == open_[0].name) {
      Compiler::Result c = compiler_->get(ptx);
      r = c.status;
      log = c.log;
      if (r == cuda::CUDA_SUCCESS)
        check(api_.cuModuleLoadDataEx(&g.module, c.cubin.data(), jit.count, jit.options, jit.values),
              "cuModuleLoadDataEx (the compiled module)");
    } else {
      r = api_.cuModuleLoadDataEx(&g.module, ptx.c_str(), jit.count, jit.options, jit.values);
      log = jit.text();
    }
    if (r != cuda::CUDA_SUCCESS)
      throw DriverError{RunStatus::Error,
                        "the CUDA driver rejected the generated PTX: " + cuda::errorText(api_, r) + "\n" + log};
    check(api_.cuModuleGetFunction(&g.test, g.module, "litmus_test"), "cuModuleGetFunction");
    check(api_.cuModuleGetFunction(&g.tally, g.module, "litmus_tally"), "cuModuleGetFunction");
  }
  select(0);
}

uint32_t Device::resident(const Gpu& g, const Shape& s, uint32_t threads) {
  if (s.clusterLaunch) {
    if (!attribute(g, cuda::CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) || !api_.cuLaunchKernelEx)
      throw DriverError{RunStatus::NoDevice, "the test needs cluster launches, which this GPU or driver lacks"};
    if (api_.cuOccupancyMaxActiveClusters) {
      cuda::LaunchAttribute attr{};
      cuda::LaunchConfig cfg = config(static_cast<unsigned>(s.clusterSize), threads, s.clusterSize, attr);
      int n = 0;
      if (api_.cuOccupancyMaxActiveClusters(&n, g.test, &cfg) == cuda::CUDA_SUCCESS && n > 0)
        return static_cast<uint32_t>(n);
    }
  }
  int perSm = 0;
  if (!api_.cuOccupancyMaxActiveBlocksPerMultiprocessor ||
      api_.cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, g.test, static_cast<int>(threads), 0) !=
          cuda::CUDA_SUCCESS ||
      perSm <= 0)
    perSm = static_cast<int>(std::max(1u, 2048u / threads));
  return std::max(1u, static_cast<uint32_t>(perSm * g.sms) / static_cast<uint32_t>(s.clusterSize));
}

uint32_t Device::residentClusters(const Shape& s, uint32_t threads) {
  uint32_t n = UINT32_MAX;
  for (int i = 0; i < gpus_; ++i) {
    select(i);
    n = std::min(n, resident(open_[static_cast<size_t>(i)], s, threads));
  }
  select(0);
  return n;
}

CUdeviceptr Device::alloc(uint64_t bytes) {
  select(0);
  CUdeviceptr p = 0;
  check(api_.cuMemAlloc(&p, std::max<uint64_t>(bytes, 256)), "cuMemAlloc (" + std::to_string(bytes) + " bytes)");
  allocations_.push_back(p);
  check(api_.cuMemsetD8(p, 0, std::max<uint64_t>(bytes, 256)), "cuMemsetD8");
  return p;
}

CUdeviceptr Device::hostMapped(void* p, size_t bytes) {
  if (!api_.cuMemHostRegister || !api_.cuMemHostGetDevicePointer)
    throw DriverError{RunStatus::Error, "--trace-waits needs cuMemHostRegister and cuMemHostGetDevicePointer"};
  select(0);
  if (mappedHost_ == p) return mapped_;
  check(api_.cuMemHostRegister(p, bytes, cuda::CU_MEMHOSTREGISTER_PORTABLE | cuda::CU_MEMHOSTREGISTER_DEVICEMAP),
        "cuMemHostRegister (" + std::to_string(bytes) + " bytes)");
  mappedHost_ = p;
  check(api_.cuMemHostGetDevicePointer(&mapped_, p, 0), "cuMemHostGetDevicePointer");
  return mapped_;
}

// A location's alias reaches the same memory through the second mapping, as aliases do. Every
// device of the job gets access to both mappings (peer access does not cover these).
CUdeviceptr Device::allocTwice(uint64_t bytes, uint64_t& span) {
  if (!api_.cuMemCreate || !api_.cuMemMap || !api_.cuMemAddressReserve || !api_.cuMemSetAccess ||
      !api_.cuMemGetAllocationGranularity || !api_.cuMemUnmap || !api_.cuMemAddressFree || !api_.cuMemRelease)
    throw DriverError{RunStatus::NoDevice, "the test has aliases, which need the driver's virtual memory API"};
  select(0);
  cuda::MemAllocationProp prop{};
  prop.type = cuda::CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {cuda::CU_MEM_LOCATION_TYPE_DEVICE, open_[0].dev};
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
  std::vector<cuda::MemAccessDesc> access;
  for (int i = 0; i < gpus_; ++i)
    access.push_back({{cuda::CU_MEM_LOCATION_TYPE_DEVICE, open_[static_cast<size_t>(i)].dev},
                      cuda::CU_MEM_ACCESS_FLAGS_PROT_READWRITE});
  check(api_.cuMemSetAccess(p, 2 * span, access.data(), access.size()), "cuMemSetAccess");
  check(api_.cuMemsetD8(p, 0, span), "cuMemsetD8");
  return p;
}

cuda::CUtexObject Device::texture(CUdeviceptr p, uint64_t bytes) {
  if (!api_.cuTexObjectCreate || !api_.cuTexObjectDestroy)
    throw DriverError{RunStatus::NoDevice, "the test has a texture alias, which needs the driver's cuTexObjectCreate"};
  select(0);
  cuda::ResourceDesc res{};
  res.resType = cuda::CU_RESOURCE_TYPE_LINEAR;
  res.res.linear = {p, cuda::CU_AD_FORMAT_UNSIGNED_INT32, 1, bytes};
  cuda::TextureDesc tex{};  // point sampling (filter mode 0), address mode wrap (ignored for linear)
  tex.flags = cuda::CU_TRSF_READ_AS_INTEGER;
  cuda::CUtexObject t = 0;
  check(api_.cuTexObjectCreate(&t, &res, &tex, nullptr),
        "cuTexObjectCreate (a texture over " + std::to_string(bytes) + " bytes of locations)");
  textures_.push_back(t);
  return t;
}

// Not zeroed: the tally writes every element a test uses before the first launch (kTallyInit).
Device::Image Device::surfaceArray(uint64_t bytes, bool withTexture) {
  if (!api_.cuArray3DCreate || !api_.cuArrayDestroy || !api_.cuSurfObjectCreate || !api_.cuSurfObjectDestroy ||
      (withTexture && (!api_.cuTexObjectCreate || !api_.cuTexObjectDestroy)))
    throw DriverError{RunStatus::NoDevice, "the test has a surface alias, which needs the driver's cuArray3DCreate "
                                           "and cuSurfObjectCreate"};
  select(0);
  const uint64_t row = uint64_t{1} << kArrayRowShift, elements = std::max<uint64_t>(bytes / 4, 1);
  cuda::ArrayDesc desc{row, (elements + row - 1) / row, 0, cuda::CU_AD_FORMAT_UNSIGNED_INT32, 1,
                       cuda::CUDA_ARRAY3D_SURFACE_LDST};
  cuda::CUarray a = nullptr;
  check(api_.cuArray3DCreate(&a, &desc),
        "cuArray3DCreate (a surface array of " + std::to_string(row) + " x " + std::to_string(desc.height) + ")");
  arrays_.push_back(a);
  cuda::ResourceDesc res{};
  res.resType = cuda::CU_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = a;
  Image image;
  check(api_.cuSurfObjectCreate(&image.surface, &res), "cuSurfObjectCreate");
  surfaces_.push_back(image.surface);
  if (withTexture) {  // point sampling, unnormalised coordinates (clamped: wrap needs normalised), integers
    cuda::TextureDesc tex{};
    tex.addressMode[0] = tex.addressMode[1] = 1;  // CU_TR_ADDRESS_MODE_CLAMP
    tex.flags = cuda::CU_TRSF_READ_AS_INTEGER;
    check(api_.cuTexObjectCreate(&image.texture, &res, &tex, nullptr), "cuTexObjectCreate (over the surface array)");
    textures_.push_back(image.texture);
  }
  return image;
}

cuda::CUdeviceptr Device::moduleGlobal(const char* name) {
  if (!api_.cuModuleGetGlobal)
    throw DriverError{RunStatus::NoDevice, std::string("the test needs the module's ") + name +
                                               ", which needs the driver's cuModuleGetGlobal"};
  select(0);
  CUdeviceptr p = 0;
  size_t bytes = 0;
  check(api_.cuModuleGetGlobal(&p, &bytes, open_[0].module, name), std::string("cuModuleGetGlobal (") + name + ")");
  return p;
}

void Device::launch(cuda::CUfunction f, uint32_t blocks, uint32_t threads, int clusterSize, void** args,
                    bool programmatic) {
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

void Device::synchronize(int i) {
  select(i);
  const std::string which = gpus_ > 1 ? " on GPU " + std::to_string(open_[static_cast<size_t>(i)].ordinal) : "";
  check(api_.cuCtxSynchronize(), "the test or tally kernel (cuCtxSynchronize)" + which);
}

void Device::copyOut(void* dst, CUdeviceptr src, size_t bytes) {
  select(0);
  check(api_.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

// Each map of the test encoded with its dims and box over 32-bit elements, dense row-major
// strides, no swizzle or interleave, zero fill out of bounds. `somewhere` is a valid global
// address for the encoding; the tally points every instance's copy at its own slot of the tensor.
void Device::uploadTensorMaps(const std::vector<Job::TensorMap>& maps, CUdeviceptr somewhere) {
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
                                      reinterpret_cast<void*>(somewhere), dims.data(), strides.data(), box.data(),
                                      ones.data(), 0, 0, 0, 0),
          "cuTensorMapEncodeTiled (tensor map '" + l.name + "')");
    words.insert(words.end(), map, map + 16);
  }
  if (words.empty()) return;
  for (int i = 0; i < gpus_; ++i) {
    select(i);
    CUdeviceptr dst = 0;
    size_t bytes = 0;
    check(api_.cuModuleGetGlobal(&dst, &bytes, open_[static_cast<size_t>(i)].module, "lt_tmap"),
          "cuModuleGetGlobal (lt_tmap)");
    check(api_.cuMemcpyHtoD(dst, words.data(), words.size() * 8), "cuMemcpyHtoD (lt_tmap)");
  }
  select(0);
}

}  // namespace gpu
