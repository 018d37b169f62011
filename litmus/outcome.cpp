#include "litmus/outcome.h"

#include "litmus/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include "litmus/parse.h"
#include <ostream>
#include <sstream>

namespace litmus {

bool Outcome::validated() const {
  switch (quantifier) {
    case Quantifier::Exists: return positive > 0;
    case Quantifier::NotExists: return positive == 0;
    case Quantifier::Forall: return negative == 0;
  }
  return false;
}

Observation Outcome::observation() const {
  if (positive == 0) return Observation::Never;
  return negative == 0 ? Observation::Always : Observation::Sometimes;
}

bool Outcome::meets(Expect e) const {
  if (status != Status::Done) return e == Expect::None;
  const Observation o = observation();
  switch (e) {
    case Expect::None: return true;
    case Expect::Reachable: return o != Observation::Never;
    case Expect::Unreachable: return o == Observation::Never;
    case Expect::Always: return o == Observation::Always;
    case Expect::NotAlways: return o != Observation::Always;
  }
  return false;
}

const char* toString(Observation o) {
  switch (o) {
    case Observation::Never: return "Never";
    case Observation::Sometimes: return "Sometimes";
    case Observation::Always: return "Always";
  }
  return "?";
}

const char* toString(UnknownReason r) {
  switch (r) {
    case UnknownReason::None: return "none";
    case UnknownReason::Timeout: return "timeout";
    case UnknownReason::Memory: return "memory";
    case UnknownReason::TooLarge: return "too-large";
    case UnknownReason::SolverUnknown: return "solver-unknown";
    case UnknownReason::NotRun: return "not-run";
  }
  return "?";
}

std::string formatState(const std::vector<Term>& observed, const State& s) {
  std::string out;
  for (size_t i = 0; i < observed.size() && i < s.values.size(); ++i) {
    if (i) out += ' ';
    out += formatTerm(observed[i]);
    out += '=';
    out += std::to_string(s.values[i]);
    out += ';';
  }
  return out;
}

namespace {

const char* kindWord(Quantifier q) {
  switch (q) {
    case Quantifier::Exists: return "Allowed";
    case Quantifier::NotExists: return "Forbidden";
    case Quantifier::Forall: return "Required";
  }
  return "?";
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

}  // namespace

void printHerd(std::ostream& os, const Outcome& o) {
  os << "Test " << o.test << " " << kindWord(o.quantifier) << "\n";
  if (o.status != Status::Done) {
    os << "Unknown " << o.statusDetail << "\n";
    os << "Condition " << toString(o.quantifier) << " " << o.condition << "\n";
    os << "Observation " << o.test << " Unknown\n";
    os << "Time " << o.test << " " << seconds(o.seconds) << "\n\n";
    return;
  }
  os << "States " << o.states.size() << "\n";
  for (const auto& s : o.states) os << formatState(o.observed, s) << "\n";
  os << (o.validated() ? "Ok" : "No") << "\n";
  os << "Witnesses\n";
  os << "Positive: " << o.positive << " Negative: " << o.negative << "\n";
  os << "Condition " << toString(o.quantifier) << " " << o.condition << "\n";
  os << "Observation " << o.test << " " << toString(o.observation()) << " " << o.positive << " "
     << o.negative << "\n";
  for (const auto& r : o.reliesOn) os << "Relies on " << r.decision << ": " << r.text << "\n";
  if (o.loopBound >= 0)
    os << "Bounded: paths taking a backward branch more than " << o.loopBound
       << " times were not explored (--unroll)\n";
  if (o.statesCut > 0)
    os << "Cut: the listing stopped at " << o.statesCut
       << " states (--max-states); the observation and liveness are exact, the counts and races"
          " cover only the executions examined\n";
  for (const auto& r : o.races)
    os << "Race " << r.first << " <-> " << r.second << " (" << r.why << ")\n";
  if (!o.hang.empty()) os << "May hang: " << o.hang << "\n";
  if (o.vacuous()) {
    std::string why = o.hang.empty() ? "" : "the test may hang";
    if (o.loopBound >= 0) why += std::string(why.empty() ? "" : "; ") + "longer paths were not explored";
    os << "Vacuous: no allowed execution runs to its end" << (why.empty() ? "" : " (" + why + ")")
       << ", so States and the Observation count none\n";
  }
  os << "Time " << o.test << " " << seconds(o.seconds) << "\n\n";
}

nlohmann::ordered_json toJson(const Outcome& o) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["test"] = o.test;
  j["engine"] = o.engine;
  j["status"] = o.status == Status::Done ? "done" : "unknown";
  if (!o.statusDetail.empty()) j["detail"] = o.statusDetail;
  if (o.status == Status::Unknown && o.unknownReason != UnknownReason::None)
    j["unknownReason"] = toString(o.unknownReason);
  j["quantifier"] = toString(o.quantifier);
  j["condition"] = o.condition;
  if (o.status == Status::Done) {
    j["validated"] = o.validated();
    j["observation"] = toString(o.observation());
    j["positive"] = o.positive;
    j["negative"] = o.negative;
  }
  j["candidates"] = o.candidates;
  ordered_json states = ordered_json::array();
  for (const State& st : o.states) {
    ordered_json values = ordered_json::object();
    for (size_t k = 0; k < o.observed.size() && k < st.values.size(); ++k)
      values[formatTerm(o.observed[k])] = st.values[k];
    states.push_back(std::move(values));
  }
  j["states"] = std::move(states);
  ordered_json races = ordered_json::array();
  for (const Race& r : o.races) races.push_back({{"first", r.first}, {"second", r.second}, {"why", r.why}});
  j["races"] = std::move(races);
  if (o.status == Status::Done) {
    j["liveness"] = o.liveness();
    if (!o.hang.empty()) j["hang"] = o.hang;
    j["vacuous"] = o.vacuous();
  }
  if (o.loopBound >= 0) j["unrollBoundHit"] = o.loopBound;
  if (o.statesCut > 0) j["statesCut"] = o.statesCut;
  if (!o.reliesOn.empty()) {
    ordered_json relies = ordered_json::array();
    for (const Reliance& r : o.reliesOn) {
      ordered_json one = {{"decision", r.decision}, {"text", r.text}};
      if (!r.reading.empty()) {
        one["reading"] = r.reading;
        one["alternative"] = r.alternative;
        one["alternativeObservation"] = r.alternativeObservation;
      }
      relies.push_back(std::move(one));
    }
    j["reliesOn"] = std::move(relies);
  }
  // milliseconds, as the herd block prints them
  j["seconds"] = std::round(o.seconds * 1000) / 1000;
  return j;
}

void printJson(std::ostream& os, const Outcome& o) { os << toJson(o).dump(); }

bool compareValues(CmpOp op, int64_t a, int64_t b) {
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
    case CmpOp::None: return false;
  }
  return false;
}

namespace {

int64_t termValue(const Term& t, const std::vector<Term>& observed, const State& s) {
  if (t.kind == Term::Kind::Const) return t.value;
  for (size_t i = 0; i < observed.size(); ++i) {
    const Term& o = observed[i];
    if (o.kind == t.kind && o.name == t.name && o.thread == t.thread) return s.values[i];
  }
  return 0;
}

}  // namespace

bool evalCondition(const Cond& c, const std::vector<Term>& observed, const State& s) {
  switch (c.kind) {
    case Cond::Kind::True: return true;
    case Cond::Kind::False: return false;
    case Cond::Kind::And:
      return std::all_of(c.kids.begin(), c.kids.end(),
                         [&](const Cond& k) { return evalCondition(k, observed, s); });
    case Cond::Kind::Or:
      return std::any_of(c.kids.begin(), c.kids.end(),
                         [&](const Cond& k) { return evalCondition(k, observed, s); });
    case Cond::Kind::Not: return !evalCondition(c.kids.at(0), observed, s);
    case Cond::Kind::Cmp:
      return compareValues(c.cmp, termValue(c.lhs, observed, s), termValue(c.rhs, observed, s));
  }
  return false;
}

namespace {

std::optional<int64_t> partialTerm(const Term& t, const std::vector<Term>& observed,
                                   const std::vector<std::optional<int64_t>>& values) {
  if (t.kind == Term::Kind::Const) return t.value;
  for (size_t i = 0; i < observed.size(); ++i) {
    const Term& o = observed[i];
    if (o.kind == t.kind && o.name == t.name && o.thread == t.thread) return values[i];
  }
  return 0;
}

}  // namespace

std::optional<bool> evalConditionPartial(const Cond& c, const std::vector<Term>& observed,
                                         const std::vector<std::optional<int64_t>>& values) {
  switch (c.kind) {
    case Cond::Kind::True: return true;
    case Cond::Kind::False: return false;
    case Cond::Kind::And:
    case Cond::Kind::Or: {
      const bool isAnd = c.kind == Cond::Kind::And;
      bool unknown = false;
      for (const Cond& k : c.kids) {
        const auto v = evalConditionPartial(k, observed, values);
        if (!v) unknown = true;
        else if (*v != isAnd) return !isAnd;  // a false conjunct, a true disjunct
      }
      if (unknown) return std::nullopt;
      return isAnd;
    }
    case Cond::Kind::Not: {
      const auto v = evalConditionPartial(c.kids.at(0), observed, values);
      if (!v) return std::nullopt;
      return !*v;
    }
    case Cond::Kind::Cmp: {
      const auto a = partialTerm(c.lhs, observed, values), b = partialTerm(c.rhs, observed, values);
      if (!a || !b) return std::nullopt;
      return compareValues(c.cmp, *a, *b);
    }
  }
  return false;
}

bool mayMatch(const StatePattern& p, const std::vector<std::optional<int64_t>>& values) {
  for (size_t i = 0; i < p.values.size() && i < values.size(); ++i)
    if (p.values[i] && values[i] && *p.values[i] != *values[i]) return false;
  return true;
}

namespace {

bool sameTerm(const Term& a, const Term& b) {
  return a.kind == b.kind && a.thread == b.thread && a.name == b.name && a.value == b.value;
}

// One `term=value` of a state pattern; `at` is its position in the text (0-based).
void parseAssignment(std::string_view item, size_t at, const Test& test, const SourceLoc& origin,
                     StatePattern& out) {
  SourceLoc loc = origin;
  loc.col = origin.col + static_cast<int>(at);
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos)
    throw Error(loc, "expected 'term=value' in the state, found '" + std::string(item) + "'");
  const Term term = parseTerm(item.substr(0, eq), loc, test);
  SourceLoc valueLoc = loc;
  valueLoc.col += static_cast<int>(eq + 1);
  const Term value = parseTerm(item.substr(eq + 1), valueLoc, test);
  if (term.kind == Term::Kind::Const) throw Error(loc, "expected a register or a location before '='");
  if (value.kind != Term::Kind::Const) throw Error(valueLoc, "expected a number after '='");
  for (size_t i = 0; i < test.observed.size(); ++i) {
    if (!sameTerm(test.observed[i], term)) continue;
    if (out.values[i]) throw Error(loc, formatTerm(term) + " is named twice");
    out.values[i] = value.value;
    return;
  }
  std::string names;
  for (const Term& t : test.observed) names += (names.empty() ? "" : ", ") + formatTerm(t);
  throw Error(loc, formatTerm(term) + " is not an observed term of the test (observed: " + names + ")");
}

}  // namespace

StatePattern parseStatePattern(std::string_view text, const Test& test, const SourceLoc& origin) {
  StatePattern out;
  out.values.resize(test.observed.size());
  bool any = false;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(';', start), text.size());
    const std::string_view item = text.substr(start, end - start);
    if (item.find_first_not_of(" \t") != std::string_view::npos) {
      parseAssignment(item, start, test, origin, out);
      any = true;
    }
    start = end + 1;
  }
  if (!any) throw Error(origin, "empty state: name at least one observed term, e.g. 'P1:r0=1'");
  return out;
}

bool matches(const StatePattern& p, const State& s) {
  for (size_t i = 0; i < p.values.size() && i < s.values.size(); ++i)
    if (p.values[i] && *p.values[i] != s.values[i]) return false;
  return true;
}

std::string formatPattern(const std::vector<Term>& observed, const StatePattern& p) {
  std::string out;
  for (size_t i = 0; i < observed.size() && i < p.values.size(); ++i) {
    if (!p.values[i]) continue;
    if (!out.empty()) out += ' ';
    out += formatTerm(observed[i]) + '=' + std::to_string(*p.values[i]) + ';';
  }
  return out;
}

}  // namespace litmus
