#include "run/run_cover.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "gpu-runner/sweep.h"

namespace runcli {

size_t unseenAllowed(const gpu::RunResult& r, const Model& m) {
  size_t n = 0;
  for (const litmus::State& s : m.allowed)
    if (std::none_of(r.histogram.begin(), r.histogram.end(), [&](const auto& e) { return e.first == s; })) ++n;
  return n;
}

namespace {

Verdict worseOf(Verdict a, Verdict b) { return judge::badness(b) < judge::badness(a) ? b : a; }

nlohmann::ordered_json roundJson(const CoverEntry& e, const gpu::RunResult& part, const Judgement& j,
                                 const gpu::RunOptions& o, int round) {
  nlohmann::ordered_json line = runJson(*e.test, part, e.model, j, o.seed);
  line["coverRound"] = round;
  nlohmann::ordered_json profile = nlohmann::ordered_json::object();
  for (const auto& [key, value] : gpu::profileValues(o.profile)) profile[key] = value;
  line["coverProfile"] = profile;
  line["budget"] = o.budgetSeconds > 0 ? nlohmann::ordered_json(o.budgetSeconds) : nlohmann::ordered_json(nullptr);
  return line;
}

// One more run of `e` under round `round`'s profile; false when the driver or device went away.
bool runAgain(const CoverContext& ctx, CoverEntry& e, int round, CoverSummary& s) {
  const gpu::RunOptions o = gpu::drawnShare(e.options, e.nextShare + round - 1);
  const gpu::RunResult part = ctx.runner.run(*e.test, o);
  ++s.runs;
  if (fatal(part)) {
    s.fatal = part.message;
    return false;
  }
  const Judgement j = judge(*e.test, part, e.model);
  e.verdict = worseOf(e.verdict, j.verdict);
  if (ctx.json) *ctx.json << roundJson(e, part, j, o, round).dump() << "\n" << std::flush;
  if (part.status != gpu::RunStatus::Ok) {
    // a hang or a failure under this profile: the test's report says so, and it gets no more rounds
    e.stopped = true;
    std::cout << "Cover round " << round << ": Test " << e.test->name << ": " << judge::toString(j.verdict) << ": "
              << part.message << " (seed " << o.seed << ", its profile in the JSON's coverProfile)\n";
    return true;
  }
  const size_t before = unseenAllowed(e.total, e.model);
  gpu::addRun(e.total, part);
  s.newlySeen += before - unseenAllowed(e.total, e.model);
  if (j.violations > 0) {
    e.stopped = true;  // its verdict is made; the report and the profile replay it
    printRun(std::cout, *e.test, part, e.model, j, o.seed, "Cover round " + std::to_string(round) + "\n");
    std::cout << replayAdvice(*e.test, o.profile,
                              {"Cover round " + std::to_string(round) + " saw states the model forbids",
                               "cover" + std::to_string(round), "ROUND.profile", o.seed, o.count, false},
                              ctx.jsonPath) << "\n";
  }
  return true;
}

}  // namespace

CoverSummary coverRounds(const CoverContext& ctx, std::vector<CoverEntry>& entries, double seconds) {
  CoverSummary s;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  bool timeUp = false;
  for (int round = 1; !timeUp; ++round) {
    size_t ran = 0;
    const uint64_t seenBefore = s.newlySeen;
    for (CoverEntry& e : entries) {
      if (e.stopped || unseenAllowed(e.total, e.model) == 0) continue;
      if (elapsed() >= seconds) {
        timeUp = true;
        break;
      }
      ++ran;
      if (!runAgain(ctx, e, round, s)) {
        s.seconds = elapsed();
        return s;
      }
    }
    if (ran == 0) break;
    s.rounds = round;
    size_t left = 0, tests = 0;
    for (const CoverEntry& e : entries)
      if (const size_t n = unseenAllowed(e.total, e.model)) left += n, ++tests;
    std::cout << "Cover round " << round << ": " << ran << " tests run, " << s.newlySeen - seenBefore
              << " allowed states seen for the first time; " << left << " still unseen in " << tests << " tests\n"
              << std::flush;
  }
  s.seconds = elapsed();
  return s;
}

void printCover(std::ostream& os, const CoverSummary& s, const std::vector<CoverEntry>& entries) {
  std::vector<std::string> short_;
  size_t left = 0;
  for (const CoverEntry& e : entries)
    if (const size_t n = unseenAllowed(e.total, e.model)) {
      left += n;
      short_.push_back(e.test->name + " (" + std::to_string(n) + ")");
    }
  os << "Cover: " << s.rounds << " rounds, " << s.runs << " runs of " << entries.size() << " tests in " << std::fixed
     << std::setprecision(1) << s.seconds << std::defaultfloat << " s: " << s.newlySeen
     << " allowed states seen that the pass had not shown; " << left << " still unseen";
  if (!short_.empty()) {
    os << " in " << short_.size() << " of them:";
    for (size_t k = 0; k < short_.size() && k < 10; ++k) os << (k ? ", " : " ") << short_[k];
    if (short_.size() > 10) os << ", and " << short_.size() - 10 << " more";
  }
  os << "\n";
}

}  // namespace runcli
