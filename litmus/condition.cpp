// herd-style final conditions: `exists (P0:r0 == 1 /\ x == 2)`, `~exists ...`, `forall ...`.
// A hand-written lexer and recursive-descent parser so that every error points at its token.
#include "litmus/parse.h"
#include "litmus/ptx_format.h"

namespace litmus {
namespace {

struct Tok {
  enum class Kind { End, Ident, Number, Sym };
  Kind kind = Kind::End;
  std::string text;
  SourceLoc loc;
};

bool identStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool identChar(char c) { return identStart(c) || (c >= '0' && c <= '9') || c == '$'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

// Longest symbols first so that "<=" wins over "<".
constexpr std::string_view kSymbols[] = {"/\\", "\\/", "&&", "||", "==", "!=", "<=", ">=", "<", ">",
                                         "=",   "~",   "!",  "(",  ")",  "[",  "]",  ":",  "%",
                                         "+"};

std::vector<Tok> tokenize(std::string_view text, const SourceLoc& start) {
  std::vector<Tok> out;
  SourceLoc loc = start;
  size_t i = 0;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n; ++k, ++i) {
      if (text[i] == '\n') {
        ++loc.line;
        loc.col = 1;
      } else if (loc.col) {
        ++loc.col;
      }
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      advance(1);
      continue;
    }
    Tok t;
    t.loc = loc;
    size_t j = i;
    if (identStart(c)) {
      t.kind = Tok::Kind::Ident;
      while (j < text.size() && identChar(text[j])) ++j;
    } else if (digit(c) || (c == '-' && i + 1 < text.size() && digit(text[i + 1]))) {
      t.kind = Tok::Kind::Number;
      j = i + 1;
      while (j < text.size() && identChar(text[j])) ++j;  // hex digits and stray letters alike
    } else {
      for (std::string_view s : kSymbols)
        if (text.substr(i, s.size()) == s) {
          t.kind = Tok::Kind::Sym;
          j = i + s.size();
          break;
        }
      if (j == i) throw Error(loc, "unexpected character '" + std::string(1, c) + "' in condition");
    }
    t.text = std::string(text.substr(i, j - i));
    advance(j - i);
    out.push_back(std::move(t));
  }
  Tok end;
  end.loc = loc;
  out.push_back(end);
  return out;
}

class CondParser {
 public:
  CondParser(std::vector<Tok> toks, const Test& test) : toks_(std::move(toks)), test_(test) {}

  Quantifier quantifier();
  Cond disjunction();
  Term term();
  void expectEnd() const {
    if (peek().kind != Tok::Kind::End)
      fail("unexpected " + describe(peek()) + " after the condition");
  }
  const Tok& peek(size_t ahead = 0) const {
    return toks_[std::min(pos_ + ahead, toks_.size() - 1)];
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const { throw Error(peek().loc, msg); }
  static std::string describe(const Tok& t) {
    return t.kind == Tok::Kind::End ? "end of condition" : "'" + t.text + "'";
  }
  bool is(std::string_view s) const { return peek().kind != Tok::Kind::End && peek().text == s; }
  bool accept(std::initializer_list<std::string_view> any) {
    for (std::string_view s : any)
      if (is(s)) {
        ++pos_;
        return true;
      }
    return false;
  }
  Cond conjunction();
  Cond unary();
  Cond primary();
  CmpOp comparison();
  int64_t number(const Tok& t) const;
  std::string element(const std::string& location);

  static constexpr int kMaxDepth = 500;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  const Test& test_;
};

Quantifier CondParser::quantifier() {
  if (accept({"exists"})) return Quantifier::Exists;
  if (accept({"forall"})) return Quantifier::Forall;
  if (is("~") && peek(1).text == "exists") {
    pos_ += 2;
    return Quantifier::NotExists;
  }
  fail("expected 'exists', '~exists' or 'forall', found " + describe(peek()));
}

Cond CondParser::disjunction() {
  Cond first = conjunction();
  if (!is("\\/") && !is("||") && !is("or")) return first;
  Cond c;
  c.kind = Cond::Kind::Or;
  c.loc = first.loc;
  c.kids.push_back(std::move(first));
  while (accept({"\\/", "||", "or"})) c.kids.push_back(conjunction());
  return c;
}

Cond CondParser::conjunction() {
  Cond first = unary();
  if (!is("/\\") && !is("&&") && !is("and")) return first;
  Cond c;
  c.kind = Cond::Kind::And;
  c.loc = first.loc;
  c.kids.push_back(std::move(first));
  while (accept({"/\\", "&&", "and"})) c.kids.push_back(unary());
  return c;
}

Cond CondParser::unary() {
  SourceLoc loc = peek().loc;
  // the parser recurses once per '(' or '~'; a bound keeps hostile input from exhausting the stack
  if (++depth_ > kMaxDepth) fail("condition nested too deeply");
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};
  if (!accept({"~", "!", "not"})) return primary();
  Cond c;
  c.kind = Cond::Kind::Not;
  c.loc = loc;
  c.kids.push_back(unary());
  return c;
}

Cond CondParser::primary() {
  Cond c;
  c.loc = peek().loc;
  if (accept({"("})) {
    c = disjunction();
    if (!accept({")"})) fail("expected ')' but found " + describe(peek()));
    return c;
  }
  if (accept({"true"})) return c;
  if (accept({"false"})) {
    c.kind = Cond::Kind::False;
    return c;
  }
  c.kind = Cond::Kind::Cmp;
  c.lhs = term();
  c.cmp = comparison();
  c.rhs = term();
  return c;
}

CmpOp CondParser::comparison() {
  struct Op {
    std::string_view text;
    CmpOp op;
  };
  // herd writes a bare '=' for equality
  for (Op o : {Op{"==", CmpOp::Eq}, Op{"=", CmpOp::Eq}, Op{"!=", CmpOp::Ne}, Op{"<", CmpOp::Lt},
               Op{"<=", CmpOp::Le}, Op{">", CmpOp::Gt}, Op{">=", CmpOp::Ge}})
    if (accept({o.text})) return o.op;
  fail("expected a comparison (==, !=, <, <=, >, >=) but found " + describe(peek()));
}

// A location name and an optional `+K` byte offset: the element at offset K (canonical name
// "x+K", or "x" for K = 0).
std::string CondParser::element(const std::string& location) {
  if (!accept({"+"})) return location;
  const Tok& k = peek();
  if (k.kind != Tok::Kind::Number)
    fail("expected a byte offset after '+' but found " + describe(k));
  ++pos_;
  int64_t offset = number(k);
  if (offset < 0 && k.text[0] != '-')  // 2^63 and above read as negative (the bits of a .u64)
    throw Error(k.loc, "offset " + k.text + " is out of range: an address names bytes 0 to 9223372036854775807");
  if (offset < 0) throw Error(k.loc, "an element offset must be non-negative");
  return elementName(location, offset);
}

int64_t CondParser::number(const Tok& t) const {
  std::optional<int64_t> v = lex::parseInteger(t.text);
  if (v) return *v;
  if (lex::isIntegerSyntax(t.text))
    throw Error(t.loc, "value " + t.text + " out of range for 64 bits");
  throw Error(t.loc, "malformed number '" + t.text + "'");
}

Term CondParser::term() {
  Term t;
  const Tok first = peek();
  t.loc = first.loc;
  bool threadRef = peek(1).text == ":" && peek(1).kind == Tok::Kind::Sym;
  if (first.kind == Tok::Kind::Number && !threadRef) {
    ++pos_;
    t.kind = Term::Kind::Const;
    t.value = number(first);
    return t;
  }
  if (accept({"["})) {
    if (peek().kind != Tok::Kind::Ident)
      fail("expected a location name but found " + describe(peek()));
    t.kind = Term::Kind::Mem;
    t.name = element(toks_[pos_++].text);
    if (!accept({"]"})) {
      if (peek().kind == Tok::Kind::Number && peek().text[0] == '-')
        fail("an element offset must be non-negative: write [x+K]");
      fail("expected ']' but found " + describe(peek()));
    }
    return t;
  }
  if (first.kind == Tok::Kind::Ident && !threadRef) {
    ++pos_;
    t.kind = Term::Kind::Mem;
    t.name = element(first.text);
    return t;
  }
  if (!threadRef || (first.kind != Tok::Kind::Ident && first.kind != Tok::Kind::Number))
    fail("expected a register (P0:r0), a location or a number but found " + describe(first));
  pos_ += 2;
  t.kind = Term::Kind::Reg;
  t.thread = first.text;
  if (first.kind == Tok::Kind::Number) {  // herd's `1:r0` names the thread by its index
    int64_t index = number(first);
    bool known = index >= 0 && index < static_cast<int64_t>(test_.threads.size());
    t.thread = known ? test_.threads[index].name : std::string("P").append(std::to_string(index));
  }
  accept({"%"});
  if (peek().kind != Tok::Kind::Ident)
    fail("expected a register name but found " + describe(peek()));
  t.name = toks_[pos_++].text;
  return t;
}

}  // namespace

void parseFinalCondition(std::string_view text, const SourceLoc& loc, Test& test) {
  CondParser p(tokenize(text, loc), test);
  SourceLoc where = p.peek().loc;
  Quantifier q = p.quantifier();
  Cond body = p.disjunction();
  p.expectEnd();
  test.quantifier = q;
  test.condition = std::move(body);
  test.conditionLoc = where;
}

Term parseTerm(std::string_view text, const SourceLoc& loc, const Test& test) {
  CondParser p(tokenize(text, loc), test);
  Term t = p.term();
  p.expectEnd();
  return t;
}

}  // namespace litmus
