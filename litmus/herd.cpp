// The herd `.litmus` format as used by the Dat3M PTX corpus: a `PTX name` line, quoted comments,
// an initial state in braces, a thread header row, one row of instructions per step (cells
// separated by '|', ended by ';'), then the final condition.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

namespace litmus {
namespace {

using lex::trim;

bool validTestName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
          c == '-'))
      return false;
  return true;
}

class HerdParser {
 public:
  HerdParser(std::string_view text, const std::string& file, const Deadline& deadline)
      : text_(text), deadline_(deadline) {
    test_.file = file;
    test_.dat3mBarriers = true;
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') lineStarts_.push_back(i + 1);
  }
  Test parse();

 private:
  SourceLoc locAt(size_t off) const {
    size_t line =
        std::upper_bound(lineStarts_.begin(), lineStarts_.end(), off) - lineStarts_.begin();
    return {test_.file, static_cast<int>(line), static_cast<int>(off - lineStarts_[line - 1] + 1)};
  }
  [[noreturn]] void fail(size_t off, const std::string& msg) const { throw Error(locAt(off), msg); }
  size_t offsetOf(std::string_view inner) const { return inner.data() - text_.data(); }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string_view restOfLine() const {
    size_t e = text_.find('\n', pos_);
    return text_.substr(pos_, (e == std::string_view::npos ? text_.size() : e) - pos_);
  }
  int64_t integer(std::string_view s) const;

  void parseTitle();
  void parseComments();
  std::string takeInfoLines(std::string_view region);
  void applyInfo(std::string_view key, std::string_view value);
  void parseInit();
  void parseInitEntry(std::string_view entry);
  void parseAlias(std::string_view entry, size_t at);
  void parseHeader();
  void parseHeaderCell(std::string_view cell, std::set<std::string>& names);
  void parseRows();
  void applyInitRegs();
  void fixBareLoads();
  void declareImplicitLocations();
  void renumberPlacement();

  std::string_view text_;
  const Deadline& deadline_;
  std::vector<size_t> lineStarts_;
  size_t pos_ = 0;
  Test test_;
  struct InitReg {
    std::string_view thread, reg;
    int64_t value;
  };
  std::vector<InitReg> initRegs_;
  std::vector<bool> ctaGiven_;
};

Test HerdParser::parse() {
  parseTitle();
  parseComments();
  parseInit();
  parseHeader();
  parseRows();
  applyInitRegs();
  fixBareLoads();
  declareImplicitLocations();
  renumberPlacement();
  validate(test_, deadline_);
  return std::move(test_);
}

int64_t HerdParser::integer(std::string_view s) const {
  std::optional<int64_t> v = lex::parseInteger(s);
  if (v) return *v;
  if (lex::isIntegerSyntax(s))
    fail(offsetOf(s), "value " + std::string(s) + " out of range for 64 bits");
  fail(offsetOf(s), "malformed value '" + std::string(s) + "'; expected an integer");
}

void HerdParser::parseTitle() {
  skipSpace();
  std::string_view line = trim(restOfLine());
  if (line.substr(0, 3) != "PTX" ||
      (line.size() > 3 && !std::isspace(static_cast<unsigned char>(line[3]))))
    fail(pos_, "expected 'PTX <name>' on the first line");
  std::string_view name = trim(line.substr(3));
  if (name.empty()) fail(pos_, "missing test name after 'PTX'");
  if (!validTestName(name))
    fail(offsetOf(name), "invalid test name '" + std::string(name) +
                             "' (use letters, digits, '_', '.', '+' and '-')");
  test_.name = std::string(name);
  pos_ += restOfLine().size();
}

// Everything between the title and the line that opens the initial state is commentary, usually
// quoted strings. Quotes are not nested reliably (the corpus quotes inside comments), so the
// region is taken whole: the outer quotes go, and `" "` between two strings becomes a newline.
void HerdParser::parseComments() {
  size_t open = pos_;
  for (;;) {
    open = text_.find('{', open);
    if (open == std::string_view::npos) break;
    const size_t lineStart = *std::prev(std::upper_bound(lineStarts_.begin(), lineStarts_.end(), open));
    if (trim(text_.substr(lineStart, open - lineStart)).empty()) break;
    // a '{' after other text on its line: so is every later '{' of that line (looking at each
    // of them again would be quadratic in the line's length)
    open = text_.find('\n', open);
  }
  std::string_view whole = trim(text_.substr(pos_, std::min(open, text_.size()) - pos_));
  const size_t at = offsetOf(whole);
  const std::string kept = takeInfoLines(whole);
  std::string_view region = trim(kept);
  if (!region.empty() && region[0] != '"') fail(at, "expected '{' to start the initial state");
  if (region.size() == 1 || (!region.empty() && region.back() != '"'))
    fail(at, "unterminated comment string");
  std::string body(
      trim(region.substr(region.empty() ? 0 : 1, region.size() < 2 ? 0 : region.size() - 2)));
  for (size_t q; (q = body.find('"')) != std::string::npos;) {
    size_t e = body.find_first_not_of(" \t\r\n", q + 1);
    size_t b = body.find_last_not_of(" \t\r\n", q - 1);
    if (e == std::string::npos || body[e] != '"' || q == 0) break;
    std::string before = body.substr(0, b == std::string::npos ? 0 : b + 1);
    body = before + "\n" + std::string(trim(std::string_view(body).substr(e + 1)));
  }
  test_.description = body;
  pos_ = std::min(open, text_.size());
}

// herd's info lines (`Hash=...`, `Cycle=...` from diy7) sit among the comments, outside quotes.
// herd7 keeps them as test info; we read the expectation keys that `convert --to herd` writes and
// leave the others. Returns the region without them.
std::string HerdParser::takeInfoLines(std::string_view region) {
  std::string rest;
  bool inQuote = false;
  for (size_t start = 0; start < region.size();) {
    const size_t end = std::min(region.find('\n', start), region.size());
    const std::string_view line = region.substr(start, end - start), t = trim(line);
    const size_t eq = t.find('=');
    // Keys are capitalised (`Hash`, `Cycle`, `Expect`) and values end without ';': `x=0;` is a
    // stray initial-state entry, left for the '{' error below.
    const bool info = !inQuote && eq != std::string_view::npos && eq > 0 &&
                      std::isupper(static_cast<unsigned char>(t[0])) &&
                      lex::isIdentifier(t.substr(0, eq)) && t.back() != ';';
    if (info) {
      applyInfo(t.substr(0, eq), trim(t.substr(eq + 1)));
    } else {
      rest.append(line).append("\n");
      for (char c : line) inQuote ^= c == '"';
    }
    start = end + 1;
  }
  return rest;
}

void HerdParser::applyInfo(std::string_view key, std::string_view value) {
  const std::string v(value);
  if (key == "Expect") {
    std::optional<Expect> e = parseExpect(v);
    if (!e) fail(offsetOf(value), "unknown expectation '" + v + "'");
    test_.expect = *e;
  } else if (key == "Liveness") {
    if (v != "terminates" && v != "may-hang")
      fail(offsetOf(value), "unknown liveness '" + v + "' (expected terminates or may-hang)");
    test_.liveness = v;
  } else if (key == "Reason") {
    test_.reason = v;
  } else if (key == "Family") {
    test_.family = v;
  }
}

void HerdParser::parseInit() {
  if (pos_ >= text_.size() || text_[pos_] != '{')
    fail(pos_, "expected '{' to start the initial state");
  size_t close = text_.find('}', pos_);
  if (close == std::string_view::npos) fail(pos_, "missing '}' to close the initial state");
  std::string_view body = text_.substr(pos_ + 1, close - pos_ - 1);
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && body[i] != ';' && body[i] != '\n') continue;
    std::string_view entry = trim(body.substr(start, i - start));
    deadline_.check();
    if (!entry.empty()) parseInitEntry(entry);
    start = i + 1;
  }
  pos_ = close + 1;
}

void HerdParser::parseInitEntry(std::string_view entry) {
  size_t at = offsetOf(entry);
  if (entry.find('@') != std::string_view::npos) return parseAlias(entry, at);
  size_t eq = entry.find('=');
  if (eq == std::string_view::npos)
    fail(at,
         "malformed initial-state entry '" + std::string(entry) + "'; expected 'x=0' or 'P0:r0=0'");
  std::string_view lhs = trim(entry.substr(0, eq)), rhs = trim(entry.substr(eq + 1));
  if (rhs.empty()) fail(at + eq, "missing value after '='");
  int64_t value = integer(rhs);
  size_t colon = lhs.find(':');
  if (colon != std::string_view::npos) {
    std::string_view reg = trim(lhs.substr(colon + 1));
    if (!reg.empty() && reg[0] == '%') reg.remove_prefix(1);
    if (!lex::isIdentifier(reg)) fail(at, "malformed register '" + std::string(lhs) + "'");
    initRegs_.push_back({trim(lhs.substr(0, colon)), reg, value});
    return;
  }
  if (!lex::isIdentifier(lhs)) fail(at, "malformed location name '" + std::string(lhs) + "'");
  Location l;
  l.name = std::string(lhs);
  l.init = value;
  l.loc = locAt(at);
  test_.locations.push_back(l);
}

// `y @ generic aliases x`: y is a second virtual address of x, used through the named proxy.
void HerdParser::parseAlias(std::string_view entry, size_t at) {
  const std::string bad =
      "malformed alias '" + std::string(entry) + "'; expected 'y @ generic aliases x'";
  size_t sign = entry.find('@');
  std::string_view name = trim(entry.substr(0, sign));
  std::vector<std::string_view> words;
  std::string_view rest = entry.substr(sign + 1);
  for (size_t i = 0; i < rest.size();) {
    size_t b = rest.find_first_not_of(" \t\r", i);
    if (b == std::string_view::npos) break;
    size_t e = std::min(rest.find_first_of(" \t\r", b), rest.size());
    words.push_back(rest.substr(b, e - b));
    i = e;
  }
  if (!lex::isIdentifier(name) || words.size() != 3 || words[1] != "aliases" ||
      !lex::isIdentifier(words[2]))
    fail(at, bad);
  Location l;
  l.name = std::string(name);
  l.aliasOf = std::string(words[2]);
  l.loc = locAt(at);
  const std::pair<std::string_view, Proxy> proxies[] = {{"generic", Proxy::Generic},
                                                        {"texture", Proxy::Texture},
                                                        {"surface", Proxy::Surface},
                                                        {"constant", Proxy::Constant}};
  auto it = std::find_if(std::begin(proxies), std::end(proxies),
                         [&](const auto& p) { return p.first == words[0]; });
  if (it == std::end(proxies))
    fail(offsetOf(words[0]), "unknown proxy '" + std::string(words[0]) +
                                 "' (expected generic, texture, surface or constant)");
  l.aliasProxy = it->second;
  test_.locations.push_back(l);
}

void HerdParser::parseHeader() {
  skipSpace();
  std::string_view line = trim(restOfLine());
  size_t at = pos_;
  if (line.empty() || line.back() != ';' || line.find_first_of("@|") == std::string_view::npos) {
    bool single = line.size() > 1 && line.back() == ';' &&
                  lex::isIdentifier(trim(line.substr(0, line.size() - 1)));
    if (!single) fail(at, "expected the thread header, as in 'P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;'");
  }
  std::set<std::string> names;
  std::string_view cells = line.substr(0, line.size() - 1);
  for (size_t start = 0;;) {
    size_t bar = std::min(cells.find('|', start), cells.size());
    deadline_.check();
    parseHeaderCell(cells.substr(start, bar - start), names);
    if (bar == cells.size()) break;
    start = bar + 1;
  }
  pos_ += restOfLine().size();
}

void HerdParser::parseHeaderCell(std::string_view raw, std::set<std::string>& names) {
  std::string_view cell = trim(raw);
  size_t at = cell.empty() ? offsetOf(raw) : offsetOf(cell);
  const std::string bad =
      "malformed thread header '" + std::string(cell) + "'; expected 'P0@cta 0,gpu 0'";
  size_t sign = cell.find('@');
  Thread t;
  t.name = std::string(trim(cell.substr(0, sign)));
  t.loc = locAt(at);
  if (!lex::isIdentifier(t.name)) fail(at, bad);
  if (!names.insert(t.name).second) fail(at, "thread " + t.name + " placed twice");
  std::map<std::string_view, int> given;
  std::string_view rest = sign == std::string_view::npos ? "" : cell.substr(sign + 1);
  for (size_t start = 0; sign != std::string_view::npos;) {
    size_t comma = std::min(rest.find(',', start), rest.size());
    std::string_view item = trim(rest.substr(start, comma - start));
    size_t space = item.find_first_of(" \t");
    std::string_view key = item.substr(0, space);
    std::string_view num = space == std::string_view::npos ? "" : trim(item.substr(space));
    if (item.empty()) fail(at, bad);
    if (key != "cta" && key != "cluster" && key != "gpu")
      fail(offsetOf(item),
           "unknown placement '" + std::string(item) + "' (expected cta N, cluster N or gpu N)");
    std::optional<int64_t> v = lex::parseInteger(num);
    if (num.empty() || !v || *v < 0 || *v > 1000000) fail(offsetOf(item), bad);
    if (!given.emplace(key, static_cast<int>(*v)).second)
      fail(offsetOf(item), "'" + std::string(key) + "' given twice for " + t.name);
    if (comma == rest.size()) break;
    start = comma + 1;
  }
  t.cta = given.count("cta") ? given["cta"] : 0;
  t.cluster = given.count("cluster") ? given["cluster"] : t.cta;
  t.gpu = given.count("gpu") ? given["gpu"] : 0;
  ctaGiven_.push_back(given.count("cta") > 0);
  test_.threads.push_back(t);
}

void HerdParser::parseRows() {
  for (skipSpace(); pos_ < text_.size(); skipSpace()) {
    std::string_view line = trim(restOfLine());
    if (line.substr(0, 6) == "exists" || line.substr(0, 6) == "forall" || line[0] == '~') {
      parseFinalCondition(text_.substr(pos_), locAt(pos_), test_);
      return;
    }
    if (line.back() != ';') fail(offsetOf(line) + line.size() - 1, "row must end with ';'");
    std::vector<std::string_view> cells;
    std::string_view body = line.substr(0, line.size() - 1);
    for (size_t start = 0;;) {
      size_t bar = std::min(body.find('|', start), body.size());
      cells.push_back(body.substr(start, bar - start));
      if (bar == body.size()) break;
      start = bar + 1;
    }
    if (cells.size() != test_.threads.size())
      fail(pos_, "row has " + std::to_string(cells.size()) + " columns, expected " +
                     std::to_string(test_.threads.size()));
    for (size_t i = 0; i < cells.size(); ++i) {
      deadline_.check();
      std::string_view cell = trim(cells[i]);
      if (!cell.empty())
        test_.threads[i].code.push_back(
            parseInstruction(cell, locAt(offsetOf(cell)), Dialect::Herd));
    }
    pos_ += restOfLine().size();
  }
  fail(text_.size(), "missing final condition (exists, ~exists or forall)");
}

void HerdParser::applyInitRegs() {
  std::map<std::string_view, size_t> byName;
  for (size_t i = 0; i < test_.threads.size(); ++i) byName.emplace(test_.threads[i].name, i);
  for (const InitReg& r : initRegs_) {
    auto it = byName.find(r.thread);
    size_t thread = it == byName.end() ? test_.threads.size() : it->second;
    std::optional<int64_t> index = lex::parseInteger(r.thread);  // herd also writes `0:r0=1`
    if (it == byName.end() && index && *index >= 0 && *index < static_cast<int64_t>(test_.threads.size()))
      thread = static_cast<size_t>(*index);
    if (thread == test_.threads.size())
      fail(offsetOf(r.thread), "initial state names unknown thread " + std::string(r.thread));
    test_.threads[thread].initRegs[std::string(r.reg)] = r.value;
  }
}

// herd's bare `ld r0, y` loads when y is a location and moves when y is a register.
void HerdParser::fixBareLoads() {
  std::set<std::string> locations;
  for (const Location& l : test_.locations) locations.insert(l.name);
  for (Thread& t : test_.threads)
    for (Instr& in : t.code) {
      std::string_view text = in.text;
      if (!text.empty() && text[0] == '@') text = trim(text.substr(text.find_first_of(" \t")));
      bool bare = text.substr(0, 3) == "ld " || text.substr(0, 3) == "ld\t";
      if (in.op != Opcode::Ld || !bare || in.args.size() != 2 ||
          text.find('[') != std::string::npos || locations.count(in.args[1].name))
        continue;
      in.op = Opcode::Mov;
      in.args[1].kind = Operand::Kind::Reg;
    }
}

// herd, like herd7, lets code use a location that the initial state leaves out: it starts at 0.
void HerdParser::declareImplicitLocations() {
  std::set<std::string> known;
  for (const Location& l : test_.locations) known.insert(l.name);
  for (const Thread& t : test_.threads)
    for (const Instr& in : t.code)
      for (const Operand& a : in.args)
        if (a.kind == Operand::Kind::Addr && known.insert(a.name).second) {
          Location l;
          l.name = a.name;
          l.loc = a.loc;
          test_.locations.push_back(l);
        }
}

// herd numbers CTAs within their GPU (and cluster); Thread::cta is one number across the whole
// test. Keep each number as written unless another GPU or cluster already uses it.
void HerdParser::renumberPlacement() {
  int fresh = 0;
  for (const Thread& t : test_.threads) fresh = std::max({fresh, t.cta + 1, t.cluster + 1});
  for (size_t i = 0; i < test_.threads.size(); ++i)
    if (!ctaGiven_[i]) test_.threads[i].cta = test_.threads[i].cluster = fresh++;
  std::map<std::tuple<int, int, int>, int> ctas;
  std::map<std::pair<int, int>, int> clusters;
  std::set<int> ctaUsed, clusterUsed;
  for (Thread& t : test_.threads) {
    const bool own = t.cluster == t.cta;  // herd's default: the CTA's own cluster
    auto c = clusters.emplace(std::make_pair(t.gpu, t.cluster), 0);
    if (c.second) c.first->second = clusterUsed.insert(t.cluster).second ? t.cluster : fresh++;
    auto k = ctas.emplace(std::make_tuple(t.gpu, t.cluster, t.cta), 0);
    // a CTA in its own cluster keeps one number for both, as the writer leaves the cluster unsaid
    if (k.second && own && c.second && ctaUsed.insert(c.first->second).second) k.first->second = c.first->second;
    else if (k.second) k.first->second = ctaUsed.insert(t.cta).second ? t.cta : fresh++;
    t.cluster = c.first->second;
    t.cta = k.first->second;
  }
}

}  // namespace

Test parseHerd(const std::string& text, const std::string& file, const Deadline& deadline) {
  return HerdParser(text, file, deadline).parse();
}

}  // namespace litmus
