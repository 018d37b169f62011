// Warp-level rendezvous (PTX ISA §9.7.13.2 bar.warp.sync, §9.7.13.8-12 the warp collectives):
// their barrier keys, the phase a collective completes, the result each lane gets from the
// operands of its phase (docs/model.md D33, D40-D42), the value-domain slots of those results,
// and the rule that lets the engines skip combinations of traces whose lanes disagree on
// whether a phase completes.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "model/barriers.h"
#include "model/event.h"
#include "semantics/semantics.h"

namespace model {

int collectiveSignature(const litmus::Instr& in);
// The warp of a thread, named by its first thread (a thread without `warp:` is a warp of its own).
int warpOf(const litmus::Test& test, int thread);

// The threads of a collective's phase: the lanes of its warp that the member mask names.
std::vector<int> collectiveParticipants(const Program& prog, int64_t key);

// The arrivals of the phase a collective's Wait `w` completes: the k-th arrival at its key of
// every thread, k being the wait's own (a count-less phase, D41).
std::vector<int> phaseArrivals(const std::vector<Event>& ev, int w);

// The result of `in` for `lane` from the (lane, operand) of every arrival of the phase
// (§9.7.13.8-12; exited lanes are absent).
int64_t collectiveResult(const litmus::Instr& in, int lane,
                         const std::vector<std::pair<int, int64_t>>& operands);

// Value-domain slots: each collective instruction's result has one, after the locations.
size_t domainSize(const Program& prog);
int collectiveSlot(const Program& prog, int thread, int pc);
// Adds to each slot of `dom` every result its collective can give when the operands take the
// values of `dom` (over the traces of every thread); false if nothing changed.
bool addCollectiveResults(const Program& prog, const std::vector<const TraceSet*>& traces, Domain& dom);

// Per trace: whether each of its warp-level arrivals (key, k-th at that key) is followed by a
// wait that completes. The lanes of one such phase share its fate, so a combination in which
// they differ has no execution (for bar.warp.sync, whose key holds the mask, as for the
// collectives).
struct WarpFate {
  int64_t key;
  int k;
  bool done;
};
std::vector<WarpFate> warpFates(const Trace& tr);
bool fatesAgree(const std::vector<WarpFate>& a, const std::vector<WarpFate>& b);

// Every combination of one trace per thread (`fates[t][i]`: trace i of thread t) whose fates
// agree, the first thread varying fastest; f returns false to stop (then this returns false).
bool forEachAgreeingCombination(const std::vector<std::vector<std::vector<WarpFate>>>& fates,
                                const std::function<bool(const std::vector<int>&)>& f);

}  // namespace model
