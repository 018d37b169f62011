#include "checker/smt_values.h"

#include "litmus/compare.h"

#include <algorithm>
#include <optional>
#include <set>

namespace checker {

void ValueCode::seal() {
  std::sort(values_.begin(), values_.end());
  values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
  while ((size_t{1} << bits_) < values_.size()) ++bits_;
}

bool ValueCode::has(int64_t v) const { return std::binary_search(values_.begin(), values_.end(), v); }

uint64_t ValueCode::below(int64_t v) const {
  return static_cast<uint64_t>(std::lower_bound(values_.begin(), values_.end(), v) - values_.begin());
}

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

namespace {

// A write of one location that reads-from may feed into another write of it: a read-modify-write
// whose new value depends on its own read only (mbarrier operations, atomics with immediate
// operands). `read` is the RMW's read half.
struct SelfRmw {
  const model::Trace* tr;
  int read, write;
};

constexpr size_t kMaxChainRmws = 12;  // 2^12 subsets per value: beyond, the rounds below

// The values location l holds in executions that break no axiom, when every write of l is a
// constant or a SelfRmw: the initial value or a constant, then a chain of *distinct* RMWs, each
// reading the previous one's write (an RMW's write depends on its read, so No-Thin-Air forbids
// a chain that comes back to an event). The rounds of combinationDomain apply every write again
// in every round, as if one RMW could follow itself; for an mbarrier, whose state packs phase,
// pending, expected and tx-counts, that made hundreds of states out of a handful (issue 18:
// arrive_drop changes the expected count, and with expect_tx/complete_tx the symbolic engine
// went from 134 to 237 values and took minutes). nullopt: some write of l is neither, or the RMWs
// are too many to enumerate their subsets.
std::optional<std::set<int64_t>> chainValues(const std::vector<const model::Trace*>& traces, size_t l,
                                             int64_t init, const Deadline* deadline) {
  std::set<int64_t> start{init};
  std::vector<SelfRmw> rmws;
  for (const auto* tr : traces)
    for (size_t i = 0; i < tr->events.size(); ++i) {
      const auto& e = tr->events[i];
      if (e.kind != model::EventKind::Write || e.loc != static_cast<int>(l)) continue;
      const std::vector<int> lazy = model::lazyReadsOf(*tr, tr->vals[i]);
      if (lazy.empty() && tr->vals[i].known()) {
        start.insert(tr->vals[i].k);
        continue;
      }
      const auto half = std::find_if(tr->rmw.begin(), tr->rmw.end(), [&](auto p) { return p.second == static_cast<int>(i); });
      if (lazy.size() != 1 || half == tr->rmw.end() || half->first != lazy[0] ||
          tr->events[lazy[0]].loc != static_cast<int>(l))
        return std::nullopt;
      rmws.push_back({tr, lazy[0], static_cast<int>(i)});
    }
  if (rmws.size() > kMaxChainRmws) return std::nullopt;
  std::set<std::pair<int64_t, uint32_t>> seen;  // (value, RMWs used to reach it)
  std::vector<std::pair<int64_t, uint32_t>> todo;
  for (int64_t v : start) todo.emplace_back(v, 0);
  std::set<int64_t> out;
  while (!todo.empty()) {
    // not a structured binding: clang 14 cannot capture one in the lambda below
    const int64_t v = todo.back().first;
    const uint32_t used = todo.back().second;
    todo.pop_back();
    if (!seen.insert({v, used}).second) continue;
    out.insert(v);
    if (deadline) deadline->check();
    for (size_t k = 0; k < rmws.size(); ++k) {
      if ((used >> k) & 1) continue;
      const SelfRmw& m = rmws[k];
      const model::ReadLookup look = [&](int r) -> std::optional<int64_t> {
        if (r == m.read) return v;
        return m.tr->vals[r].known() ? std::optional<int64_t>(m.tr->vals[r].k) : std::nullopt;
      };
      if (const auto w = model::evaluate(m.tr->vals[m.write], look)) todo.emplace_back(*w, used | (1u << k));
    }
  }
  return out;
}

}  // namespace

model::Domain combinationDomain(const std::vector<const model::Trace*>& traces,
                                const std::vector<int64_t>& init, const model::Domain& whole,
                                const Deadline* deadline) {
  model::Domain dom(whole.size());
  std::vector<bool> exact(init.size(), false);  // locations whose values chainValues gave
  for (size_t l = 0; l < init.size(); ++l) {
    const auto chain = chainValues(traces, l, init[l], deadline);
    exact[l] = chain.has_value();
    dom[l] = chain ? *chain : std::set<int64_t>{init[l]};
  }
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
        if (tr->events[i].kind != model::EventKind::Write || exact[tr->events[i].loc]) continue;
        if (deadline) deadline->check();
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

namespace checker {

namespace {

using litmus::CmpOp;

CmpOp flipped(CmpOp op) {  // a OP b  ==  b flipped(OP) a
  switch (op) {
    case CmpOp::Lt: return CmpOp::Gt;
    case CmpOp::Le: return CmpOp::Ge;
    case CmpOp::Gt: return CmpOp::Lt;
    case CmpOp::Ge: return CmpOp::Le;
    default: return op;
  }
}

// A code against a constant k, which the code may lack: one bit wider, so that "below every
// value" and "above every value" both fit.
z3::expr againstConstant(z3::context& c, const ValueCode& code, const z3::expr& e, CmpOp op, int64_t k) {
  const unsigned w = code.bits() + 1;
  const z3::expr wide = z3::zext(e, 1);
  const z3::expr lo = c.bv_val(code.below(k), w);                      // codes of values < k
  const z3::expr hi = c.bv_val(code.below(k) + (code.has(k) ? 1 : 0), w);  // ... of values <= k
  switch (op) {
    case CmpOp::Eq: return code.has(k) ? e == code.of(c, k) : c.bool_val(false);
    case CmpOp::Ne: return code.has(k) ? e != code.of(c, k) : c.bool_val(true);
    case CmpOp::Lt: return z3::ult(wide, lo);
    case CmpOp::Le: return z3::ult(wide, hi);
    case CmpOp::Gt: return z3::uge(wide, hi);
    case CmpOp::Ge: return z3::uge(wide, lo);
    case CmpOp::None: break;
  }
  return c.bool_val(false);
}

z3::expr betweenCodes(const z3::expr& a, const z3::expr& b, CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return z3::ult(a, b);
    case CmpOp::Le: return z3::ule(a, b);
    case CmpOp::Gt: return z3::ugt(a, b);
    case CmpOp::Ge: return z3::uge(a, b);
    case CmpOp::None: break;
  }
  return a.ctx().bool_val(false);
}

}  // namespace

z3::expr conditionTerm(z3::context& c, const ValueCode& code, const litmus::Cond& cond,
                       const std::vector<litmus::Term>& observed, const std::vector<z3::expr>& values) {
  using K = litmus::Cond::Kind;
  switch (cond.kind) {
    case K::True: return c.bool_val(true);
    case K::False: return c.bool_val(false);
    case K::Not: return !conditionTerm(c, code, cond.kids.at(0), observed, values);
    case K::And:
    case K::Or: {
      z3::expr_vector kids(c);
      for (const auto& k : cond.kids) kids.push_back(conditionTerm(c, code, k, observed, values));
      return cond.kind == K::And ? z3::mk_and(kids) : z3::mk_or(kids);
    }
    case K::Cmp: break;
  }
  // a term: its code when observed, else its constant (an unobserved term reads 0)
  auto term = [&](const litmus::Term& t) -> std::pair<std::optional<z3::expr>, int64_t> {
    if (t.kind == litmus::Term::Kind::Const) return {std::nullopt, t.value};
    for (size_t i = 0; i < observed.size(); ++i)
      if (observed[i].kind == t.kind && observed[i].name == t.name && observed[i].thread == t.thread)
        return {values[i], 0};
    return {std::nullopt, 0};
  };
  const auto [a, ka] = term(cond.lhs);
  const auto [b, kb] = term(cond.rhs);
  if (a && b) return betweenCodes(*a, *b, cond.cmp);
  if (a) return againstConstant(c, code, *a, cond.cmp, kb);
  if (b) return againstConstant(c, code, *b, flipped(cond.cmp), ka);
  return c.bool_val(litmus::compareValues(cond.cmp, ka, kb));
}

}  // namespace checker
