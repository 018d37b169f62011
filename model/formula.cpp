#include "model/formula.h"

#include <optional>
#include <stdexcept>

#include "model/ptx_model.h"

namespace model {

struct Formula::Node {
  Op op;
  std::string name;         // Atom, Set; the name of a let
  std::vector<Formula> args;
  std::shared_ptr<const Node> def;  // a let's definition
};

Formula Formula::make(Op op, std::string name, std::vector<Formula> args) {
  Formula f;
  f.n_ = std::make_shared<const Node>(Node{op, std::move(name), std::move(args), nullptr});
  return f;
}

Formula Formula::atom(std::string name) { return make(Op::Atom, std::move(name), {}); }
Formula Formula::set(std::string name) { return make(Op::Set, std::move(name), {}); }

Formula Formula::let(std::string_view name, Formula definition) {
  Formula f;
  f.n_ = std::make_shared<const Node>(Node{Op::Atom, std::string(name), {}, std::move(definition.n_)});
  return f;
}

// Union, intersection and composition are associative: a chain of one of them is one node, so
// that it prints without inner parentheses.
Formula Formula::binary(Op op, const Formula& a, const Formula& b) {
  std::vector<Formula> args;
  for (const Formula* f : {&a, &b}) {
    if (op != Op::Diff && f->n_ && f->n_->op == op) args.insert(args.end(), f->n_->args.begin(), f->n_->args.end());
    else args.push_back(*f);
  }
  return make(op, "", std::move(args));
}

Formula operator|(const Formula& a, const Formula& b) { return Formula::binary(Formula::Op::Union, a, b); }
Formula operator&(const Formula& a, const Formula& b) { return Formula::binary(Formula::Op::Inter, a, b); }
Formula operator*(const Formula& a, const Formula& b) { return Formula::binary(Formula::Op::Seq, a, b); }
Formula operator-(const Formula& a, const Formula& b) { return Formula::binary(Formula::Op::Diff, a, b); }
Formula inv(const Formula& r) { return Formula::make(Formula::Op::Inv, "inv", {r}); }
Formula plus(const Formula& r) { return Formula::make(Formula::Op::Plus, "plus", {r}); }
Formula star(const Formula& r) { return Formula::make(Formula::Op::Star, "star", {r}); }

std::string Formula::operand(Op parent) const {
  const bool binaryOp = n_ && (n_->op == Op::Union || n_->op == Op::Inter || n_->op == Op::Seq || n_->op == Op::Diff);
  return binaryOp && (n_->op != parent || parent == Op::Diff) ? "(" + str() + ")" : str();
}

std::string Formula::str() const {
  if (!n_) return "0";
  switch (n_->op) {
    case Op::Atom: return n_->name;
    case Op::Set: return "[" + n_->name + "]";
    case Op::Inv:
    case Op::Plus:
    case Op::Star: return n_->name + "(" + n_->args[0].str() + ")";
    case Op::Union:
    case Op::Inter:
    case Op::Seq:
    case Op::Diff: break;
  }
  const char* sep = n_->op == Op::Union ? " | " : n_->op == Op::Inter ? " & " : n_->op == Op::Seq ? " ; " : " \\ ";
  std::string out;
  for (size_t i = 0; i < n_->args.size(); ++i) out += (i ? sep : "") + n_->args[i].operand(n_->op);
  return out;
}

std::string Formula::definition() const {
  if (!n_ || !n_->def) return "";
  Formula d;
  d.n_ = n_->def;
  return d.str();
}

void Formula::collect(std::vector<std::string>& out, std::vector<const Node*>& seen) const {
  if (!n_) return;
  for (const Formula& a : n_->args) a.collect(out, seen);
  if (!n_->def) return;
  for (const Node* p : seen)
    if (p == n_.get()) return;
  seen.push_back(n_.get());
  Formula d;
  d.n_ = n_->def;
  d.collect(out, seen);
  out.push_back(n_->name + " = " + d.str());
}

std::vector<std::string> Formula::definitions() const {
  std::vector<std::string> out;
  std::vector<const Node*> seen;
  collect(out, seen);
  return out;
}

AxiomText printConstraint(const Constraint<Formula>& c) {
  const std::string r = c.r.str();
  switch (c.shape) {
    case Shape::Acyclic: return {r, "acyclic(" + r + ")"};
    case Shape::Irreflexive: return {r, "irreflexive(" + r + ")"};
    case Shape::Empty: return {r, "empty(" + r + ")"};
    case Shape::Subset: return {r + " must be in " + c.sup->str(), "subset(" + r + ", " + c.sup->str() + ")"};
  }
  return {r, r};
}

namespace {

// Every relation of the model under the name the model gives it (the field's name; a set as [S]).
Static<Formula> namedStatic(bool gated) {
  Static<Formula> s;
  const auto a = [](const char* n) { return Formula::atom(n); };
  const auto set = [](const char* n) { return Formula::set(n); };
  s.W = set("W"), s.M = set("M"), s.RelW = set("RelW"), s.StrongW = set("StrongW"), s.StrongR = set("StrongR");
  s.AcqR = set("AcqR"), s.FRel = set("FRel"), s.FAcq = set("FAcq"), s.Arrive = set("Arrive");
  s.ArriveRel = set("ArriveRel"), s.Wait = set("Wait"), s.WaitAcq = set("WaitAcq"), s.PF = set("PF");
  s.FRelU = set("FRelU"), s.FAcqU = set("FAcqU");
  s.po = a("po"), s.poAsync = a("poAsync"), s.po_loc = a("po_loc"), s.loc = a("loc"), s.ms = a("ms");
  s.msSync = a("msSync"), s.rmw = a("rmw"), s.dep = a("dep"), s.gate = a("gate"), s.ppStatic = a("ppStatic");
  s.sameCta = a("sameCta"), s.grid = a("grid");
  s.relPat = a("relPat"), s.acqPat = a("acqPat"), s.barRel = a("barRel"), s.barAcq = a("barAcq");
  s.gated = gated;
  return s;
}

}  // namespace

std::vector<std::string> modelDefinitions() {
  const Static<Formula> s = namedStatic(false);
  std::vector<std::string> out = {"relPat = " + unionOf(releasePatterns(s)).str(),
                                  "acqPat = " + unionOf(acquirePatterns(s)).str(),
                                  "barRel = " + unionOf(barrierReleases(s)).str(),
                                  "barAcq = " + unionOf(barrierAcquires(s)).str()};
  const Choice<Formula> x{Formula::atom("rf"), Formula::atom("co"), Formula::atom("sc"), Formula::atom("bar")};
  const Derived<Formula> d = derive(s, x.rf, x.sc, x.bar);
  for (std::string& line : d.cause.definitions()) out.push_back(std::move(line));
  axioms(s, x, d, [&](Axiom a, const Constraint<Formula>& c) {
    if (a == Axiom::ScPerLocation)
      for (std::string& line : c.r.definitions())
        if (line.rfind("fr = ", 0) == 0) out.push_back(std::move(line));
    return true;
  });
  return out;
}

AxiomText axiomText(Axiom a, bool gated) {
  const Static<Formula> s = namedStatic(gated);
  const Choice<Formula> x{Formula::atom("rf"), Formula::atom("co"), Formula::atom("sc"), Formula::atom("bar")};
  const Derived<Formula> d{Formula::atom("obs"), Formula::atom("sw"), Formula::atom("bc"), Formula::atom("cause"),
                           Formula::atom("ppbc"), {}};
  std::optional<AxiomText> out;
  axioms(s, x, d, [&](Axiom b, const Constraint<Formula>& c) {
    if (b == a) out = printConstraint(c);
    return true;
  });
  if (!out) throw std::logic_error("axiomText: the model has no constraint for " + std::string(axiomName(a)));
  return *out;
}

}  // namespace model
