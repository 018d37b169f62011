// The YAML test format (docs/format.md): reading with yaml-cpp, keeping every node's position so
// that errors and instructions point into the user's file (toYaml, the writer, is yaml_writer.cpp).
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <istream>
#include <streambuf>
#include <vector>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

namespace litmus {
namespace {

using lex::trim;

// `~` joins a mutant's name to its original's (`MP+rel~sync-weaken-1`, docs/mutation.md).
bool validTestName(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
           c == '-' || c == '~';
  });
}

// Text of a scalar laid out so that counting lines and columns from `loc` lands on the real
// position in the file: block literals get their indentation back, quoted scalars start after
// the quote. Folded and multi-line flow scalars are joined by YAML, so only their first line is
// exact.
struct Placed {
  std::string text;
  SourceLoc loc;
};

// yaml-cpp reads its input through a stream, a buffer at a time, and takes about half a second a
// megabyte; a buffer that looks at the deadline before each refill lets the scan of a large file
// (one 50 MB line took 30 s) end with Deadline::Expired, which yaml-cpp lets pass. Not the first:
// yaml-cpp's stream constructor makes it and would leak 2 KiB on a throw (checked here instead).
class DeadlineBuffer : public std::streambuf {
 public:
  DeadlineBuffer(const std::string& text, const Deadline& d) : text_(text), deadline_(d) { d.check(); }

 protected:
  int_type underflow() override {
    if (next_ > 0) deadline_.check();
    if (next_ >= text_.size()) return traits_type::eof();
    const size_t n = std::min<size_t>(kChunk, text_.size() - next_);
    char* begin = const_cast<char*>(text_.data()) + next_;  // read only: no putback area is set
    setg(begin, begin, begin + n);
    next_ += n;
    return traits_type::to_int_type(*begin);
  }

 private:
  static constexpr size_t kChunk = 64 * 1024;
  const std::string& text_;
  const Deadline& deadline_;
  size_t next_ = 0;
};

// One test per file: a second document would be dropped without a word. YAML::LoadAll cannot say
// so safely: on some malformed inputs yaml-cpp 0.7's parser reports a document without moving on,
// and LoadAll loops, allocating a node each round (a 436-byte input found by fuzz_yaml took 21 GB
// before the kernel killed it). The documents are counted instead, at most kMaxDocuments of them,
// stopping where one starts where the one before did. Counted only when a line starts with a
// document marker, without which a stream holds one document.
class DocumentCounter : public YAML::EventHandler {
 public:
  static constexpr int kMaxDocuments = 64;
  std::vector<YAML::Mark> nonNull;  // where each document that holds something starts

  void OnDocumentStart(const YAML::Mark& mark) override {
    stuck_ = started_ && mark.pos == start_.pos;
    start_ = mark;
    started_ = true;
    depth_ = 0;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { node(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
    ++depth_;
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
    ++depth_;
  }
  void OnMapEnd() override { --depth_; }
  bool stuck() const { return stuck_; }

 private:
  void node(const YAML::Mark& mark) {
    if (depth_ == 0) nonNull.push_back(mark);
  }
  YAML::Mark start_;
  bool started_ = false, stuck_ = false;
  int depth_ = 0;
};

class YamlParser {
 public:
  YamlParser(const std::string& text, const std::string& file, const Deadline& deadline)
      : source_(text), deadline_(deadline) {
    test_.file = file;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '\n') {
        lines_.push_back(std::string_view(source_).substr(start, i - start));
        start = i + 1;
      }
  }
  Test parse();

 private:
  SourceLoc at(const YAML::Node& n) const {
    return {test_.file, n.Mark().line + 1, n.Mark().column + 1};
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& msg) const {
    throw Error(at(n), msg);
  }
  void checkOneDocument() const;
  std::string scalar(const YAML::Node& n, const std::string& what) const;
  int64_t integer(const YAML::Node& n, const std::string& what) const;
  int placement(const YAML::Node& n, const std::string& what) const;
  Placed placed(const YAML::Node& n) const;

  void parseLocations(const YAML::Node& map);
  void parseLocation(const YAML::Node& key, const YAML::Node& value);
  void parseInit(const YAML::Node& v, Location& l) const;
  void parseTensorKey(const std::string& k, const YAML::Node& v, Location& l) const;
  void parseThreads(const YAML::Node& map);
  void parseThread(const YAML::Node& key, const YAML::Node& value, std::vector<bool>& ctaGiven,
                   std::vector<bool>& clusterGiven);
  void parseCode(const YAML::Node& code, Thread& t) const;
  void parseCodeLine(std::string_view line, SourceLoc loc, Thread& t) const;
  void parseObserve(const YAML::Node& list);
  void parseGrids(const YAML::Node& list);

  std::string source_;
  const Deadline& deadline_;
  std::vector<std::string_view> lines_;
  Test test_;
};

std::string YamlParser::scalar(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) fail(n, what + " must be a single value");
  return n.Scalar();
}

int64_t YamlParser::integer(const YAML::Node& n, const std::string& what) const {
  std::string s = scalar(n, what);
  std::optional<int64_t> v = lex::parseInteger(s);
  if (v) return *v;
  if (lex::isIntegerSyntax(s)) fail(n, "value " + s + " out of range for 64 bits");
  fail(n, what + " must be an integer, not '" + s + "'");
}

int YamlParser::placement(const YAML::Node& n, const std::string& what) const {
  int64_t v = integer(n, what);
  if (v < 0 || v > 1000000) fail(n, what + " must be between 0 and 1000000");
  return static_cast<int>(v);
}

Placed YamlParser::placed(const YAML::Node& n) const {
  SourceLoc loc = at(n);
  size_t line = n.Mark().line, col = n.Mark().column;
  char first = line < lines_.size() && col < lines_[line].size() ? lines_[line][col] : ' ';
  if (first == '"' || first == '\'') ++loc.col;
  if (first != '|') return {n.Scalar(), loc};
  // A literal block starts on the next line; its indentation is that of its first non-blank line.
  size_t indent = 0;
  for (size_t l = line + 1; l < lines_.size(); ++l) {
    size_t first = lines_[l].find_first_not_of(' ');
    if (first != std::string_view::npos && lines_[l][first] != '\r') {
      indent = first;
      break;
    }
  }
  std::string text, pad(indent, ' ');
  std::istringstream in(n.Scalar());
  for (std::string l; std::getline(in, l);) text += pad + l + "\n";
  return {text, {test_.file, static_cast<int>(line) + 2, 1}};
}

void YamlParser::checkOneDocument() const {
  const bool marker = std::any_of(lines_.begin(), lines_.end(), [](std::string_view l) {
    return l.substr(0, 3) == "---" || l.substr(0, 3) == "...";
  });
  if (!marker) return;
  DeadlineBuffer buffer(source_, deadline_);
  std::istream in(&buffer);
  YAML::Parser parser(in);
  DocumentCounter counter;
  for (int k = 0; k < DocumentCounter::kMaxDocuments && parser.HandleNextDocument(counter) && !counter.stuck(); ++k) {
  }
  const auto& docs = counter.nonNull;
  if (docs.size() > 1)
    throw Error({test_.file, docs[1].line + 1, 1}, "the file holds " + std::to_string(docs.size()) +
                " YAML documents ('---'); a test file holds one test: put each in its own file");
}

// `L: st.u32 [x], 1;` or `L:` read as a YAML key: a PTX label outdented, which ends `code: |`.
static std::string labelHint(const std::string& key, const YAML::Node& v) {
  if (!lex::isIdentifier(key) || !(v.IsNull() || (v.IsScalar() && v.Scalar().find(';') != std::string::npos))) return "";
  return "; if '" + key + ":' is a PTX label, indent it like the instructions of 'code: |' (a line "
         "indented less than the block ends it)";
}

Test YamlParser::parse() {
  YAML::Node root;
  try {
    DeadlineBuffer buffer(source_, deadline_);
    std::istream in(&buffer);
    root = YAML::Load(in);
    checkOneDocument();
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp 0.7 gives this one the message "bad file"
    throw Error({test_.file, e.mark.line + 1, e.mark.column + 1},
                "invalid YAML: nested too deeply");
  } catch (const YAML::Exception& e) {
    throw Error({test_.file, e.mark.line + 1, e.mark.column + 1}, "invalid YAML: " + e.msg);
  }
  if (!root.IsMap())
    throw Error({test_.file, 1, 1}, "expected a YAML mapping with name, threads and condition");
  static const std::set<std::string> kKeys = {"name",   "description", "locations", "threads",
                                              "condition", "observe",  "expect",   "reason",
                                              "barriers",  "liveness", "grids",    "family",
                                              "races",     "readings"};
  std::set<std::string> seen;
  for (auto it = root.begin(); it != root.end(); ++it) {
    std::string key = scalar(it->first, "a key");
    if (!kKeys.count(key)) fail(it->first, "unknown key '" + key + "'" + labelHint(key, it->second));
    if (!seen.insert(key).second) fail(it->first, "duplicate key '" + key + "'");
  }
  for (const char* required : {"name", "threads", "condition"})
    if (!seen.count(required))
      throw Error({test_.file, 1, 1}, std::string("missing '") + required + "'");
  test_.name = scalar(root["name"], "name");
  if (!validTestName(test_.name))
    fail(root["name"],
         "invalid test name '" + test_.name + "' (use letters, digits, '_', '.', '+' and '-')");
  if (root["description"]) test_.description = scalar(root["description"], "description");
  if (root["family"]) {
    test_.family = scalar(root["family"], "family");
    if (!validTestName(test_.family))
      fail(root["family"], "invalid family name '" + test_.family +
                               "' (use letters, digits, '_', '.', '+' and '-')");
  }
  if (root["barriers"]) {
    const std::string b = scalar(root["barriers"], "barriers");
    if (b != "ptx" && b != "dat3m")
      fail(root["barriers"], "invalid barriers value '" + b + "' (expected ptx or dat3m)");
    test_.dat3mBarriers = b == "dat3m";
  }
  if (root["locations"]) parseLocations(root["locations"]);
  parseThreads(root["threads"]);
  if (root["grids"]) parseGrids(root["grids"]);
  const YAML::Node cond = root["condition"];
  if (!cond.IsScalar()) fail(cond, "condition must be a single value");
  Placed c = placed(cond);
  parseFinalCondition(c.text, c.loc, test_);
  if (root["observe"]) parseObserve(root["observe"]);
  if (root["expect"]) {
    std::string e = scalar(root["expect"], "expect");
    std::optional<Expect> v = parseExpect(e);
    if (!v)
      fail(root["expect"], "invalid expect value '" + e +
                               "' (expected reachable, unreachable, always or not-always)");
    test_.expect = *v;
  }
  if (root["reason"]) test_.reason = scalar(root["reason"], "reason");
  if (root["liveness"]) {
    test_.liveness = scalar(root["liveness"], "liveness");
    if (test_.liveness != "terminates" && test_.liveness != "may-hang")
      fail(root["liveness"], "invalid liveness value '" + test_.liveness +
                                 "' (expected terminates or may-hang)");
  }
  if (root["races"]) {
    const std::string r = scalar(root["races"], "races");
    if (r != "none") fail(root["races"], "invalid races value '" + r + "' (expected none)");
    test_.raceFree = true;
  }
  // readings: {D36: release-orders}; the model checks the names (model/readings.h)
  if (const YAML::Node r = root["readings"]; r && !r.IsMap()) fail(r, "readings must be a mapping from decisions to readings (e.g. {D36: release-orders})");
  else if (r) for (auto it = r.begin(); it != r.end(); ++it)
    test_.readings.push_back({scalar(it->first, "a decision"), scalar(it->second, "a reading"), placed(it->second).loc});
  validate(test_, deadline_);
  return std::move(test_);
}

void YamlParser::parseLocations(const YAML::Node& map) {
  if (map.IsNull()) return;
  if (!map.IsMap()) fail(map, "locations must be a mapping from names to initial values");
  for (auto it = map.begin(); it != map.end(); ++it) {
    deadline_.check();
    parseLocation(it->first, it->second);
  }
  finishTensorMaps(test_);  // litmus/ptx_instr_tensor.cpp
}

void YamlParser::parseLocation(const YAML::Node& key, const YAML::Node& value) {
  Location l;
  l.name = scalar(key, "a location name");
  l.loc = at(key);
  if (!lex::isIdentifier(l.name)) fail(key, "invalid location name '" + l.name + "'");
  if (!value.IsMap()) {
    l.init = integer(value, "the initial value of '" + l.name + "'");
    test_.locations.push_back(l);
    return;
  }
  std::set<std::string> seen;
  for (auto it = value.begin(); it != value.end(); ++it) {
    std::string k = scalar(it->first, "a key");
    const YAML::Node v = it->second;
    if (!seen.insert(k).second) fail(it->first, "duplicate key '" + k + "'");
    if (k == "init") {
      parseInit(v, l);
    } else if (k == "space") {
      std::string s = scalar(v, "space");
      if (s == "global")
        l.space = Space::Global;
      else if (s == "shared")
        l.space = Space::Shared;
      else if (s == "shared::cta")
        l.space = Space::SharedCta;
      else
        fail(v, "unknown space '" + s + "' (expected global, shared or shared::cta)");
    } else if (k == "alias-of") {
      l.aliasOf = scalar(v, "alias-of");
    } else if (k == "proxy") {
      std::string p = scalar(v, "proxy");
      if (p == "generic")
        l.aliasProxy = Proxy::Generic;
      else if (p == "texture")
        l.aliasProxy = Proxy::Texture;
      else if (p == "surface")
        l.aliasProxy = Proxy::Surface;
      else if (p == "constant")
        l.aliasProxy = Proxy::Constant;
      else if (p == "tensormap")
        l.aliasProxy = Proxy::Tensormap;
      else
        fail(v, "unknown proxy '" + p + "' (expected generic, texture, surface, constant or "
                "tensormap)");
    } else if (k == "cta") {
      l.ownerCta = placement(v, "cta");
    } else if (k == "tensormap" || k == "dims" || k == "box" || k == "copy-of") {
      parseTensorKey(k, v, l);  // litmus/ptx_instr_tensor.cpp
    } else {
      fail(it->first, "unknown key '" + k + "' in location '" + l.name + "'");
    }
  }
  // an alias shares the memory of its target, so it has no value or space of its own
  if (!l.aliasOf.empty() && (seen.count("init") || seen.count("space")))
    fail(key, "alias '" + l.name + "' takes its init and space from '" + l.aliasOf + "'");
  if (l.aliasOf.empty() && seen.count("proxy"))
    fail(key, "'proxy' is only for aliases; add 'alias-of' to '" + l.name + "'");
  if (seen.count("cta") && (l.space == Space::Global || !l.aliasOf.empty()))
    fail(key, "'cta' places a shared location; add 'space: shared' to '" + l.name + "'");
  test_.locations.push_back(l);
}

// Tensor maps and multicast copies (docs/format.md 2.1): `tensormap: A`, `dims: [8, 2]`,
// `box: [4, 1]` (innermost first), `copy-of: d`. finishTensorMaps checks them as a whole.
void YamlParser::parseTensorKey(const std::string& k, const YAML::Node& v, Location& l) const {
  if (k == "tensormap") l.tensorOf = scalar(v, "tensormap");
  if (k == "copy-of") l.copyOf = scalar(v, "copy-of");
  if (k != "dims" && k != "box") return;
  if (!v.IsSequence() || v.size() < 1 || v.size() > 5)
    fail(v, "'" + k + "' must be a list of 1 to 5 sizes, innermost first");
  std::vector<int64_t>& out = k == "dims" ? l.tensorDims : l.tensorBox;
  for (const YAML::Node& item : v) {
    out.push_back(integer(item, "a size"));
    if (out.back() < 1 || out.back() > 256) fail(item, "a size of '" + k + "' must be 1 to 256");
  }
}

// `init: 5` (every element), `init: [1, 2, 3]` (32-bit words: offset 4*i) or
// `init: {0: 1, 8: 2}` (by byte offset); elements a list or map leaves out start at 0.
void YamlParser::parseInit(const YAML::Node& v, Location& l) const {
  if (v.IsScalar()) {
    l.init = integer(v, "init");
    return;
  }
  std::map<int64_t, int64_t> at;
  if (v.IsSequence()) {
    if (v.size() == 0) fail(v, "init list of '" + l.name + "' is empty");
    int64_t offset = 0;
    for (const YAML::Node& item : v) {
      at[offset] = integer(item, "an element of init");
      offset += 4;
    }
  } else if (v.IsMap()) {
    if (v.size() == 0) fail(v, "init map of '" + l.name + "' is empty");
    for (auto it = v.begin(); it != v.end(); ++it) {
      int64_t offset = integer(it->first, "a byte offset");
      if (offset < 0 && it->first.Scalar()[0] != '-')  // 2^63 and above read as the bits of a .u64
        fail(it->first, "offset " + it->first.Scalar() + " is out of range: an address names bytes 0 to "
                        "9223372036854775807");
      if (offset < 0) fail(it->first, "a byte offset must be non-negative");
      if (!at.emplace(offset, integer(it->second, "the initial value at offset " +
                                                      std::to_string(offset)))
               .second)
        fail(it->first, "offset " + std::to_string(offset) + " given twice");
    }
  } else {
    fail(v, "init must be an integer, a list of 32-bit words or a map from byte offsets to values");
  }
  l.init = at.count(0) ? at.at(0) : 0;
  l.initAt = std::move(at);
}

void YamlParser::parseThreads(const YAML::Node& map) {
  if (map.IsNull() || (map.IsMap() && map.size() == 0)) fail(map, "test has no threads");
  if (!map.IsMap()) fail(map, "threads must be a mapping from thread names to threads");
  std::vector<bool> ctaGiven, clusterGiven, idle;
  for (auto it = map.begin(); it != map.end(); ++it) {
    deadline_.check();
    const YAML::Node thread = it->second;
    const YAML::Node code = thread.IsMap() ? thread["code"] : YAML::Node();
    idle.push_back(code && code.IsScalar() && code.Scalar().empty());
    parseThread(it->first, it->second, ctaGiven, clusterGiven);
  }
  // Threads without a CTA each get one of their own, numbered after every CTA written.
  int fresh = 0;
  for (const Thread& t : test_.threads) fresh = std::max(fresh, t.cta + 1);
  for (size_t i = 0; i < test_.threads.size(); ++i) {
    Thread& t = test_.threads[i];
    // herd tests leave columns empty, so an idle thread is written `code: ""`; a thread whose
    // code is missing or holds no instruction is taken for a mistake
    if (!idle[i] && std::all_of(t.code.begin(), t.code.end(),
                                [](const Instr& in) { return in.op == Opcode::Label; }))
      throw Error(t.loc, "thread " + t.name + " has no instructions");
    if (!ctaGiven[i]) t.cta = fresh++;
    if (!clusterGiven[i]) t.cluster = t.cta;
  }
}

void YamlParser::parseThread(const YAML::Node& key, const YAML::Node& value,
                             std::vector<bool>& ctaGiven, std::vector<bool>& clusterGiven) {
  Thread t;
  t.name = scalar(key, "a thread name");
  t.loc = at(key);
  if (!lex::isIdentifier(t.name)) fail(key, "invalid thread name '" + t.name + "'");
  if (!value.IsMap() && !value.IsNull())
    fail(value, "thread " + t.name + " must be a mapping with 'code' (and cta, cluster, gpu, init)" + labelHint(t.name, value));
  std::set<std::string> seen;
  for (auto it = value.begin(); value.IsMap() && it != value.end(); ++it) {
    std::string k = scalar(it->first, "a key");
    const YAML::Node v = it->second;
    if (!seen.insert(k).second) fail(it->first, "duplicate key '" + k + "'");
    if (k == "cta") {
      t.cta = placement(v, "cta");
    } else if (k == "cluster") {
      t.cluster = placement(v, "cluster");
    } else if (k == "gpu") {
      t.gpu = placement(v, "gpu");
    } else if (k == "warp") {
      t.warp = placement(v, "warp");
    } else if (k == "grid") {
      t.grid = placement(v, "grid");
    } else if (k == "init") {
      if (!v.IsMap()) fail(v, "init must be a mapping from registers to values");
      for (auto r = v.begin(); r != v.end(); ++r) {
        std::string reg = scalar(r->first, "a register name");
        if (!reg.empty() && reg[0] == '%') reg.erase(0, 1);
        if (!lex::isIdentifier(reg)) fail(r->first, "invalid register name '" + reg + "'");
        t.initRegs[reg] = integer(r->second, "the initial value of '" + reg + "'");
      }
    } else if (k == "code") {
      parseCode(v, t);
    } else {
      fail(it->first, "unknown key '" + k + "' in thread " + t.name + labelHint(k, it->second));
    }
  }
  ctaGiven.push_back(seen.count("cta") > 0);
  clusterGiven.push_back(seen.count("cluster") > 0);
  test_.threads.push_back(std::move(t));
}

void YamlParser::parseCode(const YAML::Node& code, Thread& t) const {
  if (code.IsNull()) return;
  if (!code.IsScalar()) fail(code, "code must be text (use 'code: |' and one instruction a line)");
  Placed p = placed(code);
  size_t start = 0;
  SourceLoc loc = p.loc;
  for (size_t i = 0; i <= p.text.size(); ++i) {
    if (i < p.text.size() && p.text[i] != '\n') continue;
    deadline_.check();
    parseCodeLine(std::string_view(p.text).substr(start, i - start), loc, t);
    ++loc.line;
    loc.col = 1;
    start = i + 1;
  }
}

// One line of code: comments (// or #), labels `L:` and ';'-separated instructions. A comment
// `//@ FILE:LINE` names the kernel line the instructions come from (litmus extract).
void YamlParser::parseCodeLine(std::string_view line, SourceLoc loc, Thread& t) const {
  const size_t first = t.code.size();
  SourceLoc origin;
  if (const size_t at = line.find("//@"); at != std::string_view::npos && at < line.find('#')) {
    const std::string_view where = trim(line.substr(at + 3));
    const size_t colon = where.rfind(':');
    const std::optional<int64_t> n =
        colon == std::string_view::npos ? std::nullopt : lex::parseInteger(where.substr(colon + 1));
    if (!n || *n <= 0 || colon == 0)
      throw Error({loc.file, loc.line, loc.col + static_cast<int>(at)}, "expected '//@ FILE:LINE' naming where the line comes from");
    origin = {std::string(where.substr(0, colon)), static_cast<int>(*n), 0};
  }
  line = line.substr(0, std::min(line.find("//"), line.find('#')));
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i < line.size() && line[i] != ';') continue;
    deadline_.check();
    std::string_view stmt = line.substr(start, i - start);
    size_t pos = start;
    start = i + 1;
    for (;;) {  // leading labels; `::` belongs to qualifiers such as .shared::cta
      size_t b = stmt.find_first_not_of(" \t\r");
      if (b == std::string_view::npos) break;
      size_t colon = stmt.find(':', b);
      bool label = colon != std::string_view::npos && stmt.substr(colon, 2) != "::" &&
                   lex::isIdentifier(trim(stmt.substr(b, colon - b)));
      SourceLoc here{loc.file, loc.line, loc.col + static_cast<int>(pos + b)};
      if (!label) {
        t.code.push_back(parseInstruction(stmt.substr(b), here, Dialect::Ptx));
        break;
      }
      t.code.push_back(parseInstruction(stmt.substr(b, colon + 1 - b), here, Dialect::Ptx));
      pos += colon + 1;
      stmt = stmt.substr(colon + 1);
    }
  }
  if (origin.line)
    for (size_t i = first; i < t.code.size(); ++i)
      if (t.code[i].op != Opcode::Label) t.code[i].origin = origin;
}

void YamlParser::parseObserve(const YAML::Node& list) {
  if (!list.IsSequence()) fail(list, "observe must be a list such as [P0:r0, x]");
  for (const YAML::Node& item : list) {
    Placed p = placed(item);
    if (!item.IsScalar()) fail(item, "observe entries are registers (P0:r0) or locations");
    Term t = parseTerm(p.text, p.loc, test_);
    if (t.kind == Term::Kind::Const)
      fail(item, "observe entries are registers (P0:r0) or locations");
    test_.observed.push_back(t);
  }
}

// `grids: [{grid: 1, after: 0, launch: programmatic}, ...]`: the launches after the first grid
// (docs/format.md); validation checks that they form one stream.
void YamlParser::parseGrids(const YAML::Node& list) {
  if (!list.IsSequence()) fail(list, "grids must be a list such as [{grid: 1, after: 0, launch: serialized}]");
  for (const YAML::Node& item : list) {
    if (!item.IsMap()) fail(item, "a grid launch is a mapping {grid: N, after: M, launch: serialized|programmatic}");
    GridLaunch g;
    g.loc = at(item);
    std::set<std::string> seen;
    for (auto it = item.begin(); it != item.end(); ++it) {
      const std::string k = scalar(it->first, "a key");
      if (!seen.insert(k).second) fail(it->first, "duplicate key '" + k + "'");
      if (k == "grid") {
        g.grid = placement(it->second, "grid");
      } else if (k == "after") {
        g.after = placement(it->second, "after");
      } else if (k == "launch") {
        const std::string l = scalar(it->second, "launch");
        if (l != "serialized" && l != "programmatic")
          fail(it->second, "invalid launch '" + l + "' (expected serialized or programmatic)");
        g.programmatic = l == "programmatic";
      } else {
        fail(it->first, "unknown key '" + k + "' in a grid launch (expected grid, after, launch)");
      }
    }
    for (const char* required : {"grid", "after"})
      if (!seen.count(required)) fail(item, std::string("grid launch without '") + required + "'");
    test_.grids.push_back(g);
  }
}

}  // namespace

Test parseYaml(const std::string& text, const std::string& file, const Deadline& deadline) {
  return YamlParser(text, file, deadline).parse();
}

}  // namespace litmus
