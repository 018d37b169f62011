// The suite runner: besides the tests, the one place that reads expectations (a test's `expect:` or
// a TSV in the format of dat3m-ptx/EXPECTED.tsv). It runs the checker first and only then compares
// each verdict with its expectation.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "judge/judge.h"
#include "suite/shard.h"

namespace suite {

// What became of a test: the one judge decides (judge/judge.h).
using Verdict = judge::Decision;

struct SuiteEntry {
  std::string path;
  std::string name;
  Verdict verdict = Verdict::NoExpectation;
  litmus::Expect expected = litmus::Expect::None;
  std::string liveness;  // expected "terminates" or "may-hang"; empty: no expectation
  bool raceFree = false;  // the test declares `races: none`
  std::optional<bool> verdictMet, livenessMet;  // judge::Judgement: empty where not decided
  std::string message;  // why it failed or has no verdict, or the error
  litmus::Outcome outcome;
};

struct SuiteReport {
  std::vector<SuiteEntry> entries;
  int count(Verdict v) const;
  double seconds = 0;
};

// Expectations keyed by path relative to the TSV's directory. Throws litmus::Error on a
// malformed file.
std::map<std::string, litmus::Expect> readExpectedTsv(const std::string& path);
// Liveness expectations (test, model, termination = terminates | may-hang), keyed likewise.
std::map<std::string, std::string> readLivenessTsv(const std::string& path);

struct SuiteOptions {
  checker::Options check;
  std::string expectedTsv;  // empty: use the tests' own `expect`
  std::string livenessTsv;  // empty: no liveness expectations
  // A verdict that rests on a decision stronger than the PTX text (Outcome::reliesOn) fails.
  bool failOnRelies = false;
  // Tests checked at once (suite/parallel.h); the entries and the calls of `progress` come in
  // the order of a serial run whatever the number.
  int jobs = 1;
  // Only the tests of this shard (suite/shard.h), the missing ones the TSVs list included.
  suite::Shard shard;
  // Called after each test, in order, on the calling thread (for output and progress).
  std::function<void(size_t done, size_t total, const SuiteEntry&)> progress;
};

SuiteReport runSuite(const std::vector<std::string>& files, const SuiteOptions& options);

void writeJunit(const std::string& path, const SuiteReport& report);
using judge::toString;

}  // namespace suite
