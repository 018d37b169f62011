// A stand-in for libcuda.so.1, so that `litmus run` can be tested end to end on machines without a
// GPU (tests/gpu/cli.sh loads it through $LITMUS_LIBCUDA). It runs no kernel: it counts the
// instances the tally launches announce and, when the histogram is copied back, reports them as
// the states listed in $FAKE_CUDA_STATES ("1,0;0,0": two states of two values; the first state
// takes the remainder). $FAKE_CUDA_HANG=NAME makes the test whose PTX names NAME hang in
// cuCtxSynchronize, as a kernel that never ends; $FAKE_CUDA_REJECT=1 makes the driver refuse the
// PTX. The named .cc (not .cpp) keeps it out of unit_tests.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Fake {
  uint64_t instances = 0;
  bool hang = false;
  int test = 1, tally = 2;  // function handles are the addresses of these
};
Fake fake;  // one per process: the runner's child process owns one "device"

std::vector<std::vector<int64_t>> states() {
  std::vector<std::vector<int64_t>> out;
  const char* env = std::getenv("FAKE_CUDA_STATES");
  std::stringstream all(env ? env : "");
  std::string state;
  while (std::getline(all, state, ';')) {
    std::vector<int64_t> values;
    std::stringstream vs(state);
    std::string v;
    while (std::getline(vs, v, ',')) values.push_back(std::stoll(v));
    out.push_back(values);
  }
  return out;
}

// The harness's histogram table: 4096 entries (u32 state, u64 count at +8, values from +16),
// then the count of unrecorded instances.
void fillTable(void* dst, size_t bytes) {
  std::memset(dst, 0, bytes);
  const size_t entry = (bytes - 8) / 4096;
  const size_t values = (entry - 16) / 8;
  const auto all = states();
  auto* base = static_cast<unsigned char*>(dst);
  for (size_t i = 0; i < all.size(); ++i) {
    unsigned char* e = base + i * entry;
    const uint32_t ready = 2;
    uint64_t count = fake.instances / all.size();
    if (i == 0) count += fake.instances % all.size();
    std::memcpy(e, &ready, 4);
    std::memcpy(e + 8, &count, 8);
    for (size_t v = 0; v < values && v < all[i].size(); ++v) std::memcpy(e + 16 + 8 * v, &all[i][v], 8);
  }
  if (all.empty()) std::memcpy(base + 4096 * entry, &fake.instances, 8);
}

int launch(void* f, void** args) {
  if (f != &fake.tally) return 0;
  uint32_t mode = 0, n = 0;
  std::memcpy(&mode, args[6], 4);
  std::memcpy(&n, args[7], 4);  // word 0 of the launch record: its instances
  if (mode & 1) fake.instances += n;
  return 0;
}

}  // namespace

extern "C" {

int cuInit(unsigned) { return 0; }
int cuDeviceGetCount(int* n) {
  *n = 1;
  return 0;
}
int cuDeviceGet(int* d, int) {
  *d = 0;
  return 0;
}
int cuDeviceGetName(char* name, int len, int) {
  std::strncpy(name, "Fake GPU", static_cast<size_t>(len));
  return 0;
}
int cuDeviceGetAttribute(int* v, int which, int) {
  *v = which == 16 ? 4 : which == 75 ? 9 : which == 76 ? 0 : 1;  // 4 SMs, sm_90, cluster launch
  return 0;
}
int cuDevicePrimaryCtxRetain(void** ctx, int) {
  *ctx = &fake;
  return 0;
}
int cuCtxSetCurrent(void*) { return 0; }
int cuCtxSynchronize() {
  while (fake.hang) pause();
  return 0;
}
int cuModuleLoadDataEx(void** module, const void* image, unsigned n, int* options, void** values) {
  if (std::getenv("FAKE_CUDA_REJECT")) {
    for (unsigned i = 0; i < n; ++i)
      if (options[i] == 5) std::strcpy(static_cast<char*>(values[i]), "fake: rejected on request");
    return 218;
  }
  const char* hang = std::getenv("FAKE_CUDA_HANG");
  fake.hang = hang && *hang && std::strstr(static_cast<const char*>(image), hang);
  *module = &fake;
  return 0;
}
int cuModuleGetFunction(void** f, void*, const char* name) {
  *f = std::strcmp(name, "litmus_tally") == 0 ? static_cast<void*>(&fake.tally)
                                              : static_cast<void*>(&fake.test);
  return 0;
}
int cuMemAlloc_v2(uint64_t* p, size_t bytes) {
  *p = reinterpret_cast<uint64_t>(std::calloc(1, bytes));
  return *p ? 0 : 2;
}
int cuMemFree_v2(uint64_t p) {
  std::free(reinterpret_cast<void*>(p));
  return 0;
}
// Virtual memory management, for tests with aliases: the reserved range is host memory (the fake
// runs no kernel, so nothing needs the two mappings to share it).
int cuMemGetAllocationGranularity(size_t* g, const void*, int) {
  *g = 2u << 20;
  return 0;
}
int cuMemCreate(uint64_t* h, size_t, const void*, unsigned long long) {
  *h = 1;
  return 0;
}
int cuMemRelease(uint64_t) { return 0; }
int cuMemAddressReserve(uint64_t* p, size_t bytes, size_t, uint64_t, unsigned long long) {
  return cuMemAlloc_v2(p, bytes);
}
int cuMemAddressFree(uint64_t p, size_t) { return cuMemFree_v2(p); }
int cuMemMap(uint64_t, size_t, size_t, uint64_t, unsigned long long) { return 0; }
int cuMemUnmap(uint64_t, size_t) { return 0; }
int cuMemSetAccess(uint64_t, size_t, const void*, size_t) { return 0; }
int cuMemsetD8_v2(uint64_t p, unsigned char v, size_t bytes) {
  std::memset(reinterpret_cast<void*>(p), v, bytes);
  return 0;
}
int cuMemcpyDtoH_v2(void* dst, uint64_t, size_t bytes) {
  fillTable(dst, bytes);
  return 0;
}
int cuLaunchKernel(void* f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                   void** args, void**) {
  return launch(f, args);
}
int cuLaunchKernelEx(const void*, void* f, void** args, void**) { return launch(f, args); }
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void*, int, size_t) {
  *n = 2;
  return 0;
}
int cuGetErrorName(int r, const char** s) {
  *s = r == 218 ? "CUDA_ERROR_INVALID_PTX" : "CUDA_ERROR_UNKNOWN";
  return 0;
}

}  // extern "C"
