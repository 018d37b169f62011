// Readings: the decisions of docs/model.md whose direction is a choice between readings of the PTX
// ISA text, each a named switch with its alternatives. A reading changes which relation the model
// builds from the events (model/relations.cpp), never how an engine searches: both engines
// evaluate the same axioms (model/ptx_model.h) over the relations the reading selects.
//
// The first reading of each decision is the model's default. `litmus check` also evaluates the
// alternatives of the decisions a test touches and says when the verdict changes
// (checker/readings_check.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/test.h"

namespace model {

enum class Decision : uint8_t { D30, D31, D36, D38, D39, D42, D44, D53 };
inline constexpr int kDecisions = 8;

struct ReadingInfo {
  std::string_view name;
  std::string_view text;        // what the model does under this reading
  std::string_view reliedOnBy;  // who relies on it (code, or the ISA's own example); may be empty
  // Against the default reading: +1 it allows a subset of the default's executions (stronger:
  // the relations it changes only grow, and the axioms are monotone in them, docs/model.md
  // "Pruning and explanations"; D42: fewer paths), -1 a superset (weaker), 0 the default itself.
  int stronger = 0;
};

struct DecisionInfo {
  Decision decision;
  std::string_view id;                 // "D36"
  std::vector<ReadingInfo> readings;   // [0]: the default
};

// Every decision that has readings, in the order of Decision.
const std::vector<DecisionInfo>& decisions();
const DecisionInfo& info(Decision d);

// Which reading of each decision is in force, and which were chosen (by --reading or a test's
// `readings:`): chosen ones are not second-guessed by evaluating their alternatives.
struct Readings {
  std::array<uint8_t, kDecisions> pick{};
  std::array<bool, kDecisions> chosen{};

  int of(Decision d) const { return pick[static_cast<int>(d)]; }
  bool is(Decision d, std::string_view name) const;
  std::string_view nameOf(Decision d) const;
  bool operator==(const Readings&) const = default;
};

// Applies "D36=NAME" (as --reading writes it) or the pair (decision, name) (as a test's
// `readings:` does). Returns "" on success, otherwise the error message, with a "did you mean".
std::string choose(Readings& r, std::string_view decision, std::string_view name);
std::string choose(Readings& r, std::string_view spec);

// The test's own `readings:` on top of `base` (a test pins what its expectation was written for).
// Throws litmus::Error at the entry's location for an unknown decision or reading.
Readings withTestReadings(Readings base, const litmus::Test& test);

// Whether the test pins `decision` to the reading `name` (`readings:`). The readings that decide
// a thread's paths rather than a relation (D42) are read off the test this way by semantics/;
// checker::check pins the reading in force on the test it checks.
bool pins(const litmus::Test& test, std::string_view decision, std::string_view name);

// The decisions whose readings can change a verdict on this test, judged cheaply from the
// instructions it contains (a decision the test does not touch cannot matter to it).
std::vector<Decision> touched(const litmus::Test& test);

}  // namespace model
