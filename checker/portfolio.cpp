#include "checker/portfolio.h"

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <thread>

#include "checker/explicit_engine.h"
#include "checker/smt_engine.h"

namespace checker {

namespace {

// One engine's run: its result, or what it threw (a deadline that passed or was stopped: neither).
struct Attempt {
  std::optional<Result> result;
  std::exception_ptr error;
  bool answered() const { return result && result->outcome.status == litmus::Status::Done; }
};

template <class Run>
void attempt(Attempt& a, Run&& run) {
  try {
    a.result = run();
  } catch (const Deadline::Expired&) {
  } catch (...) {
    a.error = std::current_exception();
  }
}

}  // namespace

Result checkPortfolio(const litmus::Test& test, const Options& options, const Deadline& deadline) {
  const auto stopExplicit = std::make_shared<std::atomic<bool>>(false);
  const auto stopSmt = std::make_shared<std::atomic<bool>>(false);
  Attempt smt, expl;
  std::thread second([&] {
    attempt(smt, [&] { return checkSmt(test, options, deadline.stoppedBy(stopSmt)); });
    if (smt.answered()) stopExplicit->store(true);
  });
  attempt(expl, [&] { return checkExplicit(test, options, deadline.stoppedBy(stopExplicit)); });
  if (expl.answered()) stopSmt->store(true);
  second.join();
  if (expl.answered()) return std::move(*expl.result);
  if (smt.answered()) return std::move(*smt.result);
  if (expl.error) std::rethrow_exception(expl.error);
  if (expl.result) return std::move(*expl.result);
  throw Deadline::Expired{};
}

}  // namespace checker
