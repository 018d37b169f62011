// The progress line of long commands (check, suite): "[12/589] name, 40 s, about 1 min left" on
// stderr, rewritten in place, and only when stderr is a terminal: piped or redirected output
// gets nothing from it. The estimate is the mean time per finished test times the tests left
// (with -j N the tests finish N at a time, so the mean already counts the parallelism).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

namespace suite {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled = isatty(STDERR_FILENO) != 0) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }

  void update(size_t done, size_t total, const std::string& name) {
    if (!enabled_) return;
    const double spent = std::chrono::duration<double>(Clock::now() - start_).count();
    std::string line = "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + name + ", " +
                       duration(spent);
    if (done > 0 && done < total) line += ", about " + duration(spent / done * (total - done)) + " left";
    std::cerr << "\r\033[K" << line << std::flush;
  }
  // Erases the line, before other output and at the end.
  void clear() {
    if (enabled_) std::cerr << "\r\033[K" << std::flush;
  }

  static std::string duration(double s) {
    char buf[32];
    if (s < 90) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < 5400) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
    else std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    return buf;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace suite
