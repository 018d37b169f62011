// `litmus check --explain[=STATE]`: the explanation of one test's result, as text after the herd
// block or as the `explanation` member of its JSON object (docs/explain.md).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "checker/checker.h"
#include "litmus/outcome.h"

namespace cli {

// The state to explain: the one --explain=STATE names (nullopt: the condition's outcome, that is
// a state satisfying the body, or for forall one failing it).
using ExplainTarget = std::optional<litmus::StatePattern>;

// Forbidden: the violated axiom and its steps, each cause step with its own steps; or why no
// candidate reaches the state. Allowed: the witness execution and the synchronization it lacks.
nlohmann::ordered_json explanationJson(const litmus::Test&, const checker::Result&, const ExplainTarget&);
void printExplanation(std::ostream&, const litmus::Test&, const checker::Result&, const ExplainTarget&);

// --graph DIR (--graph-full: `full`): the explanation's last phase, under what is left of the
// test's --timeout; false, after saying so on `err`, when the deadline cut it off.
bool writeGraphs(const std::string& dir, bool full, double timeout, const litmus::Test&,
                 const checker::Result&, std::ostream& err);

}  // namespace cli
