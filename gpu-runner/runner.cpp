// The watchdog and the worker. Tests run in a child process (the worker) that owns the CUDA context
// and runs test after test: the parent sends each test's Job through a socket and reads the
// result back. A worker that does not answer in time is killed; the driver tears its context down
// with it, hung kernels included, and the next test starts in a fresh worker on a clean GPU. A
// worker whose test did not end Ok (a driver error, a failed launch: the context may be broken)
// exits by itself after sending its result, for the same reason.
#include "gpu-runner/runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "gpu-runner/cuda_api.h"
#include "gpu-runner/child.h"
#include "gpu-runner/harness.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/ptx_gen.h"

namespace gpu {

std::string generatePtx(const litmus::Test& test, bool traceWaits) {
  Plan plan = makePlan(test);
  plan.traceWaits = traceWaits;
  return generateModule(test, plan);
}

std::string placementSummary(const litmus::Test& test) {
  const Plan plan = makePlan(test);
  const char* mode = plan.mode == Mode::Lane ? "lane" : plan.mode == Mode::Warp ? "warp" : "fixed";
  const auto n = [](int v, const char* what) { return std::to_string(v) + " " + what + (v == 1 ? "" : "s"); };
  return std::string(mode) + " mode, " + n(plan.shape.roles, "role") + ", " +
         n(plan.shape.clusterSize, "CTA") + " per cluster" + (plan.shape.clusterLaunch ? " (cluster launch)" : "");
}

uint64_t RunResult::notRecordedCount() const {
  uint64_t n = 0;
  for (const NotRecorded& e : notRecorded) n += e.count;
  return n;
}

bool driverLoadable(std::string& why) {
  cuda::Api api;
  if (!cuda::load(api, why)) return false;
  cuda::unload(api);
  return true;
}

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '\n' ? std::string("\\n") : c == '\\' ? std::string("\\\\") : std::string(1, c);
  return out;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[i + 1] == 'n' ? '\n' : s[i + 1];
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// One "key value" line per field, then one "state COUNT V1 V2 ..." line per histogram entry and
// one "missing COUNT TERMS THREADS V1 V2 ..." line per not-recorded entry.
std::string serialize(const RunResult& r) {
  std::ostringstream os;
  os << "status " << static_cast<int>(r.status) << "\nmessage " << escape(r.message) << "\ndevice "
     << escape(r.device) << "\ninstances " << r.instances << "\nlaunches " << r.launches << "\noverflow "
     << r.overflow << "\nseconds " << r.seconds << "\njit " << r.jitSeconds << "\nworker " << r.workerSeconds << "\nbudget "
     << r.stoppedByBudget << "\ndeadline " << r.stoppedByDeadline << "\ngpus";
  for (int g : r.gpus) os << " " << g;
  os << "\ngpuinstances";
  for (uint64_t n : r.gpuInstances) os << " " << n;
  os << "\n";
  for (const auto& [state, count] : r.histogram) {
    os << "state " << count;
    for (int64_t v : state.values) os << " " << v;
    os << "\n";
  }
  for (const NotRecorded& n : r.notRecorded) {
    os << "missing " << n.count << " " << n.missingTerms << " " << n.missingThreads;
    for (int64_t v : n.state.values) os << " " << v;
    os << "\n";
  }
  os << "end\n";
  return os.str();
}

bool deserialize(const std::string& text, RunResult& r) {
  std::istringstream in(text);
  std::string line;
  bool complete = false;
  while (std::getline(in, line)) {
    const std::string key = line.substr(0, line.find(' '));
    const std::string rest = line.size() > key.size() ? line.substr(key.size() + 1) : "";
    std::istringstream vs(rest);
    if (key == "status") {
      int s = 0;
      vs >> s;
      r.status = static_cast<RunStatus>(s);
    } else if (key == "message")
      r.message = unescape(rest);
    else if (key == "device")
      r.device = unescape(rest);
    else if (key == "instances")
      vs >> r.instances;
    else if (key == "launches")
      vs >> r.launches;
    else if (key == "overflow")
      vs >> r.overflow;
    else if (key == "seconds")
      vs >> r.seconds;
    else if (key == "jit")
      vs >> r.jitSeconds;
    else if (key == "worker")
      vs >> r.workerSeconds;
    else if (key == "budget")
      vs >> r.stoppedByBudget;
    else if (key == "deadline")
      vs >> r.stoppedByDeadline;
    else if (key == "gpus")
      for (int g; vs >> g;) r.gpus.push_back(g);
    else if (key == "gpuinstances")
      for (uint64_t n; vs >> n;) r.gpuInstances.push_back(n);
    else if (key == "state") {
      uint64_t count = 0;
      vs >> count;
      litmus::State s;
      for (int64_t v; vs >> v;) s.values.push_back(v);
      r.histogram.emplace_back(s, count);
    } else if (key == "missing") {
      NotRecorded n;
      vs >> n.count >> n.missingTerms >> n.missingThreads;
      for (int64_t v; vs >> v;) n.state.values.push_back(v);
      r.notRecorded.push_back(n);
    } else if (key == "end")
      complete = true;
  }
  return complete;
}

// The job as text: "key values" lines, then "ptx" and the module to the end.
std::string encodeJob(const Job& j) {
  std::ostringstream os;
  os.precision(17);
  const Shape& h = j.shape;
  os << "name " << escape(j.name) << "\nshape " << h.roles << " " << h.clusterSize << " " << h.clusterLaunch << " "
     << h.warpsPerBlock << " " << h.maxGroupsPerBlock << " " << h.laneMode << " " << h.globalLocations << " "
     << h.slotBytes << " " << h.slotAlign << " " << h.serial << "\naliases " << j.aliases << " " << j.texture << " "
     << j.surface << " " << j.arrayTexture << " " << j.bankWords << "\nresults " << j.regResults << " "
     << j.sharedResults << " " << j.observed << "\ngrids";
  for (bool g : j.gridProgrammatic) os << " " << g;
  os << "\ngpus " << j.gpus << "\n";
  for (const Job::TensorMap& m : j.tensorMaps) {
    os << "tmap " << m.dims.size();
    for (int64_t d : m.dims) os << " " << d;
    for (int64_t b : m.box) os << " " << b;
    os << " " << escape(m.name) << "\n";
  }
  const RunOptions& o = j.options;
  os << "options " << o.count << " " << o.seed << " " << o.timeoutSeconds << " " << o.budgetSeconds << " "
     << o.progress << " " << o.traceWaits << "\njitcache " << escape(o.jitCache) << "\nprofile " << escape(formatProfile(o.profile)) << "\nptx\n" << j.ptx;
  return os.str();
}

Job decodeJob(const std::string& text) {
  Job j;
  const size_t ptx = text.find("\nptx\n");
  std::istringstream in(text.substr(0, ptx));
  if (ptx != std::string::npos) j.ptx = text.substr(ptx + 5);
  j.gridProgrammatic.clear();
  std::string line;
  while (std::getline(in, line)) {
    const std::string key = line.substr(0, line.find(' '));
    const std::string rest = line.size() > key.size() ? line.substr(key.size() + 1) : "";
    std::istringstream vs(rest);
    Shape& h = j.shape;
    RunOptions& o = j.options;
    if (key == "name")
      j.name = unescape(rest);
    else if (key == "shape")
      vs >> h.roles >> h.clusterSize >> h.clusterLaunch >> h.warpsPerBlock >> h.maxGroupsPerBlock >> h.laneMode >>
          h.globalLocations >> h.slotBytes >> h.slotAlign >> h.serial;
    else if (key == "aliases")
      vs >> j.aliases >> j.texture >> j.surface >> j.arrayTexture >> j.bankWords;
    else if (key == "results")
      vs >> j.regResults >> j.sharedResults >> j.observed;
    else if (key == "gpus")
      vs >> j.gpus;
    else if (key == "grids")
      for (int g; vs >> g;) j.gridProgrammatic.push_back(g != 0);
    else if (key == "tmap") {
      Job::TensorMap m;
      size_t rank = 0;
      vs >> rank;
      m.dims.resize(rank);
      m.box.resize(rank);
      for (int64_t& d : m.dims) vs >> d;
      for (int64_t& b : m.box) vs >> b;
      vs.get();
      std::getline(vs, m.name);
      m.name = unescape(m.name);
      j.tensorMaps.push_back(m);
    } else if (key == "options")
      vs >> o.count >> o.seed >> o.timeoutSeconds >> o.budgetSeconds >> o.progress >> o.traceWaits;
    else if (key == "profile")
      o.profile = parseProfile(unescape(rest), "<job>");
    else if (key == "jitcache")
      o.jitCache = unescape(rest);
  }
  return j;
}

// Frames on the socket: the payload's length in decimal, a newline, the payload.
bool sendFrame(int fd, const std::string& payload) {
  const std::string s = std::to_string(payload.size()) + "\n" + payload;
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

enum class Read { Done, Closed, Late };

// Reads one frame, waiting until `deadline`; Closed when the other side went away first. `carry`
// holds what was read past the frame, the start of the next one (the worker's prefetch frames
// and its job come back to back); without it the other side must send one frame at a time.
Read readFrame(int fd, std::chrono::steady_clock::time_point deadline, std::string& out,
               std::string* carry = nullptr) {
  std::string buf;
  if (carry) buf.swap(*carry);
  size_t need = std::string::npos, header = 0;
  char chunk[65536];
  for (;;) {
    if (need == std::string::npos && (header = buf.find('\n')) != std::string::npos)
      need = header + 1 + std::strtoull(buf.c_str(), nullptr, 10);
    if (need != std::string::npos && buf.size() >= need) {
      out = buf.substr(header + 1, need - header - 1);
      if (carry) *carry = buf.substr(need);
      return Read::Done;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    // past the deadline, one look without waiting: a result that came in time still counts
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::clamp<long long>(left.count(), 0, 1000)));
    if (ready < 0 && errno != EINTR) return Read::Closed;
    if (ready <= 0 && left.count() <= 0) return Read::Late;
    if (ready <= 0) continue;
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Read::Closed;
    buf.append(chunk, static_cast<size_t>(n));
  }
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A prefetch frame: this line, the cache directory's line, the module (no answer is sent).
constexpr const char* kPrefetchFrame = "prefetch\n";

// The worker's life: jobs in, results out, until the parent closes the socket or a job fails. A
// reader thread takes the frames as they come, so that a prefetched module starts compiling while
// the GPU runs the current job, and the parent's sends never wait for the job's end (a parent
// blocked in a send would not run its watchdog).
[[noreturn]] void workerMain(int fd, const std::vector<int>& devices, uint64_t* traceSlots) {
  Session session(devices, traceSlots);
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> jobs;
  bool closed = false;
  std::thread reader([&] {
    const auto never = std::chrono::steady_clock::time_point::max();
    std::string carry;
    for (std::string text; readFrame(fd, never, text, &carry) == Read::Done;) {
      if (text.rfind(kPrefetchFrame, 0) == 0) {
        const size_t dir = std::char_traits<char>::length(kPrefetchFrame), ptx = text.find('\n', dir);
        if (ptx != std::string::npos) session.prefetch(text.substr(ptx + 1), unescape(text.substr(dir, ptx - dir)));
        continue;
      }
      std::lock_guard<std::mutex> lock(mu);
      jobs.push_back(std::move(text));
      cv.notify_one();
    }
    std::lock_guard<std::mutex> lock(mu);
    closed = true;
    cv.notify_one();
  });
  reader.detach();  // _exit ends it
  for (;;) {
    std::string text;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return closed || !jobs.empty(); });
      if (jobs.empty()) break;
      text = std::move(jobs.front());
      jobs.pop_front();
    }
    const auto start = std::chrono::steady_clock::now();
    RunResult r = session.run(decodeJob(text));
    r.workerSeconds = since(start);
    if (!sendFrame(fd, serialize(r)) || r.status != RunStatus::Ok) break;
  }
  _exit(0);
}

}  // namespace

struct Runner::Worker {
  pid_t pid = -1;
  int fd = -1;
};

// The trace region is mapped now, before any worker is forked, so that every worker shares it; its
// pages are touched only by traced tests.
Runner::Runner(bool workerPerTest, std::vector<int> devices)
    : trace_(std::make_unique<TraceRegion>()), workerPerTest_(workerPerTest), devices_(std::move(devices)) {}

void Runner::knowDevices(const DeviceProbe& probe) { probe_ = std::make_unique<DeviceProbe>(probe); }

// A test across GPUs needs that many devices, each able to reach the first one's memory (with
// atomics); refused like any test the runner cannot run. Without an answer from the driver (none,
// or no device) the worker says what is wrong.
void Runner::checkGpus(const litmus::Test& test, int need, double timeoutSeconds) {
  if (!probe_) probe_ = std::make_unique<DeviceProbe>(probeDevices(timeoutSeconds));
  if (!probe_->ok) return;
  std::vector<int> use = devices_;
  if (use.empty())
    for (int i = 0; i < probe_->count; ++i) use.push_back(i);
  // the error points at the first thread on another GPU than the first thread's
  const litmus::Thread* at = &test.threads.front();
  for (const litmus::Thread& t : test.threads)
    if (t.gpu != test.threads.front().gpu) {
      at = &t;
      break;
    }
  const std::string what = "the GPU runner cannot run test " + test.name + ": it needs " + std::to_string(need) + " GPUs";
  if (use.size() < static_cast<size_t>(need))
    throw litmus::Error(at->loc, what + "; " + (devices_.empty() ? "this machine has " : "--gpus gives ") +
                                     std::to_string(use.size()));
  for (int i = 1; i < need; ++i) {
    const auto a = static_cast<size_t>(use[static_cast<size_t>(i)]), b = static_cast<size_t>(use[0]);
    if (a >= probe_->peer.size() || b >= probe_->peer[a].size() || !probe_->peer[a][b])
      throw litmus::Error(at->loc, what + ", and GPU " + std::to_string(a) + " cannot access the memory of GPU " +
                                       std::to_string(b) + " (peer access with native atomics, e.g. NVLink)");
  }
}
Runner::~Runner() { stop(pending_ != nullptr); }  // a test in flight is abandoned

// Closing the socket ends an idle worker; `kill` ends one that is stuck in a test.
void Runner::stop(bool kill) {
  if (!worker_) return;
  close(worker_->fd);
  if (kill) ::kill(worker_->pid, SIGKILL);
  int wstatus = 0;
  waitpid(worker_->pid, &wstatus, 0);
  worker_.reset();
}

// Starts a worker; false (with r.message) when the system refuses.
bool Runner::spawn(RunResult& r) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    r.message = "cannot create a socket for the runner process";
    return false;
  }
  const pid_t pid = forkChild(sv[1]);  // the worker outlives no parent (gpu-runner/child.h)
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    r.message = "cannot fork the runner process";
    return false;
  }
  if (pid == 0) workerMain(sv[1], devices_, trace_->slots());  // sv[0] is closed in the child (forkChild)
  close(sv[1]);
  worker_ = std::make_unique<Worker>(Worker{pid, sv[0]});
  ++started_;
  return true;
}

void Runner::submit(const litmus::Test& test, const RunOptions& options) {
  if (pending_) collect();  // one test at a time
  const auto begin = std::chrono::steady_clock::now();
  Plan plan = makePlan(test);
  plan.traceWaits = options.traceWaits;
  if (plan.gpus > 1) checkGpus(test, plan.gpus, options.timeoutSeconds);
  const std::string job = encodeJob(makeJob(test, plan, generateModule(test, plan), options));
  auto p = std::make_unique<Pending>();
  p->options = options;
  if (plan.tracing() && trace_->slots()) {  // the slots of this test's launches only
    std::fill_n(trace_->slots(), kTraceSlots, uint64_t{0});
    p->sites = waitSites(test);
    for (const litmus::Thread& t : test.threads) p->threads.push_back(t.name);
    p->traced = true;
  }
  // The watchdog's clock starts when the test is handed over (with a fresh worker, before it starts).
  p->deadline = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(options.timeoutSeconds > 0 ? options.timeoutSeconds : 1e9));
  for (int attempt = 0; attempt < 2 && !p->sent; ++attempt) {  // a worker that died idle is replaced once
    if (!worker_) {
      idleFresh_ = false;
      if (!spawn(p->failed)) break;
      p->fresh = true;
    } else if (idleFresh_) {  // started by prefetch for this test
      idleFresh_ = false;
      p->fresh = true;
    }
    p->sent = sendFrame(worker_->fd, job);
    if (!p->sent) stop(true);
  }
  p->prepSeconds = since(begin);
  pending_ = std::move(p);
}

RunResult Runner::collect() {
  if (!pending_) return RunResult{};
  const std::unique_ptr<Pending> p = std::move(pending_);
  if (!p->sent && !p->failed.message.empty()) return p->failed;
  const auto received = std::chrono::steady_clock::now();
  RunResult r;
  std::string text;
  const Read got = p->sent ? readFrame(worker_->fd, p->deadline, text) : Read::Closed;
  // A result that came only after the timeout (the caller was busy until then) is a timeout too.
  const bool parsed = got == Read::Done && deserialize(text, r);
  const bool late = got == Read::Late ||
                    (parsed && p->options.timeoutSeconds > 0 && r.workerSeconds > p->options.timeoutSeconds);
  if (late) {
    r = RunResult{};
    stop(true);
    if (p->options.progress) std::cerr << "\r\033[K" << std::flush;
    r.status = RunStatus::Timeout;
    r.message = "stopped by the watchdog after " + std::to_string(static_cast<int>(p->options.timeoutSeconds)) +
                " s (a barrier or wait that never completes?)";
    // the worker is gone, its writes to the shared pages stay: where the last launch was
    if (p->traced) r.waits = summarizeTrace(trace_->slots(), kTraceSlots, p->threads, p->sites);
  } else if (!parsed) {
    int wstatus = 0;
    if (worker_) {
      close(worker_->fd);
      waitpid(worker_->pid, &wstatus, 0);
      worker_.reset();
    }
    r = RunResult{};
    r.message = WIFSIGNALED(wstatus) ? "the runner process died (signal " + std::to_string(WTERMSIG(wstatus)) + ")"
                                     : "the runner process ended without a result";
  } else if (r.status != RunStatus::Ok || workerPerTest_) {
    stop(false);  // the worker exits after a failed test; the next test gets a fresh one
  }
  r.freshWorker = p->fresh;
  // The parent's part (generation, start-up, hand-over) and the worker's, without the GPU and the
  // JIT; not the time between submit and collect, which the caller may spend on the model.
  r.overheadSeconds = p->prepSeconds + std::max(0.0, r.workerSeconds - r.seconds - r.jitSeconds) +
                      (got == Read::Done ? 0.0 : since(received));
  return r;
}

// The module as submit will make it; a test the runner refuses, or one across GPUs (compiled for
// each of its devices when it runs), is left to submit.
void Runner::prefetch(const litmus::Test& test, const RunOptions& options) {
  std::string ptx;
  try {
    Plan plan = makePlan(test);
    if (plan.gpus > 1) return;
    plan.traceWaits = options.traceWaits;
    ptx = generateModule(test, plan);
  } catch (const litmus::Error&) {
    return;
  }
  RunResult failed;
  if (!worker_) {
    if (!spawn(failed)) return;
    idleFresh_ = true;
  }
  if (!sendFrame(worker_->fd, kPrefetchFrame + escape(options.jitCache) + "\n" + ptx)) stop(true);
}

RunResult Runner::run(const litmus::Test& test, const RunOptions& options) {
  submit(test, options);
  return collect();
}

RunResult run(const litmus::Test& test, const RunOptions& options) { return Runner().run(test, options); }

}  // namespace gpu
