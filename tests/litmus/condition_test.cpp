// Final conditions: quantifiers, operators and their precedence, terms, printing, errors.
#include <doctest/doctest.h>

#include "litmus/parse.h"

using namespace litmus;

namespace {

Test withThreads() {
  Test t;
  for (const char* n : {"P0", "P1", "P2"}) {
    Thread th;
    th.name = n;
    t.threads.push_back(th);
  }
  return t;
}

Test parse(std::string_view text) {
  Test t = withThreads();
  parseFinalCondition(text, {"c", 4, 1}, t);
  return t;
}

std::string printed(std::string_view text) {
  Test t = parse(text);
  return std::string(toString(t.quantifier)) + " " + formatCondition(t.condition);
}

std::string error(std::string_view text) {
  try {
    parse(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("quantifiers") {
  CHECK((parse("exists (P0:r0 == 1)").quantifier == Quantifier::Exists));
  CHECK((parse("~exists (P0:r0 == 1)").quantifier == Quantifier::NotExists));
  CHECK((parse("~ exists P0:r0 == 1").quantifier == Quantifier::NotExists));
  CHECK((parse("forall\n (P0:r0 == 1)").quantifier == Quantifier::Forall));
  CHECK((parse("exists 0==0").condition.kind == Cond::Kind::Cmp));
}

TEST_CASE("terms") {
  Test t =
      parse("exists (P1:r0 == 1 /\\ 2:%r3 != -4 /\\ x = 0x10 /\\ [y] >= 2 /\\ P0: r1 < P1:r2)");
  const Cond& c = t.condition;
  REQUIRE(c.kind == Cond::Kind::And);
  REQUIRE(c.kids.size() == 5);
  CHECK(c.kids[0].lhs.kind == Term::Kind::Reg);
  CHECK(c.kids[0].lhs.thread == "P1");
  CHECK(c.kids[0].lhs.name == "r0");
  CHECK(c.kids[0].rhs.value == 1);
  CHECK(c.kids[1].lhs.thread == "P2");  // thread index 2
  CHECK(c.kids[1].lhs.name == "r3");
  CHECK((c.kids[1].cmp == CmpOp::Ne));
  CHECK(c.kids[1].rhs.value == -4);
  CHECK(c.kids[2].lhs.kind == Term::Kind::Mem);
  CHECK((c.kids[2].cmp == CmpOp::Eq));  // herd's bare '='
  CHECK(c.kids[2].rhs.value == 16);
  CHECK(c.kids[3].lhs.name == "y");
  CHECK((c.kids[3].cmp == CmpOp::Ge));
  CHECK((c.kids[4].cmp == CmpOp::Lt));
  CHECK(c.kids[4].rhs.kind == Term::Kind::Reg);
  CHECK(c.kids[0].lhs.loc.line == 4);
  CHECK(c.kids[0].lhs.loc.col == 9);
  std::vector<Term> terms = conditionTerms(c);
  REQUIRE(terms.size() == 6);
  CHECK(formatTerm(terms[0]) == "P1:r0");
  CHECK(formatTerm(terms[1]) == "P2:r3");
  CHECK(formatTerm(terms[2]) == "x");
  CHECK(formatTerm(terms[3]) == "y");
  CHECK(formatTerm(terms[4]) == "P0:r1");
  CHECK(formatTerm(terms[5]) == "P1:r2");
}

TEST_CASE("precedence: ~ then /\\ then \\/") {
  Test t = parse("exists a == 1 \\/ b == 2 /\\ ~c == 3");
  const Cond& c = t.condition;
  REQUIRE(c.kind == Cond::Kind::Or);
  REQUIRE(c.kids.size() == 2);
  CHECK(c.kids[0].kind == Cond::Kind::Cmp);
  REQUIRE(c.kids[1].kind == Cond::Kind::And);
  CHECK(c.kids[1].kids[1].kind == Cond::Kind::Not);
  CHECK(printed("exists a == 1 \\/ b == 2 /\\ ~c == 3") ==
        "exists (a == 1 \\/ (b == 2 /\\ ~(c == 3)))");
  CHECK(printed("exists (a == 1 \\/ b == 2) /\\ c == 3") ==
        "exists ((a == 1 \\/ b == 2) /\\ c == 3)");
  CHECK(printed("forall a == 1 && b == 2 || !(c == 3)") ==
        "forall ((a == 1 /\\ b == 2) \\/ ~(c == 3))");
  CHECK(printed("exists a == 1 and not b == 2 or true") ==
        "exists ((a == 1 /\\ ~(b == 2)) \\/ true)");
  CHECK(printed("~exists ((a == 1))") == "~exists (a == 1)");
  CHECK(printed("exists false") == "exists (false)");
}

TEST_CASE("printing reads back to the same tree") {
  for (const char* s :
       {"exists (P0:r0 == 1 /\\ x == 2)", "forall ((a == 1 \\/ b == 2) /\\ (c == 3 \\/ d == 4))",
        "~exists (~(a == 1 /\\ b == 2))", "exists (a == 1 /\\ (b == 2 /\\ c == 3))",
        "exists (0 == 0)", "forall (a != -1 \\/ b <= 2 \\/ c > 3)"}) {
    std::string once = printed(s);
    CHECK(printed(once) == once);
    CHECK(once == s);
  }
}

TEST_CASE("condition errors point at the token") {
  CHECK(error("exist (x == 1)") ==
        "c:4:1: error: expected 'exists', '~exists' or 'forall', found 'exist'");
  CHECK(error("exists (x == 1") == "c:4:15: error: expected ')' but found end of condition");
  CHECK(error("exists (x 1)") ==
        "c:4:11: error: expected a comparison (==, !=, <, <=, >, >=) but found '1'");
  CHECK(error("exists (x == 1) y") == "c:4:17: error: unexpected 'y' after the condition");
  CHECK(error("exists\n  (x == 1 /\\ == 2)") ==
        "c:5:14: error: expected a register (P0:r0), a location or a number but found '=='");
  CHECK(error("exists (x == 1 # y)") == "c:4:16: error: unexpected character '#' in condition");
  CHECK(error("exists (P0: == 1)") == "c:4:13: error: expected a register name but found '=='");
  CHECK(error("exists (x == 99999999999999999999)") ==
        "c:4:14: error: value 99999999999999999999 out of range for 64 bits");
}

TEST_CASE("deep nesting is an error, not a crash") {
  std::string deep = "exists " + std::string(100000, '(') + "x == 1" + std::string(100000, ')');
  CHECK(error(deep) == "c:4:508: error: condition nested too deeply");
  CHECK(error("exists " + std::string(100000, '~') + "x == 1") ==
        "c:4:508: error: condition nested too deeply");
}

TEST_CASE("parseTerm") {
  Test t = withThreads();
  CHECK(formatTerm(parseTerm("P1:%r0", {"o", 1, 1}, t)) == "P1:r0");
  CHECK(formatTerm(parseTerm("0:r0", {"o", 1, 1}, t)) == "P0:r0");
  CHECK(formatTerm(parseTerm("[x]", {"o", 1, 1}, t)) == "x");
  CHECK_THROWS_AS(parseTerm("P1:r0 x", {"o", 1, 1}, t), Error);
}
