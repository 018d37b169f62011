// `litmus compare`: two sets of results side by side, family by family, in the spirit of
// herdtools' mcompare7. A side is the JSON lines of `litmus run --json` (the GPU: was the
// condition seen?) or of `litmus check --json` (the model only: a test counts as seen when the
// model allows its condition, as herd's "Ok"). docs/compare.md describes the tables.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace compare {

// One test's result on one side.
struct Entry {
  std::string test, file, family;  // family: empty when the line names none (check --json)
  std::optional<bool> allowed;     // the model allows a state satisfying the condition (null: unknown)
  std::optional<bool> seen;        // the condition was observed (null: no result: timeout, refused...)
};

struct Side {
  std::string name;         // the file, for headings
  int runs = 0, models = 0;  // lines of each kind
  std::map<std::string, Entry> tests;  // by test name; a later line for a name replaces an earlier one
  std::vector<std::string> duplicates;  // names given more than once
  std::string kind() const;  // "run", "model", "run+model" or "empty"
};

// Reads JSON lines; throws litmus::Error ("FILE:LINE:1: error: ...") for a line that is neither
// kind, naming what is accepted.
Side readSide(std::istream& in, const std::string& name);

// Counts of tests: rows allowed, forbidden, unknown (by the side's own model); columns seen,
// not seen, no result.
enum Row { kAllowed, kForbidden, kModelUnknown };
enum Col { kSeen, kNotSeen, kNoResult };
using Table = std::array<std::array<uint64_t, 3>, 3>;

struct Group {
  std::string family;  // empty for the totals
  size_t tests = 0;    // tests of the family on either side
  Table a{}, b{};
  std::vector<std::string> seenByAOnly, seenByBOnly;  // tests both sides have a result for
  size_t both = 0, neither = 0, notComparable = 0;    // common tests: seen by both, by neither, no result on a side
};

struct Comparison {
  std::vector<Group> families;  // by family name
  Group totals;
  std::vector<std::string> onlyInA, onlyInB;
  bool differ() const { return !totals.seenByAOnly.empty() || !totals.seenByBOnly.empty(); }
};

// A test's family: its own, else the other side's (a model-only line names none), else its name.
Comparison compareSides(const Side& a, const Side& b);

void printText(std::ostream& os, const Side& a, const Side& b, const Comparison& c);
nlohmann::ordered_json toJson(const Side& a, const Side& b, const Comparison& c);

}  // namespace compare
