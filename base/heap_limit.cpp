// The C++ heap of `litmus`, counted: the program's replacement of the global operator new and
// delete (only this binary's; the unit tests keep the standard ones).
//
// Why, beside the address-space limit (base/memory_limit.h): Z3 allocates with malloc, outside
// operator new, and its C++ API crashes (a null context handed to Z3_set_error_handler) when a
// context cannot be created for want of about 20 MiB. Under an address-space limit alone, the
// symbolic engine's own data could leave less than that and the next context would crash the
// program instead of ending the test Unknown. Counting our allocations and refusing them past the
// limit less a reserve keeps that reserve for Z3.
//
// The counter is the one piece of global mutable state in the program: operator new is global by
// definition. It is atomic (with a per-thread batch), so threads (Z3's timer) may allocate freely.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>

#include "base/memory_limit.h"

namespace {

// Bytes handed out and not yet freed, summed over threads. Each thread adds its own allocations
// in batches (t_pending), so that operator new costs no atomic read-modify-write in the common
// case: the explicit engine allocates tens of millions of times a second, and a locked add per
// allocation slowed it measurably. The count may lag by kBatch bytes per thread.
constexpr int64_t kBatch = 64 << 10;
std::atomic<int64_t> g_heapUsed{0};
[[maybe_unused]] std::atomic<int64_t> g_heapCap{std::numeric_limits<int64_t>::max()};
thread_local int64_t t_pending = 0;

[[maybe_unused]] void account(int64_t bytes) {
  t_pending += bytes;
  if (t_pending > kBatch || t_pending < -kBatch) {
    g_heapUsed.fetch_add(t_pending, std::memory_order_relaxed);
    t_pending = 0;
  }
}

[[maybe_unused]] int64_t inUse() { return g_heapUsed.load(std::memory_order_relaxed) + t_pending; }

}  // namespace

namespace cli {

#if LITMUS_ASAN_BUILD
// AddressSanitizer has its own operator new, which memory allocated in shared libraries (yaml-cpp)
// reaches; a replacement here would free it with the wrong deallocator. No heap limit there.
void setHeapLimit(uint64_t) {}
uint64_t heapInUse() { return 0; }
void keepFreedHeap() {}
}  // namespace cli
#else
void keepFreedHeap() {
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
}

void setHeapLimit(uint64_t bytes) {
  const uint64_t cap = std::min<uint64_t>(bytes ? bytes : UINT64_MAX, INT64_MAX);
  g_heapCap.store(static_cast<int64_t>(cap), std::memory_order_relaxed);
}

uint64_t heapInUse() { return static_cast<uint64_t>(std::max<int64_t>(inUse(), 0)); }

}  // namespace cli
// The other forms (new[], nothrow, sized delete) of libstdc++ forward to these two. The aligned
// forms allocate and free on their own, uncounted; nothing in litmus over-aligns.
void* operator new(std::size_t n) {
  if (n == 0) n = 1;
  for (;;) {
    if (n > static_cast<std::size_t>(g_heapCap.load(std::memory_order_relaxed)) ||
        inUse() > g_heapCap.load(std::memory_order_relaxed) - static_cast<int64_t>(n))
      throw std::bad_alloc();
    if (void* p = std::malloc(n)) {
      account(static_cast<int64_t>(malloc_usable_size(p)));
      return p;
    }
    // What the standard operator new does when malloc fails.
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void operator delete(void* p) noexcept {
  if (!p) return;
  account(-static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
}

void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete[](void* p) noexcept { ::operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { ::operator delete(p); }
#endif
