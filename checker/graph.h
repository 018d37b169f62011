// Execution graphs as Graphviz DOT: one cluster per thread, a fixed colour per relation
// (po black, rf red, co blue, fr orange, sc purple). The edges that decide the outcome are bold
// (a violated axiom's cycle, the other edges faded; in a witness, rf); initial writes appear only
// where they are a step of the cycle (a read of one says "(init)"); mbarrier values are decoded
// (phase, pending/expected arrivals, tx-count).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"

namespace checker {

// `decisive` (when given): only these events are drawn, with the edges among them (po between
// a thread's drawn events in order).
std::string executionDot(const litmus::Test& test, const Execution& x, const std::string& title,
                         const Violation* violation = nullptr, const std::vector<int>* decisive = nullptr);

// The events that decide an outcome: a violation's steps and their details; in a witness the
// events behind the state's terms (those the condition is about), the writes they read, and the
// ends of what the explanation found missing (Result::gaps, for the explained state).
std::vector<int> decisiveEvents(const litmus::Test& test, const Result& result, size_t witness);
std::vector<int> decisiveEvents(const Violation& violation);

// Writes DIR/NAME.allowed.STATE.dot for each witness and DIR/NAME.forbidden.STATE.dot for the
// violation (STATE: "P1-r0=1_x=2", or state-K when too long for a file name), and an .svg and a
// .png beside each when Graphviz `dot` is installed. By default each draws the decisive events
// only; `full` draws every event. `deadline` (if set) is looked at per graph: Deadline::Expired.
// Returns the number of files written.
int writeGraphs(const std::string& dir, const litmus::Test& test, const Result& result, bool full = false,
                const litmus::Deadline* deadline = nullptr);

bool haveGraphviz();  // `dot` is on the PATH

// DOT rendered by Graphviz (`dot -TFORMAT`, e.g. svg); nullopt when dot is missing or fails.
std::optional<std::string> renderDot(const std::string& dot, const std::string& format);

}  // namespace checker
