#include "suite/suite.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

#include "litmus/parse.h"
#include "suite/parallel.h"

namespace suite {

namespace fs = std::filesystem;

int SuiteReport::count(Verdict v) const {
  int n = 0;
  for (const auto& e : entries) n += e.verdict == v;
  return n;
}

namespace {

// The rows of a TSV with a header line "test\t...": (line number, columns), at least `need` each.
std::vector<std::pair<int, std::vector<std::string>>> readTsv(const std::string& path, size_t need,
                                                              const std::string& columns) {
  std::ifstream in(path);
  if (!in) throw litmus::Error({path, 0, 0}, "cannot read expectation file");
  std::vector<std::pair<int, std::vector<std::string>>> rows;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || (lineNo == 1 && line.rfind("test\t", 0) == 0)) continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols.size() < need)
      throw litmus::Error({path, lineNo, 1}, "expected " + std::to_string(need) +
                                                 " tab-separated columns (" + columns + "), found " +
                                                 std::to_string(cols.size()));
    rows.emplace_back(lineNo, std::move(cols));
  }
  return rows;
}

}  // namespace

std::map<std::string, litmus::Expect> readExpectedTsv(const std::string& path) {
  std::map<std::string, litmus::Expect> out;
  for (const auto& [lineNo, cols] : readTsv(path, 4, "test, model, quantifier, condition")) {
    const auto e = litmus::parseExpect(cols[3]);
    if (!e) throw litmus::Error({path, lineNo, 1}, "unknown expectation '" + cols[3] + "'");
    auto [it, fresh] = out.emplace(cols[0], *e);
    if (!fresh && it->second != *e)
      throw litmus::Error({path, lineNo, 1}, "conflicting expectations for '" + cols[0] + "'");
  }
  return out;
}

std::map<std::string, std::string> readLivenessTsv(const std::string& path) {
  std::map<std::string, std::string> out;
  for (const auto& [lineNo, cols] : readTsv(path, 3, "test, model, termination")) {
    if (cols[2] != "terminates" && cols[2] != "may-hang")
      throw litmus::Error({path, lineNo, 1}, "unknown termination '" + cols[2] +
                                                 "' (terminates or may-hang)");
    auto [it, fresh] = out.emplace(cols[0], cols[2]);
    if (!fresh && it->second != cols[2])
      throw litmus::Error({path, lineNo, 1}, "conflicting liveness for '" + cols[0] + "'");
  }
  return out;
}

namespace {

struct Expectations {
  std::map<std::string, litmus::Expect> verdicts;
  std::string verdictDir;
  std::map<std::string, std::string> liveness;
  std::string livenessDir;
};

std::string relativeTo(const std::string& file, const std::string& dir) {
  return fs::relative(fs::absolute(file), dir).generic_string();
}

void apply(SuiteEntry& e, const judge::Judgement& j) {
  e.verdict = j.decision;
  e.verdictMet = j.verdictMet;
  e.livenessMet = j.livenessMet;
  e.message = j.message();
}

SuiteEntry runOne(const std::string& file, const SuiteOptions& opt, const Expectations& x) {
  SuiteEntry e;
  e.path = file;
  e.name = fs::path(file).stem().string();
  const auto t0 = std::chrono::steady_clock::now();
  const litmus::Deadline deadline(opt.check.timeoutSeconds);  // reading counts against --timeout
  try {
    litmus::Test t = litmus::parseFile(file, deadline);
    e.name = t.name;
    e.expected = t.expect;
    e.liveness = t.liveness;
    e.raceFree = t.raceFree;
    if (!opt.expectedTsv.empty()) {
      auto it = x.verdicts.find(relativeTo(file, x.verdictDir));
      e.expected = it == x.verdicts.end() ? litmus::Expect::None : it->second;
    }
    if (!opt.livenessTsv.empty()) {
      auto it = x.liveness.find(relativeTo(file, x.livenessDir));
      e.liveness = it == x.liveness.end() ? std::string() : it->second;
    }
    checker::Options o = opt.check;
    o.spentSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    checker::Result r = checker::check(t, o);
    e.outcome = std::move(r.outcome);
    apply(e, judge::judgeOutcome(e.outcome, {e.expected, e.liveness, e.raceFree}, r.mismatch(), {opt.failOnRelies}));
  } catch (const litmus::Error& err) {
    apply(e, judge::error(err.what()));
  } catch (const litmus::Deadline::Expired&) {  // an Unknown, as a check that ran out of time
    e.outcome.test = e.name;
    e.outcome.giveUp(litmus::UnknownReason::Timeout, deadline.describe() + " while reading");
    apply(e, judge::judgeOutcome(e.outcome, {e.expected, e.liveness, e.raceFree}, ""));
  } catch (const std::bad_alloc&) {
    e.outcome.test = e.name;
    e.outcome.giveUp(litmus::UnknownReason::Memory, "out of memory while reading");
    apply(e, judge::judgeOutcome(e.outcome, {e.expected, e.liveness, e.raceFree}, ""));
  }
  return e;
}

// The entries of the TSVs that name no existing file, each as an Error entry (its path is the
// TSV's directory as given, joined with the listed name), so that a deleted test is never mistaken
// for one that was simply not run.
std::vector<SuiteEntry> missingListed(const SuiteOptions& opt, const Expectations& x) {
  std::map<std::string, SuiteEntry> missing;  // by path
  std::map<std::string, std::vector<std::string>> listedIn;
  auto lookup = [&](const std::string& tsv, const std::string& dir,
                    const std::string& key) -> SuiteEntry* {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / key, ec)) return nullptr;
    const std::string path = (fs::path(tsv).parent_path() / key).generic_string();
    listedIn[path].push_back(fs::path(tsv).filename().string());
    SuiteEntry& e = missing[path];
    e.path = path;
    e.name = fs::path(key).stem().string();
    return &e;
  };
  for (const auto& [key, expect] : x.verdicts)
    if (SuiteEntry* e = lookup(opt.expectedTsv, x.verdictDir, key)) e->expected = expect;
  for (const auto& [key, liveness] : x.liveness)
    if (SuiteEntry* e = lookup(opt.livenessTsv, x.livenessDir, key)) e->liveness = liveness;
  std::vector<SuiteEntry> out;
  for (auto& [path, e] : missing) {
    e.verdict = Verdict::Error;
    e.message = "listed in ";
    for (size_t i = 0; i < listedIn[path].size(); ++i)
      e.message += (i ? " and " : "") + listedIn[path][i];
    e.message += " but not found";
    e.outcome.test = e.name;
    e.outcome.giveUp(litmus::UnknownReason::NotRun, "not run");  // never checked: no observation
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

namespace {

// A file's name for --shard: the test's `name`, or the file's stem when it does not parse.
std::string shardName(const std::string& file, double timeout) {
  try {
    return litmus::parseFile(file, litmus::Deadline(timeout)).name;
  } catch (const litmus::Error&) {
    return fs::path(file).stem().string();
  } catch (const litmus::Deadline::Expired&) {
    return fs::path(file).stem().string();
  }
}

}  // namespace

SuiteReport runSuite(const std::vector<std::string>& allFiles, const SuiteOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  Expectations x;
  if (!opt.expectedTsv.empty()) {
    x.verdicts = readExpectedTsv(opt.expectedTsv);
    x.verdictDir = fs::absolute(opt.expectedTsv).parent_path().string();
  }
  if (!opt.livenessTsv.empty()) {
    x.liveness = readLivenessTsv(opt.livenessTsv);
    x.livenessDir = fs::absolute(opt.livenessTsv).parent_path().string();
  }
  std::vector<std::string> files;
  for (const std::string& f : allFiles)
    if (opt.shard.all() || suite::inShard(shardName(f, opt.check.timeoutSeconds), opt.shard)) files.push_back(f);
  std::vector<SuiteEntry> missing;
  for (SuiteEntry& e : missingListed(opt, x))
    if (suite::inShard(e.name, opt.shard)) missing.push_back(std::move(e));
  const size_t total = files.size() + missing.size();
  SuiteReport report;
  suite::orderedParallel<SuiteEntry>(
      files.size(), opt.jobs, [&](size_t i) { return runOne(files[i], opt, x); },
      [&](size_t i, SuiteEntry e) {
        report.entries.push_back(std::move(e));
        if (opt.progress) opt.progress(i + 1, total, report.entries.back());
      });
  for (const SuiteEntry& e : missing) {
    report.entries.push_back(e);
    if (opt.progress) opt.progress(report.entries.size(), total, report.entries.back());
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

namespace {

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void writeJunit(const std::string& path, const SuiteReport& r) {
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<testsuite name=\"litmus\" tests=\"" << r.entries.size() << "\" failures=\""
     << r.count(Verdict::Fail) << "\" errors=\"" << r.count(Verdict::Error) + r.count(Verdict::Unknown)
     << "\" skipped=\"" << r.count(Verdict::NoExpectation) << "\" time=\"" << r.seconds << "\">\n";
  for (const auto& e : r.entries) {
    os << "  <testcase classname=\"" << xmlEscape(fs::path(e.path).parent_path().string())
       << "\" name=\"" << xmlEscape(e.name) << "\" time=\"" << e.outcome.seconds << "\"";
    switch (e.verdict) {
      case Verdict::Pass: os << "/>\n"; continue;
      case Verdict::Fail: os << ">\n    <failure message=\"" << xmlEscape(e.message) << "\"/>\n"; break;
      case Verdict::Error:
      case Verdict::Unknown: os << ">\n    <error message=\"" << xmlEscape(e.message) << "\"/>\n"; break;
      case Verdict::NoExpectation: os << ">\n    <skipped message=\"no expectation\"/>\n"; break;
    }
    os << "  </testcase>\n";
  }
  os << "</testsuite>\n";
  // Written in one go so that an interrupted run leaves no half-written report.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << os.str();
    if (!out) throw litmus::Error({path, 0, 0}, "cannot write JUnit report");
  }
  fs::rename(tmp, path);
}

}  // namespace suite
