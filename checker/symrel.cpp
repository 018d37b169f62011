#include "checker/symrel.h"

#include "checker/engine_common.h"

namespace checker {

Term operator&&(const Term& a, const Term& b) {
  if (a.isFalse() || b.isFalse()) return Term::constant(false);
  if (a.isTrue()) return b;
  if (b.isTrue()) return a;
  return Term::of(*a.e_ && *b.e_);
}

Term operator||(const Term& a, const Term& b) {
  if (a.isTrue() || b.isTrue()) return Term::constant(true);
  if (a.isFalse()) return b;
  if (b.isFalse()) return a;
  return Term::of(*a.e_ || *b.e_);
}

Term operator!(const Term& a) {
  if (a.kind_ != Term::Kind::Expr) return Term::constant(a.isFalse());
  return Term::of(!*a.e_);
}

Term Term::any(z3::context& c, const std::vector<Term>& ts) {
  z3::expr_vector v(c);
  for (const auto& t : ts) {
    if (t.isTrue()) return constant(true);
    if (!t.isFalse()) v.push_back(*t.e_);
  }
  if (v.empty()) return constant(false);
  if (v.size() == 1) return of(v[0]);
  return of(z3::mk_or(v));
}

void SymRel::checkDeadline() const {
  if (deadline_) deadline_->check();
}

SymRel SymRel::constant(z3::context* c, const Deadline* d, const model::BitRel& r) {
  SymRel s(c, d, r.size());
  for (int a = 0; a < r.size(); ++a)
    for (int b = 0; b < r.size(); ++b) s.at(a, b) = Term::constant(r.get(a, b));
  return s;
}

namespace {

template <class F>
SymRel pointwise(const SymRel& a, const SymRel& b, F f) {
  a.checkDeadline();
  SymRel r(&a.ctx(), a.deadline(), a.size());
  for (int i = 0; i < a.size(); ++i)
    for (int j = 0; j < a.size(); ++j) r.at(i, j) = f(a.at(i, j), b.at(i, j));
  return r;
}

}  // namespace

SymRel operator|(const SymRel& a, const SymRel& b) {
  return pointwise(a, b, [](const Term& x, const Term& y) { return x || y; });
}
SymRel operator&(const SymRel& a, const SymRel& b) {
  return pointwise(a, b, [](const Term& x, const Term& y) { return x && y; });
}
SymRel operator-(const SymRel& a, const SymRel& b) {
  return pointwise(a, b, [](const Term& x, const Term& y) { return x && !y; });
}

SymRel operator*(const SymRel& a, const SymRel& b) {
  const int n = a.size();
  SymRel r(&a.ctx(), a.deadline(), n);
  std::vector<std::vector<Term>> acc(n);
  for (int i = 0; i < n; ++i) {
    a.checkDeadline();  // a row is up to n^2 terms
    for (auto& v : acc) v.clear();
    for (int j = 0; j < n; ++j) {
      if (a.at(i, j).isFalse()) continue;
      for (int k = 0; k < n; ++k)
        if (!b.at(j, k).isFalse()) acc[k].push_back(a.at(i, j) && b.at(j, k));
    }
    for (int k = 0; k < n; ++k) r.at(i, k) = Term::any(a.ctx(), acc[k]);
  }
  return r;
}

SymRel inv(const SymRel& r) {
  SymRel t(&r.ctx(), r.deadline(), r.size());
  for (int i = 0; i < r.size(); ++i)
    for (int j = 0; j < r.size(); ++j) t.at(j, i) = r.at(i, j);
  return t;
}

// Squaring doubles the path length covered: after k rounds, paths of up to 2^k edges.
SymRel plus(const SymRel& r) {
  SymRel c = r;
  for (int len = 1; len < r.size(); len *= 2) c = c | (c * c);
  return c;
}

SymRel star(const SymRel& r) {
  SymRel c = plus(r);
  for (int i = 0; i < r.size(); ++i) c.at(i, i) = Term::constant(true);
  return c;
}

}  // namespace checker
