// The runner's child processes (the worker, the device probe): forked so that the driver never
// starts in the parent, and tied to it.
#pragma once

#include <sys/types.h>

namespace gpu {

// Flushes the parent's streams (a child must not print them again) and forks. In the child: dies
// with the parent (a worker killed mid-campaign must not leave a hung kernel holding the GPU), and
// closes every descriptor above 2 but `keep` (another worker's socket held open in this child would
// keep that worker from seeing its end). Returns fork's result: -1, 0 in the child, or the pid.
pid_t forkChild(int keep);

}  // namespace gpu
