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

// The gaps around the events behind `terms` (the condition's, or those --explain=STATE names).
// The deadline, if given, is looked at per event examined (Deadline::Expired).
std::vector<SyncGap> syncGaps(const litmus::Test& test, const Execution& x,
                              const std::vector<litmus::Term>& terms, const litmus::Deadline* deadline = nullptr);

// The condition's terms that make `state` satisfy it: those of the disjuncts it satisfies (of
// `P1:r0 != 1 \/ P1:r2 != 3` in a state with r0 = 1 and r2 = 1, only P1:r2), so that the
// explanation is about what the condition describes in that state. All the condition's terms
// where no smaller set decides (negations, forall).
std::vector<litmus::Term> satisfiedTerms(const litmus::Test& test, const litmus::State& state);

// --explain of an allowed state, under the check's deadline (called by checker::check): picks the
// state to explain (the one --explain=STATE names, or the first that the condition describes),
// and when its witness is kept, finds what it lacks (Result::explainedState, Result::gaps). The
// phase hook Options::explainPhase is called with "gaps" first.
void explainAllowed(const litmus::Test& test, const Options& options, const litmus::Deadline& deadline,
                    Result& result);

// The weakest link of the gaps: the first problem of the bridge that the fewest changes would
// make synchronize (one problem: one change), among all gaps; the first note when no gap has a
// bridge. "" when there are no gaps. syncGaps orders the gaps and bridges so that it comes first.
std::string weakestLink(const std::vector<SyncGap>& gaps);

// The witness's rf and co edges (co between a location's writes in order, initial writes left
// out), one per line.
void printWitness(std::ostream& os, const litmus::Test& test, const Execution& x);
// Each gap: "Nothing orders A before B in causality order (...):" and a line per problem.
void printGaps(std::ostream& os, const litmus::Test& test, const Execution& x,
               const std::vector<SyncGap>& gaps);

}  // namespace checker
