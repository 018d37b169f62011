#include "gpu-runner/child.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace gpu {

pid_t forkChild(int keep) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(0);  // the parent died before prctl
  const auto k = static_cast<unsigned>(keep);
  if (k > 3) close_range(3, k - 1, 0);
  close_range(k + 1, ~0U, 0);
  return 0;
}

}  // namespace gpu
