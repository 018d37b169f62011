// probeDevices: the device count and the peer-access matrix, from a short-lived child process, so
// that the parent (which forks the workers) never initialises the driver itself.
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "gpu-runner/child.h"
#include "gpu-runner/cuda_api.h"
#include "gpu-runner/runner.h"

namespace gpu {

namespace {

// "count N" and a "peer A B" line per pair that can reach each other's memory with atomics; or
// "error WHY".
std::string ask() {
  cuda::Api api;
  std::string why;
  if (!cuda::load(api, why)) return "error " + why + "\n";
  int count = 0;
  if (api.cuInit(0) != cuda::CUDA_SUCCESS || api.cuDeviceGetCount(&count) != cuda::CUDA_SUCCESS || count == 0)
    return "error no usable CUDA device\n";
  std::ostringstream out;
  out << "count " << count << "\n";
  for (int a = 0; a < count && api.cuDeviceCanAccessPeer; ++a)
    for (int b = 0; b < count; ++b) {
      cuda::CUdevice da = 0, db = 0;
      int can = 0, atomics = 1;
      if (a == b || api.cuDeviceGet(&da, a) != cuda::CUDA_SUCCESS || api.cuDeviceGet(&db, b) != cuda::CUDA_SUCCESS ||
          api.cuDeviceCanAccessPeer(&can, da, db) != cuda::CUDA_SUCCESS || !can)
        continue;
      if (api.cuDeviceGetP2PAttribute &&
          api.cuDeviceGetP2PAttribute(&atomics, cuda::CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, da, db) !=
              cuda::CUDA_SUCCESS)
        atomics = 0;
      if (atomics) out << "peer " << a << " " << b << "\n";
    }
  return out.str();
}

DeviceProbe parse(const std::string& text) {
  DeviceProbe p;
  std::istringstream in(text);
  std::string key;
  while (in >> key) {
    if (key == "error") {
      std::getline(in, p.message);
      if (!p.message.empty() && p.message[0] == ' ') p.message.erase(0, 1);
      return p;
    }
    if (key == "count") {
      in >> p.count;
      if (p.count < 0 || p.count > 1024) break;
      p.peer.assign(static_cast<size_t>(p.count), std::vector<bool>(static_cast<size_t>(p.count), false));
      for (int i = 0; i < p.count; ++i) p.peer[static_cast<size_t>(i)][static_cast<size_t>(i)] = true;
      p.ok = true;
    } else if (key == "peer") {
      int a = -1, b = -1;
      in >> a >> b;
      if (a >= 0 && b >= 0 && a < p.count && b < p.count) p.peer[static_cast<size_t>(a)][static_cast<size_t>(b)] = true;
    }
  }
  if (!p.ok) p.message = "the device probe gave no answer";
  return p;
}

}  // namespace

DeviceProbe probeDevices(double timeoutSeconds) {
  int fds[2];
  if (pipe(fds) != 0) return {false, "cannot create a pipe for the device probe", 0, {}};
  const pid_t pid = forkChild(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {false, "cannot fork the device probe", 0, {}};
  }
  if (pid == 0) {
    const std::string text = ask();
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                               std::chrono::duration<double>(timeoutSeconds > 0 ? timeoutSeconds : 60));
  std::string text;
  bool late = false;
  for (char chunk[4096];;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      late = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000))) <= 0) continue;
    const ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n <= 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (late) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (late) return {false, "the device probe did not answer in time", 0, {}};
  return parse(text);
}

}  // namespace gpu
