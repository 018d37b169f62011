#include "gpu-runner/cuda_api.h"

#include <dlfcn.h>

#include <cstdlib>

namespace gpu::cuda {

namespace {

template <typename F>
bool bind(void* lib, F& fn, const char* name, bool required, std::string& why) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn && required) why = std::string("the CUDA driver library has no ") + name;
  return fn || !required;
}

}  // namespace

bool load(Api& api, std::string& why) {
  const char* override = std::getenv("LITMUS_LIBCUDA");
  const std::string path = override && *override ? override : "libcuda.so.1";
  api.lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api.lib) {
    const char* e = dlerror();
    why = "no CUDA driver found (" + path + ")" + (e ? std::string(": ") + e : "");
    return false;
  }
  bool ok = bind(api.lib, api.cuInit, "cuInit", true, why) &&
            bind(api.lib, api.cuDeviceGetCount, "cuDeviceGetCount", true, why) &&
            bind(api.lib, api.cuDeviceGet, "cuDeviceGet", true, why) &&
            bind(api.lib, api.cuDeviceGetName, "cuDeviceGetName", true, why) &&
            bind(api.lib, api.cuDeviceGetAttribute, "cuDeviceGetAttribute", true, why) &&
            bind(api.lib, api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", true, why) &&
            bind(api.lib, api.cuCtxSetCurrent, "cuCtxSetCurrent", true, why) &&
            bind(api.lib, api.cuCtxSynchronize, "cuCtxSynchronize", true, why) &&
            bind(api.lib, api.cuModuleLoadDataEx, "cuModuleLoadDataEx", true, why) &&
            bind(api.lib, api.cuModuleGetFunction, "cuModuleGetFunction", true, why) &&
            bind(api.lib, api.cuModuleUnload, "cuModuleUnload", false, why) &&
            bind(api.lib, api.cuMemAlloc, "cuMemAlloc_v2", true, why) &&
            bind(api.lib, api.cuMemFree, "cuMemFree_v2", true, why) &&
            bind(api.lib, api.cuMemsetD8, "cuMemsetD8_v2", true, why) &&
            bind(api.lib, api.cuMemcpyDtoH, "cuMemcpyDtoH_v2", true, why) &&
            bind(api.lib, api.cuLaunchKernel, "cuLaunchKernel", true, why) &&
            bind(api.lib, api.cuLaunchKernelEx, "cuLaunchKernelEx", false, why) &&
            bind(api.lib, api.cuOccupancyMaxActiveBlocksPerMultiprocessor,
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor", false, why) &&
            bind(api.lib, api.cuOccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters", false, why) &&
            bind(api.lib, api.cuGetErrorName, "cuGetErrorName", false, why) &&
            bind(api.lib, api.cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity", false, why) &&
            bind(api.lib, api.cuMemCreate, "cuMemCreate", false, why) &&
            bind(api.lib, api.cuMemRelease, "cuMemRelease", false, why) &&
            bind(api.lib, api.cuMemAddressReserve, "cuMemAddressReserve", false, why) &&
            bind(api.lib, api.cuMemAddressFree, "cuMemAddressFree", false, why) &&
            bind(api.lib, api.cuMemMap, "cuMemMap", false, why) &&
            bind(api.lib, api.cuMemUnmap, "cuMemUnmap", false, why) &&
            bind(api.lib, api.cuMemSetAccess, "cuMemSetAccess", false, why) &&
            bind(api.lib, api.cuModuleGetGlobal, "cuModuleGetGlobal_v2", false, why) &&
            bind(api.lib, api.cuMemcpyHtoD, "cuMemcpyHtoD_v2", false, why) &&
            bind(api.lib, api.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", false, why) &&
            bind(api.lib, api.cuLinkCreate, "cuLinkCreate_v2", false, why) &&
            bind(api.lib, api.cuLinkAddData, "cuLinkAddData_v2", false, why) &&
            bind(api.lib, api.cuLinkComplete, "cuLinkComplete", false, why) &&
            bind(api.lib, api.cuLinkDestroy, "cuLinkDestroy", false, why) &&
            bind(api.lib, api.cuDriverGetVersion, "cuDriverGetVersion", false, why) &&
            bind(api.lib, api.cuTexObjectCreate, "cuTexObjectCreate", false, why) &&
            bind(api.lib, api.cuTexObjectDestroy, "cuTexObjectDestroy", false, why) &&
            bind(api.lib, api.cuArray3DCreate, "cuArray3DCreate_v2", false, why) &&
            bind(api.lib, api.cuArrayDestroy, "cuArrayDestroy", false, why) &&
            bind(api.lib, api.cuSurfObjectCreate, "cuSurfObjectCreate", false, why) &&
            bind(api.lib, api.cuSurfObjectDestroy, "cuSurfObjectDestroy", false, why) &&
            bind(api.lib, api.cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer", false, why) &&
            bind(api.lib, api.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess", false, why) &&
            bind(api.lib, api.cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute", false, why) &&
            bind(api.lib, api.cuMemHostRegister, "cuMemHostRegister_v2", false, why) &&
            bind(api.lib, api.cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2", false, why);
  if (!ok) unload(api);
  return ok;
}

void unload(Api& api) {
  if (api.lib) dlclose(api.lib);
  api = Api{};
}

std::string errorText(const Api& api, CUresult r) {
  const char* name = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
    return std::string(name) + " (" + std::to_string(r) + ")";
  return "CUDA error " + std::to_string(r);
}

}  // namespace gpu::cuda
