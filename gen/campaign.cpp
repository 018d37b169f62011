// Writing a campaign: each test parsed back, checked by the model (in parallel, results kept in
// generation order), offered to the GPU runner's generator, and written with the index.
#include "gen/campaign.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "checker/checker.h"
#include "gpu-runner/runner.h"
#include "litmus/parse.h"

namespace gen {
namespace {

struct Result {
  Generated g;
  std::string verdict = "unchecked";  // allowed forbidden unknown unchecked
  std::string detail;
  std::string refusal;                // the GPU runner's reason, empty when it accepts the test
  std::string error;                  // the test did not parse back (a generator bug)
};

std::string verdictOf(const checker::Result& r) {
  const litmus::Outcome& o = r.outcome;
  if (o.status != litmus::Status::Done) return "unknown";
  return o.observation() == litmus::Observation::Never ? "forbidden" : "allowed";
}

void process(const Spec& spec, const Config& config, const RunOptions& opt, Result& res) {
  res.g = emit(spec);
  litmus::Test test;
  try {
    test = litmus::parseYaml(res.g.yaml, res.g.name + ".yaml");
  } catch (const std::exception& e) {
    res.error = e.what();
    return;
  }
  if (config.runner != "off") {
    try {
      gpu::generatePtx(test);
    } catch (const std::exception& e) {
      res.refusal = e.what();
    }
  }
  if (!opt.check || (!res.refusal.empty() && config.runner == "filter")) return;
  checker::Options co;
  co.timeoutSeconds = config.timeout;
  try {
    const checker::Result r = checker::check(test, co);
    res.verdict = verdictOf(r);
    if (res.verdict == "unknown") res.detail = r.outcome.statusDetail;
    if (!r.outcome.hang.empty()) res.detail += (res.detail.empty() ? "" : "; ") + std::string("may hang");
    if (r.bounded) res.detail += (res.detail.empty() ? "" : "; ") + std::string("loop bound reached");
  } catch (const std::exception& e) {
    res.verdict = "unknown";
    res.detail = e.what();
  }
}

std::string withVerdict(const Result& r) {
  if (r.verdict == "unchecked") return "# litmus gen: not checked by the model (--no-check).\n" + r.g.yaml;
  std::string head = "# litmus gen: the PTX model says the condition is " + r.verdict;
  if (!r.detail.empty()) head += " (" + r.detail + ")";
  head += ". Not an expectation: a model verdict never becomes the test's expect.\n";
  if (!r.g.peer.empty()) head += "# peer: " + r.g.peer + "\n";
  return head + r.g.yaml;
}

struct Tally {
  int tests = 0, allowed = 0, forbidden = 0, unknown = 0, unchecked = 0, refused = 0;
};

void count(Tally& t, const Result& r) {
  ++t.tests;
  if (!r.refusal.empty()) ++t.refused;
  if (r.verdict == "allowed") ++t.allowed;
  else if (r.verdict == "forbidden") ++t.forbidden;
  else if (r.verdict == "unknown") ++t.unknown;
  else ++t.unchecked;
}

void printSummary(std::ostream& out, const std::map<std::string, Tally>& byFamily, const Tally& total) {
  out << std::left << std::setw(14) << "family" << std::right << std::setw(8) << "tests" << std::setw(9)
      << "allowed" << std::setw(11) << "forbidden" << std::setw(9) << "unknown" << std::setw(9) << "refused" << "\n";
  auto line = [&](const std::string& name, const Tally& t) {
    out << std::left << std::setw(14) << name << std::right << std::setw(8) << t.tests << std::setw(9) << t.allowed
        << std::setw(11) << t.forbidden << std::setw(9) << t.unknown << std::setw(9) << t.refused << "\n";
  };
  for (const auto& [f, t] : byFamily) line(f, t);
  line("total", total);
}

// The tests an earlier run listed in DIR/index.tsv, so that a rerun leaves no stale test behind
// (only files that index names are removed).
void removeEarlierRun(const std::string& dir) {
  std::ifstream index(dir + "/index.tsv");
  std::string line;
  std::getline(index, line);
  while (std::getline(index, line)) {
    const size_t a = line.find('\t'), b = line.find('\t', a + 1), c = line.find('\t', b + 1);
    if (c == std::string::npos) continue;
    const std::string file = line.substr(b + 1, c - b - 1);
    if (file.find('/') == std::string::npos && file.size() > 5 && file.ends_with(".yaml"))
      std::filesystem::remove(dir + "/" + file);
  }
}

}  // namespace

int runCampaign(const Config& config, const RunOptions& opt, std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  Expanded ex = expand(config);
  std::erase_if(ex.specs, [&](const Spec& s) { return !suite::inShard(nameOf(s), opt.shard); });
  std::vector<Result> results(ex.specs.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex progressMutex;
  auto worker = [&] {
    for (size_t i; (i = next++) < ex.specs.size();) {
      process(ex.specs[i], config, opt, results[i]);
      const size_t d = ++done;
      if (opt.progress && (d % 25 == 0 || d == ex.specs.size())) {
        std::lock_guard<std::mutex> lock(progressMutex);
        std::cerr << "\rlitmus gen: " << d << "/" << ex.specs.size() << " tests" << std::flush;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::max(1, opt.jobs); ++j) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (opt.progress) std::cerr << "\n";

  std::error_code ec;
  std::filesystem::create_directories(opt.outDir, ec);
  removeEarlierRun(opt.outDir);
  std::ofstream index(opt.outDir + "/index.tsv");
  if (!index) {
    std::cerr << opt.outDir << "/index.tsv: error: cannot write\n";
    return 2;
  }
  index << "name\tfamily\tfile\tverdict\trunner\tpeer\n";
  std::map<std::string, Tally> byFamily;
  Tally total;
  std::set<std::string> names;
  int errors = 0, refusedLeftOut = 0, renamed = 0;
  for (const Result& r : results) {
    if (!r.error.empty()) {
      std::cerr << "litmus gen: internal: " << r.g.name << " does not parse back: " << r.error << "\n";
      ++errors;
      continue;
    }
    if (!r.refusal.empty() && config.runner == "filter") {
      ++refusedLeftOut;
      continue;
    }
    // Two different tests with one name (orders at different positions of a thread can print
    // alike): the later ones get -v2, -v3 .., in the fixed generation order.
    std::string name = r.g.name;
    for (int v = 2; !names.insert(name).second; ++v) name = r.g.name + "-v" + std::to_string(v);
    if (name != r.g.name) ++renamed;
    Result named = r;
    if (name != r.g.name) {
      named.g.yaml.replace(0, ("name: " + r.g.name).size(), "name: " + name);
      named.g.name = name;
    }
    const std::string file = name + ".yaml";
    std::ofstream f(opt.outDir + "/" + file);
    if (!(f << withVerdict(named))) {
      std::cerr << opt.outDir << "/" << file << ": error: cannot write\n";
      return 2;
    }
    index << name << "\t" << r.g.family << "\t" << file << "\t" << r.verdict << "\t"
          << (r.refusal.empty() ? "accepted" : config.runner == "off" ? "-" : "refused") << "\t"
          << (r.g.peer.empty() ? "-" : r.g.peer) << "\n";
    count(byFamily[r.g.family], r);
    count(total, r);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  printSummary(out, byFamily, total);
  out << ex.specs.size() << " generated, " << ex.duplicates << " duplicates merged, " << ex.impossible
      << " combinations impossible, " << renamed << " renamed (-vN), " << refusedLeftOut << " refused by the GPU runner and left out; "
      << std::fixed << std::setprecision(1) << secs << " s\n";
  // As everywhere in litmus: 4 internal error, 3 some test unknown (listed as such).
  return errors ? 4 : total.unknown ? 3 : 0;
}

}  // namespace gen
