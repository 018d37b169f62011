// The JIT off the critical path (gpu-runner/jit.h): the cubin cache on disk, and the compiler's
// threads over a stand-in for the driver's linker that records what it was asked to compile.
#include <doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu-runner/jit.h"
#include "gpu-runner/jit_cache.h"

namespace {

namespace fs = std::filesystem;
using namespace gpu;

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/litmus-jit-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

// The linker: each cuLinkAddData appends (on entry, then takes slowUs) the module's first line to `linked`; a module holding
// "bad" is rejected with a log; the cubin is "CUBIN " and the first line.
std::mutex mu;
std::vector<std::string> linked;
std::atomic<int> slowUs{0};

struct Link {
  char* log = nullptr;
  std::string cubin;
};
std::string firstLine(const char* ptx) { return std::string(ptx, std::strcspn(ptx, "\n")); }
cuda::CUresult linkCreate(unsigned n, int* options, void** values, cuda::CUlinkState* state) {
  auto* l = new Link;
  for (unsigned i = 0; i < n; ++i)
    if (options[i] == cuda::CU_JIT_ERROR_LOG_BUFFER) l->log = static_cast<char*>(values[i]);
  *state = reinterpret_cast<cuda::CUlinkState>(l);
  return 0;
}
cuda::CUresult linkAdd(cuda::CUlinkState s, int, void* data, size_t, const char*, unsigned, int*, void**) {
  auto* l = reinterpret_cast<Link*>(s);
  const char* ptx = static_cast<const char*>(data);
  {
    std::lock_guard<std::mutex> lock(mu);
    linked.push_back(firstLine(ptx));
  }
  if (slowUs) std::this_thread::sleep_for(std::chrono::microseconds(slowUs.load()));
  if (std::strstr(ptx, "bad")) {
    std::strcpy(l->log, "line 2: bad instruction");
    return 218;
  }
  l->cubin = "CUBIN " + firstLine(ptx);
  return 0;
}
cuda::CUresult linkComplete(cuda::CUlinkState s, void** cubin, size_t* size) {
  auto* l = reinterpret_cast<Link*>(s);
  *cubin = l->cubin.data();
  *size = l->cubin.size();
  return 0;
}
cuda::CUresult linkDestroy(cuda::CUlinkState s) {
  delete reinterpret_cast<Link*>(s);
  return 0;
}
cuda::CUresult setCurrent(cuda::CUcontext) { return 0; }

cuda::Api stubApi() {
  cuda::Api api;
  api.cuLinkCreate = linkCreate;
  api.cuLinkAddData = linkAdd;
  api.cuLinkComplete = linkComplete;
  api.cuLinkDestroy = linkDestroy;
  api.cuCtxSetCurrent = setCurrent;
  return api;
}

std::vector<std::string> linkedSoFar() {
  std::lock_guard<std::mutex> lock(mu);
  return linked;
}

void waitForLinks(size_t n) {
  for (int i = 0; i < 2000 && linkedSoFar().size() < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

TEST_CASE("jit cache: a stored cubin is found under its key only") {
  TempDir dir;
  const CubinCache cache((dir.path / "c").string());  // made when first stored
  const std::string k1 = jitKey("ptx one", "H200 (sm_90)", 13000);
  CHECK(!cache.find(k1));
  cache.store(k1, std::string("\x7f" "ELF\0binary", 10));
  REQUIRE(cache.find(k1));
  CHECK(*cache.find(k1) == std::string("\x7f" "ELF\0binary", 10));
  // everything the machine code depends on is in the key
  CHECK(!cache.find(jitKey("ptx one", "H100 (sm_90)", 13000)));
  CHECK(!cache.find(jitKey("ptx one", "H200 (sm_90)", 12080)));
  CHECK(!cache.find(jitKey("ptx two", "H200 (sm_90)", 13000)));
  // a file at the key's path that holds another key (a hash collision) is a miss, not that cubin
  const std::string k2 = jitKey("ptx two", "H200 (sm_90)", 13000);
  fs::copy_file(cache.pathOf(k1), cache.pathOf(k2));
  CHECK(!cache.find(k2));
}

TEST_CASE("jit cache: none, or one that cannot be written, is a miss and no failure") {
  const CubinCache none("");
  CHECK(!none.enabled());
  none.store("k", "cubin");
  CHECK(!none.find("k"));
  TempDir dir;
  std::ofstream(dir.path / "file") << "not a directory";
  const CubinCache blocked((dir.path / "file" / "cache").string());
  blocked.store("k", "cubin");
  CHECK(!blocked.find("k"));
}

TEST_CASE("jit: prefetched modules compile on the threads in the order given, once each") {
  linked.clear();
  TempDir dir;
  const cuda::Api api = stubApi();
  {
    Compiler c(api, nullptr, "dev", 1, (dir.path / "c").string(), 1);
    for (const char* t : {"A\n", "B\n", "C\n"}) c.prefetch(t);
    c.prefetch("A\n");  // queued already: not compiled twice
    waitForLinks(3);
    CHECK(linkedSoFar() == std::vector<std::string>{"A", "B", "C"});
    CHECK(c.get("B\n").cubin == "CUBIN B");
    CHECK(c.get("A\n").cubin == "CUBIN A");
    CHECK(c.get("B\n").cubin == "CUBIN B");  // a sweep's next share
    CHECK(linkedSoFar().size() == 3);
    // a module nobody announced compiles on the caller's thread
    CHECK(c.get("D\n").cubin == "CUBIN D");
    CHECK(linkedSoFar().size() == 4);
  }
  // a later worker (a fresh compiler) finds them on disk
  Compiler again(api, nullptr, "dev", 1, (dir.path / "c").string(), 1);
  CHECK(again.get("C\n").cubin == "CUBIN C");
  CHECK(linkedSoFar().size() == 4);
  // another driver version compiles again
  Compiler newer(api, nullptr, "dev", 2, (dir.path / "c").string(), 1);
  CHECK(newer.get("C\n").cubin == "CUBIN C");
  CHECK(linkedSoFar().size() == 5);
}

TEST_CASE("jit: a module still queued is compiled by the test that needs it, not after the others") {
  linked.clear();
  slowUs = 200000;
  const cuda::Api api = stubApi();
  Compiler c(api, nullptr, "dev", 1, "", 1);
  c.prefetch("A\n");
  waitForLinks(1);  // the thread is busy with A for 0.2 s
  c.prefetch("B\n");
  c.prefetch("C\n");
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(c.get("C\n").cubin == "CUBIN C");  // compiled here, alongside A
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  slowUs = 0;
  CHECK(waited < 0.39);  // not A's 0.2 s and B's 0.2 s and then its own
  const std::vector<std::string> got = linkedSoFar();
  REQUIRE(got.size() >= 2);
  CHECK(got[0] == "A");
  CHECK(got[1] == "C");
}

TEST_CASE("jit: a rejected module gives the linker's error and log, and is not kept on disk") {
  linked.clear();
  TempDir dir;
  const cuda::Api api = stubApi();
  Compiler c(api, nullptr, "dev", 1, (dir.path / "c").string(), 1);
  c.prefetch("bad\n");
  const Compiler::Result r = c.get("bad\n");
  CHECK(r.status == 218);
  CHECK(r.failed == "cuLinkAddData");
  CHECK(r.log == "line 2: bad instruction");
  CHECK(!fs::exists(dir.path / "c"));
}
