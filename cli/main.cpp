// litmus: the command-line front door. Parses arguments, calls the libraries, maps results to
// exit codes: 0 ok, 1 a check or expectation failed, 2 bad input or usage, 3 unknown/timeout.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "checker/graph.h"
#include "cli/run.h"
#include "suite/suite.h"
#include "litmus/files.h"
#include "litmus/parse.h"

namespace {

constexpr const char* kUsage = R"(usage: litmus COMMAND [OPTIONS] ...

commands:
  check PATH...      every final state the PTX model allows, per test (herd-style output)
  suite PATH...      check tests against expectations: a line per failure, then a summary
  convert FILE       print a herd .litmus test as YAML
  run PATH...        run tests on the GPU: histogram of final states against the model
                     (`litmus run --help` for its options)
  help               this text

options (check, suite):
  --engine E         explicit | smt | both | auto (default auto)
  --unroll N         backward jumps allowed per branch (default 2)
  --timeout S        seconds per test; an unfinished test is reported Unknown
                     (check: exit 3; suite: counted as failed, exit 1)
check:
  --json             one JSON object per test, one per line
  --explain          for an outcome the condition asks about that the model forbids, print a
                     candidate execution's violated axiom and the cycle that breaks it
  --graph DIR        DOT (and SVG, if Graphviz is installed) of a witness per allowed state
                     and of a candidate that shows why a forbidden outcome is forbidden
suite:
  --expected FILE    expectations from a TSV (test, model, quantifier, condition), paths
                     relative to the file; default: the `expect` field of each test
  --liveness FILE    liveness expectations from a TSV (test, model, termination: terminates
                     or may-hang), paths relative to the file
  --junit FILE       write a JUnit XML report
  --json             print the per-test results as JSON lines instead of failure lines
)";

struct Args {
  std::string command;
  std::vector<std::string> paths;
  checker::Options opt;
  bool json = false, explain = false;
  std::string graphDir, expected, liveness, junit;
};

struct UsageError {
  std::string message;
};

double parseNumber(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(d >= 0) || d > 1e9) throw UsageError{"bad value '" + v + "' for " + flag};
  return d;
}

Args parseArgs(int argc, char** argv) {
  Args a;
  if (argc < 2) throw UsageError{"missing command"};
  a.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError{s + " needs a value"};
      return argv[++i];
    };
    if (s == "--json") a.json = true;
    else if (s == "--explain") a.explain = true;
    else if (s == "--graph") a.graphDir = value();
    else if (s == "--expected") a.expected = value();
    else if (s == "--liveness") a.liveness = value();
    else if (s == "--junit") a.junit = value();
    else if (s == "--timeout") a.opt.timeoutSeconds = parseNumber(s, value());
    else if (s == "--unroll") {
      const std::string v = value();
      const double d = parseNumber(s, v);
      if (d != static_cast<int>(d) || d > 64) throw UsageError{"bad value '" + v + "' for --unroll"};
      a.opt.unroll = static_cast<int>(d);
    }
    else if (s == "--engine") {
      const std::string v = value();
      auto e = checker::parseEngine(v);
      if (!e) throw UsageError{"unknown engine '" + v + "'"};
      a.opt.engine = *e;
    } else if (s.size() > 1 && s[0] == '-') throw UsageError{"unknown option " + s};
    else a.paths.push_back(s);
  }
  return a;
}

// Parses every file before printing anything, so that bad input never leaves half an answer.
std::vector<litmus::Test> parseAll(const std::vector<std::string>& files, bool& bad) {
  std::vector<litmus::Test> tests;
  for (const auto& f : files) {
    try {
      tests.push_back(litmus::parseFile(f));
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      bad = true;
    }
  }
  return tests;
}

int cmdCheck(const Args& a) {
  if (a.paths.empty()) throw UsageError{"check needs at least one test file or directory"};
  bool bad = false;
  const auto tests = parseAll(litmus::findTestFiles(a.paths), bad);
  if (bad) return 2;
  checker::Options opt = a.opt;
  opt.witnesses = !a.graphDir.empty();
  opt.explain = a.explain || opt.witnesses;
  int rc = 0;
  for (const auto& t : tests) {
    checker::Result r;
    try {
      r = checker::check(t, opt);
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      rc = std::max(rc, 2);
      continue;
    }
    std::ostringstream os;
    if (a.json) {
      litmus::printJson(os, r.outcome);
      os << "\n";
    } else {
      litmus::printHerd(os, r.outcome);
    }
    std::cout << os.str() << std::flush;
    const bool targetForbidden = t.quantifier == litmus::Quantifier::Forall ? r.outcome.negative == 0
                                                                            : r.outcome.positive == 0;
    if (a.explain && !a.json && r.outcome.status == litmus::Status::Done && !r.violation &&
        targetForbidden)
      std::cout << "Forbidden: no candidate execution reaches the outcome: the values it needs are "
                   "never written (§8.10.4 No-Thin-Air rules out values from nowhere)\n\n";
    if (a.explain && r.violation && !a.json)
      std::cout << "Forbidden " << litmus::formatState(t.observed, r.violation->execution.state) << " "
                << checker::describe(t, *r.violation) << "\n";
    if (!a.graphDir.empty()) checker::writeGraphs(a.graphDir, t, r);
    if (!r.mismatch.empty()) {
      std::cerr << t.file << ": " << r.mismatch << "\n";
      rc = std::max(rc, 1);
    }
    if (r.outcome.status != litmus::Status::Done) rc = std::max(rc, 3);
    else if (!r.outcome.meets(t.expect)) {
      std::cerr << t.file << ": expectation failed: expected " << litmus::toString(t.expect)
                << ", observation " << litmus::toString(r.outcome.observation()) << "\n";
      if (rc == 0) rc = 1;
    }
  }
  return rc;
}

int cmdSuite(const Args& a) {
  if (a.paths.empty()) throw UsageError{"suite needs at least one test file or directory"};
  checker::SuiteOptions so;
  so.check = a.opt;
  so.expectedTsv = a.expected;
  so.livenessTsv = a.liveness;
  const bool tty = isatty(STDERR_FILENO);
  so.progress = [&](size_t done, size_t total, const checker::SuiteEntry& e) {
    if (tty) std::cerr << "\r\033[K[" << done << "/" << total << "] " << e.name << std::flush;
    if (a.json) {
      std::ostringstream os;
      litmus::printJson(os, e.outcome);
      std::cout << "{\"path\":\"" << litmus::jsonEscape(e.path) << "\",\"verdict\":\""
                << checker::toString(e.verdict) << "\",\"expected\":\""
                << litmus::toString(e.expected) << "\",\"message\":\""
                << litmus::jsonEscape(e.message) << "\",\"outcome\":" << os.str() << "}\n";
    } else if (e.verdict == checker::Verdict::Fail || e.verdict == checker::Verdict::Error ||
               e.verdict == checker::Verdict::Unknown) {
      if (tty) std::cerr << "\r\033[K";
      std::cout << checker::toString(e.verdict) << " " << e.path << ": " << e.message << "\n"
                << std::flush;
    }
  };
  const auto report = checker::runSuite(litmus::findTestFiles(a.paths), so);
  if (tty) std::cerr << "\r\033[K";
  if (!a.junit.empty()) checker::writeJunit(a.junit, report);
  using checker::Verdict;
  const int passed = report.count(Verdict::Pass);
  const int failed = report.count(Verdict::Fail) + report.count(Verdict::Error) +
                     report.count(Verdict::Unknown);
  std::cout << passed << " passed, " << failed << " failed";
  if (int n = report.count(Verdict::NoExpectation)) std::cout << " (" << n << " without expectation)";
  std::cout << "\n";
  return failed ? 1 : 0;
}

int cmdConvert(const Args& a) {
  if (a.paths.size() != 1) throw UsageError{"convert takes exactly one file"};
  const litmus::Test t = litmus::parseFile(a.paths[0]);
  std::cout << litmus::toYaml(t);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "run") return cmdRun(argc - 2, argv + 2);  // cli/run.cpp
  try {
    const Args a = parseArgs(argc, argv);
    if (a.command == "help" || a.command == "--help" || a.command == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a.command == "check") return cmdCheck(a);
    if (a.command == "suite") return cmdSuite(a);
    if (a.command == "convert") return cmdConvert(a);
    throw UsageError{"unknown command '" + a.command + "'"};
  } catch (const UsageError& e) {
    std::cerr << "litmus: " << e.message << "\n" << kUsage;
    return 2;
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "litmus: internal error: " << e.what() << "\n";
    return 2;
  }
}
