#include "litmus/outcome.h"

#include <algorithm>
#include <cstdio>
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
 if (o.loopBound >= 0)
    os << "Bounded: paths taking a backward branch more than " << o.loopBound
       << " times were not explored (--unroll)\n";
  for (const auto& r : o.races)
    os << "Race " << r.first << " <-> " << r.second << " (" << r.why << ")\n";
  if (!o.hang.empty()) os << "May hang: " << o.hang << "\n";
  os << "Time " << o.test << " " << seconds(o.seconds) << "\n\n";
}

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

void printJson(std::ostream& os, const Outcome& o) {
  auto q = [](const std::string& s) {
    std::string out(1, '"');
    out += jsonEscape(s);
    out += '"';
    return out;
  };
  os << "{\"test\":" << q(o.test) << ",\"engine\":" << q(o.engine)
     << ",\"status\":" << q(o.status == Status::Done ? "done" : "unknown");
  if (!o.statusDetail.empty()) os << ",\"detail\":" << q(o.statusDetail);
  os << ",\"quantifier\":" << q(toString(o.quantifier)) << ",\"condition\":" << q(o.condition);
  if (o.status == Status::Done) {
    os << ",\"validated\":" << (o.validated() ? "true" : "false")
       << ",\"observation\":" << q(toString(o.observation())) << ",\"positive\":" << o.positive
       << ",\"negative\":" << o.negative;
  }
  os << ",\"candidates\":" << o.candidates << ",\"states\":[";
  for (size_t i = 0; i < o.states.size(); ++i) {
    os << (i ? "," : "") << "{";
    for (size_t j = 0; j < o.observed.size(); ++j)
      os << (j ? "," : "") << q(formatTerm(o.observed[j])) << ":" << o.states[i].values[j];
    os << "}";
  }
  os << "],\"races\":[";
  for (size_t i = 0; i < o.races.size(); ++i)
    os << (i ? "," : "") << "{\"first\":" << q(o.races[i].first) << ",\"second\":"
       << q(o.races[i].second) << ",\"why\":" << q(o.races[i].why) << "}";
  os << "]";
  if (o.status == Status::Done) {
    os << ",\"liveness\":" << q(o.hang.empty() ? "terminates" : "may-hang");
    if (!o.hang.empty()) os << ",\"hang\":" << q(o.hang);
  }
  if (o.loopBound >= 0) os << ",\"unroll_bound_hit\":" << o.loopBound;
  os << ",\"seconds\":" << seconds(o.seconds) << "}";
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
    case Cond::Kind::Cmp: {
      const int64_t a = termValue(c.lhs, observed, s), b = termValue(c.rhs, observed, s);
      switch (c.cmp) {
        case CmpOp::Eq: return a == b;
        case CmpOp::Ne: return a != b;
        case CmpOp::Lt: return a < b;
        case CmpOp::Le: return a <= b;
        case CmpOp::Gt: return a > b;
        case CmpOp::Ge: return a >= b;
        case CmpOp::None: return false;
      }
    }
  }
  return false;
}

}  // namespace litmus
