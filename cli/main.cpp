// litmus: the command-line front door. CLI11 parses the arguments (one App, a subcommand per
// command), the libraries do the work, and base/exit_code.h maps the results to exit statuses:
// 0 ok, 1 a check or expectation failed, 2 bad input or usage, 3 unknown and none failed,
// 4 internal error; over many tests the most severe wins (4 > 2 > 1 > 3 > 0).
#include <algorithm>
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/exit_code.h"
#include "base/memory_limit.h"
#include "base/suggest.h"
#include "checker/checker.h"
#include "checker/graph.h"
#include "cli/compare.h"
#include "cli/explain_report.h"
#include "cli/version.h"
#include "extract/command.h"
#include "gen/command.h"
#include "litmus/files.h"
#include "litmus/herd_output.h"
#include "litmus/herd_writer.h"
#include "litmus/parse.h"
#include "merge/command.h"
#include "mutate/command.h"
#include "report/command.h"
#include "run/run.h"
#include "schema/record.h"
#include "suite/parallel.h"
#include "suite/progress.h"
#include "suite/shard.h"
#include "suite/suite.h"

namespace {

using nlohmann::ordered_json;

// Every option of check, suite and convert; each subcommand binds only its own.
struct Args {
  std::vector<std::string> paths;
  std::string engine = "auto";
  int unroll = 2;
  int64_t maxStates = -1;  // --max-states; -1: the checker's default (every state under --herd)
  double timeout = 0;
  std::string maxMemory;  // empty: the default (cli::defaultMemoryLimit)
  bool json = false;
  bool herd = false;       // check --herd: herd7's block, for mcompare7 (docs/interop.md)
  bool keepGoing = false;  // check --keep-going: report bad files, check the good ones
  std::string convertTo;   // convert --to yaml|herd; empty: the other format of the file
  bool failOnRelies = false;  // suite --fail-on-relies
  std::vector<std::string> readings;  // --reading D36=NAME, repeatable (model/readings.h)
  bool noAlternatives = false;        // check --no-alternatives
  // --explain: "true" (the flag alone) for the condition's outcome; --explain=STATE: that state.
  std::string explain;
  std::string graphDir, expected, liveness, junit, helpTopic;
  bool graphFull = false;  // check --graph-full: every event, not only the decisive ones
  int jobs = 0;        // -j: 0 is the default, the cores available (suite/parallel.h)
  std::string shard;   // --shard K/N (suite/shard.h); empty: every test

  int workers() const { return jobs > 0 ? jobs : suite::defaultJobs(); }
  suite::Shard shardOf() const { return shard.empty() ? suite::Shard{} : *suite::parseShard(shard); }

  bool explainCondition() const { return explain == "true"; }

  checker::Options options() const {
    checker::Options o;
    o.engine = *checker::parseEngine(engine);  // the option's validator accepted it
    o.unroll = unroll;
    if (maxStates >= 0 || herd) o.maxStates = static_cast<size_t>(std::max<int64_t>(maxStates, 0));
    o.timeoutSeconds = timeout;
    for (const auto& r : readings) model::choose(o.readings, r);  // the option's validator accepted it
    return o;
  }
};

constexpr const char* kExitCodes = R"(Exit status: 0 ok; 1 a check, expectation or run verdict failed; 2 bad input or
usage; 3 some test unknown (timeout, memory limit, solver unknown) and none failed; 4 internal
error. Over several tests the most severe wins: 4 > 2 > 1 > 3 > 0.)";

// Puts --max-memory (or its default) in force for the rest of the process, before any test is
// read; returns what checking may allocate under it (0: no limit), for the Unknown message.
// An explicit --max-memory that cannot be enforced says so; the default stays quiet.
uint64_t applyMaxMemory(const Args& a) {
  const uint64_t want = a.maxMemory.empty() ? cli::defaultMemoryLimit() : *cli::parseMemorySize(a.maxMemory);
  std::string why;
  const uint64_t limit = cli::limitAddressSpace(want, why);
  if (limit) cli::setHeapLimit(cli::heapInUse() + cli::heapShare(limit));
  cli::keepFreedHeap();
  // glibc gives each new thread a malloc arena that reserves 64 MiB of address space; under a
  // small limit the workers' arenas do not fit and malloc falls back to a crawl (`check -j 2
  // --max-memory 64M` ran for minutes on a test that ends Unknown in a second with -j 1). Below
  // 256 MiB a worker, the workers share the main arena (docs/scale.md).
  if (limit && a.workers() > 1 && limit < static_cast<uint64_t>(a.workers()) * (256ull << 20))
    mallopt(M_ARENA_MAX, 1);
  if (!why.empty() && !a.maxMemory.empty()) std::cerr << "litmus: warning: " << why << "\n";
  return limit;
}

// ---- check ----------------------------------------------------------------------------------

ordered_json checkJson(const litmus::Test& t, const checker::Result& r, const judge::Judgement& j,
                       bool explain, const cli::ExplainTarget& target) {
  ordered_json out = schema::toJson(t, r.outcome, j);
  if (explain) out["explanation"] = cli::explanationJson(t, r, target);
  return out;
}

// The state --explain=STATE names, in the terms of one test (a usage error where the test does
// not observe a term it names; cmdCheck tries every test first, so that nothing is printed then).
cli::ExplainTarget explainTarget(const litmus::Test& t, const Args& a) {
  if (a.explain.empty() || a.explainCondition()) return std::nullopt;
  try {
    return litmus::parseStatePattern(a.explain, t, {"--explain", 1, 1});
  } catch (const litmus::Error& e) {
    throw litmus::Error(e.loc(), e.message() + " (in " + t.file + ")");
  }
}

// What checking one test prints, kept until the tests before it have printed theirs (-j).
struct CheckOutput {
  std::string out, err;
  int status = cli::kOk;
};

// Prints what checking one test gave (or, for a test that could not be read in time, the Unknown
// outcome that stands for it) and returns its status.
int report(const litmus::Test& t, const checker::Result& r, const Args& a, const cli::ExplainTarget& target,
           std::ostream& out, std::ostream& err) {
  const judge::Judgement j = judge::judgeOutcome(r.outcome, {t.expect, t.liveness, t.raceFree}, r.mismatch());
  const bool explain = !a.explain.empty();
  std::ostringstream os;
  if (a.json) {
    os << checkJson(t, r, j, explain, target).dump() << "\n";
  } else if (a.herd) {
    litmus::printHerdCompat(os, t, r.outcome);
    if (r.outcome.status != litmus::Status::Done)
      err << t.file << ": " << r.outcome.statusDetail << ": no herd block\n";
  } else {
    litmus::printHerd(os, r.outcome);
    // a met expectation is said as plainly as a failed one (which goes to stderr)
    if (j.verdictMet == true)
      os << "Expectation met: expect " << litmus::toString(t.expect) << ", observation "
         << litmus::toString(r.outcome.observation()) << "\n";
    if (explain) cli::printExplanation(os, t, r, target);
  }
  out << os.str();
  const bool graphsCutOff = !a.graphDir.empty() && !cli::writeGraphs(a.graphDir, a.graphFull, a.timeout, t, r, err);
  // An Unknown says why in its herd block (or JSON); a failure names each failed expectation.
  if (j.decision == judge::Decision::Fail)
    for (const std::string& f : j.reasons) err << t.file << ": " << f << "\n";
  // An explanation cut off by the deadline leaves the answer asked for unknown.
  return r.explainCutOff.empty() && !graphsCutOff ? j.exitCode() : cli::worse(j.exitCode(), cli::kUnknown);
}

int checkOne(const litmus::Test& t, const Args& a, checker::Options opt, std::ostream& out,
             std::ostream& err) {
  const cli::ExplainTarget target = explainTarget(t, a);
  opt.explainState = target;
  return report(t, checker::check(t, opt), a, target, out, err);
}

// A test read, and the seconds reading it took (they count against its --timeout). A file that
// could not be read within --timeout or --max-memory has no test: `unread` says why, and `test`
// holds only its file and, for a name, the file's stem.
struct ReadTest {
  litmus::Test test;
  double seconds = 0;
  std::string unread;
  litmus::UnknownReason unreadWhy = litmus::UnknownReason::None;

  // The Unknown outcome an unread file is reported with, as a check that gave up would be.
  checker::Result unknown(const Args& a) const {
    checker::Result r;
    r.outcome.test = test.name;
    r.outcome.engine = a.engine;
    r.outcome.giveUp(unreadWhy, unread);
    r.outcome.seconds = seconds;
    return r;
  }
};

// Parses every file before printing anything, so that bad input never leaves half an answer.
// --timeout and --max-memory cover reading too: a file that cannot be read within them has no
// verdict, like a check that runs out of either (ReadTest::unread).
std::vector<ReadTest> parseAll(const std::vector<std::string>& files, double timeout, uint64_t maxMemory,
                               bool& bad) {
  std::vector<ReadTest> tests;
  for (const auto& f : files) {
    const auto t0 = std::chrono::steady_clock::now();
    const litmus::Deadline deadline(timeout);
    ReadTest r;
    try {
      r.test = litmus::parseFile(f, deadline);
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      bad = true;
      continue;
    } catch (const litmus::Deadline::Expired&) {
      r.unread = deadline.describe() + " while reading";
      r.unreadWhy = litmus::UnknownReason::Timeout;
    } catch (const std::bad_alloc&) {
      r.unread = (maxMemory ? "memory limit of " + checker::formatBytes(maxMemory) + " exceeded" : std::string("out of memory")) +
                 " while reading";
      r.unreadWhy = litmus::UnknownReason::Memory;
    }
    if (!r.unread.empty()) {
      r.test = litmus::Test{};
      r.test.file = f;
      r.test.name = std::filesystem::path(f).stem().string();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tests.push_back(std::move(r));
  }
  return tests;
}

int cmdCheck(const Args& a) {
  const uint64_t maxMemory = applyMaxMemory(a);
  bool bad = false;
  auto tests = parseAll(litmus::findTestFiles(a.paths), a.timeout, maxMemory, bad);
  if (bad && !a.keepGoing) return cli::kBadInput;
  std::erase_if(tests, [&](const ReadTest& t) { return !suite::inShard(t.test.name, a.shardOf()); });
  for (const auto& t : tests)  // a bad --explain=STATE: usage, nothing run
    if (t.unread.empty()) explainTarget(t.test, a);
  if (!a.graphDir.empty()) litmus::requireDirectory(a.graphDir);
  checker::Options opt = a.options();
  // An allowed state is explained by its witness execution.
  opt.witnesses = !a.graphDir.empty() || !a.explain.empty();
  opt.explain = !a.explain.empty() || opt.witnesses;
  opt.maxMemoryBytes = maxMemory;
  opt.alternatives = !a.noAlternatives;
  // Each test's output is buffered and printed in the order of the files, so that -j N prints
  // what -j 1 prints (docs/scale.md).
  int status = cli::kOk;
  suite::ProgressLine progress;
  suite::orderedParallel<CheckOutput>(
      tests.size(), a.workers(),
      [&](size_t i) {
        std::ostringstream out, err;
        CheckOutput c;
        const ReadTest& t = tests[i];
        checker::Options o = opt;
        o.spentSeconds = t.seconds;
        c.status = cli::guarded(
            [&] { return t.unread.empty() ? checkOne(t.test, a, o, out, err) : report(t.test, t.unknown(a), a, {}, out, err); },
            err, t.test.file);
        c.out = out.str();
        c.err = err.str();
        return c;
      },
      [&](size_t i, CheckOutput c) {
        progress.clear();
        std::cout << c.out << std::flush;
        std::cerr << c.err << std::flush;
        status = cli::worse(status, c.status);
        progress.update(i + 1, tests.size(), tests[i].test.name);
      });
  progress.clear();
  return bad ? cli::worse(status, cli::kBadInput) : status;
}

// ---- suite ----------------------------------------------------------------------------------

ordered_json suiteJson(const suite::SuiteEntry& e) {
  return schema::toJson(schema::SuiteRecord{e.path, e.verdict, e.expected, e.liveness, e.verdictMet,
                                            e.livenessMet, e.message, litmus::toJson(e.outcome)});
}

// "P passed, F failed" (F counts the failed checks and expectations), then the tests with no
// verdict (errors, unknowns) and those without expectation apart. With --json it goes to stderr,
// so that stdout holds JSON lines only.
void printSummary(const suite::SuiteReport& report, std::ostream& os) {
  using suite::Verdict;
  const int errors = report.count(Verdict::Error), unknown = report.count(Verdict::Unknown);
  const int none = report.count(Verdict::NoExpectation);
  os << report.count(Verdict::Pass) << " passed, " << report.count(Verdict::Fail) << " failed";
  std::vector<std::string> parts;
  if (errors) parts.push_back(std::to_string(errors) + (errors == 1 ? " error" : " errors"));
  if (unknown) parts.push_back(std::to_string(unknown) + " unknown");
  if (none) parts.push_back(std::to_string(none) + " without expectation");
  for (size_t i = 0; i < parts.size(); ++i) os << (i ? ", " : " (") << parts[i];
  os << (parts.empty() ? "" : ")") << "\n";
}

int cmdSuite(const Args& a) {
  if (!a.junit.empty()) litmus::requireWritable(a.junit);
  suite::SuiteOptions so;
  so.check = a.options();
  so.check.alternatives = false;  // a suite judges expectations: the readings' cost stays out
  so.check.maxMemoryBytes = applyMaxMemory(a);
  so.expectedTsv = a.expected;
  so.livenessTsv = a.liveness;
  so.failOnRelies = a.failOnRelies;
  so.jobs = a.workers();
  so.shard = a.shardOf();
  suite::ProgressLine progress;
  so.progress = [&](size_t done, size_t total, const suite::SuiteEntry& e) {
    progress.clear();
    if (a.json) {
      std::cout << suiteJson(e).dump() << "\n" << std::flush;
    } else if (e.verdict == suite::Verdict::Fail || e.verdict == suite::Verdict::Error ||
               e.verdict == suite::Verdict::Unknown) {
      std::cout << suite::toString(e.verdict) << " " << e.path << ": " << e.message << "\n"
                << std::flush;
    }
    progress.update(done, total, e.name);
  };
  const auto report = suite::runSuite(litmus::findTestFiles(a.paths), so);
  progress.clear();
  if (!a.junit.empty()) suite::writeJunit(a.junit, report);
  printSummary(report, a.json ? std::cerr : std::cout);
  int status = cli::kOk;
  for (const suite::SuiteEntry& e : report.entries) status = cli::worse(status, judge::exitCode(e.verdict));
  return status;
}

// A herd file becomes YAML and a YAML file herd, unless --to says which (docs/interop.md).
int cmdConvert(const Args& a) {
  const std::string& file = a.paths.at(0);
  const litmus::Test t = litmus::parseFile(file);
  const bool toHerd = a.convertTo == "herd" ||
                      (a.convertTo.empty() && !file.ends_with(".litmus"));
  std::cout << (toHerd ? litmus::toHerd(t) : litmus::toYaml(t));
  return cli::kOk;
}

// ---- the command line -----------------------------------------------------------------------

void addModelOptions(CLI::App* cmd, Args& a) {
  cmd->add_option("--engine", a.engine, "explicit | smt | both | portfolio | auto (default auto); portfolio: explicit and smt at "
                                  "once on two threads, the first answer wins")
      ->type_name("E")
      ->check([](const std::string& v) {
        return checker::parseEngine(v) ? std::string() : "unknown engine '" + v + "'";
      });
  cmd->add_option("--reading", a.readings,
                  "the reading of a model decision, e.g. D36=release-orders (repeatable; "
                  "docs/model.md, \"Readings\")")
      ->type_name("D=NAME")
      ->check([](const std::string& v) {
        model::Readings scratch;
        return model::choose(scratch, v);
      });
  cmd->add_option("--unroll", a.unroll, "backward jumps allowed per branch (default 2)")
      ->type_name("N")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--max-states", a.maxStates, "final states listed before the search turns to the observation and "
                  "liveness alone (default 100; 0: every one; docs/performance.md)")->type_name("N")->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  cmd->add_option("--timeout", a.timeout,
                  "seconds per test; an unfinished test is reported Unknown (exit 3)")
      ->type_name("S")
      ->check([](const std::string& v) {
        const double d = std::strtod(v.c_str(), nullptr);
        return std::isfinite(d) && d >= 0 && d <= 1e9 ? std::string()
                                                       : "bad value '" + v + "' (0 to 1e9 seconds)";
      });
  const uint64_t byDefault = cli::defaultMemoryLimit();
  cmd->add_option("--max-memory", a.maxMemory,
                  "memory checking may allocate, e.g. 512M, 4G or bytes; 0 or none: no limit "
                  "(default: half of this machine's memory" +
                      (byDefault ? ", " + checker::formatBytes(byDefault) : std::string()) +
                      "); a test that needs more is reported Unknown (exit 3)")
      ->type_name("SIZE")
      ->check([](const std::string& v) {
        const auto n = cli::parseMemorySize(v);
        if (!n) return "bad value '" + v + "' (a size such as 512M, 4G, 1073741824, or none)";
        if (*n && *n < cli::kMinMemoryLimit)
          return "bad value '" + v + "' (at least " + checker::formatBytes(cli::kMinMemoryLimit) +
                 ": Z3 needs about 20 MiB for itself; 0 or none for no limit)";
        return std::string();
      });
  cmd->add_option("-j,--jobs", a.jobs,
                  "tests checked at once (default: the cores this process may use, " +
                      std::to_string(suite::defaultJobs()) +
                      " here); the output is the same whatever N; --max-memory is shared by all")
      ->type_name("N")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--shard", a.shard,
                  "only the tests of shard K of N: those whose name hashes (FNV-1a) to K-1 mod N; "
                  "'litmus merge' joins the shards' --json results (docs/scale.md)")
      ->type_name("K/N")
      ->check([](const std::string& v) {
        return suite::parseShard(v) ? std::string() : "bad value '" + v + "' (" + suite::shardSyntax() + ")";
      });
}

CLI::App* addCheck(CLI::App& app, Args& a) {
  CLI::App* c = app.add_subcommand("check", "every final state the PTX model allows, per test (herd-style output)");
  c->add_option("PATH", a.paths, "test files (.yaml, .yml, .litmus) or directories")->required();
  addModelOptions(c, a);
  CLI::Option* json = c->add_flag("--json", a.json, "one JSON object per test, one per line");
  c->add_flag("--herd", a.herd,
              "herd7's exact result block (N:reg state keys, '=' in conditions, Flag and Hash= "
              "lines), for mcompare7 and herd scripts (docs/interop.md)")
      ->excludes(json);
  c->add_flag("--keep-going", a.keepGoing,
              "report files that do not parse and still check the others (exit 2 if any was bad)");
  c->add_flag("--explain", a.explain,
              "explain the outcome the condition asks about, or with --explain='P1:r0=1; x=2' that "
              "state (or part of one): if forbidden, the violated axiom and its cycle, causality "
              "broken into release pattern, rf and acquire pattern; if allowed, an execution that "
              "reaches it and the synchronization it lacks (docs/explain.md)")
      ->option_text("[=STATE]");
  c->add_flag("--no-alternatives", a.noAlternatives,
              "do not check the other readings of the decisions a test touches (docs/model.md, Readings)");
  CLI::Option* graph = c->add_option("--graph", a.graphDir,
                "DOT (and SVG, if Graphviz is installed) of a witness per allowed state and of a "
                "candidate that shows why a forbidden outcome is forbidden: the events and edges "
                "that decide the outcome")
      ->type_name("DIR");
  c->add_flag("--graph-full", a.graphFull, "with --graph: every event of the execution")->needs(graph);
  c->footer(std::string("A test that may hang fails (exit 1) unless it declares 'liveness: may-hang'; "
                        "a verdict that contradicts its 'expect' fails too.\n") + kExitCodes);
  return c;
}

CLI::App* addSuite(CLI::App& app, Args& a) {
  CLI::App* s = app.add_subcommand("suite", "check tests against expectations: a line per failure, then a summary");
  s->add_option("PATH", a.paths, "test files or directories")->required();
  addModelOptions(s, a);
  s->add_option("--expected", a.expected,
                "expectations from a TSV (test, model, quantifier, condition), paths relative to "
                "the file; default: the 'expect' field of each test")
      ->type_name("FILE");
  s->add_option("--liveness", a.liveness,
                "liveness expectations from a TSV (test, model, termination: terminates or "
                "may-hang), paths relative to the file")
      ->type_name("FILE");
  s->add_option("--junit", a.junit, "write a JUnit XML report")->type_name("FILE");
  s->add_flag("--fail-on-relies", a.failOnRelies,
              "fail a test whose verdict relies on a decision stronger than the PTX text ('Relies on')");
  s->add_flag("--json", a.json, "print the per-test results as JSON lines instead of failure lines");
  s->footer(kExitCodes);
  return s;
}

// `run`, `mutate`, `compare`, `gen`, `report`, `merge` and `extract` keep their own parsers (run/run.cpp,
// mutate/command.cpp, cli/compare.cpp, gen/command.cpp, report/command.cpp, merge/command.cpp,
// extract/command.cpp): everything after the word goes to them unchanged.
CLI::App* addForwarded(CLI::App& app, const std::string& name, const std::string& what) {
  CLI::App* c = app.add_subcommand(name, what + " ('litmus " + name + " --help' for its options)");
  c->prefix_command();
  c->set_help_flag();
  return c;
}

int cmdGen(int argc, char** argv) { return gen::cmdGen(argc, argv); }
int cmdReport(int argc, char** argv) { return report::cmdReport(argc, argv); }

// Calls a forwarded command as main would: argv[0] is the command's name, argv[argc] is null.
int forward(const std::vector<std::string>& args, int (*cmd)(int, char**)) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (std::string& s : copy) argv.push_back(s.data());
  argv.push_back(nullptr);
  return cmd(static_cast<int>(copy.size()), argv.data());
}

const CLI::App* findCommand(const CLI::App& app, const std::string& name) {
  const std::function<bool(const CLI::App*)> named = [&](const CLI::App* s) { return s->get_name() == name; };
  const auto found = app.get_subcommands(named);
  return found.empty() ? nullptr : found.front();
}

int help(const CLI::App& app, const std::string& topic) {
  if (topic.empty()) {
    std::cout << app.get_formatter()->make_help(&app, "litmus", CLI::AppFormatMode::Normal);
    return cli::kOk;
  }
  if (topic == "run") return forward({"--help"}, cmdRun);
  if (topic == "mutate") return forward({"--help"}, cmdMutate);
  if (topic == "compare") return forward({"--help"}, cmdCompare);
  if (topic == "gen") return forward({"--help"}, cmdGen);
  if (topic == "report") return forward({"--help"}, cmdReport);
  if (topic == "merge") return forward({"--help"}, merge::cmdMerge);
  if (topic == "extract") return forward({"--help"}, extract::cmdExtract);
  if (const CLI::App* sub = findCommand(app, topic)) {
    std::cout << sub->get_formatter()->make_help(sub, "litmus " + topic, CLI::AppFormatMode::Normal);
    return cli::kOk;
  }
  std::cerr << "litmus help: unknown command '" << topic << "'\n";
  return cli::kBadInput;
}

// "; did you mean '--timeout'?" for the first option CLI11 did not expect ("The following
// argument was not expected: --timout"), from the options of the command it was given to.
std::string unknownOptionHint(const CLI::App& app, const std::string& what) {
  const size_t at = what.find(": -");
  if (what.find("not expected") == std::string::npos || at == std::string::npos) return "";
  std::string word = what.substr(at + 2);
  word = word.substr(0, word.find_first_of(" =,"));
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return litmus::didYouMean(word, names);
}

// CLI11 reports --help and --version as exceptions with status 0; everything else is misuse.
// Misuse is named after the command that was given first (a flag before any command belongs to
// `litmus` itself).
int usageError(CLI::App& app, const CLI::ParseError& e, const std::string& first) {
  if (e.get_exit_code() == 0) return app.exit(e);
  const CLI::App* sub = findCommand(app, first);
  const std::string cmd = sub ? "litmus " + first : "litmus";
  std::cerr << cmd << ": " << e.what() << unknownOptionHint(sub ? *sub : app, e.what())
            << "\nRun '" << cmd << " --help' for the options.\n";
  return cli::kBadInput;
}

// The commands, for "did you mean" on a misspelt one.
std::vector<std::string> commandNames(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out.push_back(sub->get_name());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  CLI::App app{"litmus " LITMUS_VERSION ": a memory-model checker and GPU litmus runner for NVIDIA PTX",
               "litmus"};
  app.set_version_flag("--version", "litmus " LITMUS_VERSION);
  app.require_subcommand(1, 1);
  app.footer(kExitCodes);
  app.get_formatter()->label("SUBCOMMAND", "COMMAND");
  CLI::App* check = addCheck(app, a);
  CLI::App* suite = addSuite(app, a);
  CLI::App* convert = app.add_subcommand("convert", "print a herd .litmus test as YAML, a YAML test as herd");
  convert->add_option("FILE", a.paths, "the test")->required()->expected(1);
  convert->add_option("--to", a.convertTo, "yaml | herd (default: the other format of FILE)")
      ->check(CLI::IsMember({"yaml", "herd"}));
  CLI::App* run = addForwarded(app, "run", "run tests on the GPU: histogram of final states against the model");
  CLI::App* mutateCmd = addForwarded(app, "mutate", "mutants of conformance tests, judged by the model, and "
                                                    "the mutation score of a GPU run");
  CLI::App* compareCmd = addForwarded(app, "compare", "compare two result files (run or check --json) family by family");
  CLI::App* genCmd = addForwarded(app, "gen", "generate litmus tests from cycles of relations, diy-style");
  CLI::App* reportCmd = addForwarded(app, "report", "one self-contained HTML page of run, check or suite results");
  CLI::App* mergeCmd = addForwarded(app, "merge", "join the --json results of shards or of repeated runs");
  CLI::App* extractCmd = addForwarded(app, "extract", "litmus tests of the kernels of a PTX module (or .cu), one per kernel and launch");
  CLI::App* helpCmd = app.add_subcommand("help", "this text, or a command's options ('litmus help check')");
  helpCmd->add_option("COMMAND", a.helpTopic, "a command");
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) sub->group("Commands");

  // CLI11 would call a misspelt command "an argument not expected"; name it.
  if (argc < 2) {
    std::cerr << "litmus: missing command\nRun 'litmus --help' for the commands.\n";
    return cli::kBadInput;
  }
  const std::string first = argv[1];
  if (first[0] != '-' && !findCommand(app, first)) {
    std::cerr << "litmus: unknown command '" << first << "'" << litmus::didYouMean(first, commandNames(app))
              << "\nRun 'litmus --help' for the commands.\n";
    return cli::kBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return usageError(app, e, first);
  }
  return cli::guarded(
      [&]() -> int {
        if (*run) return forward(run->remaining(), cmdRun);
        if (*mutateCmd) return forward(mutateCmd->remaining(), cmdMutate);
        if (*compareCmd) return forward(compareCmd->remaining(), cmdCompare);
        if (*genCmd) return forward(genCmd->remaining(), cmdGen);
        if (*reportCmd) return forward(reportCmd->remaining(), cmdReport);
        if (*mergeCmd) return forward(mergeCmd->remaining(), merge::cmdMerge);
        if (*extractCmd) return forward(extractCmd->remaining(), extract::cmdExtract);
        if (*helpCmd) return help(app, a.helpTopic);
        if (*check) return cmdCheck(a);
        if (*suite) return cmdSuite(a);
        if (*convert) return cmdConvert(a);
        return cli::kInternal;  // require_subcommand(1, 1) leaves no other case
      },
      std::cerr, "litmus");
}
