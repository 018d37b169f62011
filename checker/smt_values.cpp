#include "checker/smt_values.h"

#include <algorithm>

namespace checker {

void ValueCode::seal() {
  std::sort(values_.begin(), values_.end());
  values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
  while ((size_t{1} << bits_) < values_.size()) ++bits_;
}

bool ValueCode::has(int64_t v) const { return std::binary_search(values_.begin(), values_.end(), v); }

z3::expr ValueCode::of(z3::context& c, int64_t v) const {
  const auto it = std::lower_bound(values_.begin(), values_.end(), v);
  return c.bv_val(static_cast<uint64_t>(it - values_.begin()), bits_);
}

namespace {

ValueTable tableOf(const model::Trace& tr, const model::Val& v, const model::Domain& dom) {
  ValueTable t;
  t.reads = model::lazyReadsOf(tr, v);
  model::forEachAssignment(tr, t.reads, dom, [&](const model::ReadLookup& look) {
    std::vector<int64_t> at;
    for (int r : t.reads) at.push_back(*look(r));
    t.rows.emplace_back(std::move(at), *model::evaluate(v, look));
  });
  return t;
}

// The reads equal to one row's assignment.
z3::expr rowHolds(z3::context& c, const ValueCode& code, const ValueTable& t, size_t row,
                  const std::function<z3::expr(int)>& readVar) {
  z3::expr all = c.bool_val(true);
  for (size_t k = 0; k < t.reads.size(); ++k) all = all && readVar(t.reads[k]) == code.of(c, t.rows[row].first[k]);
  return all;
}

}  // namespace

TraceTables tabulate(const model::Trace& tr, const model::Domain& dom) {
  TraceTables out;
  for (size_t i = 0; i < tr.events.size(); ++i) {
    if (!tr.lazyRead(i)) {
      out.events.push_back(tableOf(tr, tr.vals[i], dom));
      continue;
    }
    ValueTable t;  // the read itself: whatever its location may hold
    t.reads = {static_cast<int>(i)};
    for (int64_t v : dom[tr.events[i].loc]) t.rows.push_back({{v}, v});
    out.events.push_back(std::move(t));
  }
  for (const auto& v : tr.regVals) out.regs.push_back(tableOf(tr, v, dom));
  for (const auto& g : tr.guards) out.guards.emplace_back(tableOf(tr, g.v, dom), g.truth);
  return out;
}

model::Domain combinationDomain(const std::vector<const model::Trace*>& traces,
                                const std::vector<int64_t>& init, const model::Domain& whole) {
  model::Domain dom(whole.size());
  for (size_t l = 0; l < init.size(); ++l) dom[l].insert(init[l]);
  for (size_t l = init.size(); l < whole.size(); ++l) dom[l] = whole[l];  // collective results
  size_t writes = 0;
  for (const auto* tr : traces)
    for (const auto& e : tr->events) writes += e.kind == model::EventKind::Write;
  // A value reaches a read through a chain of writes, each computed from a read of the previous
  // one; an execution breaking no axiom has no cycle in rf and the dependencies (No-Thin-Air), so
  // a chain has at most `writes` links: as many rounds suffice (and end the loop when values keep
  // growing along a cycle that no execution takes).
  for (size_t round = 0; round <= writes; ++round) {
    model::Domain next = dom;
    for (const auto* tr : traces)
      for (size_t i = 0; i < tr->events.size(); ++i) {
        if (tr->events[i].kind != model::EventKind::Write) continue;
        const model::Val& v = tr->vals[i];
        model::forEachAssignment(*tr, model::lazyReadsOf(*tr, v), dom, [&](const model::ReadLookup& look) {
          next[tr->events[i].loc].insert(*model::evaluate(v, look));
        });
      }
    if (next == dom) break;
    dom = std::move(next);
  }
  return dom;
}

void addValues(const TraceTables& t, ValueCode& code) {
  for (const auto* list : {&t.events, &t.regs})
    for (const auto& table : *list)
      for (const auto& [at, v] : table.rows) {
        code.add(v);
        for (int64_t a : at) code.add(a);
      }
}

z3::expr tableTerm(z3::context& c, const ValueCode& code, const ValueTable& t,
                   const std::function<z3::expr(int)>& readVar) {
  if (t.rows.empty()) return code.of(c, 0);  // an empty domain: no execution reads it
  z3::expr term = code.of(c, t.rows.back().second);
  for (size_t row = t.rows.size() - 1; row-- > 0;)
    if (t.rows[row].second != t.rows.back().second)
      term = z3::ite(rowHolds(c, code, t, row, readVar), code.of(c, t.rows[row].second), term);
  return term;
}

std::vector<z3::expr> brokenAssignments(z3::context& c, const ValueCode& code, const ValueTable& t,
                                        bool truth, const std::function<z3::expr(int)>& readVar) {
  std::vector<z3::expr> out;
  for (size_t row = 0; row < t.rows.size(); ++row)
    if ((t.rows[row].second != 0) != truth) out.push_back(rowHolds(c, code, t, row, readVar));
  return out;
}

}  // namespace checker
