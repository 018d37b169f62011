// `litmus merge` (docs/scale.md): the JSON results of shards, or of repeated runs, as one result.
//   check --json  objects (one per line), keyed by "file"
//   suite --json  lines, keyed by "path"
//   run --json    lines, keyed by test and file; records of one test from several runs are added
//                 up (histograms, counts) and the verdict is worked out again from the sums.
// Records come out in the order an unsharded run prints them: by path (the order in which
// `litmus` finds the files of one directory), suite's "listed but not found" entries last.
// A record found once is printed as it was read, so N shards merged print the bytes of the
// unsharded run (less its timings, which no two runs share).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "schema/record.h"

namespace merge {

using Json = nlohmann::ordered_json;

// The kinds of records (schema/record.h); run and merged-run records merge with each other.
using schema::Kind;
// "check --json", "suite --json", "run --json": the command a kind of record comes from.
const char* commandOf(Kind);

struct Input {
  std::string file;  // for messages
  int line = 0;
  Json record;
};

struct Merged {
  Kind kind = Kind::Check;
  std::vector<Json> records;
  std::vector<std::string> errors;  // "FILE:LINE:1: error: ..." (records of mixed kinds, a test twice)
};

// Merges records of one kind. A check or suite record seen twice (overlapping shards) is an error;
// run records of one test are added up (mergeRuns).
Merged mergeAll(const std::vector<Input>& inputs);

// Several run records of one test as one: histograms, not-recorded states and counts added,
// never-observed states intersected, and the verdict and reason worked out again from the sums
// by the rules of `litmus run` (run/run_report.cpp, judge). Throws std::invalid_argument when the
// runs disagree on the model (they checked different tests or model versions).
Json mergeRuns(const std::vector<Json>& runs);
// The verdict and reason a run record's counts give, as `litmus run` words them; what --rejudge
// checks against the runner's own.
void rejudge(Json& run);

}  // namespace merge
