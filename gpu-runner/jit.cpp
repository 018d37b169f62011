#include "gpu-runner/jit.h"

#include <algorithm>

namespace gpu {

namespace {

// Done entries kept in memory: the shares of a sweep load one module again and again; more than
// a few tests back is the disk cache's business.
constexpr size_t kKeptDone = 8;

}  // namespace

Compiler::Compiler(const cuda::Api& api, cuda::CUcontext ctx, std::string device, int driverVersion,
                   std::string cacheDir, int threads)
    : api_(api), ctx_(ctx), device_(std::move(device)), driver_(driverVersion), disk_(std::move(cacheDir)) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
}

Compiler::~Compiler() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

// The driver's linker over one PTX module; the same options as cuModuleLoadDataEx's (harness) and
// --emit-sass's, so that the machine code is the same.
Compiler::Result Compiler::compile(const std::string& key, const std::string& ptx) {
  if (std::optional<std::string> cubin = disk_.find(key)) return Result{cuda::CUDA_SUCCESS, std::move(*cubin), "", ""};
  Result r;
  cuda::JitOptions jit;
  cuda::CUlinkState link = nullptr;
  r.status = api_.cuLinkCreate(jit.count, jit.options, jit.values, &link);
  if (r.status != cuda::CUDA_SUCCESS) {
    r.failed = "cuLinkCreate";
    return r;
  }
  std::string text = ptx;  // the linker wants the terminating NUL counted
  r.status = api_.cuLinkAddData(link, cuda::CU_JIT_INPUT_PTX, text.data(), text.size() + 1, "litmus.ptx", 0,
                                nullptr, nullptr);
  if (r.status != cuda::CUDA_SUCCESS) r.failed = "cuLinkAddData";
  void* cubin = nullptr;
  size_t size = 0;
  if (r.status == cuda::CUDA_SUCCESS && (r.status = api_.cuLinkComplete(link, &cubin, &size)) != cuda::CUDA_SUCCESS)
    r.failed = "cuLinkComplete";
  if (r.status == cuda::CUDA_SUCCESS) r.cubin.assign(static_cast<const char*>(cubin), size);
  r.log = jit.text();
  api_.cuLinkDestroy(link);  // owns the cubin
  if (r.status == cuda::CUDA_SUCCESS) disk_.store(key, r.cubin);
  return r;
}

void Compiler::finish(const std::string& key, Result r) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = entries_[key];
  e.state = Entry::State::Done;
  e.result = std::move(r);
  e.ptx.clear();
  e.age = ++done_;
  size_t done = 0;
  for (const auto& [k, x] : entries_) done += x.state == Entry::State::Done;
  while (done-- > kKeptDone) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.state == Entry::State::Done && (oldest == entries_.end() || it->second.age < oldest->second.age))
        oldest = it;
    entries_.erase(oldest);
  }
  cv_.notify_all();
}

void Compiler::loop() {
  if (api_.cuCtxSetCurrent(ctx_) != cuda::CUDA_SUCCESS) return;  // get() compiles on demand instead
  for (;;) {
    std::string key, ptx;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      key = std::move(queue_.front());
      queue_.pop_front();
      Entry& e = entries_[key];
      e.state = Entry::State::Running;
      ptx = std::move(e.ptx);
    }
    finish(key, compile(key, ptx));
  }
}

void Compiler::prefetch(const std::string& ptx) {
  if (threads_.empty()) return;
  const std::string key = jitKey(ptx, device_, driver_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (entries_.count(key)) return;
    entries_[key].ptx = ptx;
    queue_.push_back(key);
  }
  cv_.notify_all();
}

Compiler::Result Compiler::get(const std::string& ptx) {
  const std::string key = jitKey(ptx, device_, driver_);
  std::unique_lock<std::mutex> lock(mu_);
  auto it = entries_.find(key);
  if (it != entries_.end() && it->second.state == Entry::State::Queued) {
    // not started: the caller needs it now, and compiles it itself rather than queue behind others
    queue_.erase(std::find(queue_.begin(), queue_.end(), key));
    it->second.state = Entry::State::Running;
    it->second.ptx.clear();
  } else if (it != entries_.end()) {
    cv_.wait(lock, [&] {
      const auto f = entries_.find(key);
      return f == entries_.end() || f->second.state == Entry::State::Done;
    });
    if (const auto f = entries_.find(key); f != entries_.end()) return f->second.result;
    entries_[key].state = Entry::State::Running;  // forgotten meanwhile: the disk has it
  } else {
    entries_[key].state = Entry::State::Running;
  }
  lock.unlock();
  Result r = compile(key, ptx);
  finish(key, r);
  return r;
}

}  // namespace gpu
