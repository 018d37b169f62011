#include "gpu-runner/jit_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu-runner/cuda_api.h"

namespace gpu {

namespace {

constexpr const char* kMagic = "ptx-litmus cubin 1\n";

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

std::string jitKey(const std::string& ptx, const std::string& device, int driverVersion) {
  return "device " + device + "\ndriver " + std::to_string(driverVersion) + "\njit " + cuda::JitOptions::describe() +
         "\n" + ptx;
}

std::string defaultJitCacheDir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/ptx-litmus/cubin";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/ptx-litmus/cubin";
  return "";
}

std::string CubinCache::pathOf(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.cubin", static_cast<unsigned long long>(fnv1a(key)));
  return dir_ + "/" + name;
}

std::optional<std::string> CubinCache::find(const std::string& key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(pathOf(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  const std::string head = kMagic + std::to_string(key.size()) + "\n";
  if (text.compare(0, head.size(), head) != 0 || text.size() < head.size() + key.size() ||
      text.compare(head.size(), key.size(), key) != 0)
    return std::nullopt;  // another key with the same hash, or a file of another version
  return text.substr(head.size() + key.size());
}

void CubinCache::store(const std::string& key, const std::string& cubin) const {
  if (!enabled() || cubin.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  const std::string path = pathOf(key);
  static std::atomic<unsigned> serial{0};
  const std::string tmp = path + ".tmp" + std::to_string(getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << kMagic << key.size() << "\n" << key << cubin;
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace gpu
