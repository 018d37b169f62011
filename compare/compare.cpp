#include "compare/compare.h"

#include <algorithm>
#include <iomanip>
#include <istream>
#include <ostream>
#include <set>
#include <sstream>

#include "litmus/test.h"
#include "schema/record.h"

namespace compare {

namespace {

using Json = nlohmann::ordered_json;

std::optional<bool> optionalBool(const nlohmann::ordered_json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_boolean()) return std::nullopt;
  return j[key].get<bool>();
}

std::string text(const nlohmann::ordered_json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// `litmus run --json`: the condition's hits, in a run that finished. Refused lines have no hits.
Entry fromRun(const nlohmann::ordered_json& j) {
  Entry e{text(j, "test"), text(j, "file"), text(j, "family"), optionalBool(j, "conditionAllowed"), std::nullopt};
  if (text(j, "status") == "ok" && j.contains("condition") && j["condition"].is_number_unsigned())
    e.seen = j["condition"].get<uint64_t>() > 0;
  return e;
}

// `litmus check --json`: the model only; it "sees" the condition when it allows it.
Entry fromCheck(const nlohmann::ordered_json& j) {
  Entry e{text(j, "test"), text(j, "file"), text(j, "family"), std::nullopt, std::nullopt};
  if (text(j, "status") == "done" && j.contains("positive") && j["positive"].is_number_unsigned())
    e.allowed = e.seen = j["positive"].get<uint64_t>() > 0;
  return e;
}

Row rowOf(const Entry& e) { return !e.allowed ? kModelUnknown : *e.allowed ? kAllowed : kForbidden; }
Col colOf(const Entry& e) { return !e.seen ? kNoResult : *e.seen ? kSeen : kNotSeen; }

void count(Group& g, const Entry* a, const Entry* b) {
  ++g.tests;
  if (a) ++g.a[rowOf(*a)][colOf(*a)];
  if (b) ++g.b[rowOf(*b)][colOf(*b)];
  if (!a || !b) return;
  if (!a->seen || !b->seen)
    ++g.notComparable;
  else if (*a->seen && !*b->seen)
    g.seenByAOnly.push_back(a->test);
  else if (!*a->seen && *b->seen)
    g.seenByBOnly.push_back(a->test);
  else
    ++(*a->seen ? g.both : g.neither);
}

void add(Group& total, const Group& g) {
  total.tests += g.tests;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) total.a[r][c] += g.a[r][c], total.b[r][c] += g.b[r][c];
  total.seenByAOnly.insert(total.seenByAOnly.end(), g.seenByAOnly.begin(), g.seenByAOnly.end());
  total.seenByBOnly.insert(total.seenByBOnly.end(), g.seenByBOnly.begin(), g.seenByBOnly.end());
  total.both += g.both;
  total.neither += g.neither;
  total.notComparable += g.notComparable;
}

const char* const kRows[] = {"allowed", "forbidden", "unknown"};

void printTable(std::ostream& os, const Group& g) {
  os << "               |   A: seen  not seen      none |   B: seen  not seen      none\n";
  for (int r = 0; r < 3; ++r) {
    os << "  " << std::left << std::setw(12) << kRows[r] << std::right << " |";
    for (const Table* t : {&g.a, &g.b}) {
      for (int c = 0; c < 3; ++c) os << std::setw(10) << (*t)[r][c];
      os << (t == &g.a ? " |" : "\n");
    }
  }
}

void printList(std::ostream& os, const char* what, const std::vector<std::string>& names) {
  os << "  " << what << ":";
  if (names.empty()) os << " none";
  for (const std::string& n : names) os << " " << n;
  os << "\n";
}

Json tableJson(const Table& t) {
  Json o;
  for (int r = 0; r < 3; ++r)
    o[kRows[r]] = {{"seen", t[r][kSeen]}, {"notSeen", t[r][kNotSeen]}, {"none", t[r][kNoResult]}};
  return o;
}

Json groupJson(const Group& g) {
  Json o;
  if (!g.family.empty()) o["family"] = g.family;
  o["tests"] = g.tests;
  o["a"] = tableJson(g.a);
  o["b"] = tableJson(g.b);
  o["seenByAOnly"] = g.seenByAOnly;
  o["seenByBOnly"] = g.seenByBOnly;
  o["seenByBoth"] = g.both;
  o["seenByNeither"] = g.neither;
  o["notComparable"] = g.notComparable;
  return o;
}

}  // namespace

std::string Side::kind() const { return runs && models ? "run+model" : models ? "model" : runs ? "run" : "empty"; }

Side readSide(std::istream& in, const std::string& name) {
  Side side;
  side.name = name;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(line, nullptr, false);
    std::optional<schema::Kind> kind;
    try {
      kind = schema::kindOf(j);
    } catch (const std::invalid_argument&) {
    }
    Entry e;
    if (kind && schema::isRun(*kind)) {
      e = fromRun(j);
      ++side.runs;
    } else if (kind == schema::Kind::Check) {
      e = fromCheck(j);
      ++side.models;
    } else {
      throw litmus::Error({name, lineNo, 1},
                          "not a result of `litmus run --json` or `litmus check --json` (a JSON object per line)");
    }
    if (side.tests.count(e.test)) side.duplicates.push_back(e.test);
    side.tests[e.test] = e;
  }
  return side;
}

Comparison compareSides(const Side& a, const Side& b) {
  std::map<std::string, Group> families;
  Comparison c;
  std::set<std::string> names;
  for (const auto& [n, e] : a.tests) names.insert(n);
  for (const auto& [n, e] : b.tests) names.insert(n);
  for (const std::string& n : names) {
    const auto ia = a.tests.find(n), ib = b.tests.find(n);
    const Entry* ea = ia == a.tests.end() ? nullptr : &ia->second;
    const Entry* eb = ib == b.tests.end() ? nullptr : &ib->second;
    if (!ea) c.onlyInB.push_back(n);
    if (!eb) c.onlyInA.push_back(n);
    std::string family = ea && !ea->family.empty() ? ea->family : eb && !eb->family.empty() ? eb->family : n;
    Group& g = families[family];
    g.family = family;
    count(g, ea, eb);
  }
  for (auto& [f, g] : families) {
    add(c.totals, g);
    c.families.push_back(std::move(g));
  }
  return c;
}

void printText(std::ostream& os, const Side& a, const Side& b, const Comparison& c) {
  os << "A: " << a.name << " (" << a.kind() << ", " << a.tests.size() << " tests)\n";
  os << "B: " << b.name << " (" << b.kind() << ", " << b.tests.size() << " tests)\n";
  os << "Rows: the condition allowed or forbidden by the model, as each side records it; columns: the\n"
        "condition seen (hits > 0; for the model, allowed), not seen, or no result.\n";
  for (const Side* s : {&a, &b})
    for (const std::string& d : s->duplicates)
      os << "Note: " << s->name << " gives test " << d << " more than once; its last line counts\n";
  for (const Group& g : c.families) {
    os << "\nFamily " << g.family << ": " << g.tests << (g.tests == 1 ? " test\n" : " tests\n");
    printTable(os, g);
    if (!g.seenByAOnly.empty()) printList(os, "seen by A only", g.seenByAOnly);
    if (!g.seenByBOnly.empty()) printList(os, "seen by B only", g.seenByBOnly);
  }
  os << "\nTotal: " << c.totals.tests << " tests\n";
  printTable(os, c.totals);
  printList(os, "seen by A only", c.totals.seenByAOnly);
  printList(os, "seen by B only", c.totals.seenByBOnly);
  if (!c.onlyInA.empty()) printList(os, "only in A", c.onlyInA);
  if (!c.onlyInB.empty()) printList(os, "only in B", c.onlyInB);
  os << "Summary: " << c.totals.both << " seen by both, " << c.totals.neither << " by neither, "
     << c.totals.seenByAOnly.size() << " by A only, " << c.totals.seenByBOnly.size() << " by B only, "
     << c.totals.notComparable << " without a result on a side, " << c.onlyInA.size() << " only in A, "
     << c.onlyInB.size() << " only in B\n";
}

Json toJson(const Side& a, const Side& b, const Comparison& c) {
  Json o;
  o["a"] = {{"file", a.name}, {"kind", a.kind()}, {"tests", a.tests.size()}};
  o["b"] = {{"file", b.name}, {"kind", b.kind()}, {"tests", b.tests.size()}};
  Json families = Json::array();
  for (const Group& g : c.families) families.push_back(groupJson(g));
  o["families"] = families;
  o["totals"] = groupJson(c.totals);
  o["onlyInA"] = c.onlyInA;
  o["onlyInB"] = c.onlyInB;
  return o;
}

}  // namespace compare
