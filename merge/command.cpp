#include "merge/command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/subcommand.h"
#include "merge/merge.h"

namespace merge {

namespace {

// Every JSON line of the files; a line that is not JSON is an error at its place.
std::vector<Input> readInputs(const std::vector<std::string>& files, std::vector<std::string>& errors) {
  std::vector<Input> out;
  for (const std::string& f : files) {
    std::ifstream in(f);
    if (!in) {
      errors.push_back(f + ":0:0: error: cannot read this file");
      continue;
    }
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      Json j = Json::parse(line, nullptr, false);
      if (j.is_discarded()) {
        errors.push_back(f + ":" + std::to_string(n) + ":1: error: not a JSON line");
        continue;
      }
      out.push_back({f, n, std::move(j)});
    }
  }
  return out;
}

}  // namespace

int cmdMerge(int argc, char** argv) {
  CLI::App app{"Joins the JSON results of shards (check --json, suite --json, run --json) into what one "
               "unsharded run prints, and adds up repeated runs of a test under 'litmus run' (histograms "
               "and counts; the verdict worked out again from the sums). Records come out in path order; "
               "a test found once is printed as read (docs/scale.md).",
               "litmus merge"};
  std::vector<std::string> files;
  std::string output;
  bool rejudgeAll = false;
  app.add_option("FILE", files, "JSON-lines result files (from --json, or shards of them)")->required();
  app.add_option("-o,--output", output, "write the merged lines to FILE (default: stdout)")->type_name("FILE");
  app.add_flag("--rejudge", rejudgeAll,
               "run results: work out the verdict and reason of every record from its counts, also of "
               "a test run once (a check that merge words verdicts as 'litmus run' does)");
  app.footer("exit: 0 merged; 2 bad input or usage (a file that cannot be read, a line that is not JSON,\n"
             "results of different commands mixed, a check or suite result twice: overlapping shards),\n"
             "and then nothing is written; 4 internal error.");
  if (const auto rc = cli::parseSubcommand(app, "merge", argc, argv)) return *rc;
  std::vector<std::string> errors;
  const std::vector<Input> inputs = readInputs(files, errors);
  Merged m = mergeAll(inputs);
  errors.insert(errors.end(), m.errors.begin(), m.errors.end());
  if (!errors.empty()) {
    for (const std::string& e : errors) std::cerr << e << "\n";
    return 2;
  }
  std::ostringstream os;
  for (Json& r : m.records) {
    if (rejudgeAll && m.kind == Kind::Run) rejudge(r);
    os << r.dump() << "\n";
  }
  if (output.empty()) {
    std::cout << os.str() << std::flush;
    return 0;
  }
  // Written whole, then renamed: an interrupted merge leaves no half-written file.
  const std::string tmp = output + ".tmp";
  {
    std::ofstream out(tmp);
    if (!(out << os.str()) || !out.flush()) {
      std::cerr << output << ":0:0: error: cannot write this file\n";
      std::filesystem::remove(tmp);
      return 2;
    }
  }
  std::filesystem::rename(tmp, output);
  return 0;
}

}  // namespace merge
