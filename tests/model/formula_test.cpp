// The text of an axiom is printed from the axiom itself (model/formula.h): these tests pin the
// printer, and compare each axiom's printed formula with the line docs/model.md shows for it, so
// that changing a part of an axiom in ptx_model.h without the docs (or the docs without the
// model) fails here.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "model/formula.h"

using model::Formula;

namespace {

std::string readDocs() {
  std::ifstream in(std::string(LITMUS_SOURCE_DIR) + "/docs/model.md");
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A formula as a Markdown table cell writes it: in code, with `|` escaped.
std::string cell(const std::string& formula) {
  std::string out = "`";
  for (char c : formula) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out + "`";
}

}  // namespace

TEST_CASE("formula: operators print with the parentheses that keep their meaning") {
  const Formula a = Formula::atom("a"), b = Formula::atom("b"), c = Formula::atom("c");
  CHECK((a | b | c).str() == "a | b | c");
  CHECK((a | (b | c)).str() == "a | b | c");  // associative: one chain
  CHECK((a * b * c).str() == "a ; b ; c");
  CHECK(((a | b) * c).str() == "(a | b) ; c");
  CHECK((a | (b * c)).str() == "a | (b ; c)");
  CHECK(((a & b) * (a & c) & b).str() == "((a & b) ; (a & c)) & b");
  CHECK((a - (b - c)).str() == "a \\ (b \\ c)");
  CHECK(((a - b) - c).str() == "(a \\ b) \\ c");
  CHECK((Formula::set("W") * plus(a | b) * star(inv(c))).str() == "[W] ; plus(a | b) ; star(inv(c))");
  CHECK(Formula().str() == "0");
  const Formula fr = Formula::let("fr", inv(a) * b);
  CHECK((fr | c).str() == "fr | c");
  CHECK(fr.definition() == "inv(a) ; b");
  CHECK(a.definition().empty());
}

TEST_CASE("formula: a constraint prints its shape over the relation built from its parts") {
  const Formula rf = Formula::atom("rf"), fr = Formula::atom("fr"), co = Formula::atom("co");
  const Formula cause = Formula::atom("cause");
  const auto causality = model::irreflexive(model::either(model::part("rf", rf), model::part("fr", fr)),
                                            model::only("cause", cause));
  CHECK(model::printConstraint(causality).formula == "irreflexive((rf | fr) ; cause)");
  CHECK(model::printConstraint(causality).relation == "(rf | fr) ; cause");
  // a part added is a different text
  const auto more = model::irreflexive(
      model::either(model::part("rf", rf), model::part("co", co), model::part("fr", fr)), model::only("cause", cause));
  CHECK(model::printConstraint(more).formula == "irreflexive((rf | co | fr) ; cause)");
  const auto sub = model::subset(model::seq(model::only("cause", cause)), model::filter("loc", Formula::atom("loc")),
                                 model::part("co", co));
  CHECK(model::printConstraint(sub).formula == "subset(cause & loc, co)");
  CHECK(model::printConstraint(sub).relation == "cause & loc must be in co");
}

// The model's axioms, printed from ptx_model.h, are the lines of docs/model.md's table "Orders
// and axioms", each beside the PTX ISA section it encodes.
TEST_CASE("formula: every axiom of the model is the line docs/model.md shows, with its section") {
  const std::string docs = readDocs();
  for (model::Axiom a : model::kAxioms) {
    const model::AxiomText t = model::axiomText(a);
    CAPTURE(model::axiomName(a));
    CAPTURE(t.formula);
    const std::string row = "| " + cell(t.formula) + " | " + std::string(model::axiomSection(a)) + " ";
    CHECK(docs.find(row) != std::string::npos);
  }
  // D38's gates add a part to No thin air; the docs name that form where they describe gates.
  const std::string gated = model::axiomText(model::Axiom::NoThinAir, true).formula;
  CHECK(gated == "acyclic(rf | dep | gate)");
  CHECK(docs.find("`" + gated + "`") != std::string::npos);
}

// The derived relations too: each `name = definition` the model's code prints is in
// docs/model.md's table, in code.
TEST_CASE("formula: every derived relation of the model is the line docs/model.md shows") {
  const std::string docs = readDocs();
  const std::vector<std::string> lines = model::modelDefinitions();
  CHECK(lines.size() >= 10);
  for (const std::string& line : lines) {
    CAPTURE(line);
    CHECK(docs.find(cell(line)) != std::string::npos);
  }
}
