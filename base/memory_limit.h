// --max-memory: the size syntax, the default (a fraction of the machine's memory) and the limits
// that enforce it. Header-only, like exit_code.h, so that the unit tests check the very parsing
// the program uses.
//
// Two limits: an RLIMIT_AS on the whole process, under which every allocation fails cleanly
// (operator new throws std::bad_alloc, Z3's allocator on top of malloc answers "out of memory"),
// and a count of the C++ heap (base/heap_limit.cpp) that stops our own allocations short of it,
// keeping room for Z3. checker::check turns either failure into Unknown. Z3's own
// `memory_max_size` was tried and rejected (docs/performance.md, "Limits").
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace cli {

// AddressSanitizer reserves terabytes of shadow address space: an RLIMIT_AS would break it.
#if defined(__SANITIZE_ADDRESS__)
#define LITMUS_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LITMUS_ASAN_BUILD 1
#endif
#endif
#ifndef LITMUS_ASAN_BUILD
#define LITMUS_ASAN_BUILD 0
#endif
inline constexpr bool kAddressSanitizer = LITMUS_ASAN_BUILD;

// "512M", "4G", "64k", "1T", plain bytes "1048576"; suffixes are binary (M = 2^20) and may end in
// "iB" or "B" ("512MiB", "512MB"). "0" and "none" mean no limit (0). nullopt: not a size.
inline std::optional<uint64_t> parseMemorySize(const std::string& text) {
  std::string s;
  for (char c : text) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "none") return 0;
  size_t i = 0;
  uint64_t n = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
    const uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (n > (kMax - d) / 10) return std::nullopt;
    n = n * 10 + d;
  }
  if (i == 0) return std::nullopt;
  std::string unit = s.substr(i);
  if (unit.size() == 3 && unit.substr(1) == "ib") unit.resize(1);
  else if (unit.size() == 2 && unit[1] == 'b') unit.resize(1);
  int shift = 0;
  if (unit == "k") shift = 10;
  else if (unit == "m") shift = 20;
  else if (unit == "g") shift = 30;
  else if (unit == "t") shift = 40;
  else if (!unit.empty() && unit != "b") return std::nullopt;
  if (shift && n > (kMax >> shift)) return std::nullopt;
  return n << shift;
}

// Physical memory from /proc/meminfo's MemTotal (kB), or 0 if the text has none.
inline uint64_t memTotalBytes(std::istream& meminfo) {
  std::string key;
  uint64_t kb = 0;
  while (meminfo >> key) {
    if (key == "MemTotal:" && (meminfo >> kb)) return kb * 1024;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

// The memory this process may have: MemTotal, or less where a cgroup (a container) caps it.
// 0 when neither can be read.
inline uint64_t machineMemoryBytes() {
  std::ifstream meminfo("/proc/meminfo");
  uint64_t total = memTotalBytes(meminfo);
  for (const char* cg : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(cg);
    uint64_t cap = 0;
    if (in >> cap && cap > 0 && (total == 0 || cap < total)) total = cap;  // "max" reads as no cap
  }
  return total;
}

// The default --max-memory: half of the machine's memory. A fixed fraction, not MemAvailable,
// so that the same machine gives every run the same limit (a result does not depend on what
// else was running); half leaves room for the system and for a second check run side by side
// (`ctest -j2`), so that the kernel's OOM killer never has to choose. 0 (no limit) if unknown.
inline uint64_t defaultMemoryLimit() { return machineMemoryBytes() / 2; }

// The C++ heap limit (base/heap_limit.cpp, in the program only, not in the unit tests): operator
// new refuses an allocation that would take the bytes it has handed out past `bytes` (0: none).
void setHeapLimit(uint64_t bytes);
uint64_t heapInUse();
// Keeps freed heap memory in the process instead of returning it to the system at each free:
// the explicit engine builds and drops relations of a few KiB millions of times, and glibc's
// default trimming turned that into brk calls (42% of the time at 250 events).
void keepFreedHeap();

// What the address-space limit keeps back from our own allocations for Z3, which allocates
// outside operator new: a context needs about 20 MiB, and Z3's C++ API crashes when it cannot
// get them (base/heap_limit.cpp). Hence also the smallest --max-memory.
inline constexpr uint64_t kZ3Reserve = 32ull << 20;
inline constexpr uint64_t kMinMemoryLimit = 2 * kZ3Reserve;

// Caps the address space (RLIMIT_AS) at what the process holds now plus `bytes`, so that the
// limit counts what checking allocates, not the program's code and libraries (about 40 MiB). A
// tighter limit already in force (`ulimit -v`) is kept. Returns the bytes checking may use under
// the limit now in force, what a "memory limit of N exceeded" message names; 0 when `bytes` is 0
// (no limit). Where the address space cannot be capped (a failing setrlimit) it returns `bytes`,
// which then only the heap limit enforces, and `why` says so; in AddressSanitizer builds nothing
// is enforced: 0, and `why` says so.
inline uint64_t limitAddressSpace(uint64_t bytes, std::string& why) {
  if (bytes == 0) return 0;
  if (kAddressSanitizer) {
    why = "--max-memory is not enforced in an AddressSanitizer build (its shadow memory needs "
          "terabytes of address space)";
    return 0;
  }
  const char* onlyHeap = "; --max-memory limits only the C++ heap, not Z3's memory";
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  const uint64_t held = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) != 0) {
    why = std::string("cannot read the address-space limit") + onlyHeap;
    return bytes;
  }
  if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur <= held + bytes)
    return lim.rlim_cur > held ? lim.rlim_cur - held : 1;  // already tighter: keep it
  lim.rlim_cur = held + bytes;
  if (lim.rlim_max != RLIM_INFINITY && lim.rlim_cur > lim.rlim_max) lim.rlim_cur = lim.rlim_max;
  if (setrlimit(RLIMIT_AS, &lim) != 0) {
    why = std::string("cannot cap the address space") + onlyHeap;
    return bytes;
  }
  return lim.rlim_cur - held;
}

// What the C++ heap may grow by under a limit of `allowed` bytes: all but kZ3Reserve (or half,
// for a limit too small to spare it), so that our own data never leaves Z3 without a context.
inline uint64_t heapShare(uint64_t allowed) { return allowed - std::min(kZ3Reserve, allowed / 2); }

}  // namespace cli
