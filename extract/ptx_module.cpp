// The module reader: a lexer that cuts PTX text into statements (comments dropped, positions
// kept), and the parsers of module directives, variables and function headers.
#include "extract/ptx_module.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <map>

#include "litmus/ptx_format.h"

namespace extract {

namespace {

using litmus::Error;
using litmus::SourceLoc;
using litmus::lex::trim;

// A raw statement: its text and how it ended.
struct Raw {
  enum class End { Semi, Open, Close, Label, Line, Eof };
  End end = End::Eof;
  std::string text;
  SourceLoc loc;
};

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  // The next statement. In module context a '{' that does not follow '=' ends a function
  // header; in a body it is a vector operand (`{%r1, %r2}`) unless it starts the statement.
  Raw next(bool module) {
    skipBlank();
    Raw r;
    r.loc = here();
    if (pos_ >= s_.size()) return r;
    const char c = s_[pos_];
    if (c == '{' || c == '}') {
      advance();
      r.end = c == '{' ? Raw::End::Open : Raw::End::Close;
      return r;
    }
    if (std::optional<std::string> label = labelAhead()) {
      r.text = *label;
      r.end = Raw::End::Label;
      return r;
    }
    for (const char* d : {".version", ".target", ".address_size", ".file", ".loc"})
      if (startsWord(d)) return lineDirective(r);
    if (startsWord(".section")) {
      skipSection();
      return next(module);
    }
    return statement(r, module);
  }

  SourceLoc here() const { return {file_, line_, col_}; }

 private:
  void advance() {
    if (s_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  bool at(const char* w) const { return s_.compare(pos_, std::char_traits<char>::length(w), w) == 0; }

  bool startsWord(const char* w) const {
    const size_t n = std::char_traits<char>::length(w);
    return at(w) && (pos_ + n >= s_.size() || !identChar(s_[pos_ + n]));
  }

  // Skips a comment at pos_ if there is one; returns whether it did.
  bool skipComment() {
    if (at("//")) {
      while (pos_ < s_.size() && s_[pos_] != '\n') advance();
      return true;
    }
    if (at("/*")) {
      const SourceLoc start = here();
      advance();
      advance();
      while (pos_ < s_.size() && !at("*/")) advance();
      if (pos_ >= s_.size()) throw Error(start, "unterminated comment");
      advance();
      advance();
      return true;
    }
    return false;
  }

  void skipBlank() {
    while (pos_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[pos_]))) {
        advance();
      } else if (!skipComment()) {
        return;
      }
    }
  }

  // `name:` (not `::`) at the start of a statement.
  std::optional<std::string> labelAhead() {
    size_t p = pos_;
    while (p < s_.size() && identChar(s_[p])) ++p;
    if (p == pos_ || p >= s_.size() || s_[p] != ':' || (p + 1 < s_.size() && s_[p + 1] == ':'))
      return std::nullopt;
    std::string name = s_.substr(pos_, p - pos_);
    while (pos_ <= p) advance();
    return name;
  }

  Raw lineDirective(Raw r) {
    while (pos_ < s_.size() && s_[pos_] != '\n' && !at("//")) {
      r.text += s_[pos_];
      advance();
    }
    r.text = std::string(trim(r.text));
    r.end = Raw::End::Line;
    return r;
  }

  // `.section .debug_x { ... }`: debug information, skipped whole.
  void skipSection() {
    while (pos_ < s_.size() && s_[pos_] != '{') advance();
    int depth = 0;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      advance();
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0) return;
    }
  }

  Raw statement(Raw r, bool module) {
    int depth = 0;
    bool initializer = false;
    while (pos_ < s_.size()) {
      if (skipComment()) {
        r.text += ' ';
        continue;
      }
      const char c = s_[pos_];
      if (c == '"') {  // a string (.pragma "nounroll")
        do {
          r.text += s_[pos_];
          advance();
        } while (pos_ < s_.size() && s_[pos_] != '"');
        if (pos_ >= s_.size()) throw Error(r.loc, "unterminated string");
      }
      if (depth == 0 && c == ';') {
        advance();
        r.end = Raw::End::Semi;
        r.text = std::string(trim(r.text));
        return r;
      }
      if (c == '=') initializer = true;
      if (c == '{' && depth == 0 && module && !initializer) {
        r.end = Raw::End::Open;  // the '{' is read as the next statement
        r.text = std::string(trim(r.text));
        return r;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) throw Error(here(), std::string("unexpected '") + c + "'");
        --depth;
      }
      r.text += c;
      advance();
    }
    throw Error(r.loc, "statement not ended by ';': '" + std::string(trim(r.text)).substr(0, 60) + "'");
  }

  const std::string& s_;
  std::string file_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The text between the '(' at `open` and its ')'; `end` gets the index after the ')'.
std::string parenGroup(const std::string& s, size_t open, size_t& end, const SourceLoc& loc) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) {
      end = i + 1;
      return s.substr(open + 1, i - open - 1);
    }
  }
  throw Error(loc, "unbalanced parentheses in '" + s.substr(0, 60) + "'");
}

// `.param .u64 a, .param .align 8 .b8 b[16]`: split at commas outside brackets.
std::vector<VarDecl> parseParams(const std::string& list, const SourceLoc& loc) {
  std::vector<VarDecl> out;
  std::string cur;
  int depth = 0;
  auto flush = [&] {
    if (!trim(cur).empty())
      for (VarDecl& d : parseDecl(std::string(trim(cur)), loc)) out.push_back(d);
    cur.clear();
  };
  for (char c : list) {
    if (c == '[' || c == '<') ++depth;
    if (c == ']' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      flush();
      continue;
    }
    cur += c;
  }
  flush();
  return out;
}

// `.reqntid 128, 1, 1` and the like after a kernel's parameter list.
void parseLaunchDirectives(const std::string& rest, Function& f) {
  const std::vector<std::string> w = words(rest);
  for (size_t i = 0; i < w.size(); ++i) {
    int* dims = w[i] == ".reqntid" || w[i] == ".maxntid" ? f.reqntid
                : w[i] == ".reqnctapercluster"           ? f.reqCluster
                                                         : nullptr;
    if (!dims || (w[i] == ".maxntid" && f.reqntid[0])) continue;
    for (int d = 0; d < 3 && i + 1 < w.size(); ++d) {
      const std::optional<int64_t> v = litmus::lex::parseInteger(w[i + 1]);
      if (!v) break;
      dims[d] = static_cast<int>(*v);
      ++i;
    }
    for (int d = 0; d < 3; ++d)
      if (dims[d] == 0) dims[d] = 1;
  }
}

Function parseHeader(const std::string& text, const SourceLoc& loc) {
  Function f;
  f.loc = loc;
  const size_t kw = text.find(".entry") != std::string::npos ? text.find(".entry") : text.find(".func");
  f.entry = text.compare(kw, 6, ".entry") == 0;
  size_t p = kw + (f.entry ? 6 : 5);
  auto skipSpace = [&] {
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
  };
  skipSpace();
  if (p < text.size() && text[p] == '(') f.returns = parseParams(parenGroup(text, p, p, loc), loc);
  skipSpace();
  const size_t nameStart = p;
  while (p < text.size() && identChar(text[p])) ++p;
  f.name = text.substr(nameStart, p - nameStart);
  if (f.name.empty()) throw Error(loc, "function without a name");
  skipSpace();
  if (p < text.size() && text[p] == '(') f.params = parseParams(parenGroup(text, p, p, loc), loc);
  parseLaunchDirectives(text.substr(p), f);
  return f;
}

void parseBody(Lexer& lex, Function& f) {
  int depth = 0;
  for (;;) {
    Raw r = lex.next(false);
    Stmt st;
    st.loc = r.loc;
    switch (r.end) {
      case Raw::End::Eof:
        throw Error(f.loc, "function '" + f.name + "' is not closed by '}'");
      case Raw::End::Open:
        ++depth;
        st.kind = Stmt::Kind::Open;
        break;
      case Raw::End::Close:
        if (depth-- == 0) return;
        st.kind = Stmt::Kind::Close;
        break;
      case Raw::End::Label:
        st.kind = Stmt::Kind::Label;
        st.text = r.text;
        break;
      case Raw::End::Line:
        continue;  // .loc / .file: debug positions
      case Raw::End::Semi:
        st.text = r.text;
        if (r.text.rfind(".pragma", 0) == 0) {
          st.kind = Stmt::Kind::Pragma;
        } else if (r.text[0] == '.') {
          st.kind = Stmt::Kind::Decl;
          st.decls = parseDecl(r.text, r.loc);
        } else {
          st.kind = Stmt::Kind::Instr;
        }
        break;
    }
    f.body.push_back(std::move(st));
  }
}

bool isFunctionHeader(const std::string& text) {
  for (const std::string& w : words(text.substr(0, text.find('('))))
    if (w == ".entry" || w == ".func") return true;
  return false;
}

}  // namespace

int typeBytes(const std::string& type) {
  static const std::map<std::string, int> kBytes = {
      {"pred", 1}, {"b8", 1},   {"u8", 1},    {"s8", 1},     {"b16", 2},  {"u16", 2},
      {"s16", 2},  {"f16", 2},  {"bf16", 2},  {"b32", 4},    {"u32", 4},  {"s32", 4},
      {"f32", 4},  {"f16x2", 4}, {"bf16x2", 4}, {"b64", 8},  {"u64", 8},  {"s64", 8},
      {"f64", 8},  {"b128", 16}, {"tf32", 4}, {"e4m3x2", 2}, {"e5m2x2", 2}};
  auto it = kBytes.find(type);
  return it == kBytes.end() ? 0 : it->second;
}

std::vector<VarDecl> parseDecl(const std::string& text, const SourceLoc& loc) {
  std::string body = text.substr(0, text.find('='));
  VarDecl proto;
  proto.loc = loc;
  int vec = 1;
  std::vector<std::string> names;
  for (const std::string& w : words(body)) {
    if (w[0] != '.') {
      names.push_back(w);
      continue;
    }
    const std::string q = w.substr(1);
    if (q == "reg") proto.space = VarDecl::Space::Reg;
    else if (q == "shared") proto.space = VarDecl::Space::Shared;
    else if (q == "global") proto.space = proto.space == VarDecl::Space::Param ? proto.space : VarDecl::Space::Global;
    else if (q == "const") proto.space = proto.space == VarDecl::Space::Param ? proto.space : VarDecl::Space::Const;
    else if (q == "local") proto.space = VarDecl::Space::Local;
    else if (q == "param") proto.space = VarDecl::Space::Param;
    else if (q == "extern") proto.external = true;
    else if (q == "v2" || q == "v4" || q == "v8") vec = q[1] - '0';
    else if (typeBytes(q)) {
      proto.type = q;
      proto.elemBytes = typeBytes(q);
    }
    // .align's number is a word of its own; .visible, .weak, .ptr, .global after .ptr: no effect
  }
  // `.align 8` leaves "8" among the names
  const std::vector<std::string> all = words(body);
  for (size_t i = 0; i + 1 < all.size(); ++i)
    if (all[i] == ".align") {
      proto.align = static_cast<int>(litmus::lex::parseInteger(all[i + 1]).value_or(0));
      names.erase(std::find(names.begin(), names.end(), all[i + 1]));
    }
  if (proto.elemBytes == 0) throw Error(loc, "declaration without a type: '" + text + "'");
  proto.elemBytes *= vec;
  std::vector<VarDecl> out;
  for (const std::string& n : names) {
    VarDecl d = proto;
    const size_t lt = n.find('<'), lb = n.find('[');
    if (lt != std::string::npos) {  // %r<163>: a range of registers, kept as one entry
      d.name = n.substr(0, lt);
      d.count = litmus::lex::parseInteger(n.substr(lt + 1, n.find('>') - lt - 1)).value_or(0);
    } else if (lb != std::string::npos) {  // x[16], x[], x[2][4]
      d.name = n.substr(0, lb);
      d.count = 1;
      for (size_t b = lb; b != std::string::npos; b = n.find('[', b + 1)) {
        const std::string dim = n.substr(b + 1, n.find(']', b) - b - 1);
        d.count *= dim.empty() ? 0 : litmus::lex::parseInteger(dim).value_or(0);
      }
    } else {
      d.name = n;
    }
    out.push_back(d);
  }
  return out;
}

const Function* Module::function(const std::string& name) const {
  for (const Function& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

Module parseModule(const std::string& text, const std::string& file) {
  Module m;
  m.file = file;
  Lexer lex(text, file);
  for (;;) {
    Raw r = lex.next(true);
    if (r.end == Raw::End::Eof) break;
    if (r.end == Raw::End::Line) {
      const std::vector<std::string> w = words(r.text);
      if (w[0] == ".version" && w.size() > 1) m.version = w[1];
      if (w[0] == ".target" && w.size() > 1) m.target = w[1];
      if (w[0] == ".address_size" && w.size() > 1)
        m.addressSize = static_cast<int>(litmus::lex::parseInteger(w[1]).value_or(64));
      continue;
    }
    if (m.version.empty()) throw Error(r.loc, "not a PTX module: no .version directive");
    if (r.end == Raw::End::Label || r.end == Raw::End::Close || (r.end == Raw::End::Open && r.text.empty()))
      throw Error(r.loc, "unexpected '" + (r.end == Raw::End::Label ? r.text + ":" : std::string(r.end == Raw::End::Open ? "{" : "}")) +
                             "' outside a function");
    if (isFunctionHeader(r.text)) {
      Function f = parseHeader(r.text, r.loc);
      if (r.end == Raw::End::Open) {
        lex.next(true);  // the '{'
        f.hasBody = true;
        parseBody(lex, f);
      }
      m.functions.push_back(std::move(f));
    } else if (r.text.rfind(".pragma", 0) != 0) {
      for (VarDecl& d : parseDecl(r.text, r.loc)) m.vars.push_back(d);
    }
  }
  if (m.version.empty()) throw Error({file, 1, 1}, "not a PTX module: no .version directive");
  return m;
}

}  // namespace extract
