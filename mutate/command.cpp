// `litmus mutate`: generate and judge mutants, or score a GPU run of them (docs/mutation.md).
#include "mutate/command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/exit_code.h"
#include "litmus/files.h"
#include "litmus/parse.h"
#include "mutate/output.h"
#include "mutate/score.h"

namespace {

struct Args {
  std::vector<std::string> paths, categories;
  std::string out, scoreFile, engine = "auto";
  int unroll = 2;
  double timeout = 60;
  bool runnable = false, json = false;
};

const char* const kDescription =
    "Mutation testing of the GPU runner (docs/mutation.md). Without --score: weakens each test whose "
    "condition the model forbids (a conformance test) in one place per mutant, by category: po-reverse, "
    "po-weaken, sync-weaken, scope-narrow, proxy-fence-drop, mbarrier-wait-drop. The model judges each "
    "mutant: killable (it allows the condition now), equivalent (it still forbids it; not counted) or "
    "unknown. With -o DIR the mutants go to DIR/killable, DIR/equivalent and DIR/unknown, with "
    "DIR/index.tsv and DIR/originals.tsv. With --score: reads `litmus run --json` results of the "
    "mutants and prints, per category, the killable mutants the run killed (saw their condition), did "
    "not kill, and did not run.";

std::string readText(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw litmus::Error({path, 0, 0}, "cannot read this file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int scoreMode(const Args& a) {
  if (a.paths.size() > 1) throw litmus::Error({a.paths[1], 0, 0}, "--score takes one index file");
  const auto results = mutate::readResults(readText(a.scoreFile), a.scoreFile);
  std::vector<mutate::IndexEntry> index;
  if (!a.paths.empty()) index = mutate::readIndex(readText(a.paths[0]), a.paths[0]);
  const mutate::Score s = mutate::score(index, results, a.paths.empty());
  if (a.json)
    std::cout << mutate::scoreJson(s).dump() << "\n";
  else
    mutate::printScore(std::cout, s);
  return cli::kOk;
}

int generateMode(const Args& a) {
  mutate::Options opt;
  if (!a.categories.empty()) {
    opt.categories.clear();
    for (const std::string& c : a.categories) opt.categories.push_back(*mutate::parseCategory(c));
  }
  opt.check.engine = *checker::parseEngine(a.engine);
  opt.check.unroll = a.unroll;
  opt.check.timeoutSeconds = a.timeout;
  opt.runnableOnly = a.runnable;
  // Every file is read, and the output directory tried, before any mutant is made.
  std::vector<litmus::Test> tests;
  bool bad = false;
  std::set<std::string> names;
  for (const std::string& f : litmus::findTestFiles(a.paths)) {
    try {
      tests.push_back(litmus::parseFile(f));
      if (!names.insert(tests.back().name).second)
        throw litmus::Error({f, 0, 0}, "a second test named '" + tests.back().name + "': mutant names would collide");
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      bad = true;
    }
  }
  if (bad) return cli::kBadInput;
  if (!a.out.empty()) mutate::prepareOutput(a.out);
  const bool tty = isatty(STDERR_FILENO);
  mutate::Generated g;
  for (size_t i = 0; i < tests.size(); ++i) {
    if (tty) std::cerr << "\r\033[K[" << i + 1 << "/" << tests.size() << "] " << tests[i].name << std::flush;
    mutate::mutateTest(tests[i], opt, g);
  }
  if (tty) std::cerr << "\r\033[K";
  if (!a.out.empty()) mutate::writeOutput(a.out, g);
  if (a.json)
    std::cout << mutate::summaryJson(g).dump() << "\n";
  else
    mutate::printSummary(std::cout, g, a.out);
  return cli::kOk;
}

// Fills `a`; returns false when the help was printed.
bool parse(int argc, char** argv, Args& a) {
  CLI::App app{kDescription, "litmus mutate"};
  app.add_option("PATH", a.paths, "tests or directories; with --score: the index (DIR/index.tsv), "
                                  "without which every result named <original>~<category>-<k> counts");
  app.add_option("-o,--output", a.out, "write the mutants, index.tsv and originals.tsv to DIR (new or "
                                       "empty)")->type_name("DIR");
  app.add_option("--category", a.categories, "only these categories (repeatable)")
      ->type_name("C")
      ->check([](const std::string& v) {
        return mutate::parseCategory(v) ? std::string() : "unknown category '" + v + "'";
      });
  app.add_flag("--runnable", a.runnable, "mutate only the tests the GPU runner can run "
                                         "(`litmus run --emit-ptx` would not refuse them)");
  app.add_option("--engine", a.engine, "explicit | smt | both | auto (default auto)")
      ->type_name("E")
      ->check([](const std::string& v) {
        return checker::parseEngine(v) ? std::string() : "unknown engine '" + v + "'";
      });
  app.add_option("--unroll", a.unroll, "the model's loop bound (default 2)")->type_name("N")->check(CLI::Range(0, 64));
  app.add_option("--timeout", a.timeout, "seconds the model may take per test (default 60); beyond "
                                         "it a mutant is unknown")
      ->type_name("S")
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--score", a.scoreFile, "score `litmus run --json` results of the mutants")->type_name("RESULTS");
  app.add_flag("--json", a.json, "the summary or the score as one JSON object");
  app.footer("Exit status: 0 done, 2 bad input or usage, 4 internal error. A mutant is killed when the "
             "run saw its condition in some instance; the score is killed / killable.");
  std::vector<std::string> args(argv, argv + argc);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw litmus::Error({"litmus mutate", 0, 0}, std::string(e.what()) + "\nRun 'litmus mutate --help' for the options.");
  }
  if (a.scoreFile.empty() && a.paths.empty())
    throw litmus::Error({"litmus mutate", 0, 0}, "no tests given\nRun 'litmus mutate --help' for the options.");
  if (!a.scoreFile.empty() && !a.out.empty())
    throw litmus::Error({"litmus mutate", 0, 0}, "--score and -o do not go together");
  return true;
}

}  // namespace

int cmdMutate(int argc, char** argv) {
  return cli::guarded(
      [&]() -> int {
        Args a;
        if (!parse(argc, argv, a)) return cli::kOk;
        return a.scoreFile.empty() ? generateMode(a) : scoreMode(a);
      },
      std::cerr, "litmus mutate");
}
