// A relation as the model writes it. The model (ptx_model.h) is a template over its relation
// type; evaluated over Formula instead of bit matrices or Z3 terms, each relation it builds is
// the expression that built it, and prints as text. So the text of an axiom is read off the
// axiom itself (axiomText) and cannot drift from what the engines decide.
//
// Notation, as in docs/model.md: `a ; b` composition, `a | b` union, `a & b` intersection,
// `a \ b` difference, inv(r), plus(r), star(r), [S] a set as an identity relation. A binary
// operand is parenthesized unless it is an atom or the same associative operator.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/axioms.h"

namespace model {

class Formula {
 public:
  Formula() = default;  // the empty relation, printed `0`
  static Formula atom(std::string name);  // a relation the model names: rf, po_loc, cause
  static Formula set(std::string name);   // [name]
  // A relation named by the model after its definition (herd's `let`): printed by its name.
  static Formula let(std::string_view name, Formula definition);

  friend Formula operator|(const Formula& a, const Formula& b);
  friend Formula operator&(const Formula& a, const Formula& b);
  friend Formula operator*(const Formula& a, const Formula& b);
  friend Formula operator-(const Formula& a, const Formula& b);
  friend Formula inv(const Formula& r);
  friend Formula plus(const Formula& r);
  friend Formula star(const Formula& r);

  std::string str() const;
  // A let-bound relation's definition (`inv(rf) ; co` for fr); empty otherwise.
  std::string definition() const;
  // `name = definition` for each let-bound relation this one is built from, itself included,
  // each after those its definition uses.
  std::vector<std::string> definitions() const;

 private:
  enum class Op { Atom, Set, Union, Inter, Seq, Diff, Inv, Plus, Star };
  struct Node;
  std::shared_ptr<const Node> n_;
  static Formula make(Op op, std::string name, std::vector<Formula> args);
  static Formula binary(Op op, const Formula& a, const Formula& b);
  std::string operand(Op parent) const;
  void collect(std::vector<std::string>& out, std::vector<const Node*>& seen) const;
};

// An axiom's text, printed from its constraint evaluated over Formula: `relation` is what the
// constraint constrains (what an explanation names; a subset adds `must be in co`), `formula`
// the axiom as docs/model.md writes it: acyclic(...), irreflexive(...), empty(...), subset(..., co).
struct AxiomText {
  std::string relation;
  std::string formula;
};
AxiomText printConstraint(const Constraint<Formula>& c);

// The derived relations of ptx_model.h as it writes them, one `name = definition` each: the
// patterns of §8.8 and barriers (relPat, acqPat, barRel, barAcq), then what derive() and axioms()
// name (obs, sw, bc, ppbc, cause, fr), for a test without restricted fences, asynchronous
// operations, grids or proxy-fence chains (whose lines docs/model.md describes in words).
std::vector<std::string> modelDefinitions();

// The text of axiom `a` of ptx_model.h's axioms(). `gated`: the model's No-thin-air under D38's
// gates (model::Static::gated), whose relation has the part `gate`.
AxiomText axiomText(Axiom a, bool gated = false);

}  // namespace model
