// Writing mutants to a directory: killable/, equivalent/ and unknown/ hold the test files (the
// GPU set is killable/), index.tsv one line per mutant, originals.tsv one line per input test.
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "mutate/generate.h"

namespace mutate {

// Throws litmus::Error when `dir` exists and is not an empty directory, or cannot be created:
// mutants of an earlier run left beside new ones would be run and scored with them.
void prepareOutput(const std::string& dir);
void writeOutput(const std::string& dir, const Generated& g);

// Per category: killable, equivalent, unknown and invalid mutants; originals mutated and skipped.
void printSummary(std::ostream& os, const Generated& g, const std::string& dir);
nlohmann::ordered_json summaryJson(const Generated& g);

// The index's columns, in order. `kills`: what a run must see to kill the mutant, `condition` (a
// state that satisfies it) or `negation` (a state that fails it, for `forall` tests).
constexpr const char* kIndexHeader = "mutant\toriginal\tcategory\tverdict\tkills\trunner\tfile\tchange\twhy";

}  // namespace mutate
