// The driver and the worker's CUDA contexts (private to gpu-runner): one primary context per device
// the worker uses, opened by the first job that needs it and kept for the following ones, and the
// module and buffers of one job at a time. A test across GPUs loads its module in every context,
// keeps its buffers on the first device and launches on each (docs/gpu-runner.md, "Several GPUs").
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gpu-runner/cuda_api.h"
#include "gpu-runner/harness.h"
#include "gpu-runner/jit.h"
#include "gpu-runner/params.h"
#include "gpu-runner/runner.h"

namespace gpu {

// A failed driver call ends the run with its name and the driver's error.
struct DriverError {
  RunStatus status;
  std::string message;
};

class Device {
 public:
  // ordinals: the driver's device ordinals the worker may use, in order (test GPU i runs on the
  // i-th); empty: 0, 1, 2, ...
  explicit Device(std::vector<int> ordinals = {});
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device();

  // The driver (once) and contexts on the first `gpus` devices, each of the others with peer
  // access to the first one's memory. The first device's context is left current.
  void open(int gpus);
  int gpus() const { return gpus_; }  // of the current job
  // Makes device i's context current (no driver call when it is already).
  void select(int i);
  // The module in every context of the job, and its kernels: the machine code the compiler made
  // ahead (jit.h) where the device is of the first's kind, else the driver's JIT of the PTX.
  void load(const std::string& ptx);
  // Compile a later job's module on the compiler's threads (queued until the first device is open).
  // These two may be called from another thread than the rest.
  void prefetch(const std::string& ptx);
  // Where compilations are kept on disk ("": nowhere); the first call decides.
  void jitCache(const std::string& dir);
  // Frees the job's buffers and unloads its modules: the next job starts with none of them.
  void release();

  // Hardware clusters of the test kernel that fit on every device at once: the spin barrier only
  // lines up warps that run at the same time, so a launch never asks for more.
  uint32_t residentClusters(const Shape& s, uint32_t threads);
  // Buffers, on the first device (reachable from the others through peer access), zeroed.
  cuda::CUdeviceptr alloc(uint64_t bytes);
  // One physical buffer of at least `bytes`, mapped at p and again at p + span, zeroed; returns p.
  cuda::CUdeviceptr allocTwice(uint64_t bytes, uint64_t& span);
  // Host memory (`bytes` at p) registered with the first device and mapped into its address space,
  // once for the worker's life; its device address (--trace-waits, gpu-runner/wait_trace.h).
  cuda::CUdeviceptr hostMapped(void* p, size_t bytes);
  // A texture object over `bytes` of a buffer on the first device, as 32-bit elements; destroyed
  // by release().
  cuda::CUtexObject texture(cuda::CUdeviceptr p, uint64_t bytes);
  // A 2D CUDA array of at least `bytes` / 4 32-bit elements in rows of 2^kArrayRowShift, zeroed,
  // with a surface object over it and (withTexture) a texture object; destroyed by release().
  struct Image {
    cuda::CUsurfObject surface = 0;
    cuda::CUtexObject texture = 0;
  };
  Image surfaceArray(uint64_t bytes, bool withTexture);
  // The address of the first device's module global `name` (the constant bank lt_cbank).
  cuda::CUdeviceptr moduleGlobal(const char* name);
  // On the current device. clusterSize 0: a plain launch; `programmatic`: it may overlap the
  // previous one in the stream (docs/gpu-runner.md, "Grids").
  void launch(cuda::CUfunction f, uint32_t blocks, uint32_t threads, int clusterSize, void** args,
              bool programmatic = false);
  void synchronize(int i);  // device i's context
  void copyOut(void* dst, cuda::CUdeviceptr src, size_t bytes);
  // The module's tensor-map templates, in every context (ptx_body_tensor.cpp).
  void uploadTensorMaps(const std::vector<Job::TensorMap>& maps, cuda::CUdeviceptr somewhere);
  cuda::CUfunction testKernel(int i) const { return open_[static_cast<size_t>(i)].test; }
  cuda::CUfunction tallyKernel() const { return open_[0].tally; }
  // "NVIDIA H100 80GB HBM3 (132 SMs, sm_90)"; ordinal: the driver's number of device i.
  const std::string& name(int i) const { return open_[static_cast<size_t>(i)].name; }
  int ordinal(int i) const { return open_[static_cast<size_t>(i)].ordinal; }

 private:
  struct Gpu {
    int ordinal = 0;
    cuda::CUdevice dev = 0;
    cuda::CUcontext ctx = nullptr;
    cuda::CUmodule module = nullptr;
    cuda::CUfunction test = nullptr, tally = nullptr;
    int sms = 1;
    bool peer = false;  // peer access to the first device's memory is enabled
    std::string name;
  };
  cuda::Api api_;
  bool driver_ = false;
  int count_ = 0;  // devices the driver sees
  std::vector<int> ordinals_;
  std::vector<Gpu> open_;  // contexts opened so far, in the order of ordinals_
  int gpus_ = 0, current_ = -1;
  std::vector<cuda::CUdeviceptr> allocations_;
  std::vector<std::pair<cuda::CUdeviceptr, uint64_t>> reserved_;  // address ranges of allocTwice
  std::vector<cuda::CUmemGenericAllocationHandle> handles_;
  std::vector<cuda::CUtexObject> textures_;
  std::vector<cuda::CUsurfObject> surfaces_;
  std::vector<cuda::CUarray> arrays_;
  void* mappedHost_ = nullptr;  // hostMapped: the registered memory and its device address
  cuda::CUdeviceptr mapped_ = 0;
  std::mutex jitMu_;  // compiler_ (its creation), ahead_, jitDir_
  std::unique_ptr<Compiler> compiler_;  // from open(): the first device's, when the driver links
  std::vector<std::string> ahead_;      // prefetched before there was a compiler
  std::string jitDir_;
  bool jitDirSet_ = false;

  void openDriver();
  void openGpu(size_t i);
  void startCompiler();
  void check(cuda::CUresult r, const std::string& what, RunStatus status = RunStatus::Error);
  int attribute(const Gpu& g, int which);
  uint32_t resident(const Gpu& g, const Shape& s, uint32_t threads);
};

}  // namespace gpu
