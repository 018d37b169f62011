// The symbolic engine's values. Each value the problem mentions gets a small bit-vector code
// (values are only compared for equality, and Z3 decides that fragment by bit-blasting; Z3
// 4.8.12's incremental arithmetic lost models). A lazy value (model/value.h) becomes a table over
// the codes of the reads it uses: the symbolic engine does not evaluate expressions in the solver.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "checker/engine_common.h"
#include "litmus/test.h"
#include "semantics/semantics.h"

namespace checker {

class ValueCode {
 public:
  void add(int64_t v) { values_.push_back(v); }
  void seal();
  bool has(int64_t v) const;
  z3::expr of(z3::context& c, int64_t v) const;
  int64_t decode(const z3::expr& e) const { return values_.at(e.get_numeral_uint64()); }
  // How many values of the code lie below v: codes follow the values' order, so comparing two
  // codes compares their values.
  uint64_t below(int64_t v) const;
  unsigned bits() const { return bits_; }

 private:
  std::vector<int64_t> values_;
  unsigned bits_ = 1;
};

// A value of a trace as a table: the lazy reads it uses and, for each assignment of values of
// their locations' domains, the value it takes.
struct ValueTable {
  std::vector<int> reads;
  std::vector<std::pair<std::vector<int64_t>, int64_t>> rows;
};

// Everything of one trace that the solver needs as tables: per event its value (a lazy read: the
// identity over its domain), per register its final value, and the path's decisions.
struct TraceTables {
  std::vector<ValueTable> events;
  std::vector<ValueTable> regs;
  std::vector<std::pair<ValueTable, bool>> guards;
};

TraceTables tabulate(const model::Trace& tr, const model::Domain& dom);

// The values each location can hold in executions made of `traces` (with the initial values
// `init`): the writes' values over the reads' values, to a fixed point. Far smaller than the
// test's domain, which holds the values of every path: the tables shrink with it.
// The slots after the locations (the warp collectives' results, semantics/collectives.h) are
// `whole`'s, the test's domain. A location written only by constants and read-modify-writes of
// its own value (an mbarrier) gets exactly the values of chains of distinct RMWs. Checks the
// deadline (when given) as it goes.
model::Domain combinationDomain(const std::vector<const model::Trace*>& traces,
                                const std::vector<int64_t>& init, const model::Domain& whole,
                                const Deadline* deadline = nullptr);

// Adds every value the tables take (not the decisions' truth values) to the code.
void addValues(const TraceTables& t, ValueCode& code);

// The table as a term, the reads' codes given by readVar (trace index -> code term).
z3::expr tableTerm(z3::context& c, const ValueCode& code, const ValueTable& t,
                   const std::function<z3::expr(int)>& readVar);

// A condition's body (litmus::Cond) over the codes of the observed terms (`values`, in the
// order of `observed`); a term not observed reads 0, as in litmus::evalCondition.
z3::expr conditionTerm(z3::context& c, const ValueCode& code, const litmus::Cond& cond,
                       const std::vector<litmus::Term>& observed, const std::vector<z3::expr>& values);

// The assignments of a decision's table that break it: under these the path is impossible.
std::vector<z3::expr> brokenAssignments(z3::context& c, const ValueCode& code, const ValueTable& t,
                                        bool truth, const std::function<z3::expr(int)>& readVar);

}  // namespace checker
