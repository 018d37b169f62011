#include "litmus/herd_output.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ostream>

#include "litmus/parse.h"

namespace litmus {

namespace {

int threadIndex(const Test& t, const std::string& name) {
  for (size_t i = 0; i < t.threads.size(); ++i)
    if (t.threads[i].name == name) return static_cast<int>(i);
  return -1;
}

// herd's constraint syntax has only equality; `!=` reads back as the negation of one. The
// orderings have no herd spelling and are printed as they are.
std::string atom(const Test& t, const Cond& c) {
  const std::string l = herdTerm(t, c.lhs), r = herdTerm(t, c.rhs);
  switch (c.cmp) {
    case CmpOp::Ne: return "~(" + l + "=" + r + ")";
    case CmpOp::Lt: return l + "<" + r;
    case CmpOp::Le: return l + "<=" + r;
    case CmpOp::Gt: return l + ">" + r;
    case CmpOp::Ge: return l + ">=" + r;
    default: return l + "=" + r;
  }
}

std::string body(const Test& t, const Cond& c) {
  auto nested = [&](const Cond& k) {
    const bool compound = k.kind == Cond::Kind::And || k.kind == Cond::Kind::Or;
    return compound ? "(" + body(t, k) + ")" : body(t, k);
  };
  switch (c.kind) {
    case Cond::Kind::True: return "true";
    case Cond::Kind::False: return "false";
    case Cond::Kind::Cmp: return atom(t, c);
    case Cond::Kind::Not: return c.kids.empty() ? "~true" : "~(" + body(t, c.kids[0]) + ")";
    case Cond::Kind::And:
    case Cond::Kind::Or: {
      std::string out;
      for (size_t i = 0; i < c.kids.size(); ++i) {
        if (i) out += c.kind == Cond::Kind::And ? " /\\ " : " \\/ ";
        out += nested(c.kids[i]);
      }
      return out;
    }
  }
  return "?";
}

const char* kind(Quantifier q) {
  switch (q) {
    case Quantifier::Exists: return "Allowed";
    case Quantifier::NotExists: return "Forbidden";
    case Quantifier::Forall: return "Required";
  }
  return "?";
}

const char* quantifier(Quantifier q) {
  switch (q) {
    case Quantifier::Exists: return "exists";
    case Quantifier::NotExists: return "~exists";
    case Quantifier::Forall: return "forall";
  }
  return "?";
}

}  // namespace

std::string herdTerm(const Test& t, const Term& term) {
  if (term.kind != Term::Kind::Reg) return formatTerm(term);
  const int i = threadIndex(t, term.thread);
  return (i < 0 ? term.thread : std::to_string(i)) + ":" + term.name;
}

std::string herdCondition(const Test& t) {
  return std::string(quantifier(t.quantifier)) + " (" + body(t, t.condition) + ")";
}

std::string testHash(const Test& t) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : toYaml(t)) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

void printHerdCompat(std::ostream& os, const Test& t, const Outcome& o) {
  if (o.status != Status::Done) return;
  os << "Test " << o.test << " " << kind(o.quantifier) << "\n";
  os << "States " << o.states.size() << "\n";
  // herd orders a state's bindings registers first (by thread), then locations.
  std::vector<size_t> order(o.observed.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto rank = [&](size_t i) {
    const Term& term = o.observed[i];
    return term.kind == Term::Kind::Reg ? threadIndex(t, term.thread) : static_cast<int>(t.threads.size());
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
  // ... and lists the states in the order of their bindings.
  std::vector<std::vector<int64_t>> rows;
  for (const State& s : o.states) {
    std::vector<int64_t>& row = rows.emplace_back();
    for (size_t i : order) row.push_back(i < s.values.size() ? s.values[i] : 0);
  }
  std::sort(rows.begin(), rows.end());
  for (const auto& row : rows) {
    for (size_t k = 0; k < order.size(); ++k)
      os << (k ? " " : "") << herdTerm(t, o.observed[order[k]]) << "=" << row[k] << ";";
    os << "\n";
  }
  // herd prefixes `Loop` when its unrolling bound cut some executions short, as --unroll does.
  os << (o.loopBound >= 0 ? "Loop " : "") << (o.validated() ? "Ok" : "No") << "\n";
  os << "Witnesses\n";
  // herd counts witnesses of ~exists against the body: its Positive is our Negative.
  const bool swap = o.quantifier == Quantifier::NotExists;
  os << "Positive: " << (swap ? o.negative : o.positive) << " Negative: "
     << (swap ? o.positive : o.negative) << "\n";
  if (!o.races.empty()) os << "Flag data-race\n";
  os << "Condition " << herdCondition(t) << "\n";
  os << "Observation " << o.test << " " << toString(o.observation()) << " " << o.positive << " "
     << o.negative << "\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", o.seconds);
  os << "Time " << o.test << " " << secs << "\n";
  os << "Hash=" << testHash(t) << "\n\n";
}

}  // namespace litmus
