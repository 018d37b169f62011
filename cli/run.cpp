// `litmus run`: parse tests, ask the model which final states it allows, run each test on the GPU
// (gpu-runner), and report the histogram against the model. Also --emit-ptx (no GPU needed) and
// --tune. Only this file turns the runner's results into exit codes.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "checker/checker.h"
#include "cli/run.h"
#include "litmus/files.h"
#include "litmus/parse.h"

const char* const kRunUsage = R"(usage: litmus run [OPTIONS] PATH...

Runs each test on the GPU many times and prints the histogram of final states, each marked
allowed or forbidden by the model, VIOLATION lines for observed forbidden states, and the allowed
states never observed (docs/gpu-runner.md).

  -n COUNT           instances per test (default 10000000; 1e8 and the like are accepted)
  --seed S           seed of every random launch parameter (default 1)
  --timeout S        stop a test that has not finished after S seconds (default 60)
  --json FILE        also write one JSON object per test, one per line
  --profile FILE     stress profile to load (default: litmus-gpu.profile if it exists)
  --tune             search stress profiles on the tests given (default: MP, SB, LB relaxed)
                     and save the best to the profile file
  --trials N         profiles --tune tries (default 16)
  --emit-ptx DIR     write each test's generated PTX to DIR/NAME.ptx and run nothing
exit: 0 ok, 1 a forbidden state was observed, 2 bad input, a test the runner cannot run, or no
CUDA driver or device, 3 a test timed out that the model says always terminates (a test the
model says can hang is reported "hung" and counts as ok)
)";

namespace {

constexpr const char* kDefaultProfile = "litmus-gpu.profile";

struct RunArgs {
  std::vector<std::string> paths;
  uint64_t count = 10000000, seed = 1;
  double timeout = 60;
  int trials = 16;
  bool tune = false, profileGiven = false;
  std::string json, profile = kDefaultProfile, emitDir;
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

uint64_t integer(const std::string& flag, const std::string& v, double min, double max) {
  const double d = number(flag, v, max);
  if (d != std::floor(d) || d < min) throw UsageError{"bad value '" + v + "' for " + flag};
  return static_cast<uint64_t>(d);
}

RunArgs parseRunArgs(int argc, char** argv) {
  RunArgs a;
  for (int i = 0; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError{s + " needs a value"};
      return argv[++i];
    };
    if (s == "-n")
      a.count = integer(s, value(), 1, 1e15);
    else if (s == "--seed")
      a.seed = integer(s, value(), 0, 1.8e19);
    else if (s == "--timeout")
      a.timeout = number(s, value(), 1e6);
    else if (s == "--trials")
      a.trials = static_cast<int>(integer(s, value(), 1, 10000));
    else if (s == "--json")
      a.json = value();
    else if (s == "--profile") {
      a.profile = value();
      a.profileGiven = true;
    } else if (s == "--tune")
      a.tune = true;
    else if (s == "--emit-ptx")
      a.emitDir = value();
    else if (s.size() > 1 && s[0] == '-')
      throw UsageError{"unknown option " + s};
    else
      a.paths.push_back(s);
  }
  if (a.paths.empty() && !a.tune) throw UsageError{"run needs at least one test file or directory"};
  if (a.tune && !a.emitDir.empty()) throw UsageError{"--tune and --emit-ptx do not go together"};
  return a;
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

int emitPtx(const RunArgs& a, const std::vector<litmus::Test>& tests) {
  std::error_code ec;
  std::filesystem::create_directories(a.emitDir, ec);
  std::map<std::string, int> seen;
  int refused = 0, written = 0;
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
      ++refused;
      continue;
    }
    std::cout << "wrote " << path << "\n";
    ++written;
  }
  std::cout << written << " written, " << refused << " refused\n";
  return refused ? 2 : 0;
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
    return r.status == gpu::RunStatus::Timeout ? 3 : 2;
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

// What became of one test, for the exit status and the closing summary.
enum class Fate { Ok, Hung, Violation, Refused, Error, Timeout };

std::optional<checker::Result> modelOf(const litmus::Test& t) {
  try {
    return checker::check(t, checker::Options{});
  } catch (const litmus::Error&) {
    return std::nullopt;  // the model refuses the test; the histogram is reported without verdicts
  }
}

void writeJson(std::ostream* json, const litmus::Test& t, const gpu::RunResult& r, const runcli::Verdict& v,
               uint64_t seed) {
  if (!json) return;
  runcli::printRunJson(*json, t, r, v, seed);
  *json << "\n";
}

// A run the watchdog stopped. A test the model says can hang is expected to (exit 0); one the
// model says always terminates is reported as a timeout (exit 3).
Fate reportStopped(const litmus::Test& t, gpu::RunResult& r, const gpu::RunOptions& o, std::ostream* json) {
  const std::optional<checker::Result> model = modelOf(t);
  const bool done = model && model->outcome.status == litmus::Status::Done;
  const bool expected = done && !model->outcome.hang.empty();
  if (expected) r.message += "; the model says it can hang: " + model->outcome.hang;
  else if (done) r.message += "; the model says every execution terminates";
  std::cout << "Test " << t.name << ": " << (expected ? "hung" : "timeout") << ": " << r.message << "\n\n"
            << std::flush;
  runcli::Verdict v;
  v.hangExpected = expected;
  writeJson(json, t, r, v, o.seed);
  return expected ? Fate::Hung : Fate::Timeout;
}

// Runs one test and prints its report.
Fate runOne(const litmus::Test& t, const gpu::RunOptions& o, std::ostream* json, bool& fatal) {
  gpu::RunResult r;
  try {
    r = gpu::run(t, o);
  } catch (const litmus::Error& e) {  // the runner cannot execute this test
    std::cerr << e.what() << "\n";
    return Fate::Refused;
  }
  if (r.status == gpu::RunStatus::NoDriver || r.status == gpu::RunStatus::NoDevice) {
    std::cerr << "litmus run: " << r.message << "\n";
    fatal = true;
    return Fate::Error;
  }
  if (r.status == gpu::RunStatus::Timeout) return reportStopped(t, r, o, json);
  if (r.status != gpu::RunStatus::Ok) {
    std::cout << "Test " << t.name << ": " << runcli::statusWord(r.status) << ": " << r.message << "\n\n"
              << std::flush;
    writeJson(json, t, r, runcli::Verdict{}, o.seed);
    return Fate::Error;
  }
  const std::optional<checker::Result> model = modelOf(t);
  const runcli::Verdict v = runcli::judge(t, r, model ? &model->outcome : nullptr);
  runcli::printRun(std::cout, t, r, v, o.seed);
  std::cout << std::flush;
  writeJson(json, t, r, v, o.seed);
  return v.violations ? Fate::Violation : Fate::Ok;
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
  gpu::RunOptions o;
  o.count = a.count;
  o.seed = a.seed;
  o.timeoutSeconds = a.timeout;
  o.profile = profile;
  o.progress = isatty(STDERR_FILENO);
  std::map<Fate, int> fates;
  bool fatal = false;
  for (const litmus::Test& t : tests) {
    ++fates[runOne(t, o, a.json.empty() ? nullptr : &jsonFile, fatal)];
    if (fatal) return 2;
  }
  std::cout << "Summary: " << tests.size() << " tests: " << fates[Fate::Ok] << " within the model, "
            << fates[Fate::Violation] << " with forbidden states observed, " << fates[Fate::Hung]
            << " hung as the model allows, " << fates[Fate::Timeout] << " timed out, " << fates[Fate::Refused]
            << " refused, " << fates[Fate::Error] << " failed to run\n";
  return fates[Fate::Violation] ? 1 : fates[Fate::Refused] + fates[Fate::Error] ? 2 : fates[Fate::Timeout] ? 3 : 0;
}

}  // namespace

int cmdRun(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::cout << kRunUsage;
      return 0;
    }
  try {
    const RunArgs a = parseRunArgs(argc, argv);
    std::vector<litmus::Test> tests;
    if (!parseTests(a.paths, tests)) return 2;
    if (!a.emitDir.empty()) return emitPtx(a, tests);
    bool loaded = false;
    const gpu::Profile profile = loadProfile(a, a.profileGiven && !a.tune, loaded);
    if (a.tune) return runTune(a, tests, profile);
    return runAll(a, tests, profile, loaded);
  } catch (const UsageError& e) {
    std::cerr << "litmus run: " << e.message << "\n" << kRunUsage;
    return 2;
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "litmus run: internal error: " << e.what() << "\n";
    return 2;
  }
}
