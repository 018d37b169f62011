// Relations whose entries are Boolean terms: the relation algebra of the symbolic engine. Only
// .cpp files include this header, so Z3 stays out of the library's public interface.
#pragma once

#include <z3++.h>

#include <optional>
#include <utility>
#include <vector>

#include "base/deadline.h"
#include "model/bitrel.h"

namespace checker {

// A Boolean that folds constants, so that `true && x` never reaches the solver.
class Term {
 public:
  enum class Kind { False, True, Expr };
  Term() = default;
  Term(const Term&) = default;
  Term(Term&&) = default;
  // z3++ 4.8.12 (Debian 12): moving a z3::expr onto one that holds a term drops the old term
  // without releasing it, so every such assignment leaked a term into the context until the
  // context was deleted, and Z3 then deletes leaked terms one DAG level per pass over all terms:
  // a 1,000-deep chain took seconds, coherence-storm 45 s after its deadline. Assignment
  // therefore destroys the old expression and constructs the new one, which releases correctly.
  Term& operator=(const Term& o) {
    if (this != &o) assign(o.kind_, o.e_);
    return *this;
  }
  Term& operator=(Term&& o) noexcept {
    if (this != &o) assign(o.kind_, std::move(o.e_));
    return *this;
  }
  static Term constant(bool b) { Term t; t.kind_ = b ? Kind::True : Kind::False; return t; }
  static Term of(const z3::expr& e) { Term t; t.kind_ = Kind::Expr; t.e_.emplace(e); return t; }

  bool isFalse() const { return kind_ == Kind::False; }
  bool isTrue() const { return kind_ == Kind::True; }
  z3::expr expr(z3::context& c) const {
    return kind_ == Kind::Expr ? *e_ : c.bool_val(kind_ == Kind::True);
  }

  friend Term operator&&(const Term& a, const Term& b);
  friend Term operator||(const Term& a, const Term& b);
  friend Term operator!(const Term& a);
  // The disjunction of many terms as one n-ary node.
  static Term any(z3::context& c, const std::vector<Term>& ts);

 private:
  template <class E>
  void assign(Kind k, E&& e) {
    kind_ = k;
    e_.reset();
    if (e) e_.emplace(*std::forward<E>(e));
  }
  Kind kind_ = Kind::False;
  std::optional<z3::expr> e_;
};

// Assigns through z3::expr's copy assignment, which releases the old term; plain `x = f(...)`
// would pick the leaking move assignment (see Term).
inline void rebind(z3::expr& to, const z3::expr& from) { to = from; }

using Deadline = litmus::Deadline;

// An n x n matrix of Terms. Composition is n^3 terms before folding; closures square
// ceil(log2 n) times, which is exact for paths of any length. A relation carries the deadline of
// its check, and every operation passes it on and throws Deadline::Expired once it has passed:
// the model text builds the terms of a large test for seconds, and it has no deadline of its own.
class SymRel {
 public:
  SymRel() = default;
  SymRel(z3::context* c, const Deadline* d, int n)
      : c_(c), deadline_(d), n_(n), cells_(static_cast<size_t>(n) * n) {}
  static SymRel constant(z3::context* c, const Deadline* d, const model::BitRel& r);

  int size() const { return n_; }
  z3::context& ctx() const { return *c_; }
  const Deadline* deadline() const { return deadline_; }
  void checkDeadline() const;  // throws Deadline::Expired once it has passed
  const Term& at(int a, int b) const { return cells_[static_cast<size_t>(a) * n_ + b]; }
  Term& at(int a, int b) { return cells_[static_cast<size_t>(a) * n_ + b]; }

  friend SymRel operator|(const SymRel& a, const SymRel& b);
  friend SymRel operator&(const SymRel& a, const SymRel& b);
  friend SymRel operator-(const SymRel& a, const SymRel& b);
  friend SymRel operator*(const SymRel& a, const SymRel& b);

 private:
  z3::context* c_ = nullptr;
  const Deadline* deadline_ = nullptr;  // none when null
  int n_ = 0;
  std::vector<Term> cells_;
};

SymRel inv(const SymRel& r);
SymRel plus(const SymRel& r);
SymRel star(const SymRel& r);

}  // namespace checker
