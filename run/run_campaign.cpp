// Campaigns of `litmus run`: resuming from the JSON lines of an earlier run (--resume), and the
// timing line that says where each test's time went.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <ostream>
#include <sstream>

#include "litmus/test.h"
#include "run/run.h"
#include "schema/record.h"

namespace runcli {

std::optional<Verdict> Earlier::find(const litmus::Test& test) const {
  const auto it = done_.find({test.name, test.file});
  if (it == done_.end()) return std::nullopt;
  return it->second;
}

namespace {

// A result line: a run record (schema/record.h) with the test, its file and a verdict word.
bool parseResult(const std::string& line, std::string& test, std::string& file, Verdict& v) {
  const schema::Json j = schema::Json::parse(line, nullptr, false);
  try {
    const schema::RunHead h = schema::runHeadOf(j);
    test = h.test;
    file = h.file;
    v = h.verdict;
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

Earlier readEarlier(const std::string& path) {
  Earlier out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  in.close();
  size_t at = 0;
  for (int lineNo = 1; at < text.size(); ++lineNo) {
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    std::string test, file;
    Verdict v = Verdict::Error;
    const bool whole = end != std::string::npos && parseResult(line, test, file, v);
    const bool last = end == std::string::npos || text.find_first_not_of(" \t\r\n", end) == std::string::npos;
    if (!whole && last) {  // a killed run's half-written line: its test runs again
      std::filesystem::resize_file(path, at);
      break;
    }
    if (!whole && line.find_first_not_of(" \t\r") != std::string::npos)
      throw litmus::Error({path, lineNo, 1}, "not a result line of `litmus run --json` (test, file, verdict)");
    if (whole) out.add(test, file, v);
    at = end + 1;
  }
  return out;
}

void Timing::add(const gpu::RunResult& r, double modelSeconds) {
  if (r.status != gpu::RunStatus::Ok) return;  // a timeout's time is the watchdog's
  ++tests;
  model += modelSeconds;
  gpu += r.seconds;
  jit += r.jitSeconds;
  (r.freshWorker ? overheadFresh : overhead) += r.overheadSeconds;
  fresh += r.freshWorker;
}

void Timing::print(std::ostream& os, int workers) const {
  if (tests == 0) return;
  const auto ms = [](double s, int n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f ms", 1e3 * s / n);
    return std::string(buf);
  };
  char gpuText[32];
  std::snprintf(gpuText, sizeof gpuText, "%.3g s", gpu / tests);
  os << "Timing: " << tests << " tests, " << workers << (workers == 1 ? " worker" : " workers")
     << " started; per test: GPU " << gpuText << ", JIT " << ms(jit, tests) << ", other overhead";
  if (tests > fresh) os << " " << ms(overhead, tests - fresh) << " in a running worker";
  if (fresh) os << (tests > fresh ? "," : "") << " " << ms(overheadFresh, fresh) << " starting one (" << fresh << " tests)";
  os << "; the model " << ms(model, tests) << "\n";
}

}  // namespace runcli

namespace runcli {

gpu::RunResult sweepRest(gpu::MultiRunner& runner, const litmus::Test& test, const Model& model,
                         const std::vector<gpu::RunOptions>& shares, gpu::RunResult first,
                         std::vector<gpu::SweepShare>& swept) {
  for (const gpu::RunOptions& o : shares) {
    gpu::SweepShare s;
    s.profile = o.profile;
    s.seed = o.seed;
    s.count = o.count;
    swept.push_back(s);
  }
  const auto record = [&](size_t k, const gpu::RunResult& r) {
    gpu::SweepShare& s = swept[k];
    s.status = r.status == gpu::RunStatus::Ok ? "ok" : r.status == gpu::RunStatus::Timeout ? "timeout" : "error";
    s.instances = r.instances;
    s.seconds = r.seconds;
    if (r.status != gpu::RunStatus::Ok) return;
    s.condition = gpu::conditionHits(test, r);
    s.forbidden = judge(test, r, model).violations;  // so that the share that showed it can be replayed
    s.stoppedBy = gpu::stoppedBy(r);
  };
  record(0, first);
  if (first.status != gpu::RunStatus::Ok) return first;
  // A share stops within a batch of its budget (section 10 of docs/gpu-runner.md); the later
  // shares get what is left, so that the test keeps to its own budget.
  const double budget = shares.front().budgetSeconds * static_cast<double>(shares.size());
  for (size_t k = 1; k < shares.size(); ++k) {
    gpu::RunOptions o = shares[k];
    if (budget > 0)
      o.budgetSeconds = std::max(budget / static_cast<double>(shares.size()) / 4,
                                 (budget - first.seconds) / static_cast<double>(shares.size() - k));
    gpu::RunResult part = runner.run(test, o);
    record(k, part);
    if (part.status != gpu::RunStatus::Ok) {
      part.message = "sweep share " + std::to_string(k) + " of " + std::to_string(shares.size()) + " (seed " +
                     std::to_string(o.seed) + ", its profile in the JSON's sweep array): " + part.message;
      return part;
    }
    gpu::addRun(first, part);
  }
  return first;
}

std::string replayAdvice(const litmus::Test& test, const gpu::Profile& profile, const Replay& r, const std::string& json) {
  std::string file = r.placeholder;
  if (!json.empty()) {
    // the name carries the test: a later test's failure under the same share or round must not
    // overwrite this one's profile
    std::string name = test.name;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '+') c = '_';
    file = json + "." + name + "." + r.tag + ".profile";
    std::ofstream(file) << gpu::formatProfile(profile);
  }
  std::ostringstream os;
  os << r.what << " under this profile" << (json.empty() ? " (save it as " + file + ")" : " (saved in " + file + ")")
     << "; replay it with\n  litmus run --profile " << file << " --seed " << r.seed << " -n " << r.count
     << (r.traceWaits ? " --trace-waits " : " ") << test.file << "\n";
  std::istringstream lines(gpu::formatProfile(profile));
  for (std::string line; std::getline(lines, line);)
    if (line.find('#') != 0) os << "  " << line.substr(0, line.find("    #")) << "\n";
  return os.str();
}

std::string sweepReplay(const litmus::Test& test, const std::vector<gpu::SweepShare>& swept, const std::string& json) {
  for (size_t k = 0; k < swept.size(); ++k) {
    const gpu::SweepShare& s = swept[k];
    if (s.status != "timeout" && s.status != "error" && s.forbidden == 0) continue;
    const std::string what = s.forbidden ? "Sweep share " + std::to_string(k) + " showed " + std::to_string(s.forbidden) +
                                               " instances in states the model forbids"
                                         : "Sweep share " + std::to_string(k) + (s.status == "timeout" ? " ran past its deadline (hung)" : " failed");
    return replayAdvice(test, s.profile,
                        {what, "share" + std::to_string(k), "SHARE.profile", s.seed, s.count, s.status == "timeout"}, json);
  }
  return "";
}

std::string sweepLine(const std::vector<gpu::SweepShare>& swept) {
  std::ostringstream hits;
  int shares = 0;
  for (size_t k = 0; k < swept.size(); ++k)
    if (swept[k].status == "ok" && swept[k].condition) {
      hits << (shares++ ? ", " : ": ") << "#" << k << " " << swept[k].condition;
    }
  std::ostringstream forbidden;
  int showed = 0;
  for (size_t k = 0; k < swept.size(); ++k)
    if (swept[k].forbidden) forbidden << (showed++ ? ", " : ": ") << "#" << k << " " << swept[k].forbidden;
  return "Sweep " + std::to_string(swept.size()) + " profiles: the condition held under " + std::to_string(shares) +
         hits.str() + (showed ? "; states the model forbids under " + std::to_string(showed) + forbidden.str() : "") +
         "\n";
}

nlohmann::ordered_json sweepJson(const std::vector<gpu::SweepShare>& swept) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const gpu::SweepShare& s : swept) {
    nlohmann::ordered_json profile = nlohmann::ordered_json::object();
    for (const auto& [key, value] : gpu::profileValues(s.profile)) profile[key] = value;
    out.push_back({{"seed", s.seed}, {"count", s.count}, {"status", s.status},
                   {"stoppedBy", s.stoppedBy.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.stoppedBy)},
                   {"instances", s.instances}, {"condition", s.condition}, {"forbidden", s.forbidden},
                   {"seconds", s.seconds}, {"profile", profile}});
  }
  return out;
}

bool runOrRefuse(gpu::Runner& runner, const litmus::Test& t, const gpu::RunOptions& o, gpu::RunResult& r,
                 std::string& refusal) {
  try {
    r = runner.run(t, o);
    return true;
  } catch (const litmus::Error& e) {
    refusal = e.what();
    return false;
  }
}

bool fatal(const gpu::RunResult& r) {
  return r.status == gpu::RunStatus::NoDriver || r.status == gpu::RunStatus::NoDevice;
}

// A test that hung as the model allows shows no state: the harness reads a launch's instances
// only when all of them have ended, and a launch holds thousands of instances.
const char* unseenReason(const gpu::RunResult& r, const Model& model) {
  if (r.status == gpu::RunStatus::Ok) return "rare";
  const bool knows = model.kind == Model::Kind::Decided || model.kind == Model::Kind::Bounded;
  return r.status == gpu::RunStatus::Timeout && knows && !model.hang.empty() ? "unreachable" : "not tried";
}

void Coverage::add(const gpu::RunResult& r, const Model& model) {
  if (model.kind != Model::Kind::Decided && model.kind != Model::Kind::Bounded) return;
  const std::string why = unseenReason(r, model);
  for (const litmus::State& s : model.allowed) {
    ++allowed;
    const bool seen = r.status == gpu::RunStatus::Ok &&
                      std::any_of(r.histogram.begin(), r.histogram.end(), [&](const auto& e) { return e.first == s; });
    if (seen) ++observed;
    else if (why == "rare") ++rare;
    else if (why == "unreachable") ++unreachable;
    else ++notTried;
  }
}

void Coverage::print(std::ostream& os) const {
  if (allowed == 0 && refused == 0) return;
  os << "Coverage: " << observed << " of " << allowed << " allowed final states observed";
  if (allowed) os << " (" << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(observed) / static_cast<double>(allowed) << "%)";
  os << std::defaultfloat << "; not seen: " << rare << " rare (their test ran to the end), " << unreachable
     << " unreachable by the harness (their test hung, as the model allows), " << notTried
     << " not tried (their test did not end); " << refused << " tests refused\n";
}

void printSummary(size_t tests, std::map<Verdict, int>& verdicts) {
  std::cout << "Summary: " << tests << " tests:";
  for (Verdict v : judge::kRunVerdicts)
    std::cout << (v == Verdict::Ok ? " " : ", ") << verdicts[v] << " " << judge::toString(v);
  std::cout << "\n";
}

}  // namespace runcli
