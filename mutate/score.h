// The mutation score of a GPU run (docs/mutation.md): which killable mutants the run killed (saw
// their condition), which it ran without seeing it, and which it did not run.
#pragma once

#include <iosfwd>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "mutate/mutate.h"

namespace mutate {

// One line of index.tsv, as far as scoring needs it.
struct IndexEntry {
  std::string mutant;
  Category category = Category::PoReverse;
  std::string verdict;  // killable, equivalent, unknown, invalid
  bool negated = false;  // killed by a state that fails the condition (`forall` tests)
};
// Throws litmus::Error (file:line) on a malformed index.
std::vector<IndexEntry> readIndex(const std::string& text, const std::string& file);

// What `litmus run --json` says of one test, merged over the lines that name it (several runs
// appended to one file): killed if any saw the condition.
struct RunRecord {
  uint64_t hits = 0;      // instances in which the condition held
  uint64_t misses = 0;    // recorded instances in which it failed (the histogram's other states)
  bool ran = false;       // some run ended with status ok
  std::string status;     // the last line's status (ok, timeout, error, refused)
  bool violation = false; // some run saw a state the model forbids
};
// Throws litmus::Error (file:line) on a line that is not a JSON object with a "test".
std::map<std::string, RunRecord> readResults(const std::string& text, const std::string& file);

struct Tally {
  int killable = 0, killed = 0, notKilled = 0, notRun = 0, violations = 0;
  std::map<std::string, int> notRunWhy;  // "refused", "not in the results", ...
};

struct Score {
  std::vector<std::pair<Category, Tally>> categories;  // in allCategories() order
  Tally total;
  bool fromNames = false;  // no index: every result named "<original>~<category>-<k>" counted
};

// With an index: its killable mutants. Without (empty `index`, fromNames): the results' mutants.
Score score(const std::vector<IndexEntry>& index, const std::map<std::string, RunRecord>& results,
            bool fromNames);

void printScore(std::ostream& os, const Score& s);
nlohmann::ordered_json scoreJson(const Score& s);

}  // namespace mutate
