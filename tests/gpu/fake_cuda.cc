// A stand-in for libcuda.so.1, so that `litmus run` can be tested end to end on machines without a
// GPU (tests/gpu/cli.sh loads it through $LITMUS_LIBCUDA). It runs no kernel: it counts the
// instances the tally launches announce and, when the histogram is copied back, reports them as
// the states listed in $FAKE_CUDA_STATES ("1,0;0,0": two states of two values; the first state
// takes the remainder). A state may carry two more numbers, the histogram key's masks of unwritten
// result slots (ptx_gen.h: observed terms, then threads), to fake instances not recorded.
// $FAKE_CUDA_ANSWERS=FILE gives the states per test instead: lines "TEST-NAME STATES", the test
// named by the PTX's first line (tests/gpu/self-test.answers). $FAKE_CUDA_HANG=NAME makes the test whose PTX names NAME hang in
// cuCtxSynchronize, as a kernel that never ends; $FAKE_CUDA_REJECT=1 makes the driver refuse the
// PTX (cuModuleLoadDataEx, and cuLinkAddData for --emit-sass).
// The runner's worker keeps one context for many tests, so the fake's state is per loaded module
// and it can show how often a context was made: $FAKE_CUDA_CTX_LOG=FILE gets a line "retain PID"
// per cuDevicePrimaryCtxRetain and "load PID NAME" per module. $FAKE_CUDA_FAULT=NAME makes the
// test whose PTX names NAME fail its first launch with CUDA_ERROR_LAUNCH_FAILED (719), after which
// every call of that process fails so (a sticky error, as a real fault leaves the context).
// $FAKE_CUDA_HANG_STRESS=1: a launch of the test kernel whose record asks for memory stress
// (stressIters > 0, as a drawn sweep profile may) hangs likewise.
// $FAKE_CUDA_LAUNCH_US=N: each tally launch stands for N microseconds of GPU time, spent in the
// next cuCtxSynchronize (for per-test budgets). $FAKE_CUDA_FAST_LAUNCHES=K: the first K tally
// launches after each module load cost 1% of that, as when a test's first launches are quick
// and its later ones slow (a budget's first estimate of the time per launch is then far off).
// $FAKE_CUDA_DEVICES=N: the driver sees N devices (default 1), each with its primary context and
// modules; the context log names the device ("retain PID DEV", "load PID NAME DEV"), and the
// launch log appends " gpu DEV" to launches on devices other than 0. Peer access is possible
// between any two unless $FAKE_CUDA_NO_PEER is set. A launch must be of a kernel of the current
// context's module; a module of a test across GPUs (its kernel has the p_gpu parameter) must be
// launched with p_gpu = the test GPU its device plays (the order in which the job loaded its
// modules), on a device other than the first (test GPU 0's) only after peer access to the
// first's memory was enabled, the tally only on the first, and a launch's test kernels must all be queued before any device is
// synchronized (else the roles would not run at the same time): the fake fails the call
// otherwise, so the tests see the runner's mistakes.
// --trace-waits: cuMemHostRegister_v2 accepts any memory and cuMemHostGetDevicePointer_v2 returns the
// host address; a launch of a traced test kernel (it has p_trace) that will hang writes
// $FAKE_CUDA_TRACE ("T:S:N,..."; N consecutive slots of litmus thread T at site S, from slot 0)
// with the launch's number into the slots, as the stuck threads of a real launch would (such a
// test hangs at the first synchronize after its first test launch rather than before it).
// The named .cc (not .cpp) keeps it out of unit_tests.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Fake {
  uint64_t instances = 0;
  uint64_t pendingUs = 0;  // GPU time of the tally launches since the last cuCtxSynchronize
  uint64_t tallies = 0;    // tally launches since the module was loaded
  bool hang = false;
  bool stressed = false;  // the last test launch ran with stress iterations (FAKE_CUDA_STRESS_STATES)
  bool fault = false;   // this module's launches fail
  bool sticky = false;  // a launch failed: the context is broken
  std::string name;         // the test of the loaded module
  void* last = nullptr;     // the function launched last (cuLaunchKernelEx checks programmatic launches)
  int traceArg = -1;        // the test kernel's p_trace among its arguments; -1: not traced
  bool traceWritten = false;
};
Fake fake;  // one per process: the runner's child process counts the instances of its test

// Per device: its kernels (their addresses are the function handles), its peers, its launches.
constexpr int kMaxDevices = 16;
constexpr int kEpochWord = 21;  // gpu-runner/params.h, kEpoch
struct Dev {
  int test = 1, tally = 2;
  bool loaded = false;
  bool acrossGpus = false;  // the loaded module's kernel has p_gpu
  int index = 0;            // the test GPU it plays: the modules of a job are loaded in that order
  bool peer[kMaxDevices] = {};
  uint32_t launched = 0, queued = 0;  // epochs of the last test launch, and of the one not yet synchronized
};
Dev devs[kMaxDevices];
// per thread, as the driver's current context is: the runner's compiler threads have their own
thread_local int current = 0;
int first = 0;  // the device playing test GPU 0 (its memory holds the buffers)

int deviceCount() {
  const char* n = std::getenv("FAKE_CUDA_DEVICES");
  const int v = n && *n ? std::atoi(n) : 1;
  return v < 1 ? 1 : v > kMaxDevices ? kMaxDevices : v;
}
bool noPeer() { return std::getenv("FAKE_CUDA_NO_PEER") != nullptr; }

// The states for the loaded test: its line of $FAKE_CUDA_ANSWERS, else $FAKE_CUDA_STATES.
std::string stateText() {
  if (const char* file = std::getenv("FAKE_CUDA_ANSWERS")) {
    std::ifstream in(file);
    std::string name, text;
    while (in >> name >> text)
      if (name == fake.name) return text;
    return "";
  }
  const char* env = std::getenv("FAKE_CUDA_STATES");
  std::string text = env ? env : "";
  // states only a stressed launch shows (a rare weak outcome), after the others
  if (const char* more = std::getenv("FAKE_CUDA_STRESS_STATES"); more && fake.stressed)
    text += (text.empty() ? "" : ";") + std::string(more);
  return text;
}

// "// Generated by `litmus run` (ptx-litmus) from FILE, test NAME.\n": NAME.
std::string testName(const char* ptx) {
  const std::string first(ptx, std::strcspn(ptx, "\n"));
  const size_t at = first.rfind(", test ");
  if (at == std::string::npos || first.empty() || first.back() != '.') return "";
  return first.substr(at + 7, first.size() - at - 8);
}

std::vector<std::vector<int64_t>> states() {
  std::vector<std::vector<int64_t>> out;
  std::stringstream all(stateText());
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

void log(const std::string& line, const std::string& name = fake.name) {
  if (const char* file = std::getenv("FAKE_CUDA_CTX_LOG"))
    std::ofstream(file, std::ios::app) << line << " " << getpid() << (line != "retain" ? " " + name : "") << " "
                                       << current << "\n";
}

void launchLog(const std::string& what) {
  if (const char* log = std::getenv("FAKE_CUDA_LAUNCH_LOG"))
    std::ofstream(log, std::ios::app) << what << (current ? " gpu " + std::to_string(current) : "") << "\n";
}

// The runner's mistakes with several devices: 400 (invalid handle) for a kernel of another
// context, 1 (invalid value) for a wrong p_gpu or a tally off device 0, 700 (illegal address) for
// a launch before peer access.
int checkDevice(void* f, void** args) {
  Dev& d = devs[current];
  if (f != &d.test && f != &d.tally) return 400;
  if (!d.acrossGpus) return 0;
  if (f == &d.tally) return d.index == 0 ? 0 : 1;
  uint32_t gpu = 0, epoch = 0;
  std::memcpy(&gpu, args[6], 4);
  std::memcpy(&epoch, static_cast<const unsigned char*>(args[5]) + 4 * kEpochWord, 4);
  if (gpu != static_cast<uint32_t>(d.index)) return 1;
  if (d.index != 0 && !d.peer[first]) return 700;
  d.launched = d.queued = epoch;
  return 0;
}

constexpr int kLaunchFailed = 719;

// $FAKE_CUDA_TRACE into the slots of a traced launch that hangs (gpu-runner/wait_trace.h).
void writeTrace(void** args) {
  const char* spec = std::getenv("FAKE_CUDA_TRACE");
  if (!spec || fake.traceArg < 0) return;
  uint64_t* slots = nullptr;
  uint32_t epoch = 0;
  std::memcpy(&slots, args[fake.traceArg], 8);
  std::memcpy(&epoch, static_cast<const unsigned char*>(args[5]) + 4 * kEpochWord, 4);
  std::stringstream all(spec);
  size_t at = 0;
  for (std::string part; std::getline(all, part, ',');) {
    unsigned t = 0, site = 0, n = 0;
    if (std::sscanf(part.c_str(), "%u:%u:%u", &t, &site, &n) != 3) continue;
    for (unsigned i = 0; i < n; ++i) slots[at++] = uint64_t{epoch} << 32 | uint64_t{t} << 16 | site;
  }
  fake.traceWritten = true;
}

// A traced test that is to hang with $FAKE_CUDA_TRACE runs until a test launch wrote it.
bool hangsNow() {
  return fake.hang && (fake.traceWritten || fake.traceArg < 0 || !std::getenv("FAKE_CUDA_TRACE"));
}

int launch(void* f, void** args) {
  if (fake.sticky) return kLaunchFailed;
  if (const int r = checkDevice(f, args)) return r;
  if (fake.fault) {
    fake.sticky = true;
    return kLaunchFailed;
  }
  if (f != &devs[current].tally) {
    uint32_t stressIters = 0;  // word kStressIters (gpu-runner/params.h) of the launch record
    std::memcpy(&stressIters, static_cast<const char*>(args[5]) + 4 * 13, 4);
    if (stressIters && std::getenv("FAKE_CUDA_HANG_STRESS")) fake.hang = true;
    fake.stressed = stressIters != 0;
    if (fake.hang) writeTrace(args);
    return 0;
  }
  if (const char* us = std::getenv("FAKE_CUDA_LAUNCH_US")) {
    const char* fast = std::getenv("FAKE_CUDA_FAST_LAUNCHES");
    const uint64_t cost = std::strtoull(us, nullptr, 10);
    fake.pendingUs += fast && fake.tallies < std::strtoull(fast, nullptr, 10) ? cost / 100 : cost;
  }
  ++fake.tallies;
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
  *n = deviceCount();
  return 0;
}
int cuDeviceGet(int* d, int ordinal) {
  if (ordinal < 0 || ordinal >= deviceCount()) return 101;  // CUDA_ERROR_INVALID_DEVICE
  *d = ordinal;
  return 0;
}
int cuDeviceCanAccessPeer(int* can, int a, int b) {
  *can = a != b && !noPeer();
  return 0;
}
int cuDeviceGetP2PAttribute(int* v, int, int a, int b) {
  *v = a != b && !noPeer();
  return 0;
}
int cuCtxEnablePeerAccess(void* peer, unsigned) {
  if (noPeer()) return 217;  // CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
  const int p = static_cast<int>(static_cast<Dev*>(peer) - devs);
  if (p == current) return 1;
  if (devs[current].peer[p]) return 704;  // CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
  devs[current].peer[p] = true;
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
int cuDevicePrimaryCtxRetain(void** ctx, int dev) {
  current = dev;  // (for the log; the runner makes it current itself)
  log("retain");
  *ctx = &devs[dev];
  return 0;
}
int cuCtxSetCurrent(void* ctx) {
  current = static_cast<int>(static_cast<Dev*>(ctx) - devs);
  return 0;
}
int cuCtxSynchronize() {
  while (hangsNow()) pause();
  // the test kernels of a launch run together: none may be waited for before all are queued
  if (const uint32_t e = devs[current].queued) {
    for (int d = 0; d < deviceCount(); ++d)
      if (devs[d].acrossGpus && devs[d].launched < e) {
        std::fprintf(stderr, "fake: device %d synchronized before device %d launched its roles\n", current, d);
        return 999;
      }
    devs[current].queued = 0;
  }
  if (fake.pendingUs) usleep(static_cast<useconds_t>(fake.pendingUs));
  fake.pendingUs = 0;
  return fake.sticky ? kLaunchFailed : 0;
}
int cuModuleLoadDataEx(void** module, const void* image, unsigned n, int* options, void** values) {
  if (fake.sticky) return kLaunchFailed;
  // a "cubin" of cuLinkComplete: its first line, then the PTX it was made of
  const bool cubin = std::strncmp(static_cast<const char*>(image), "FAKE-CUBIN", 10) == 0;
  if (cubin) {
    image = std::strchr(static_cast<const char*>(image), '\n') + 1;
    log("cubin", testName(static_cast<const char*>(image)));
  }
  if (std::getenv("FAKE_CUDA_REJECT")) {
    for (unsigned i = 0; i < n; ++i)
      if (options[i] == 5) std::strcpy(static_cast<char*>(values[i]), "fake: rejected on request");
    return 218;
  }
  const char* hang = std::getenv("FAKE_CUDA_HANG");
  fake.hang = hang && *hang && std::strstr(static_cast<const char*>(image), hang);
  const char* fault = std::getenv("FAKE_CUDA_FAULT");
  fake.fault = fault && *fault && std::strstr(static_cast<const char*>(image), fault);
  fake.name = testName(static_cast<const char*>(image));
  fake.instances = fake.pendingUs = fake.tallies = 0;
  fake.last = nullptr;
  fake.traceWritten = false;
  Dev& d = devs[current];
  d.index = 0;
  for (const Dev& o : devs) d.index += o.loaded;
  if (d.index == 0) first = current;
  d.loaded = true;
  d.acrossGpus = std::strstr(static_cast<const char*>(image), ".param .u32 p_gpu") != nullptr;
  fake.traceArg = !std::strstr(static_cast<const char*>(image), ".param .u64 p_trace") ? -1
                  : std::strstr(static_cast<const char*>(image), ".param .u64 p_tex")  ? 7
                                                                                        : 6;
  d.launched = d.queued = 0;
  log("load");
  *module = &d;
  return 0;
}
int cuModuleUnload(void* module) {
  static_cast<Dev*>(module)->loaded = false;
  return 0;
}
int cuModuleGetFunction(void** f, void* module, const char* name) {
  Dev* d = static_cast<Dev*>(module);
  *f = std::strcmp(name, "litmus_tally") == 0 ? static_cast<void*>(&d->tally) : static_cast<void*>(&d->test);
  return 0;
}
int cuMemAlloc_v2(uint64_t* p, size_t bytes) {
  if (fake.sticky) return kLaunchFailed;
  *p = reinterpret_cast<uint64_t>(std::calloc(1, bytes));
  return *p ? 0 : 2;
}
int cuMemHostRegister_v2(void*, size_t, unsigned) { return fake.sticky ? kLaunchFailed : 0; }
int cuMemHostGetDevicePointer_v2(uint64_t* d, void* p, unsigned) {
  *d = reinterpret_cast<uint64_t>(p);
  return 0;
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
  launchLog(f == &devs[current].tally ? "tally" : "test");
  fake.last = f;
  return launch(f, args);
}
// A programmatic launch (launch attribute 6, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
// value 1) must be of the test kernel right after another launch of it, as the runner's grids are
// (docs/gpu-runner.md, "Grids"); else the launch fails (1, invalid value). $FAKE_CUDA_LAUNCH_LOG
// names a file that gets one line per launch: "test", "test programmatic" or "tally".
struct Attr {
  int id;
  char pad[4];
  union {
    char pad[64];
    int value;
  } v;
};
struct Config {
  unsigned dims[6], shared;
  void* stream;
  Attr* attrs;
  unsigned numAttrs;
};
int cuLaunchKernelEx(const void* c, void* f, void** args, void**) {
  const auto* cfg = static_cast<const Config*>(c);
  bool programmatic = false;
  for (unsigned i = 0; i < cfg->numAttrs; ++i)
    programmatic = programmatic || (cfg->attrs[i].id == 6 && cfg->attrs[i].v.value == 1);
  if (programmatic && (f != &devs[current].test || fake.last != &devs[current].test)) return 1;
  launchLog(f == &devs[current].tally ? "tally" : programmatic ? "test programmatic" : "test");
  fake.last = f;
  return launch(f, args);
}
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void*, int, size_t) {
  *n = 2;
  return 0;
}
// Tensor maps: the template array is host memory, the encoding a recognisable pattern.
int cuModuleGetGlobal_v2(uint64_t* p, size_t* bytes, void*, const char*) {
  static uint64_t templates[16 * 64];
  *p = reinterpret_cast<uint64_t>(templates);
  if (bytes) *bytes = sizeof templates;
  return 0;
}
int cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
  return 0;
}
int cuTensorMapEncodeTiled(void* map, int, uint32_t rank, void*, const uint64_t*, const uint64_t*,
                           const uint32_t*, const uint32_t*, int, int, int, int) {
  std::memset(map, static_cast<int>(rank), 128);
  return 0;
}
// The JIT linker (--emit-sass, and the runner's compiler threads): the "cubin" is a recognisable
// line naming the test and the PTX's size, then the PTX, which cuModuleLoadDataEx takes as a
// cubin (logging "cubin PID NAME DEV" before its "load" line). $FAKE_CUDA_REJECT makes
// cuLinkAddData refuse the PTX, with a log as cuModuleLoadDataEx's; each link logs "link PID NAME
// DEV" and takes $FAKE_CUDA_LINK_US microseconds.
struct Link {
  char* log = nullptr;  // the caller's CU_JIT_ERROR_LOG_BUFFER
  std::string cubin;
};
int cuLinkCreate_v2(unsigned n, int* options, void** values, void** state) {
  auto* link = new Link;
  for (unsigned i = 0; i < n; ++i)
    if (options[i] == 5) link->log = static_cast<char*>(values[i]);
  *state = link;
  return 0;
}
int cuLinkAddData_v2(void* state, int type, void* data, size_t size, const char*, unsigned, int*, void**) {
  auto* link = static_cast<Link*>(state);
  const char* ptx = static_cast<const char*>(data);
  if (type != 1 || size == 0 || ptx[size - 1] != '\0') return 1;  // PTX, NUL-terminated
  if (std::getenv("FAKE_CUDA_REJECT")) {
    if (link->log) std::strcpy(link->log, "fake: rejected on request");
    return 218;
  }
  if (const char* us = std::getenv("FAKE_CUDA_LINK_US")) usleep(static_cast<useconds_t>(std::atoi(us)));
  log("link", testName(ptx));
  link->cubin = "FAKE-CUBIN test " + testName(ptx) + ", " + std::to_string(size - 1) + " bytes of PTX\n" + ptx;
  return 0;
}
int cuLinkComplete(void* state, void** cubin, size_t* size) {
  auto* link = static_cast<Link*>(state);
  if (link->cubin.empty()) return 1;
  *cubin = link->cubin.data();
  *size = link->cubin.size();
  return 0;
}
int cuLinkDestroy(void* state) {
  delete static_cast<Link*>(state);
  return 0;
}
// Texture objects (texture aliases): only a linear resource of one 32-bit unsigned channel, read as
// integers, as the runner makes them; anything else is invalid (1). "texture PID BYTES DEV" in the
// context log.
struct Resource {
  int type;
  int pad;
  uint64_t ptr;
  int format;
  unsigned channels;
  size_t bytes;
};
// A texture over an array made by cuArray3DCreate_v2 is logged "texture PID array DEV".
struct ArrayDesc {
  size_t width, height, depth;
  int format;
  unsigned channels, flags;
};
std::vector<std::unique_ptr<ArrayDesc>> arrays;
bool isArray(const void* a) {
  for (const auto& p : arrays)
    if (p.get() == a) return true;
  return false;
}
int cuTexObjectCreate(uint64_t* t, const void* res, const void* tex, const void* view) {
  static uint64_t next = 1;
  const auto* r = static_cast<const Resource*>(res);
  const unsigned flags = static_cast<const unsigned*>(tex)[4];
  if (view || !(flags & 1)) return 1;
  if (r->type == 0) {  // an array: its handle where a linear resource's pointer is
    if (!isArray(reinterpret_cast<const void*>(r->ptr))) return 1;
    log("texture", "array");
  } else {
    if (r->type != 2 || r->format != 3 || r->channels != 1 || r->bytes == 0 || !r->ptr) return 1;
    log("texture", std::to_string(r->bytes));
  }
  *t = next++;
  return 0;
}
int cuTexObjectDestroy(uint64_t) { return 0; }
// Surface arrays (surface aliases): only a 2D array of one 32-bit unsigned channel that surfaces
// may write, as the runner makes them; "array PID WIDTH HEIGHT DEV" and "surface PID array DEV".
int cuArray3DCreate_v2(void** a, const ArrayDesc* d) {
  if (d->width == 0 || d->height == 0 || d->depth != 0 || d->format != 3 || d->channels != 1 || !(d->flags & 2))
    return 1;
  arrays.push_back(std::make_unique<ArrayDesc>(*d));
  *a = arrays.back().get();
  log("array", std::to_string(d->width) + " " + std::to_string(d->height));
  return 0;
}
int cuArrayDestroy(void* a) { return isArray(a) ? 0 : 1; }
int cuSurfObjectCreate(uint64_t* sf, const void* res) {
  static uint64_t next = 1;
  const auto* r = static_cast<const Resource*>(res);
  if (r->type != 0 || !isArray(reinterpret_cast<const void*>(r->ptr))) return 1;
  log("surface", "array");
  *sf = next++;
  return 0;
}
int cuSurfObjectDestroy(uint64_t) { return 0; }
int cuDriverGetVersion(int* v) {
  *v = 13000;
  return 0;
}
int cuGetErrorName(int r, const char** s) {
  *s = r == 218 ? "CUDA_ERROR_INVALID_PTX" : r == kLaunchFailed ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_UNKNOWN";
  return 0;
}

}  // extern "C"
