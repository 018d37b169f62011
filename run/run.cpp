// `litmus run`: parse tests, ask the model which final states it allows, run each test on the GPU
// (gpu-runner), and judge the histogram against the model. Also --self-test (known answers),
// --emit-ptx (no GPU needed) and --tune. Only this file turns verdicts into exit codes.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <unistd.h>

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
#include "run/run_args.h"
#include "run/run_cover.h"
#include "suite/progress.h"
#include "suite/shard.h"

namespace {

using runcli::RunArgs;
using runcli::UsageError;
// --tune --per-family: the tests of a family it tunes on, and each run's GPU budget when --budget
// is not given. A family costs at most trials * 4 * budget of GPU time (6.4 s by default).
constexpr size_t kTestsPerFamily = 4;
constexpr double kFamilyBudget = 0.1;

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
                                      suite::ProgressLine& progress, const std::function<void()>& whileRunning,
                                      std::vector<runcli::CoverEntry>* cover) {
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
  const runcli::Judgement j = runcli::judge(t, r, model);
  const bool known = model.kind == runcli::Model::Kind::Decided || model.kind == runcli::Model::Kind::Bounded;
  if (cover && r.status == gpu::RunStatus::Ok && known && j.verdict != runcli::Verdict::Violation &&
      runcli::unseenAllowed(r, model) > 0)
    // counted once --cover's rounds have added theirs (a violation is shown already: no rounds)
    cover->push_back({&t, o, static_cast<int>(shares.size()), model, r, j.verdict, j.verdict, false});
  else
    coverage.add(r, model);
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

// --cover: the rounds after the tests, their states counted in `coverage`, and a verdict they
// made worse replacing the pass's; false when the driver or device went away.
bool coverRest(gpu::MultiRunner& runner, const RunArgs& a, std::ofstream& json, std::vector<runcli::CoverEntry>& cover,
               runcli::Coverage& coverage, std::map<runcli::Verdict, int>& verdicts, int& rc) {
  const runcli::CoverSummary s =
      runcli::coverRounds({runner, a.json.empty() ? nullptr : &json, a.json}, cover, a.cover);
  if (!s.fatal.empty()) {
    std::cerr << "litmus run: " << s.fatal << "\n";
    return false;
  }
  for (const runcli::CoverEntry& e : cover) {
    coverage.add(e.total, e.model);
    if (e.verdict == e.passVerdict) continue;
    --verdicts[e.passVerdict];
    ++verdicts[e.verdict];
    rc = cli::worse(rc, judge::exitCode(e.verdict));
  }
  runcli::printCover(std::cout, s, cover);
  return true;
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
  std::vector<runcli::CoverEntry> cover;
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
                                                    timing, coverage, progress, [&] { prefetch(i + 1); },
                                                    a.cover > 0 ? &cover : nullptr);
    if (!v) return 2;
    ++verdicts[*v];
    rc = cli::worse(rc, judge::exitCode(*v));
  }
  progress.clear();
  if (a.cover > 0 && !coverRest(runner, a, jsonFile, cover, coverage, verdicts, rc)) return 2;
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
