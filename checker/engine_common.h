// Pieces both engines share: the initial writes of a candidate, and the parts of an Outcome that
// come from the test rather than from the search. Internal to checker/.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "litmus/outcome.h"
#include "model/relations.h"
#include "semantics/semantics.h"

namespace checker {

// The time by which a check must give up (--timeout), shared by everything that runs for one test
// (both engines under --engine both). Engines look at it wherever work can pile up: between
// candidates, inside the loops that build solver terms, before each solver call. Reading the
// steady clock costs tens of nanoseconds, far less than any step it guards, so it is read every
// time rather than every k-th time.
class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  struct Expired {};  // thrown by check(): unwinds an engine's term construction to its top

  Deadline() = default;  // none
  explicit Deadline(double seconds)
      : seconds_(seconds),
        end_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(seconds > 0 ? seconds : 0))) {}
  bool set() const { return seconds_ > 0; }
  double seconds() const { return seconds_; }
  bool passed() const { return set() && Clock::now() >= end_; }
  void check() const {
    if (passed()) throw Expired{};
  }
  // Seconds until the deadline (at least a millisecond); 0 when there is none.
  double secondsLeft() const {
    if (!set()) return 0;
    const double left = std::chrono::duration<double>(end_ - Clock::now()).count();
    return left > 0.001 ? left : 0.001;
  }
  std::string describe() const;  // "timeout after T s"

 private:
  double seconds_ = 0;
  Clock::time_point end_{};
};

// Appends one initial write per physical location (§8.2.6) to g; returns their event indices.
std::vector<int> addInitialWrites(const model::Program& prog, model::EventGraph& g);

// Records an allowed final state and the executions (or, for the symbolic engine, 1) that end in it.
void addState(litmus::Outcome& out, const litmus::Test& test, const litmus::State& st,
              uint64_t executions);

// The instruction an event of a thread comes from, as written; "(exit)" for a thread's exit.
std::string instrText(const litmus::Test& test, const model::Event& e);

// How the threads of a hanging execution are stuck, e.g. "P1 waits forever at 'bar.sync 1'".
std::string describeHang(const litmus::Test& test, const std::vector<const model::Trace*>& traces);

// Name, observed terms, quantifier, condition, engine, loop-bound note.
void describeTest(litmus::Outcome& out, const litmus::Test& test, const char* engine, bool bounded,
                  int unroll);

}  // namespace checker
