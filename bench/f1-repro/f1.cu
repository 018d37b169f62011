// F1 without our harness (docs/findings.md F1): does a load after an mbarrier wait that returned
// true see the data that the arrive released?
//
// Each CTA has two warps and, per lane, an mbarrier (count 1) and a data word in shared memory.
// In every iteration lane l of warp 0 (P0) stores 1 to data[l] and arrives on bar[l]
// (mbarrier.arrive, release at .cta by default); lane l of warp 1 (P1) tests the wait once
// (try_wait.parity of the iteration's phase) and then loads data[l]. Both warps start each
// iteration at bar.sync 0, as the harness's test does. A wait that returned true (p=1) and a load
// that read 0 is the state the PTX ISA forbids. The wait and the load sit in one inline-PTX block,
// so the CUDA front end cannot move one past the other; what ptxas makes of them is in the SASS
// (bench/f1-repro/build.sh writes it).
//
//   f1 [ITERATIONS [CTAS]]   defaults: 2000 iterations, 16 CTAs per SM
// Prints a Markdown table, one row per variant, and exits 0; 4 when a variant's counts do not add
// up to its instances (CTAS x 32 x ITERATIONS), 2 for bad usage or no usable sm_90 GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

enum Variant { kDefault, kAcquireCta, kAcquireCluster, kTestWait, kFence, kSpin, kVariants };

const char* const kNames[kVariants] = {
    "try_wait (.acquire.cta by default)", "try_wait.acquire.cta",     "try_wait.acquire.cluster",
    "test_wait (.acquire.cta by default)", "try_wait; fence.acq_rel.cta", "try_wait in a loop until true",
};

// P1's wait and load: p (1 when the wait returned true) and r0 (the value read).
template <int V>
__device__ __forceinline__ void waitThenLoad(unsigned bar, unsigned data, unsigned parity, unsigned& p, unsigned& r0) {
  if constexpr (V == kDefault)
    asm volatile(
        "{ .reg .pred q;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 q, [%2], %3;\n\t"
        "ld.shared.u32 %1, [%4];\n\t"
        "selp.u32 %0, 1, 0, q; }"
        : "=r"(p), "=r"(r0) : "r"(bar), "r"(parity), "r"(data) : "memory");
  else if constexpr (V == kAcquireCta)
    asm volatile(
        "{ .reg .pred q;\n\t"
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 q, [%2], %3;\n\t"
        "ld.shared.u32 %1, [%4];\n\t"
        "selp.u32 %0, 1, 0, q; }"
        : "=r"(p), "=r"(r0) : "r"(bar), "r"(parity), "r"(data) : "memory");
  else if constexpr (V == kAcquireCluster)
    asm volatile(
        "{ .reg .pred q;\n\t"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 q, [%2], %3;\n\t"
        "ld.shared.u32 %1, [%4];\n\t"
        "selp.u32 %0, 1, 0, q; }"
        : "=r"(p), "=r"(r0) : "r"(bar), "r"(parity), "r"(data) : "memory");
  else if constexpr (V == kTestWait)
    asm volatile(
        "{ .reg .pred q;\n\t"
        "mbarrier.test_wait.parity.shared::cta.b64 q, [%2], %3;\n\t"
        "ld.shared.u32 %1, [%4];\n\t"
        "selp.u32 %0, 1, 0, q; }"
        : "=r"(p), "=r"(r0) : "r"(bar), "r"(parity), "r"(data) : "memory");
  else if constexpr (V == kFence)
    asm volatile(
        "{ .reg .pred q;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 q, [%2], %3;\n\t"
        "fence.acq_rel.cta;\n\t"
        "ld.shared.u32 %1, [%4];\n\t"
        "selp.u32 %0, 1, 0, q; }"
        : "=r"(p), "=r"(r0) : "r"(bar), "r"(parity), "r"(data) : "memory");
  else
    asm volatile(
        "{ .reg .pred q;\n\t"
        "WAIT:\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 q, [%2], %3;\n\t"
        "@!q bra WAIT;\n\t"
        "ld.shared.u32 %1, [%4];\n\t"
        "selp.u32 %0, 1, 0, q; }"
        : "=r"(p), "=r"(r0) : "r"(bar), "r"(parity), "r"(data) : "memory");
}

// counts[4 * V + 2 * p + r0]
template <int V>
__global__ void __launch_bounds__(64) f1(unsigned long long* counts, int iterations) {
  __shared__ alignas(8) unsigned long long bar[32];
  __shared__ unsigned data[32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const auto barAddr = static_cast<unsigned>(__cvta_generic_to_shared(&bar[lane]));
  const auto dataAddr = static_cast<unsigned>(__cvta_generic_to_shared(&data[lane]));
  if (warp == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barAddr) : "memory");
  unsigned long long seen0 = 0, seen1 = 0, seen2 = 0, seen3 = 0;  // by 2 * p + r0, in registers
  for (int i = 0; i < iterations; ++i) {
    if (warp == 0) asm volatile("st.shared.u32 [%0], 0;" ::"r"(dataAddr) : "memory");
    __syncthreads();  // bar.sync 0: the two roles start together, as in the harness's test
    if (warp == 0) {
      asm volatile(
          "{ .reg .b64 state;\n\t"
          "st.shared.u32 [%1], 1;\n\t"
          "mbarrier.arrive.shared::cta.b64 state, [%0]; }" ::"r"(barAddr),
          "r"(dataAddr)
          : "memory");
    } else {
      unsigned p = 0, r0 = 0;
      waitThenLoad<V>(barAddr, dataAddr, static_cast<unsigned>(i) & 1u, p, r0);
      const unsigned k = 2 * (p & 1) + (r0 & 1);
      seen0 += k == 0;
      seen1 += k == 1;
      seen2 += k == 2;
      seen3 += k == 3;
    }
    __syncthreads();  // the phase is complete (P0 arrived) and P1 has read before the next reset
  }
  if (warp == 1) {
    atomicAdd(&counts[4 * V + 0], seen0);
    atomicAdd(&counts[4 * V + 1], seen1);
    atomicAdd(&counts[4 * V + 2], seen2);
    atomicAdd(&counts[4 * V + 3], seen3);
  }
}

template <int V>
float launch(unsigned long long* counts, int ctas, int iterations) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  f1<V><<<ctas, 64>>>(counts, iterations);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "f1: %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
  return false;
}

long parse(const char* s, long min, long max, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < min || v > max) {
    std::fprintf(stderr, "f1: bad %s '%s' (%ld..%ld)\nusage: f1 [ITERATIONS [CTAS]]\n", what, s, min, max);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 3) {
    std::fprintf(stderr, "usage: f1 [ITERATIONS [CTAS]]\n");
    return 2;
  }
  const int iterations = argc > 1 ? static_cast<int>(parse(argv[1], 1, 1000000, "ITERATIONS")) : 2000;
  const long ctasGiven = argc > 2 ? parse(argv[2], 1, 1 << 20, "CTAS") : 0;
  int devices = 0;
  if (!check(cudaGetDeviceCount(&devices), "no usable CUDA driver or device (cudaGetDeviceCount)")) return 2;
  if (devices == 0) {
    std::fprintf(stderr, "f1: no CUDA device found\n");
    return 2;
  }
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 2;
  if (prop.major < 9) {
    std::fprintf(stderr, "f1: needs an sm_90 (Hopper) or newer GPU; found %s (sm_%d%d)\n", prop.name, prop.major,
                 prop.minor);
    return 2;
  }
  const int ctas = ctasGiven ? static_cast<int>(ctasGiven) : 16 * prop.multiProcessorCount;
  int driver = 0;
  cudaDriverGetVersion(&driver);
  unsigned long long* counts = nullptr;
  if (!check(cudaMalloc(&counts, sizeof(unsigned long long) * 4 * kVariants), "cudaMalloc")) return 2;
  if (!check(cudaMemset(counts, 0, sizeof(unsigned long long) * 4 * kVariants), "cudaMemset")) return 2;
  std::printf("F1 without the harness on %s (%d SMs, sm_%d%d), CUDA driver %d.%d: %d CTAs x 32 instances x %d "
              "iterations per variant\n\n",
              prop.name, prop.multiProcessorCount, prop.major, prop.minor, driver / 1000, driver % 1000 / 10, ctas,
              iterations);
  float ms[kVariants] = {
      launch<kDefault>(counts, ctas, iterations),   launch<kAcquireCta>(counts, ctas, iterations),
      launch<kAcquireCluster>(counts, ctas, iterations), launch<kTestWait>(counts, ctas, iterations),
      launch<kFence>(counts, ctas, iterations),     launch<kSpin>(counts, ctas, iterations),
  };
  if (!check(cudaGetLastError(), "a launch") || !check(cudaDeviceSynchronize(), "the kernels")) return 4;
  unsigned long long host[4 * kVariants];
  if (!check(cudaMemcpy(host, counts, sizeof host, cudaMemcpyDeviceToHost), "cudaMemcpy")) return 4;
  std::printf("| wait | instances | p=1, r0=0 (forbidden) | p=1, r0=1 | p=0, r0=1 | p=0, r0=0 | ms |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  int rc = 0;
  for (int v = 0; v < kVariants; ++v) {
    const unsigned long long* c = host + 4 * v;
    const unsigned long long total = c[0] + c[1] + c[2] + c[3];
    std::printf("| %s | %llu | %llu | %llu | %llu | %llu | %.1f |\n", kNames[v], total, c[2], c[3], c[1], c[0], ms[v]);
    if (total != static_cast<unsigned long long>(ctas) * 32ull * static_cast<unsigned long long>(iterations)) {
      std::fprintf(stderr, "f1: %s: %llu outcomes counted, expected %llu\n", kNames[v], total,
                   static_cast<unsigned long long>(ctas) * 32ull * static_cast<unsigned long long>(iterations));
      rc = 4;
    }
  }
  cudaFree(counts);
  return rc;
}
