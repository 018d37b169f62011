// The few CUDA driver API types and entry points the runner uses, declared here so that the
// project builds without the CUDA headers, and loaded with dlopen at run time so that `litmus`
// starts (and says why it cannot run) on machines without a driver. Layouts and constants are
// those of cuda.h (CUDA 12/13); the names keep the driver's spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpu::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUmemGenericAllocationHandle = unsigned long long;
using CUlinkState = struct CUlinkState_st*;
using CUtexObject = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH = 120;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_INPUT_PTX = 1;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;
constexpr int CU_MEM_ALLOCATION_TYPE_PINNED = 1;
constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 1;
constexpr int CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3;
constexpr int CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0;
constexpr int CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
constexpr int CU_RESOURCE_TYPE_ARRAY = 0;
constexpr int CU_RESOURCE_TYPE_LINEAR = 2;
constexpr int CU_AD_FORMAT_UNSIGNED_INT32 = 3;
constexpr unsigned CU_TRSF_READ_AS_INTEGER = 1;
constexpr unsigned CUDA_ARRAY3D_SURFACE_LDST = 0x02;
using CUarray = void*;
using CUsurfObject = unsigned long long;

// A 2D CUDA array of 32-bit unsigned elements that surfaces write: the memory of locations that
// a test names only through surface (and texture) aliases (docs/gpu-runner.md, "Surfaces").
struct ArrayDesc {  // CUDA_ARRAY3D_DESCRIPTOR
  size_t width, height, depth;
  int format;
  unsigned numChannels;
  unsigned flags;
};

// A texture object over linear memory, for a location's texture alias (docs/gpu-runner.md, "What
// is refused"): 32-bit unsigned elements, one channel, point sampling, read as integers.
struct ResourceDesc {  // CUDA_RESOURCE_DESC
  int resType;
  union {
    struct {
      CUdeviceptr devPtr;
      int format;
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      CUarray hArray;
    } array;
    int reserved[32];
  } res;
  unsigned flags;
};
struct TextureDesc {  // CUDA_TEXTURE_DESC
  int addressMode[3];
  int filterMode;
  unsigned flags;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};

// The virtual memory management API, for one physical buffer mapped at two addresses (aliases).
struct MemLocation {  // CUmemLocation
  int type;
  int id;
};
struct MemAllocationProp {  // CUmemAllocationProp
  int type;
  int requestedHandleTypes;
  MemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType, gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};
struct MemAccessDesc {  // CUmemAccessDesc
  MemLocation location;
  int flags;
};

struct LaunchAttribute {  // CUlaunchAttribute
  int id;
  char pad[4];
  union {
    char pad[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
    int programmaticStreamSerializationAllowed;
  } value;
};

struct LaunchConfig {  // CUlaunchConfig
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute* attrs;
  unsigned numAttrs;
};

struct Api {
  void* lib = nullptr;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  // A worker runs test after test in one context: each test's module is unloaded after it.
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;                // cuMemAlloc_v2
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;                          // cuMemFree_v2
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;  // cuMemsetD8_v2
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;        // cuMemcpyDtoH_v2
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**) = nullptr;
  // CUDA 12 and later; needed only for tests with clusters of more than one CTA.
  CUresult (*cuLaunchKernelEx)(const LaunchConfig*, CUfunction, void**, void**) = nullptr;
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, size_t) = nullptr;
  CUresult (*cuOccupancyMaxActiveClusters)(int*, CUfunction, const LaunchConfig*) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  // Virtual memory management (CUDA 10.2 and later); needed only for tests with aliases.
  CUresult (*cuMemGetAllocationGranularity)(size_t*, const MemAllocationProp*, int) = nullptr;
  CUresult (*cuMemCreate)(CUmemGenericAllocationHandle*, size_t, const MemAllocationProp*,
                          unsigned long long) = nullptr;
  CUresult (*cuMemRelease)(CUmemGenericAllocationHandle) = nullptr;
  CUresult (*cuMemAddressReserve)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long) = nullptr;
  CUresult (*cuMemAddressFree)(CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemMap)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long) = nullptr;
  CUresult (*cuMemUnmap)(CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemSetAccess)(CUdeviceptr, size_t, const MemAccessDesc*, size_t) = nullptr;
  // Tensor maps (ptx_body_tensor.cpp): the module's template array and its encoding. Optional:
  // a test with a tensor map fails with the missing name when the driver lacks them.
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*) = nullptr;  // _v2
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;                    // _v2
  // (map, data type, rank, address, dims, strides, box, element strides, interleave, swizzle,
  // L2 promotion, out-of-bounds fill); the enums are ints, the map 16 u64 words.
  CUresult (*cuTensorMapEncodeTiled)(void*, int, uint32_t, void*, const uint64_t*, const uint64_t*,
                                     const uint32_t*, const uint32_t*, int, int, int, int) = nullptr;
  // The JIT linker, for `litmus run --emit-sass` (gpu-runner/sass.cpp): the cubin the driver makes
  // of a module. Optional: --emit-sass fails with the missing name when the driver lacks them.
  CUresult (*cuLinkCreate)(unsigned, int*, void**, CUlinkState*) = nullptr;  // _v2
  CUresult (*cuLinkAddData)(CUlinkState, int, void*, size_t, const char*, unsigned, int*, void**) = nullptr;  // _v2
  CUresult (*cuLinkComplete)(CUlinkState, void**, size_t*) = nullptr;
  CUresult (*cuLinkDestroy)(CUlinkState) = nullptr;
  CUresult (*cuDriverGetVersion)(int*) = nullptr;  // 13000 for CUDA 13.0; reported by --emit-sass
  // Texture objects, for texture aliases. Optional: such a test fails with the missing name.
  CUresult (*cuTexObjectCreate)(CUtexObject*, const ResourceDesc*, const TextureDesc*, const void*) = nullptr;
  CUresult (*cuTexObjectDestroy)(CUtexObject) = nullptr;
  // CUDA arrays and surface objects, for surface aliases. Optional as texture objects are.
  CUresult (*cuArray3DCreate)(CUarray*, const ArrayDesc*) = nullptr;  // _v2
  CUresult (*cuArrayDestroy)(CUarray) = nullptr;
  CUresult (*cuSurfObjectCreate)(CUsurfObject*, const ResourceDesc*) = nullptr;
  CUresult (*cuSurfObjectDestroy)(CUsurfObject) = nullptr;
  // Peer access, for tests across GPUs (docs/gpu-runner.md, "Several GPUs"). Optional: such a test
  // is refused when the driver lacks them; without the attribute query, atomics are not checked.
  CUresult (*cuDeviceCanAccessPeer)(int*, CUdevice, CUdevice) = nullptr;
  CUresult (*cuCtxEnablePeerAccess)(CUcontext, unsigned) = nullptr;
  CUresult (*cuDeviceGetP2PAttribute)(int*, int, CUdevice, CUdevice) = nullptr;
  // Host memory the GPU writes into, for --trace-waits (gpu-runner/wait_trace.h). Optional: a
  // traced test fails with the missing name.
  CUresult (*cuMemHostRegister)(void*, size_t, unsigned) = nullptr;                    // _v2
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr*, void*, unsigned) = nullptr;       // _v2
};
constexpr unsigned CU_MEMHOSTREGISTER_PORTABLE = 0x01, CU_MEMHOSTREGISTER_DEVICEMAP = 0x02;

// The JIT options of every compilation of a generated module (the harness's cuModuleLoadDataEx,
// --emit-sass's cuLinkCreate), kept in one place so that both get the same code: only an error
// log, so that the driver's defaults (optimisation level 4, the context's GPU) decide the rest.
struct JitOptions {
  std::string log = std::string(16384, '\0');
  int options[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[2] = {log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(log.size()))};
  static constexpr unsigned count = 2;
  JitOptions() = default;
  JitOptions(const JitOptions&) = delete;  // values point into log
  JitOptions& operator=(const JitOptions&) = delete;
  std::string text() const { return log.c_str(); }
  // What the options are, for the key of a cached compilation (jit_cache.h): change it with them.
  static const char* describe() { return "error log only, driver defaults"; }
};
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2;

// Loads libcuda.so.1 (or the file $LITMUS_LIBCUDA names, for tests) and its entry points.
// Returns false with `why` set when the library or a required entry point is missing.
bool load(Api& api, std::string& why);
void unload(Api& api);
// "CUDA_ERROR_NO_DEVICE (100)".
std::string errorText(const Api& api, CUresult r);

}  // namespace gpu::cuda
