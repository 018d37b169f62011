// The time by which the work on one test must give up (--timeout): reading its file, validating
// it, the model's value domains, both engines and the explanations. Each phase looks at it where
// work can pile up (per line, per thread, per location, between candidates, inside the loops that
// build solver terms, before each solver call) and throws Deadline::Expired once it has passed;
// whoever started the work turns that into an Unknown verdict. Reading the steady clock costs
// tens of nanoseconds, far less than any step it guards, so it is read every time rather than
// every k-th time.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>

namespace litmus {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  struct Expired {};  // thrown by check(): unwinds a phase to whoever started the work

  Deadline() = default;  // none
  explicit Deadline(double seconds)
      : seconds_(seconds),
        end_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(seconds > 0 ? seconds : 0))) {}
  // The same deadline for work that continues after `spent` seconds elsewhere (a test read
  // before it is checked): it ends `seconds` after the work began.
  Deadline(double seconds, double spent) : Deadline(seconds) {
    if (set()) end_ -= std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(spent));
  }
  // The same deadline that also passes once `stop` is raised: work raced by other work (the
  // engines of `--engine portfolio`) stops when the other answers first.
  Deadline stoppedBy(std::shared_ptr<const std::atomic<bool>> stop) const {
    Deadline d = *this;
    d.stop_ = std::move(stop);
    return d;
  }
  bool set() const { return seconds_ > 0; }
  bool stoppable() const { return stop_ != nullptr; }
  double seconds() const { return seconds_; }
  bool stopped() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  bool passed() const { return (set() && Clock::now() >= end_) || stopped(); }
  void check() const {
    if (passed()) throw Expired{};
  }
  // Seconds until the deadline (at least a millisecond); 0 when there is none.
  double secondsLeft() const {
    if (!set()) return 0;
    const double left = std::chrono::duration<double>(end_ - Clock::now()).count();
    return left > 0.001 ? left : 0.001;
  }
  std::string describe() const {  // "timeout after T s"
    std::ostringstream os;
    os << "timeout after " << seconds_ << " s";
    return os.str();
  }

 private:
  double seconds_ = 0;
  Clock::time_point end_{};
  std::shared_ptr<const std::atomic<bool>> stop_;
};

}  // namespace litmus
