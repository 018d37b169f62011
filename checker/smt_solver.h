// The Z3 solver as the symbolic engine uses it (private to checker/): an RAII handle whose every
// answer is explicit, confirmed where Z3 has been wrong, and bounded by the deadline.
#pragma once

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "checker/engine_common.h"
#include "checker/symrel.h"
#include "litmus/outcome.h"

namespace checker {

// The solver behind an RAII handle; every answer is explicit and "unknown" is never an answer.
// Z3 enforces its "timeout" only where it polls for it, and some of its preprocessing does not
// (issue 18: an mbarrier test ran for minutes past --timeout 10). So a watchdog thread also
// interrupts the context when the deadline passes; Z3_interrupt is meant to be called from
// another thread, and the check then answers unknown.
// A deadline that can also be stopped (Deadline::stoppedBy) is looked at every 20 ms.
class Watchdog {
 public:
  Watchdog(z3::context& c, const Deadline& deadline)
      : thread_([this, &c, deadline] {
          std::unique_lock lock(m_);
          for (;;) {
            double wait = deadline.set() ? deadline.secondsLeft() : 0.02;
            if (deadline.stoppable()) wait = std::min(wait, 0.02);
            if (cv_.wait_for(lock, std::chrono::duration<double>(wait), [this] { return done_; })) return;
            if (deadline.passed()) {
              c.interrupt();
              return;
            }
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(m_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: it starts once the members it uses exist
};

class Smt {
 public:
  enum class Answer { Sat, Unsat, Unknown };
  Smt() : solver_(ctx_, z3::solver::simple()) {}
  z3::context& ctx() { return ctx_; }
  void add(const z3::expr& e) { solver_.add(e); }
  void add(const Term& t) {
    if (!t.isTrue()) solver_.add(t.expr(ctx_));
  }
  // Z3 4.8.12 (Debian 12), solving incrementally as blocking clauses accumulate, has answered
  // unsat where a fresh solver over the same assertions answered sat (differential seeds 529 and
  // 577, with integer-valued terms), silently dropping allowed states. So an unsat is confirmed
  // by a fresh solver before the enumeration trusts it; if that one finds a model, enumeration
  // goes on with it.
  // Each call gets the time left to the deadline as Z3's own timeout, which Z3 enforces by
  // interrupting itself from a timer thread (what a watchdog calling interrupt() would do).
  // The first check of a solver is not incremental and needs no confirmation (most combinations
  // of paths are unsat at once: half the symbolic engine's time went into confirming them).
  Answer check(const Deadline& deadline) {
    const Answer a = checkWith(solver_, deadline);
    const bool incremental = checked_;
    checked_ = true;
    if (a != Answer::Unsat || !incremental) return noted(a, solver_);
    z3::solver fresh(ctx_, z3::solver::simple());
    for (const auto& e : solver_.assertions()) fresh.add(e);
    const Answer b = checkWith(fresh, deadline);
    if (b == Answer::Sat) solver_ = fresh;
    return noted(b, fresh);
  }
  // Why the last Unknown answer was unknown, as an outcome's reason: the one place where Z3's
  // reason text ("out of memory", "max. memory exceeded", "timeout", "canceled") is read.
  litmus::UnknownReason lastUnknown() const { return lastUnknown_; }
  z3::model model() { return solver_.get_model(); }
  static Answer checkWith(z3::solver& s, const Deadline& deadline) {
    deadline.check();
    std::optional<Watchdog> dog;
    if (deadline.set()) s.set("timeout", static_cast<unsigned>(std::max(1.0, deadline.secondsLeft() * 1000)));
    if (deadline.set() || deadline.stoppable()) dog.emplace(s.ctx(), deadline);
    switch (s.check()) {
      case z3::sat: return Answer::Sat;
      case z3::unsat: return Answer::Unsat;
      default: return Answer::Unknown;
    }
  }
  Answer noted(Answer a, z3::solver& s) {
    if (a == Answer::Unknown) {
      const std::string why = s.reason_unknown();
      lastUnknown_ = why.find("memory") != std::string::npos ? litmus::UnknownReason::Memory
                     : why == "timeout" || why == "canceled" ? litmus::UnknownReason::Timeout
                                                             : litmus::UnknownReason::SolverUnknown;
    }
    return a;
  }
  z3::expr fresh(const char* prefix) {
    const std::string name = prefix + std::to_string(next_++);
    return ctx_.bool_const(name.c_str());
  }
  z3::expr freshValue(unsigned bits) {
    const std::string name = "val" + std::to_string(next_++);
    return ctx_.bv_const(name.c_str(), bits);
  }
  // An unsigned rank wide enough to order n events.
  z3::expr freshRank(int n) {
    unsigned bits = 1;
    while ((1 << bits) < n) ++bits;
    const std::string name = "rank" + std::to_string(next_++);
    return ctx_.bv_const(name.c_str(), bits);
  }

 private:
  z3::context ctx_;
  z3::solver solver_;
  bool checked_ = false;
  int next_ = 0;
  litmus::UnknownReason lastUnknown_ = litmus::UnknownReason::None;
};

}  // namespace checker
