// Why an allowed state is allowed, said as what would forbid it: for each event the state names,
// the causality edge whose absence lets the execution pass (a read that misses a write of another
// thread, a read of a write that comes "later", a final write overwritten by a write that should
// come after it), and why the execution lacks it: which step of synchronizes-with fails on the rf
// edges that could carry it (not a release pattern, not an acquire pattern, not morally strong and
// why: weak, scope too narrow, different proxies), or that base causality holds but no proxy fence
// makes it causality. Read off the model's relations on the witness execution (checker/explain.h,
// evaluate), never off the test's name or expectation.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "model/axioms.h"

namespace checker {

// An edge that could carry the missing synchronization, and why it does not: an rf (write ->
// read), or a barrier's arrival -> a wait that its phase completes.
struct Bridge {
  int from, to;
  std::string kind;                   // "rf" or "barrier"
  std::vector<std::string> problems;  // "P0: st.relaxed.gpu.global.u32 [y], 1 is no release pattern: ..."
};

// `from` is not ordered before `to` in causality order; if it were, the edge `closing` (from `to`
// to `from`: fr or rf; co for two writes) would break `axiom`; "race" for two writes that co
// leaves unordered (not morally strong), which Coherence would then order.
struct SyncGap {
  int from, to;
  std::string closing;
  model::Axiom axiom;
  std::vector<Bridge> bridges;  // edges from `from`'s side to `to`'s side
  std::string note;             // without bridges, or where base causality holds: what is missing
};

// The gaps around the events behind `terms` (the condition's, or those --explain=STATE names).
std::vector<SyncGap> syncGaps(const litmus::Test& test, const Execution& x,
                              const std::vector<litmus::Term>& terms);

// The witness's rf and co edges (co between a location's writes in order, initial writes left
// out), one per line.
void printWitness(std::ostream& os, const litmus::Test& test, const Execution& x);
// Each gap: "Nothing orders A before B in causality order (...):" and a line per problem.
void printGaps(std::ostream& os, const litmus::Test& test, const Execution& x,
               const std::vector<SyncGap>& gaps);

}  // namespace checker
