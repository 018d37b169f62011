// `litmus run`'s options: their help, their checks, and the words converted (numbers may be
// written 1e8).
#include "run/run_args.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gpu-runner/multi.h"

namespace runcli {

namespace {

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
  if (a.cover > 0 && (a.tune || a.selfTest || !a.emitDir.empty() || !a.sassDir.empty()))
    throw UsageError{"--cover is for runs of tests"};
  const int modes = a.tune + a.selfTest + !a.emitDir.empty() + !a.sassDir.empty();
  if (modes > 1) throw UsageError{"--tune, --self-test, --emit-ptx and --emit-sass do not go together"};
  if (a.selfTest && !a.paths.empty()) throw UsageError{"--self-test runs its own tests; give no PATH"};
  if (a.paths.empty() && !a.tune && !a.selfTest) throw UsageError{"run needs at least one test file or directory"};
}

}  // namespace

// The words as given, before they are checked and converted.
struct RawArgs {
  std::string count, seed, timeout, trials, unroll, modelTimeout, budget, maxTime, sweep, shard, cover;
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
  app.add_option("--cover", w.cover, "after the tests, spend up to S more seconds on those that ran to the end "
                                   "with allowed states unseen: rounds of one more run each, under the profiles "
                                   "a longer sweep would draw next, until every allowed state was seen; the "
                                   "Coverage line counts what every run saw (docs/gpu-runner.md, \"Coverage\")")
      ->type_name("S");
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
  if (!w.cover.empty()) a.cover = number("--cover", w.cover, 1e9);
  a.profileGiven = app.count("--profile") > 0;
  checkCombination(a);
  checkGpusArg(a, app.count("--gpus") > 0);
  return true;
}

}  // namespace runcli
