// `litmus run`: parse tests, ask the model which final states it allows, run each test on the GPU
// (gpu-runner), and judge the histogram against the model. Also --self-test (known answers),
// --emit-ptx (no GPU needed) and --tune. Only this file turns verdicts into exit codes.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "checker/checker.h"
#include "cli/emit_sass.h"
#include "cli/run.h"
#include "gpu-runner/self_test.h"
#include "litmus/files.h"
#include "litmus/parse.h"

namespace {

constexpr const char* kDefaultProfile = "litmus-gpu.profile";

struct RunArgs {
  std::vector<std::string> paths;
  uint64_t count = 10000000, seed = 1;
  double timeout = 60, modelTimeout = 0;
  int trials = 16, unroll = 2;
  bool tune = false, selfTest = false, profileGiven = false;
  std::string json, profile = kDefaultProfile, emitDir;
  std::string sassDir;  // --emit-sass (cli/emit_sass.cpp)
};

struct UsageError {
  std::string message;
};

double number(const std::string& flag, const std::string& v, double max) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(d >= 0) || d > max) throw UsageError{"bad value '" + v + "' for " + flag};
  return d;
}

// Counts may be written 1e8: CLI11 reads the text, this checks it is a whole number in range.
uint64_t integer(const std::string& flag, const std::string& v, double min, double max) {
  const double d = number(flag, v, max);
  if (d != std::floor(d) || d < min) throw UsageError{"bad value '" + v + "' for " + flag};
  return static_cast<uint64_t>(d);
}

const char* const kDescription =
    "Runs each test on the GPU many times and prints the histogram of final states, each marked "
    "allowed or forbidden by the model, and a verdict per test: ok, violation, inconclusive, hung, "
    "timeout, refused or error (docs/gpu-runner.md).";
const char* const kFooter =
    "exit: 0 every test ok (or hung where the model says it can), 1 a violation, 2 bad input or usage\n"
    "or no CUDA driver or device, 3 a test inconclusive, timed out or refused, 4 internal error\n"
    "(the most severe wins: 4, 2, 1, 3, 0). --self-test: 0 every known answer reproduced, 1 not.";

// Fills `a`; returns false when the help was printed.
bool parseRunArgs(int argc, char** argv, RunArgs& a) {
  CLI::App app{kDescription, "litmus run"};
  app.footer(kFooter);
  std::string count, seed, timeout, trials, unroll, modelTimeout;
  app.add_option("PATH", a.paths, "test files or directories (YAML or herd .litmus)");
  app.add_option("-n", count, "instances per test (default 1e7; 1e8 and the like are accepted)")->type_name("COUNT");
  app.add_option("--seed", seed, "seed of every random launch parameter (default 1)")->type_name("S");
  app.add_option("--timeout", timeout, "stop a test that has not finished after S seconds (default 60)")
      ->type_name("S");
  app.add_option("--json", a.json, "also write one JSON object per test, one per line")->type_name("FILE");
  app.add_option("--profile", a.profile, "stress profile (default: litmus-gpu.profile if it exists)")
      ->type_name("FILE");
  app.add_flag("--tune", a.tune, "search stress profiles on the tests given (default: MP, SB, LB relaxed) "
                                 "and save the best to the profile file");
  app.add_option("--trials", trials, "profiles --tune tries (default 16)")->type_name("N");
  app.add_option("--emit-ptx", a.emitDir, "write each test's generated PTX to DIR/NAME.ptx and run nothing")
      ->type_name("DIR");
  app.add_option("--emit-sass", a.sassDir,
                 "write each test's cubin from the driver's JIT (and its nvdisasm -hex disassembly, "
                 "where nvdisasm is found) to DIR/NAME.cubin and .sass, and run nothing")
      ->type_name("DIR");
  app.add_flag("--self-test", a.selfTest,
               "run the built-in known-answer tests (gpu-runner/self-test/) and fail unless every "
               "instance shows the one state the model allows");
  app.add_option("--unroll", unroll, "the model's loop bound: backward jumps per branch (default 2)")
      ->type_name("N");
  app.add_option("--model-timeout", modelTimeout, "seconds the model may take per test (default: no limit)")
      ->type_name("S");
  std::vector<std::string> args(argv, argv + argc);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError{e.what()};
  }
  if (!count.empty()) a.count = integer("-n", count, 1, 1e15);
  if (!seed.empty()) a.seed = integer("--seed", seed, 0, 1.8e19);
  if (!timeout.empty()) a.timeout = number("--timeout", timeout, 1e6);
  if (!trials.empty()) a.trials = static_cast<int>(integer("--trials", trials, 1, 10000));
  if (!unroll.empty()) a.unroll = static_cast<int>(integer("--unroll", unroll, 0, 1000));
  if (!modelTimeout.empty()) a.modelTimeout = number("--model-timeout", modelTimeout, 1e6);
  a.profileGiven = app.count("--profile") > 0;
  const int modes = a.tune + a.selfTest + !a.emitDir.empty() + !a.sassDir.empty();
  if (modes > 1) throw UsageError{"--tune, --self-test, --emit-ptx and --emit-sass do not go together"};
  if (a.selfTest && !a.paths.empty()) throw UsageError{"--self-test runs its own tests; give no PATH"};
  if (a.paths.empty() && !a.tune && !a.selfTest) throw UsageError{"run needs at least one test file or directory"};
  return true;
}

bool parseTests(const std::vector<std::string>& paths, std::vector<litmus::Test>& tests) {
  bool ok = true;
  for (const std::string& f : litmus::findTestFiles(paths)) {
    try {
      tests.push_back(litmus::parseFile(f));
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      ok = false;
    }
  }
  return ok;
}

// The profile file: given, or the default one when it exists. Throws litmus::Error when bad.
gpu::Profile loadProfile(const RunArgs& a, bool mustExist, bool& loaded) {
  std::ifstream in(a.profile);
  loaded = static_cast<bool>(in);
  if (!in) {
    if (mustExist) throw litmus::Error({a.profile, 0, 0}, "cannot read the profile file");
    return gpu::Profile{};
  }
  std::stringstream text;
  text << in.rdbuf();
  return gpu::parseProfile(text.str(), a.profile);
}

// A refused test is verdict `refused` here too (exit 3): the runner cannot execute it.
int emitPtx(const RunArgs& a, const std::vector<litmus::Test>& tests) {
  std::error_code ec;
  std::filesystem::create_directories(a.emitDir, ec);
  std::map<std::string, int> seen;
  int refused = 0, written = 0, failed = 0;
  for (const litmus::Test& t : tests) {
    std::string ptx;
    try {
      ptx = gpu::generatePtx(t);
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      ++refused;
      continue;
    }
    const int n = seen[t.name]++;
    const std::string path = a.emitDir + "/" + t.name + (n ? "." + std::to_string(n) : "") + ".ptx";
    std::ofstream out(path);
    if (!(out << ptx)) {
      std::cerr << path << ": error: cannot write\n";
      ++failed;
      continue;
    }
    std::cout << "wrote " << path << "\n";
    ++written;
  }
  std::cout << written << " written, " << refused << " refused\n";
  return failed ? 2 : refused ? 3 : 0;
}

int driverMissing() {
  std::string why;
  if (gpu::driverLoadable(why)) return 0;
  std::cerr << "litmus run: " << why << "\n";
  return 2;
}

int runTune(const RunArgs& a, std::vector<litmus::Test> tests, const gpu::Profile& start) {
  if (tests.empty()) tests = gpu::calibrationTests();
  if (int rc = driverMissing()) return rc;
  gpu::TuneOptions o;
  o.trials = a.trials;
  o.run.count = a.count;
  o.run.seed = a.seed;
  o.run.timeoutSeconds = a.timeout;
  o.run.profile = start;
  o.run.progress = isatty(STDERR_FILENO);
  o.onTrial = [](int trial, const gpu::Profile&, double score) {
    std::cout << "trial " << trial << ": " << score << " weak outcomes/s (geometric mean)\n" << std::flush;
  };
  const gpu::TuneResult r = gpu::tune(tests, o);
  if (r.status != gpu::RunStatus::Ok) {
    std::cerr << "litmus run: " << r.message << "\n";
    return r.status == gpu::RunStatus::Timeout ? 3 : r.status == gpu::RunStatus::Error ? 4 : 2;
  }
  std::ofstream out(a.profile);
  if (!(out << gpu::formatProfile(r.best))) {
    std::cerr << a.profile << ": error: cannot write the profile\n";
    return 2;
  }
  std::cout << "best: " << r.bestScore << " weak outcomes/s; profile saved to " << a.profile << "\n"
            << gpu::formatProfile(r.best);
  return 0;
}

runcli::Model askModel(const litmus::Test& t, const RunArgs& a) {
  checker::Options opt;
  opt.unroll = a.unroll;
  opt.timeoutSeconds = a.modelTimeout;
  try {
    const checker::Result res = checker::check(t, opt);
    return runcli::modelOf(t, &res.outcome, "");
  } catch (const litmus::Error& e) {  // the model refuses the test
    return runcli::modelOf(t, nullptr, e.what());
  }
}

gpu::RunOptions runOptions(const RunArgs& a, const gpu::Profile& profile) {
  gpu::RunOptions o;
  o.count = a.count;
  o.seed = a.seed;
  o.timeoutSeconds = a.timeout;
  o.profile = profile;
  o.progress = isatty(STDERR_FILENO);
  return o;
}

// Runs the test; false when the runner refused it (`refusal` says why). NoDriver and NoDevice
// come back in r.status.
bool runOrRefuse(const litmus::Test& t, const gpu::RunOptions& o, gpu::RunResult& r, std::string& refusal) {
  try {
    r = gpu::run(t, o);
    return true;
  } catch (const litmus::Error& e) {
    refusal = e.what();
    return false;
  }
}

bool fatal(const gpu::RunResult& r) {
  return r.status == gpu::RunStatus::NoDriver || r.status == gpu::RunStatus::NoDevice;
}

// Runs one test, prints its report and JSON line; returns its verdict (nullopt: no driver/device).
std::optional<runcli::Verdict> runOne(const litmus::Test& t, const RunArgs& a, const gpu::RunOptions& o,
                                      std::ostream* json) {
  gpu::RunResult r;
  std::string refusal;
  if (!runOrRefuse(t, o, r, refusal)) {
    std::cerr << refusal << "\n";
    std::cout << "Test " << t.name << ": refused\n\n" << std::flush;
    if (json) *json << runcli::refusedJson(t, refusal).dump() << "\n";
    return runcli::Verdict::Refused;
  }
  if (fatal(r)) {
    std::cerr << "litmus run: " << r.message << "\n";
    return std::nullopt;
  }
  const runcli::Model model = askModel(t, a);
  const runcli::Judgement j = runcli::judge(t, r, model);
  if (r.status == gpu::RunStatus::Ok)
    runcli::printRun(std::cout, t, r, model, j, o.seed);
  else
    std::cout << "Test " << t.name << ": " << runcli::verdictWord(j.verdict) << ": " << r.message
              << (j.reason == r.message ? "" : "; " + j.reason) << "\n\n";
  std::cout << std::flush;
  if (json) *json << runcli::runJson(t, r, model, j, o.seed).dump() << "\n" << std::flush;
  return j.verdict;
}

int runAll(const RunArgs& a, const std::vector<litmus::Test>& tests, const gpu::Profile& profile,
           bool loaded) {
  if (int rc = driverMissing()) return rc;
  if (loaded) std::cout << "Profile " << a.profile << "\n\n";
  std::ofstream jsonFile;
  if (!a.json.empty()) {
    jsonFile.open(a.json);
    if (!jsonFile) throw UsageError{"cannot write " + a.json};
  }
  const gpu::RunOptions o = runOptions(a, profile);
  std::map<runcli::Verdict, int> verdicts;
  int rc = 0;
  for (const litmus::Test& t : tests) {
    const std::optional<runcli::Verdict> v = runOne(t, a, o, a.json.empty() ? nullptr : &jsonFile);
    if (!v) return 2;
    ++verdicts[*v];
    rc = runcli::worstExit(rc, runcli::exitCode(*v));
  }
  std::cout << "Summary: " << tests.size() << " tests:";
  for (runcli::Verdict v : {runcli::Verdict::Ok, runcli::Verdict::Violation, runcli::Verdict::Inconclusive,
                            runcli::Verdict::Hung, runcli::Verdict::Timeout, runcli::Verdict::Refused,
                            runcli::Verdict::Error})
    std::cout << (v == runcli::Verdict::Ok ? " " : ", ") << verdicts[v] << " " << runcli::verdictWord(v);
  std::cout << "\n";
  return rc;
}

// ---- --self-test ------------------------------------------------------------------------------

// One known-answer test: the model must allow exactly one state and no hang; every instance of
// the run must show that state. Returns 0 pass, 1 fail, 4 the self-test itself is broken.
int selfTestOne(const litmus::Test& t, const RunArgs& a, const gpu::RunOptions& o, bool& fatalError) {
  const std::string name = t.name + " (" + gpu::placementSummary(t) + ")";
  const runcli::Model model = askModel(t, a);
  if (model.kind != runcli::Model::Kind::Decided || model.allowed.size() != 1 || !model.hang.empty()) {
    std::cout << "BROKEN " << name << ": the model (" << runcli::modelWord(model.kind) << ") allows "
              << model.allowed.size() << " states" << (model.hang.empty() ? "" : " and can hang")
              << "; a known-answer test needs exactly one\n";
    return 4;
  }
  const litmus::State& forced = model.allowed.front();
  gpu::RunResult r;
  std::string refusal;
  if (!runOrRefuse(t, o, r, refusal)) {
    std::cout << "BROKEN " << name << ": refused: " << refusal << "\n";
    return 4;
  }
  if (fatal(r)) {
    std::cerr << "litmus run: " << r.message << "\n";
    fatalError = true;
    return 2;
  }
  if (r.status != gpu::RunStatus::Ok) {
    std::cout << "FAIL " << name << ": " << runcli::statusWord(r.status) << ": " << r.message << "\n";
    return r.status == gpu::RunStatus::Timeout ? 1 : 4;
  }
  uint64_t hits = 0;
  std::string others;
  for (const auto& [state, count] : r.histogram) {
    if (state == forced) {
      hits += count;
      continue;
    }
    others += "; " + std::to_string(count) + " in " + litmus::formatState(t.observed, state);
  }
  for (const gpu::NotRecorded& n : r.notRecorded)
    others += "; " + std::to_string(n.count) + " not recorded: " + runcli::formatNotRecorded(t, n);
  if (r.overflow) others += "; " + std::to_string(r.overflow) + " did not fit the histogram table";
  const bool pass = hits == r.instances && others.empty();
  std::cout << (pass ? "pass " : "FAIL ") << name << ": " << hits << " of " << r.instances
            << " instances in the forced state " << litmus::formatState(t.observed, forced) << others << "\n"
            << std::flush;
  return pass ? 0 : 1;
}

int runSelfTest(const RunArgs& a, const gpu::Profile& profile) {
  if (int rc = driverMissing()) return rc;
  const gpu::RunOptions o = runOptions(a, profile);
  std::cout << "Self-test: " << gpu::selfTestSources().size() << " known-answer tests, " << a.count
            << " instances each, seed " << a.seed << "\n";
  int rc = 0, passed = 0, total = 0;
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) {
    bool fatalError = false;
    int one = 4;
    try {
      one = selfTestOne(litmus::parseYaml(s.yaml, s.path), a, o, fatalError);
    } catch (const litmus::Error& e) {  // an embedded test that does not parse: ours to fix
      std::cout << "BROKEN " << s.path << ": " << e.what() << "\n";
    }
    if (fatalError) return 2;
    ++total;
    passed += one == 0;
    rc = runcli::worstExit(rc, one);
  }
  std::cout << "Self-test: " << total << " tests, " << passed << " passed, " << total - passed << " failed\n";
  return rc;
}

}  // namespace

int cmdRun(int argc, char** argv) {
  try {
    RunArgs a;
    if (!parseRunArgs(argc, argv, a)) return 0;
    std::vector<litmus::Test> tests;
    if (!parseTests(a.paths, tests)) return 2;
    if (!a.emitDir.empty()) return emitPtx(a, tests);
    if (!a.sassDir.empty()) return runcli::emitSass(a.sassDir, tests);
    bool loaded = false;
    const gpu::Profile profile = loadProfile(a, a.profileGiven && !a.tune, loaded);
    if (a.tune) return runTune(a, tests, profile);
    if (a.selfTest) return runSelfTest(a, profile);
    return runAll(a, tests, profile, loaded);
  } catch (const UsageError& e) {
    std::cerr << "litmus run: " << e.message << "\n(`litmus run --help` lists the options)\n";
    return 2;
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "litmus run: internal error: " << e.what() << "\n";
    return 4;
  }
}
