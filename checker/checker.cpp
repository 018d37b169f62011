#include "checker/checker.h"

#include "base/limit_error.h"
#include "checker/engine_common.h"
#include "checker/explain_sync.h"
#include "checker/explicit_engine.h"
#include "checker/readings_check.h"
#include "checker/portfolio.h"
#include "checker/smt_engine.h"
#include "model/bitrel.h"
#include "model/reliance.h"
#include "semantics/semantics.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iterator>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <sstream>

namespace checker {

const char* toString(Engine e) {
  switch (e) {
    case Engine::Auto: return "auto";
    case Engine::Explicit: return "explicit";
    case Engine::Smt: return "smt";
    case Engine::Both: return "both";
    case Engine::Portfolio: return "portfolio";
  }
  return "?";
}

std::optional<Engine> parseEngine(const std::string& s) {
  for (Engine e : {Engine::Auto, Engine::Explicit, Engine::Smt, Engine::Both, Engine::Portfolio})
    if (s == toString(e)) return e;
  return std::nullopt;
}

std::string formatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  std::ostringstream os;
  // Whole numbers as they are ("64 MiB"); others to one decimal ("5.5 GiB").
  if (v == static_cast<double>(static_cast<uint64_t>(v))) os << static_cast<uint64_t>(v);
  else os << std::fixed << std::setprecision(1) << v;
  os << " " << kUnits[u];
  return os.str();
}

std::string Disagreement::describe(const std::vector<litmus::Term>& observed) const {
  if (empty()) return "";
  std::string out = "engines disagree on " + test + ":";
  for (const auto& st : explicitOnly) out += " [explicit only: " + litmus::formatState(observed, st) + "]";
  for (const auto& st : smtOnly) out += " [smt only: " + litmus::formatState(observed, st) + "]";
  if (observations)
    out += std::string(" [observation: explicit ") + litmus::toString(observations->first) + ", smt " +
           litmus::toString(observations->second) + "]";
  if (hangDiffers)
    out += std::string(" [may hang: explicit ") + (explicitMayHang ? "yes" : "no") + ", smt " +
           (smtMayHang ? "yes" : "no") + "]";
  return out;
}

namespace {

// Runs both engines, under one deadline for the pair, and compares their sets of allowed final
// states.
Result checkBoth(const litmus::Test& test, const Options& options, const Deadline& deadline) {
  Result e = checkExplicit(test, options, deadline);
  if (e.outcome.status != litmus::Status::Done) return e;
  Result s = checkSmt(test, options, deadline);
  if (s.outcome.status != litmus::Status::Done) return s;
  const std::set<litmus::State> a(e.outcome.states.begin(), e.outcome.states.end());
  const std::set<litmus::State> b(s.outcome.states.begin(), s.outcome.states.end());
  Disagreement& d = e.disagreement;
  d.test = test.name;
  if (e.outcome.statesCut || s.outcome.statesCut) {  // each lists its own first states
    if (e.outcome.observation() != s.outcome.observation())
      d.observations = {e.outcome.observation(), s.outcome.observation()};
  } else {
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d.explicitOnly));
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(d.smtOnly));
  }
  d.explicitMayHang = !e.outcome.hang.empty();
  d.smtMayHang = !s.outcome.hang.empty();
  d.hangDiffers = d.explicitMayHang != d.smtMayHang;
  e.outcome.engine = "both";
  return e;
}

// Auto: the explicit engine is fastest on litmus-sized tests and on synchronization patterns
// (read values are lazy, so paths do not multiply with them). It enumerates coherence orders one
// by one, though, and plain writes racing to one location make them factorially many: 8 writes of
// 4 threads take it over 30 s, the symbolic engine 0.1 s (docs/performance.md). Atomic writes are
// ordered by what they read (Atomicity) and do not count.
constexpr size_t kAutoSmtRacingWrites = 6;

// The most plain writes to one location that an execution can make (each thread's longest path),
// counted sparsely: a trace writes few of a test's locations. A test whose initial writes alone
// exceed both engines' bound on events (one per location) ends here, before any search.
size_t racingWrites(const litmus::Test& test, int unroll, const Deadline& deadline) {
  const model::Program prog = model::buildProgram(test);
  if (prog.locNames.size() > static_cast<size_t>(model::kMaxEvents))
    throw litmus::LimitError({test.file, 1, 1}, "test has more than " + std::to_string(model::kMaxEvents) +
                                                " events (" + std::to_string(prog.locNames.size()) +
                                                " initial writes): too large for the engines");
  const model::Domain dom = model::valueDomain(prog, unroll, deadline);
  std::map<int, size_t> perLoc;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    deadline.check();
    std::map<int, size_t> most;
    for (const auto& tr : model::enumerateTraces(prog, static_cast<int>(t), dom, unroll, deadline).traces) {
      std::map<int, size_t> n;
      for (const auto& e : tr.events)
        if (e.kind == model::EventKind::Write && !e.atomic) ++n[e.loc];
      for (const auto& [l, k] : n) most[l] = std::max(most[l], k);
    }
    for (const auto& [l, k] : most) perLoc[l] += k;
  }
  size_t out = 0;
  for (const auto& [l, k] : perLoc) out = std::max(out, k);
  return out;
}

// The engine that checks the test; Auto decides by the writes racing to one location.
Engine chooseEngine(const litmus::Test& test, const Options& options, const Deadline& deadline) {
  if (options.engine != Engine::Auto) return options.engine;
  return racingWrites(test, options.unroll, deadline) > kAutoSmtRacingWrites ? Engine::Smt : Engine::Explicit;
}

Result dispatch(const litmus::Test& test, const Options& options, Engine engine, const Deadline& deadline) {
  switch (engine) {
    case Engine::Smt: return checkSmt(test, options, deadline);
    case Engine::Both: return checkBoth(test, options, deadline);
    case Engine::Portfolio: return checkPortfolio(test, options, deadline);
    default: return checkExplicit(test, options, deadline);
  }
}

// Z3 reports a failed allocation (its allocator found malloc empty-handed) as an exception with
// this message (Z3_MEMOUT_FAIL) when it happens while terms are built; inside a check, as an
// unknown answer that the symbolic engine reports as UnknownReason::Memory.
constexpr const char* kZ3OutOfMemory = "out of memory";

// A check that ran out of memory or time outside the engines' own handling of the deadline (the
// value domains, building the program, an explanation): an Unknown outcome that says which limit
// it hit. By the time this runs, unwinding has released everything the engine held, so building
// it can allocate.
Result gaveUp(const litmus::Test& test, const Options& options, Engine engine, litmus::UnknownReason why,
             std::string detail) {
  Result r;
  describeTest(r.outcome, test, toString(engine), false, options.unroll);
  r.outcome.giveUp(why, std::move(detail));
  return r;
}

// A test beyond an engine's fixed limits: Unknown, with where it grew too large.
Result tooLarge(const litmus::Test& test, const Options& options, const litmus::LimitError& e) {
  Result r;
  // not chooseEngine: deciding the engine may itself meet the limit
  describeTest(r.outcome, test, toString(options.engine), false, options.unroll);
  const litmus::SourceLoc& l = e.loc();
  r.outcome.giveUp(litmus::UnknownReason::TooLarge,
                   l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ": " + e.message());
  return r;
}

std::string memoryLimit(const Options& options) {
  return options.maxMemoryBytes ? "memory limit of " + formatBytes(options.maxMemoryBytes) + " exceeded"
                                : std::string("out of memory");
}

// What an engine found before it gave up is no verdict: an Unknown outcome keeps only what
// describes the test and the search (name, condition, engine, candidates examined, time).
void dropPartialResults(Result& r) {
  auto& o = r.outcome;
  o.states.clear();
  o.satisfies.clear();
  o.positive = o.negative = 0;
  o.races.clear();
  o.hang.clear();
  r.witnesses.clear();
  r.violation.reset();
  r.disagreement = {};
}

// A verdict that a stronger-than-text decision could have made says which decisions it may rest
// on (model/reliance.h): a Never or an Always, since a stronger model only removes executions; a
// Sometimes holds under the text's weaker reading too.
void markReliances(litmus::Outcome& o, const litmus::Test& test, const Options& options) {
  if (o.observation() == litmus::Observation::Sometimes) return;
  o.reliesOn = model::reliances(test);
  if (o.loopBound >= 0) o.reliesOn.push_back(model::loopBoundReliance(options.unroll));
}

}  // namespace

// Memory: a failed allocation anywhere in an engine (std::bad_alloc from our containers, Z3's
// "out of memory") unwinds to here and ends the test Unknown with the limit it hit, instead of
// ending the program; what the engine held is freed by the unwinding, so the next test starts
// with the memory this one had. The limit itself is the caller's (base/memory_limit.h).
//
// --timeout is one deadline for the whole check (both engines under --engine both). It is kept
// in-process: engines read the clock in their loops and in every symbolic relation operation,
// and Z3 gets the time left as its own timeout. Running the engine in a child process killed at
// the deadline was the alternative; it is not needed once term construction looks at the
// deadline and Z3 terms are released (see symrel.h), and it would cost a fork per test plus a
// serialisation of witnesses and explanations (docs/performance.md, "Deadlines").
Result check(const litmus::Test& given_test, const Options& given) {
  const auto t0 = std::chrono::steady_clock::now();
  Options options = given;
  options.readings = model::withTestReadings(given.readings, given_test);  // a bad name: located error
  // D42's reading decides paths (semantics/), which read it off the test: pin it there
  std::shared_ptr<litmus::Test> pinned;
  if (options.readings.of(model::Decision::D42) != 0 && !model::pins(given_test, "D42", options.readings.nameOf(model::Decision::D42))) {
    pinned = std::make_shared<litmus::Test>(given_test);
    std::erase_if(pinned->readings, [](const auto& p) { return p.decision == "D42"; });
    pinned->readings.push_back({"D42", std::string(options.readings.nameOf(model::Decision::D42)), {}});
  }
  const litmus::Test& test = pinned ? *pinned : given_test;
  const Deadline deadline(options.timeoutSeconds, options.spentSeconds);
  Engine engine = options.engine;
  Result r;
  try {
    engine = chooseEngine(test, options, deadline);
    r = dispatch(test, options, engine, deadline);
  } catch (const litmus::LimitError& e) {
    r = tooLarge(test, options, e);
  } catch (const std::bad_alloc&) {
    r = gaveUp(test, options, engine, litmus::UnknownReason::Memory, memoryLimit(options));
  } catch (const z3::exception& e) {
    if (std::string(e.msg()) != kZ3OutOfMemory) throw;
    r = gaveUp(test, options, engine, litmus::UnknownReason::Memory, memoryLimit(options));
  } catch (const Deadline::Expired&) {
    r = gaveUp(test, options, engine, litmus::UnknownReason::Timeout, deadline.describe());
  }
  // Z3 out of memory inside a check answers unknown: the limit's message, as for any other
  // allocation that failed.
  if (r.outcome.unknownReason == litmus::UnknownReason::Memory)
    r = gaveUp(test, options, engine, litmus::UnknownReason::Memory, memoryLimit(options));
  if (r.outcome.status != litmus::Status::Done) dropPartialResults(r);
  else markReliances(r.outcome, test, options);
  for (auto& w : r.witnesses) w.readings = options.readings;
  // An allowed state's explanation, under the same deadline: what is printed is established
  // first (a cut-off explanation establishes nothing, and the check is Unknown for it).
  if (options.explain && r.outcome.status == litmus::Status::Done && !r.violation && r.explainCutOff.empty()) {
    try {
      explainAllowed(test, options, deadline, r);
    } catch (const Deadline::Expired&) {
      r.gaps.clear();
      r.explainCutOff = deadline.describe() + " while explaining the allowed state";
    } catch (const std::bad_alloc&) {
      r.gaps.clear();
      r.explainCutOff = memoryLimit(options) + " while explaining the allowed state";
    }
  }
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (options.alternatives && r.outcome.status == litmus::Status::Done) {
    const double left = options.timeoutSeconds > 0 ? options.timeoutSeconds - options.spentSeconds - elapsed() : 0;
    for (auto& rel : readingReliances(test, options, r.outcome, left)) r.outcome.reliesOn.push_back(std::move(rel));
  }
  r.outcome.seconds = elapsed() + options.spentSeconds;
  r.pinnedTest = std::move(pinned);  // the witnesses' events point into it
  return r;
}

}  // namespace checker
