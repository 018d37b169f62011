// Checking many tests at once (docs/scale.md): the default number of workers, and a pool that
// computes results on worker threads while the calling thread hands them on in input order, so
// that output printed as results arrive is the output of a serial run, byte for byte.
// Header-only so that run/run.cpp and gen/ use the same code without another library.
#pragma once

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace suite {

// The cores this process may run on: its affinity mask (taskset, a Slurm allocation, a cgroup's
// cpuset), else std::thread::hardware_concurrency, else 1.
inline int defaultJobs() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Calls work(i) for i in [0, n) on `jobs` threads (the calling thread waits, it does not check),
// and emit(i, result) on the calling thread in order 0, 1, 2, ..., each as soon as it and every
// earlier one are done. With jobs <= 1 no thread is started: work and emit alternate on the
// calling thread, exactly the serial loop. An exception from work is rethrown by emit's thread
// in the position of its test (results after it are discarded, workers stop taking new tests).
template <class Result, class Work, class Emit>
void orderedParallel(size_t n, int jobs, Work&& work, Emit&& emit) {
  if (jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) emit(i, work(i));
    return;
  }
  struct Slot {
    std::optional<Result> value;
    std::exception_ptr error;
    bool done = false;
  };
  std::vector<Slot> slots(n);
  std::mutex m;
  std::condition_variable ready;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  auto worker = [&] {
    for (size_t i; !stop && (i = next++) < n;) {
      Slot s;
      try {
        s.value.emplace(work(i));
      } catch (...) {
        s.error = std::current_exception();
      }
      std::lock_guard lock(m);
      slots[i].value = std::move(s.value);
      slots[i].error = s.error;
      slots[i].done = true;
      ready.notify_one();
    }
  };
  std::vector<std::thread> pool;
  const size_t threads = std::min<size_t>(static_cast<size_t>(jobs), n);
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  std::exception_ptr failed;
  for (size_t i = 0; i < n && !failed; ++i) {
    std::unique_lock lock(m);
    ready.wait(lock, [&] { return slots[i].done; });
    Slot s = std::move(slots[i]);
    lock.unlock();
    if (s.error) {
      failed = s.error;
      break;
    }
    try {
      emit(i, std::move(*s.value));
    } catch (...) {
      failed = std::current_exception();
    }
  }
  stop = true;
  for (std::thread& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace suite
