// Result files for `litmus report`: the JSON lines of `litmus run --json`, `litmus check --json`
// and `litmus suite --json`, plain or gzip-compressed (.json.gz).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace report {

// One test's result: `kind` is "run" (the GPU) or "check" (the model only); `data` is the line as
// written (a suite line is turned into the check object it holds, with its verdict beside it).
struct Record {
  std::string kind;
  nlohmann::ordered_json data;
  std::string source;  // the file it came from, and its line
  int line = 0;
};

// Every record of one file, in order. Throws litmus::Error "FILE:LINE:COL: error: ..." for a
// file that cannot be read, is not gzip it claims to be, or holds a line of neither kind.
std::vector<Record> readResults(const std::string& path);

// The file's bytes, inflated when they start with gzip's magic number.
std::string readMaybeGzip(const std::string& path);

}  // namespace report
