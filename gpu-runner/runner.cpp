// The watchdog: each test runs in a forked child that owns the CUDA context and sends its result
// back through a pipe. A child that does not finish in time is killed; the driver tears its
// context down with it, hung kernels included, and the next test starts on a clean GPU.
#include "gpu-runner/runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "gpu-runner/cuda_api.h"
#include "gpu-runner/harness.h"
#include "gpu-runner/plan.h"
#include "gpu-runner/ptx_gen.h"

namespace gpu {

std::string generatePtx(const litmus::Test& test) { return generateModule(test, makePlan(test)); }

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
     << r.overflow << "\nseconds " << r.seconds << "\n";
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

void writeAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Reads the child's pipe until EOF or the deadline; false when the deadline came first.
bool readUntil(int fd, double seconds, std::string& out) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  char buf[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return true;
    if (ready <= 0) continue;
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return true;
    out.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

RunResult run(const litmus::Test& test, const RunOptions& options) {
  const Plan plan = makePlan(test);
  const std::string ptx = generateModule(test, plan);
  int fds[2];
  RunResult r;
  if (pipe(fds) != 0) {
    r.message = "cannot create a pipe for the runner process";
    return r;
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.message = "cannot fork the runner process";
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    writeAll(fds[1], serialize(runOnDevice(test, plan, ptx, options)));
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  const bool finished = readUntil(fds[0], options.timeoutSeconds > 0 ? options.timeoutSeconds : 1e9, text);
  close(fds[0]);
  if (!finished) kill(pid, SIGKILL);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (!finished) {
    if (options.progress) std::cerr << "\r\033[K" << std::flush;
    r.status = RunStatus::Timeout;
    r.message = "stopped by the watchdog after " + std::to_string(static_cast<int>(options.timeoutSeconds)) +
                " s (a barrier or wait that never completes?)";
    return r;
  }
  if (!deserialize(text, r)) {
    r = RunResult{};
    r.message = WIFSIGNALED(wstatus)
                    ? "the runner process died (signal " + std::to_string(WTERMSIG(wstatus)) + ")"
                    : "the runner process ended without a result";
  }
  return r;
}

}  // namespace gpu
