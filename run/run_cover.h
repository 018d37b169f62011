// `litmus run --cover S`: after a campaign's tests, rounds spent on the tests that ran to the end
// with final states the model allows and the GPU never showed (docs/gpu-runner.md, "Coverage").
// Each round runs each such test once more, under the stress profile a longer sweep would draw
// next, until every allowed state was seen or S seconds are spent; the histograms are added, so
// that the Coverage line counts what the whole campaign saw.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "gpu-runner/multi.h"
#include "run/run.h"

namespace runcli {

// A test the rounds may run again: what its pass ran and saw, added up with the rounds after it.
struct CoverEntry {
  const litmus::Test* test = nullptr;
  gpu::RunOptions options;   // the pass's options (the profile of the test's family, -n, --budget)
  int nextShare = 1;         // the sweep share whose profile round 1 draws (the pass ran 0..N-1)
  Model model;
  gpu::RunResult total;      // status Ok; the pass and every round that ended, added up
  Verdict passVerdict = Verdict::Ok, verdict = Verdict::Ok;  // the pass's, and the worst since
  bool stopped = false;      // a round did not end (timeout, error) or saw forbidden states: no more
};

// The allowed states of `m` that `r`'s histogram lacks.
size_t unseenAllowed(const gpu::RunResult& r, const Model& m);

struct CoverSummary {
  int rounds = 0;
  size_t runs = 0;
  uint64_t newlySeen = 0;  // allowed states the pass had not shown
  double seconds = 0;
  std::string fatal;       // the driver or device went away: why (the rounds stopped)
};

struct CoverContext {
  gpu::MultiRunner& runner;
  std::ostream* json = nullptr;  // one record per round's run ("coverRound"), as `litmus merge` adds
  std::string jsonPath;          // where a violating round's profile is saved (beside it)
};

// Runs rounds until no entry has unseen allowed states or `seconds` have passed (a round's run
// starts only before then). Prints a line per round, and the report of a run that showed states
// the model forbids, with the profile to replay it.
CoverSummary coverRounds(const CoverContext& ctx, std::vector<CoverEntry>& entries, double seconds);

// "Cover: ..." (rounds, runs, states seen for the first time, the tests still short of some).
void printCover(std::ostream& os, const CoverSummary& s, const std::vector<CoverEntry>& entries);

}  // namespace runcli
