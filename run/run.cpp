// `litmus run`: parse tests, ask the model which final states it allows, run each test on the GPU
// (gpu-runner), and judge the histogram against the model. Also --self-test (known answers),
// --emit-ptx (no GPU needed) and --tune. Only this file turns verdicts into exit codes.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "base/exit_code.h"
#include "checker/checker.h"
#include "gpu-runner/multi.h"
#include "gpu-runner/self_test.h"
#include "gpu-runner/sweep.h"
#include "litmus/files.h"
#include "litmus/parse.h"
#include "run/emit_sass.h"
#include "run/run.h"
#include "suite/progress.h"
#include "suite/shard.h"

namespace {

constexpr const char* kDefaultProfile = "litmus-gpu.profile";
// --tune --per-family: the tests of a family it tunes on, and each run's GPU budget when --budget
// is not given. A family costs at most trials * 4 * budget of GPU time (6.4 s by default).
constexpr size_t kTestsPerFamily = 4;
constexpr double kFamilyBudget = 0.1;

struct RunArgs {
  std::vector<std::string> paths;
  uint64_t count = 10000000, seed = 1;
  double timeout = 60, modelTimeout = 0;
  int trials = 16, unroll = 2, sweep = 1;
  bool tune = false, selfTest = false, profileGiven = false;
  std::string json, profile = kDefaultProfile, emitDir;
  std::string sassDir;  // --emit-sass (run/emit_sass.cpp)
  // campaigns (docs/gpu-runner.md, "Campaigns")
  double budget = 0, maxTime = 0;
  bool resume = false, perFamily = false, workerPerTest = false, traceWaits = false;
  suite::Shard shard;  // --shard K/N (docs/scale.md)
  std::string gpus;    // --gpus all|LIST (docs/gpu-runner.md, "Several GPUs")
  std::string jitCache = gpu::defaultJitCacheDir();  // docs/gpu-runner.md, "The JIT off the critical path"
  int jitAhead = 3;
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
    "(the most severe wins: 4, 2, 1, 3, 0). --self-test: 0 every known answer reproduced, 1 not.\n"
    "--max-time: 3 when tests were left for --resume, whatever the verdicts (the piece that finishes\n"
    "the campaign exits with every test's). Campaigns: docs/gpu-runner.md, section 10.";

// --gpus: its syntax (the devices themselves are checked when the run starts); runs of tests only.
void checkGpusArg(const RunArgs& a, bool given) {
  if (!given) return;
  std::string why;
  if (!gpu::parseGpuList(a.gpus, why)) throw UsageError{"bad value '" + a.gpus + "' for --gpus: " + why};
  if (a.tune || a.selfTest || !a.emitDir.empty() || !a.sassDir.empty())
    throw UsageError{"--gpus is for runs of tests (not --tune, --self-test, --emit-ptx or --emit-sass)"};
}

// Options that do not go together, or need another.
void checkCombination(const RunArgs& a) {
  if (a.resume && a.json.empty()) throw UsageError{"--resume needs --json FILE (the results to resume from)"};
  if (a.perFamily && !a.tune) throw UsageError{"--per-family goes with --tune"};
  if (a.perFamily && a.paths.empty()) throw UsageError{"--tune --per-family needs the tests to tune on"};
  if (a.sweep > 1 && (a.tune || a.selfTest)) throw UsageError{"--sweep is for runs of tests"};
  if ((a.resume || a.maxTime > 0) && (a.tune || a.selfTest || !a.emitDir.empty()))
    throw UsageError{"--resume and --max-time are for runs of tests"};
  const int modes = a.tune + a.selfTest + !a.emitDir.empty() + !a.sassDir.empty();
  if (modes > 1) throw UsageError{"--tune, --self-test, --emit-ptx and --emit-sass do not go together"};
  if (a.selfTest && !a.paths.empty()) throw UsageError{"--self-test runs its own tests; give no PATH"};
  if (a.paths.empty() && !a.tune && !a.selfTest) throw UsageError{"run needs at least one test file or directory"};
}

// Fills `a`; returns false when the help was printed.
// The words as given, before they are checked and converted.
struct RawArgs {
  std::string count, seed, timeout, trials, unroll, modelTimeout, budget, maxTime, sweep, shard;
};

void addRunOptions(CLI::App& app, RunArgs& a, RawArgs& w) {
  app.add_option("PATH", a.paths, "test files or directories (YAML or herd .litmus)");
  app.add_option("-n", w.count, "instances per test (default 1e7; 1e8 and the like are accepted)")->type_name("COUNT");
  app.add_option("--seed", w.seed, "seed of every random launch parameter (default 1)")->type_name("S");
  app.add_option("--timeout", w.timeout, "stop a test that has not finished after S seconds (default 60)")
      ->type_name("S");
  app.add_option("--json", a.json, "also write one JSON object per test, one per line")->type_name("FILE");
  app.add_option("--profile", a.profile, "stress profile (default: litmus-gpu.profile if it exists)")
      ->type_name("FILE");
  app.add_flag("--tune", a.tune, "search stress profiles on the tests given (default: MP, SB, LB relaxed) "
                                 "and save the best to the profile file");
  app.add_option("--trials", w.trials, "profiles --tune tries (default 16)")->type_name("N");
  app.add_flag("--trace-waits", a.traceWaits, "record the wait each testing thread entered last, so that a "
                                             "timeout says where its launch was stuck (docs/wait-trace.md)");
  app.add_option("--emit-ptx", a.emitDir, "write each test's generated PTX to DIR/NAME.ptx and run nothing")
      ->type_name("DIR");
  app.add_option("--emit-sass", a.sassDir,
                 "write each test's cubin from the driver's JIT (and its nvdisasm -hex disassembly, "
                 "where nvdisasm is found) to DIR/NAME.cubin and .sass, and run nothing")
      ->type_name("DIR");
  app.add_flag("--self-test", a.selfTest,
               "run the built-in known-answer tests (gpu-runner/self-test/) and fail unless every "
               "instance shows the one state the model allows");
  app.add_option("--unroll", w.unroll, "the model's loop bound: backward jumps per branch (default 2)")
      ->type_name("N");
  app.add_option("--model-timeout", w.modelTimeout, "seconds the model may take per test (default: no limit)")
      ->type_name("S");
}

// Campaigns (docs/gpu-runner.md, section 10) and scaling out (docs/scale.md).
void addCampaignOptions(CLI::App& app, RunArgs& a, RawArgs& w) {
  app.add_option("--budget", w.budget, "GPU seconds per test: a test stops at -n instances or S seconds, "
                                     "whichever comes first (--tune --per-family: per run, default 0.1)")
      ->type_name("S");
  app.add_option("--max-time", w.maxTime, "start no test after S seconds of the whole run; the rest are left "
                                        "for --resume (exit 3)")
      ->type_name("S");
  app.add_flag("--resume", a.resume, "with --json FILE: skip the tests whose results FILE holds, append the "
                                     "others (a torn last line is dropped and its test rerun)");
  app.add_option("--jit-cache", a.jitCache, "keep the driver's compilations of the tests in DIR (default "
                                            "$XDG_CACHE_HOME/ptx-litmus/cubin; none: not on disk)")
      ->type_name("DIR");
  app.add_option("--jit-ahead", a.jitAhead, "compile the next N tests on host threads while the GPU runs the "
                                            "current one (default 3; 0: each test's JIT when it starts)")
      ->type_name("N")
      ->check(CLI::Range(0, 64));
  app.add_flag("--worker-per-test", a.workerPerTest,
               "a fresh worker process and CUDA context for every test (slower; to measure the per-test "
               "overhead the persistent worker saves)");
  app.add_flag("--per-family", a.perFamily, "with --tune: tune a profile for each test family (YAML family:) "
                                            "on its tests whose condition the model allows; saved as sections");
  app.add_option("--sweep", w.sweep, "run each test under N stress profiles in turn (the profile given, then "
                                   "N-1 drawn from the test's seed), each for about 1/N of -n and --budget; "
                                   "histograms added (docs/gpu-runner.md, \"Sweeps\")")
      ->type_name("N");
  app.add_option("--gpus", a.gpus, "run on these GPUs: all, or device numbers 0,1,...: a test on one GPU is "
                                  "split over them, a test across k GPUs runs on the first k")
      ->type_name("all|LIST");
  app.add_option("--shard", w.shard, "only the tests of shard K of N, by a hash of the test name; "
                                   "'litmus merge' joins the shards' --json files (docs/scale.md)")
      ->type_name("K/N");
}

bool parseRunArgs(int argc, char** argv, RunArgs& a) {
  CLI::App app{kDescription, "litmus run"};
  app.footer(kFooter);
  RawArgs w;
  addRunOptions(app, a, w);
  addCampaignOptions(app, a, w);
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
  if (!w.shard.empty()) {
    const auto s = suite::parseShard(w.shard);
    if (!s) throw UsageError{"bad value '" + w.shard + "' for --shard (" + suite::shardSyntax() + ")"};
    a.shard = *s;
  }
  if (!w.count.empty()) a.count = integer("-n", w.count, 1, 1e15);
  if (!w.seed.empty()) a.seed = integer("--seed", w.seed, 0, 1.8e19);
  if (!w.timeout.empty()) a.timeout = number("--timeout", w.timeout, 1e6);
  if (!w.trials.empty()) a.trials = static_cast<int>(integer("--trials", w.trials, 1, 10000));
  if (!w.unroll.empty()) a.unroll = static_cast<int>(integer("--unroll", w.unroll, 0, 1000));
  if (!w.modelTimeout.empty()) a.modelTimeout = number("--model-timeout", w.modelTimeout, 1e6);
  if (!w.budget.empty()) a.budget = number("--budget", w.budget, 1e6);
  if (!w.sweep.empty()) a.sweep = static_cast<int>(integer("--sweep", w.sweep, 1, 1000));
  if (!w.maxTime.empty()) a.maxTime = number("--max-time", w.maxTime, 1e9);
  a.profileGiven = app.count("--profile") > 0;
  checkCombination(a);
  checkGpusArg(a, app.count("--gpus") > 0);
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
gpu::ProfileSet loadProfile(const RunArgs& a, bool mustExist, bool& loaded) {
  std::ifstream in(a.profile);
  loaded = static_cast<bool>(in);
  if (!in) {
    if (mustExist) throw litmus::Error({a.profile, 0, 0}, "cannot read the profile file");
    return gpu::ProfileSet{};
  }
  std::stringstream text;
  text << in.rdbuf();
  return gpu::parseProfiles(text.str(), a.profile);
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
      ptx = gpu::generatePtx(t, a.traceWaits);
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

gpu::RunOptions runOptions(const RunArgs& a, const gpu::Profile& profile) {
  gpu::RunOptions o;
  o.count = a.count;
  o.seed = a.seed;
  o.timeoutSeconds = a.timeout;
  o.budgetSeconds = a.budget;
  o.profile = profile;
  o.progress = isatty(STDERR_FILENO);
  o.jitCache = a.jitCache == "none" ? "" : a.jitCache;
  o.traceWaits = a.traceWaits;
  return o;
}

// Writes the profile file; false (after saying why) when it cannot.
bool saveProfiles(const RunArgs& a, const gpu::ProfileSet& set) {
  std::ofstream out(a.profile);
  if (!(out << gpu::formatProfiles(set))) {
    std::cerr << a.profile << ": error: cannot write the profile\n";
    return false;
  }
  return true;
}

int tuneExit(const gpu::TuneResult& r) {
  return r.status == gpu::RunStatus::Timeout ? 3 : r.status == gpu::RunStatus::Error ? 4 : 2;
}

// --tune --per-family: each family tuned on its tests whose condition the model allows (weak
// outcomes to look for), each run stopped by the budget, so a family costs a bounded GPU time.
int tunePerFamily(const RunArgs& a, const std::vector<litmus::Test>& tests, gpu::ProfileSet set) {
  std::vector<litmus::Test> useful;
  for (const litmus::Test& t : tests)
    if (runcli::conditionReachable(t, runcli::askModel(t, a.unroll, a.modelTimeout)) == true) useful.push_back(t);
  int rc = 0;
  gpu::Runner runner;  // one worker for every family
  const auto families = gpu::byFamily(useful, kTestsPerFamily);
  for (const auto& [family, members] : families) {
    gpu::TuneOptions o;
    o.runner = &runner;
    o.trials = a.trials;
    o.run = runOptions(a, set.forFamily(family));
    if (o.run.budgetSeconds <= 0) o.run.budgetSeconds = kFamilyBudget;
    const gpu::TuneResult r = gpu::tune(members, o);
    if (r.status != gpu::RunStatus::Ok) {
      std::cerr << "litmus run: family " << family << ": " << r.message << "\n";
      if (r.status == gpu::RunStatus::NoDriver || r.status == gpu::RunStatus::NoDevice) return 2;
      rc = cli::worse(rc, tuneExit(r));
      continue;
    }
    set.families[family] = r.best;
    std::cout << "family " << family << ": " << r.bestScore << " weak outcomes/s (geometric mean over "
              << members.size() << " tests, " << a.trials << " trials)\n" << std::flush;
  }
  std::set<std::string> all;
  for (const litmus::Test& t : tests) all.insert(litmus::familyOf(t));
  for (const std::string& f : all)
    if (!families.count(f))
      std::cout << "family " << f << ": not tuned (no test whose condition the model allows)\n";
  if (!saveProfiles(a, set)) return 2;
  std::cout << "profiles saved to " << a.profile << "\n";
  return rc;
}

int runTune(const RunArgs& a, std::vector<litmus::Test> tests, gpu::ProfileSet set) {
  if (int rc = driverMissing()) return rc;
  if (a.perFamily) return tunePerFamily(a, tests, set);
  if (tests.empty()) tests = gpu::calibrationTests();
  gpu::TuneOptions o;
  o.trials = a.trials;
  o.run = runOptions(a, set.base);
  o.onTrial = [](int trial, const gpu::Profile&, double score) {
    std::cout << "trial " << trial << ": " << score << " weak outcomes/s (geometric mean)\n" << std::flush;
  };
  const gpu::TuneResult r = gpu::tune(tests, o);
  if (r.status != gpu::RunStatus::Ok) {
    std::cerr << "litmus run: " << r.message << "\n";
    return tuneExit(r);
  }
  set.base = r.best;  // the file's family sections are kept
  if (!saveProfiles(a, set)) return 2;
  std::cout << "best: " << r.bestScore << " weak outcomes/s; profile saved to " << a.profile << "\n"
            << gpu::formatProfile(r.best);
  return 0;
}

// Runs one test, prints its report and JSON line; returns its verdict (nullopt: no driver/device).
// The model works out the allowed states while the GPU runs the test (the first share of a sweep),
// after `whileRunning` (which hands the next tests to the compiler).
std::optional<runcli::Verdict> runOne(gpu::MultiRunner& runner, const litmus::Test& t, const RunArgs& a,
                                      const gpu::RunOptions& o, const std::string& section, std::ostream* json,
                                      runcli::Timing& timing, runcli::Coverage& coverage,
                                      suite::ProgressLine& progress, const std::function<void()>& whileRunning) {
  const std::vector<gpu::RunOptions> shares = gpu::sweepShares(o, a.sweep);
  try {
    runner.submit(t, shares.front());
    whileRunning();
  } catch (const litmus::Error& e) {
    whileRunning();
    progress.clear();
    std::cerr << e.what() << "\n";
    std::cout << "Test " << t.name << ": refused\n\n" << std::flush;
    if (json) *json << runcli::refusedJson(t, e.what()).dump() << "\n" << std::flush;
    ++coverage.refused;
    return runcli::Verdict::Refused;
  }
  const auto asked = std::chrono::steady_clock::now();
  const runcli::Model model = runcli::askModel(t, a.unroll, a.modelTimeout);
  const double modelSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
  gpu::RunResult r = runner.collect();
  std::vector<gpu::SweepShare> swept;
  if (shares.size() > 1) r = runcli::sweepRest(runner, t, model, shares, std::move(r), swept);
  progress.clear();  // before anything is printed
  if (runcli::fatal(r)) {
    std::cerr << "litmus run: " << r.message << "\n";
    return std::nullopt;
  }
  timing.add(r, modelSeconds);
  coverage.add(r, model);
  const runcli::Judgement j = runcli::judge(t, r, model);
  std::optional<runcli::Fault> fault;
  if (runcli::launchFault(r)) fault = runcli::diagnoseFault(t, a.modelTimeout);
  if (r.status == gpu::RunStatus::Ok) {
    runcli::printRun(std::cout, t, r, model, j, o.seed, swept.empty() ? "" : runcli::sweepLine(swept));
    if (const std::string replay = runcli::sweepReplay(t, swept, a.json); !replay.empty()) std::cout << replay << "\n";
  } else {
    std::cout << "Test " << t.name << ": " << judge::toString(j.verdict) << ": " << r.message
              << (j.reason == r.message ? "" : "; " + j.reason) << "\n"
              << (fault ? "Fault: " + fault->summary + "\n" : "") << gpu::formatTrace(r.waits)
              << runcli::sweepReplay(t, swept, a.json) << "\n";
  }
  std::cout << std::flush;
  if (json) {
    nlohmann::ordered_json line = runcli::runJson(t, r, model, j, o.seed);
    line["profile"] = section;
    line["budget"] = o.budgetSeconds > 0 ? nlohmann::ordered_json(o.budgetSeconds) : nlohmann::ordered_json(nullptr);
    if (!swept.empty()) line["sweep"] = runcli::sweepJson(swept);
    if (fault) line["fault"] = runcli::faultJson(*fault);
    *json << line.dump() << "\n" << std::flush;
  }
  return j.verdict;
}

// The GPUs --gpus names on this machine (none without --gpus); throws UsageError when it names
// one the machine lacks.
std::vector<int> gpusOf(const RunArgs& a, gpu::DeviceProbe& probe) {
  if (a.gpus.empty()) return {};
  std::string why;
  const std::optional<gpu::GpuList> list = gpu::parseGpuList(a.gpus, why);
  probe = gpu::probeDevices(a.timeout);
  std::vector<int> gpus = list ? gpu::resolveGpus(*list, probe, why) : std::vector<int>{};
  if (gpus.empty()) throw UsageError{"--gpus " + a.gpus + ": " + why};
  return gpus;
}

int runAll(const RunArgs& a, const std::vector<litmus::Test>& tests, const gpu::ProfileSet& profiles,
           bool loaded) {
  if (int rc = driverMissing()) return rc;
  gpu::DeviceProbe probe;
  const std::vector<int> gpus = gpusOf(a, probe);
  if (loaded) std::cout << "Profile " << a.profile << "\n\n";
  runcli::Earlier earlier;
  if (a.resume) earlier = runcli::readEarlier(a.json);  // drops a torn last line from the file
  std::ofstream jsonFile;
  if (!a.json.empty()) {
    jsonFile.open(a.json, a.resume ? std::ios::app : std::ios::trunc);
    if (!jsonFile) throw UsageError{"cannot write " + a.json};
  }
  std::map<runcli::Verdict, int> verdicts;
  int rc = 0;
  size_t skipped = 0, left = 0;
  gpu::MultiRunner runner(a.workerPerTest, gpus, gpus.empty() ? nullptr : &probe);
  runcli::Timing timing;
  runcli::Coverage coverage;
  // over the tests when there are several; a single test gets the worker's line of instances
  suite::ProgressLine progress(isatty(STDERR_FILENO) && tests.size() > 1);
  size_t reached = 0;
  const auto start = std::chrono::steady_clock::now();
  // Hands the modules of the i-th test and the --jit-ahead after it to the worker's compiler, once
  // test i-1 is submitted (their generation overlaps its run): test i compiles while i-1 runs.
  size_t ahead = 0;  // tests[0, ahead) were handed over or skipped
  const auto prefetch = [&](size_t i) {
    for (ahead = std::max(ahead, i); a.jitAhead > 0 && ahead < std::min(tests.size(), i + 1 + a.jitAhead); ++ahead)
      if (!earlier.find(tests[ahead])) runner.prefetch(tests[ahead], runOptions(a, profiles.base));
  };
  prefetch(0);
  for (const litmus::Test& t : tests) {
    const size_t i = reached;
    progress.update(reached++, tests.size(), t.name);
    if (const auto done = earlier.find(t)) {
      ++skipped;
      ++verdicts[*done];
      rc = cli::worse(rc, judge::exitCode(*done));
      continue;
    }
    if (a.maxTime > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= a.maxTime) {
      ++left;
      continue;
    }
    std::string section;
    gpu::RunOptions o = runOptions(a, profiles.forFamily(litmus::familyOf(t), &section));
    o.progress = o.progress && !progress.enabled();
    const std::optional<runcli::Verdict> v = runOne(runner, t, a, o, section, a.json.empty() ? nullptr : &jsonFile,
                                                    timing, coverage, progress, [&] { prefetch(i + 1); });
    if (!v) return 2;
    ++verdicts[*v];
    rc = cli::worse(rc, judge::exitCode(*v));
  }
  progress.clear();
  if (a.resume) std::cout << "Resumed: " << skipped << " tests already in " << a.json << "\n";
  timing.print(std::cout, runner.workersStarted());
  coverage.print(std::cout);
  runcli::printSummary(tests.size() - left, verdicts);
  if (left) {
    std::cerr << "litmus run: --max-time " << a.maxTime << " s reached: " << left << " of " << tests.size()
              << " tests not run; run the same command with --resume" << (a.resume ? "" : " (and --json)")
              << " to go on\n";
    // 3 whatever the verdicts so far, so that a script knows to go on; they are in the JSON, and
    // the piece that finishes the campaign exits with the verdicts of every test
    rc = 3;
  }
  return rc;
}

// ---- --self-test ------------------------------------------------------------------------------

// One known-answer test: the model must allow exactly one state and no hang; every instance of
// the run must show that state. Returns 0 pass, 1 fail, 4 the self-test itself is broken.
int selfTestOne(gpu::Runner& runner, const litmus::Test& t, const RunArgs& a, const gpu::RunOptions& o,
                bool& fatalError) {
  const std::string name = t.name + " (" + gpu::placementSummary(t) + ")";
  const runcli::Model model = runcli::askModel(t, a.unroll, a.modelTimeout);
  if (model.kind != runcli::Model::Kind::Decided || model.allowed.size() != 1 || !model.hang.empty()) {
    std::cout << "BROKEN " << name << ": the model (" << judge::toString(model.kind) << ") allows "
              << model.allowed.size() << " states" << (model.hang.empty() ? "" : " and can hang")
              << "; a known-answer test needs exactly one\n";
    return 4;
  }
  const litmus::State& forced = model.allowed.front();
  gpu::RunResult r;
  std::string refusal;
  if (!runcli::runOrRefuse(runner, t, o, r, refusal)) {
    std::cout << "BROKEN " << name << ": refused: " << refusal << "\n";
    return 4;
  }
  if (runcli::fatal(r)) {
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
  gpu::Runner runner;
  std::cout << "Self-test: " << gpu::selfTestSources().size() << " known-answer tests, " << a.count
            << " instances each, seed " << a.seed << "\n";
  int rc = 0, passed = 0, total = 0;
  for (const gpu::SelfTestSource& s : gpu::selfTestSources()) {
    bool fatalError = false;
    int one = 4;
    try {
      one = selfTestOne(runner, litmus::parseYaml(s.yaml, s.path), a, o, fatalError);
    } catch (const litmus::Error& e) {  // an embedded test that does not parse: ours to fix
      std::cout << "BROKEN " << s.path << ": " << e.what() << "\n";
    }
    if (fatalError) return 2;
    ++total;
    passed += one == 0;
    rc = cli::worse(rc, one);
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
    std::erase_if(tests, [&](const litmus::Test& t) { return !suite::inShard(t.name, a.shard); });
    if (!a.emitDir.empty()) return emitPtx(a, tests);
    if (!a.sassDir.empty()) return runcli::emitSass(a.sassDir, tests);
    bool loaded = false;
    const gpu::ProfileSet profiles = loadProfile(a, a.profileGiven && !a.tune, loaded);
    if (a.tune) return runTune(a, tests, profiles);
    if (a.selfTest) return runSelfTest(a, profiles.base);
    return runAll(a, tests, profiles, loaded);
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
