// The driver's compilations of generated modules, kept on disk (private to gpu-runner): a campaign
// that meets a module again (a rerun, --resume, a sweep's next share in a fresh worker) loads the
// machine code instead of waiting for the JIT. docs/gpu-runner.md, "The JIT off the critical path".
#pragma once

#include <optional>
#include <string>

#include "gpu-runner/runner.h"  // defaultJitCacheDir

namespace gpu {

// Everything that decides the machine code the driver makes of a module: the PTX, the JIT options,
// the driver's version and the device (its name and compute capability).
std::string jitKey(const std::string& ptx, const std::string& device, int driverVersion);

// One file per key, named by its 64-bit FNV-1a hash; the file holds the whole key, so that two
// keys with one hash never share a cubin. Writes go to a temporary file renamed into place, so
// that two processes filling one cache never read half a file. A cache that cannot be read or
// written is no cache: lookups miss and stores are dropped (the JIT still runs).
class CubinCache {
 public:
  explicit CubinCache(std::string dir) : dir_(std::move(dir)) {}
  bool enabled() const { return !dir_.empty(); }
  std::optional<std::string> find(const std::string& key) const;
  void store(const std::string& key, const std::string& cubin) const;
  std::string pathOf(const std::string& key) const;

 private:
  std::string dir_;
};

}  // namespace gpu
