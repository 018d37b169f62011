// The JIT off the critical path (private to gpu-runner; docs/gpu-runner.md, "The JIT off the
// critical path"): host threads of the worker compile the modules of the next tests with the
// driver's linker (cuLinkCreate, cuLinkAddData, cuLinkComplete) while the GPU runs the current
// one, so that loading a test's module is loading machine code. Compilations are kept in memory
// for the shares of a sweep and on disk (CubinCache) for later campaigns.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu-runner/cuda_api.h"
#include "gpu-runner/jit_cache.h"

namespace gpu {

class Compiler {
 public:
  struct Result {
    cuda::CUresult status = cuda::CUDA_SUCCESS;  // the linker's error, with its log
    std::string cubin, log, failed;              // failed: the call that failed
  };
  // Code for the device `ctx` belongs to; `device` (its name and compute capability) and the
  // driver's version go into the cache key. threads 0: compilations only on demand.
  Compiler(const cuda::Api& api, cuda::CUcontext ctx, std::string device, int driverVersion, std::string cacheDir,
           int threads);
  ~Compiler();  // waits for the compilations in flight
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  // Queues a module for compilation, in order: the threads take the oldest first.
  void prefetch(const std::string& ptx);
  // The machine code of a module: compiled already (in memory or on disk), compiling (waits for
  // it), or else compiled now on the calling thread, which must have the context current.
  Result get(const std::string& ptx);

 private:
  struct Entry {
    enum class State { Queued, Running, Done } state = State::Queued;
    std::string ptx;
    Result result;
    uint64_t age = 0;  // the order in which entries were done, for forgetting the oldest
  };
  const cuda::Api& api_;
  cuda::CUcontext ctx_;
  std::string device_;
  int driver_;
  CubinCache disk_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Entry> entries_;  // by key
  std::deque<std::string> queue_;         // keys of Queued entries, oldest first
  uint64_t done_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;

  Result compile(const std::string& key, const std::string& ptx);
  void finish(const std::string& key, Result r);
  void loop();
};

}  // namespace gpu
