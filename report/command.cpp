#include "report/command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>

#include "base/subcommand.h"
#include "merge/merge.h"
#include "litmus/test.h"
#include "report/html.h"

namespace report {

namespace {

namespace fs = std::filesystem;

struct Args {
  std::vector<std::string> inputs;
  std::string output, title = "litmus report";
  GraphOptions graphs;
  bool noGraphs = false;
};

// The page goes to a temporary file beside OUT and is renamed over it: a failure leaves nothing
// half-written, and an existing report stays as it was.
void writeAtomically(const std::string& path, const std::string& text) {
  const fs::path target(path);
  const fs::path tmp = target.parent_path() / ("." + target.filename().string() + ".tmp" + std::to_string(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw litmus::Error({path, 0, 0}, "cannot write this file");
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw litmus::Error({path, 0, 0}, "cannot write this file: " + ec.message());
  }
}

// The run records of one test (its file and name) from several runs, such as the rounds of
// `run --cover` after the test's own record or a campaign repeated, are one test on the page:
// added up where the first stood, as `litmus merge` adds them.
void joinRepeatedRuns(std::vector<Record>& records) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> runs;
  for (size_t i = 0; i < records.size(); ++i)
    if (records[i].kind == "run")
      runs[{records[i].data.value("file", ""), records[i].data.value("test", "")}].push_back(i);
  std::vector<char> drop(records.size(), 0);
  for (const auto& [key, at] : runs) {
    if (at.size() < 2) continue;
    std::vector<nlohmann::ordered_json> parts;
    for (size_t i : at) parts.push_back(records[i].data);
    try {
      records[at.front()].data = merge::mergeRuns(parts);
    } catch (const std::invalid_argument& e) {
      const Record& r = records[at.back()];
      throw litmus::Error({r.source, r.line, 1}, "cannot add this run of " + key.second + " to its earlier ones: " + e.what());
    }
    for (size_t k = 1; k < at.size(); ++k) drop[at[k]] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) records[kept] = std::move(records[i]);  // never moved onto itself: that empties it
    ++kept;
  }
  records.resize(kept);
}

int run(const Args& a) {
  std::vector<Record> records;
  for (const std::string& in : a.inputs) {
    auto more = readResults(in);
    records.insert(records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  joinRepeatedRuns(records);
  // Output checked before minutes of graph drawing: a bad path is a usage error, nothing written.
  const fs::path dir = fs::path(a.output).parent_path();
  if (!dir.empty() && !fs::is_directory(dir)) throw litmus::Error({a.output, 0, 0}, "no such directory");
  PageOptions o;
  o.title = a.title;
  o.graphs = a.graphs;
  o.graphs.enabled = !a.noGraphs;
  const bool tty = isatty(STDERR_FILENO);
  if (tty)
    o.progress = [](size_t done, size_t total) {
      std::cerr << "\r\033[K[" << done << "/" << total << "] graphs" << std::flush;
    };
  const std::string page = renderPage(records, a.inputs, o);
  if (tty) std::cerr << "\r\033[K";
  writeAtomically(a.output, page);
  std::cerr << "litmus report: " << records.size() << " results, " << page.size() / 1024 << " KiB, " << a.output << "\n";
  return 0;
}

}  // namespace

int cmdReport(int argc, char** argv) {
  CLI::App app{"Writes one self-contained HTML page (inline CSS, script and SVG: no network needed to view "
               "it) from result files: a summary table, the families, and per test its histogram with "
               "allowed, forbidden and condition states marked, the allowed states never observed, the "
               "execution graph of a forbidden outcome (Graphviz), and for model checks the states and "
               "races (docs/report.md). A file holds the JSON lines of `litmus run --json`, "
               "`litmus check --json` or `litmus suite --json`, plain or gzip-compressed.",
               "litmus report"};
  app.footer("exit: 0 written, 2 bad input or usage (nothing written), 4 internal error");
  Args a;
  app.add_option("RESULTS", a.inputs, "result files (.json, .json.gz)")->required();
  app.add_option("-o,--output", a.output, "the HTML file to write")->required()->type_name("FILE");
  app.add_option("--title", a.title, "the page's title")->type_name("TEXT");
  app.add_option("--root", a.graphs.root,
                 "directory a result's relative test file is looked up in when it is not found from "
                 "the current directory (default: none)")->type_name("DIR");
  app.add_option("--graph-timeout", a.graphs.timeoutSeconds,
                 "seconds the model may take per forbidden outcome it draws (default 10)")
      ->type_name("S")->check(CLI::Range(0.0, 3600.0));
  app.add_flag("--no-graphs", a.noGraphs, "draw no execution graphs (no test file is read)");
  // forward() passes the words after "report"
  if (const auto rc = cli::parseSubcommand(app, "report", argc, argv)) return *rc;
  try {
    return run(a);
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "litmus report: internal error: " << e.what() << "\n";
    return 4;
  }
}

}  // namespace report
