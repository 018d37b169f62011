// The symbolic engine's choices as relations over solver variables (private to checker/): which
// write each read reads, the coherence order, and the Fence-SC order. Each adds to the solver the
// constraints that make its variables a relation of the kind the model expects.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "checker/engine_common.h"
#include "checker/smt_solver.h"
#include "checker/symrel.h"
#include "model/relations.h"
#include "semantics/semantics.h"

namespace checker {

// Reads-from: each read reads exactly one write of its location whose value it may have returned
// (`possible`, per event), and then the values agree. nullopt: some read has no such write.
std::optional<SymRel> readsFrom(Smt& smt, const Deadline& deadline, const model::EventGraph& g,
                                const std::vector<z3::expr>& value,
                                const std::vector<std::set<int64_t>>& possible);

// Coherence: per location (`byLoc`: its writes; `initOf`: its initial write), a strict partial
// order with the initial write first and every morally strong pair ordered (§8.9.6, D8).
SymRel coherence(Smt& smt, const Deadline& deadline, const model::Static<SymRel>& s,
                 const std::vector<std::vector<int>>& byLoc, const std::vector<int>& initOf);

// Fence-SC order: an orientation of every morally strong pair of fence.sc, closed and acyclic.
SymRel fenceScOrder(Smt& smt, const Deadline& deadline, const model::EventGraph& g);

}  // namespace checker
