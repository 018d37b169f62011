// Relations whose entries are Boolean terms: the relation algebra of the symbolic engine. Only
// .cpp files include this header, so Z3 stays out of the library's public interface.
#pragma once

#include <z3++.h>

#include <optional>
#include <vector>

#include "model/bitrel.h"

namespace checker {

// A Boolean that folds constants, so that `true && x` never reaches the solver.
class Term {
 public:
  enum class Kind { False, True, Expr };
  Term() = default;
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
  Kind kind_ = Kind::False;
  std::optional<z3::expr> e_;
};

// An n x n matrix of Terms. Composition is n^3 terms before folding; closures square
// ceil(log2 n) times, which is exact for paths of any length.
class SymRel {
 public:
  SymRel() = default;
  SymRel(z3::context* c, int n) : c_(c), n_(n), cells_(static_cast<size_t>(n) * n) {}
  static SymRel constant(z3::context* c, const model::BitRel& r);

  int size() const { return n_; }
  z3::context& ctx() const { return *c_; }
  const Term& at(int a, int b) const { return cells_[static_cast<size_t>(a) * n_ + b]; }
  Term& at(int a, int b) { return cells_[static_cast<size_t>(a) * n_ + b]; }

  friend SymRel operator|(const SymRel& a, const SymRel& b);
  friend SymRel operator&(const SymRel& a, const SymRel& b);
  friend SymRel operator-(const SymRel& a, const SymRel& b);
  friend SymRel operator*(const SymRel& a, const SymRel& b);

 private:
  z3::context* c_ = nullptr;
  int n_ = 0;
  std::vector<Term> cells_;
};

SymRel inv(const SymRel& r);
SymRel plus(const SymRel& r);
SymRel star(const SymRel& r);

}  // namespace checker
