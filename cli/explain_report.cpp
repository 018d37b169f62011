#include "cli/explain_report.h"

#include <ostream>

#include "checker/explain.h"
#include "checker/explain_sync.h"
#include "checker/graph.h"

namespace cli {

using nlohmann::ordered_json;

namespace {

// A forbidden state without a violating candidate: the explicit engine looked at every
// candidate and none ends in it (that is all the search establishes: not why); the symbolic
// engine looks for none.
std::string noViolation(const checker::Result& r) {
  if (!r.explainCutOff.empty())
    return "Unknown: the search for a candidate execution that reaches the outcome was cut off (" +
           r.explainCutOff + "); no reason is established";
  if (r.outcome.engine == "smt") return "the smt engine gives no explanation (use --engine explicit)";
  return std::string("no candidate execution ends in this state: every candidate execution") +
         (r.bounded ? " within the loop bound (--unroll)" : "") + " was examined";
}

// An allowed state's explanation cut off by the deadline or a memory limit.
std::string allowedCutOff(const checker::Result& r) {
  return "Unknown: the explanation of the allowed state was cut off (" + r.explainCutOff +
         "); no reason is established";
}

bool wanted(const litmus::Test& t, const ExplainTarget& target, const litmus::State& s) {
  if (target) return litmus::matches(*target, s);
  const bool body = litmus::evalCondition(t.condition, t.observed, s);
  return t.quantifier == litmus::Quantifier::Forall ? !body : body;
}

// The allowed state explained, as an index into outcome.states (the checker chose it:
// checker/explain_sync.h, explainAllowed); -1 when none.
int allowedTarget(const litmus::Test& t, const checker::Result& r, const ExplainTarget& target) {
  if (r.outcome.status != litmus::Status::Done) return -1;
  if (r.explainedState >= 0) return r.explainedState;
  for (size_t i = 0; i < r.outcome.states.size(); ++i)
    if (wanted(t, target, r.outcome.states[i])) return static_cast<int>(i);
  return -1;
}

// The witness of allowed state i, if the engine kept witnesses (the explicit engine does).
const checker::Execution* witnessOf(const checker::Result& r, int i) {
  return i >= 0 && static_cast<size_t>(i) < r.witnesses.size() ? &r.witnesses[i] : nullptr;
}

std::string stateText(const litmus::Test& t, const checker::Result& r, const ExplainTarget& target,
                      int i) {
  const std::string text = i >= 0 ? litmus::formatState(t.observed, r.outcome.states[i])
                                   : target ? litmus::formatPattern(t.observed, *target) : std::string();
  return text.empty() ? "(no observed terms)" : text;
}

ordered_json eventJson(const litmus::Test& t, const checker::Execution& x, int event) {
  const checker::EventText e = checker::eventText(t, x, event);
  return {{"thread", e.thread.empty() ? ordered_json(nullptr) : ordered_json(e.thread)},
          {"instruction", e.text}};
}

ordered_json stepsJson(const litmus::Test& t, const checker::Execution& x,
                       const std::vector<checker::Step>& steps) {
  ordered_json out = ordered_json::array();
  for (const checker::Step& s : steps) {
    ordered_json j = {{"from", eventJson(t, x, s.from)}, {"relation", s.relation}, {"to", eventJson(t, x, s.to)}};
    if (!s.detail.empty()) j["steps"] = stepsJson(t, x, s.detail);
    out.push_back(std::move(j));
  }
  return out;
}

ordered_json edgesJson(const litmus::Test& t, const checker::Execution& x, const model::BitRel& r,
                       bool skipInit) {
  ordered_json out = ordered_json::array();
  for (auto [a, b] : r.edges())
    if (!skipInit || x.graph.events[a].thread >= 0)
      out.push_back({{"from", eventJson(t, x, a)}, {"to", eventJson(t, x, b)}});
  return out;
}

ordered_json allowedJson(const litmus::Test& t, const checker::Execution& x, const std::string& state,
                         const std::vector<checker::SyncGap>& found, const std::string& fixChecked) {
  ordered_json gaps = ordered_json::array();
  for (const checker::SyncGap& g : found) {
    ordered_json bridges = ordered_json::array();
    for (const checker::Bridge& b : g.bridges)
      bridges.push_back({{"kind", b.kind}, {"from", eventJson(t, x, b.from)}, {"to", eventJson(t, x, b.to)},
                         {"problems", b.problems}});
    gaps.push_back({{"from", eventJson(t, x, g.from)}, {"to", eventJson(t, x, g.to)},
                    {"closing", g.closing}, {"axiom", model::axiomName(g.axiom)},
                    {"note", g.note.empty() ? ordered_json(nullptr) : ordered_json(g.note)},
                    {"through", std::move(bridges)}});
  }
  const std::string weakest = checker::weakestLink(found);
  return {{"allowed", state},
          {"weakestLink", weakest.empty() ? ordered_json(nullptr) : ordered_json(weakest)},
          {"fixChecked", fixChecked.empty() ? ordered_json(nullptr) : ordered_json(fixChecked)},
          {"witness", {{"rf", edgesJson(t, x, x.rf, false)}, {"co", edgesJson(t, x, x.co, true)}}},
          {"missing", std::move(gaps)}};
}

}  // namespace

ordered_json explanationJson(const litmus::Test& t, const checker::Result& r, const ExplainTarget& target) {
  if (r.violation) {
    const checker::Violation& v = *r.violation;
    return {{"forbidden", litmus::formatState(t.observed, v.execution.state)},
            {"axiom", model::axiomName(v.axiom)},
            {"section", model::axiomSection(v.axiom)},
            {"relation", v.relation},
            {"steps", stepsJson(t, v.execution, v.steps)}};
  }
  if (r.outcome.status != litmus::Status::Done) return nullptr;
  const int i = allowedTarget(t, r, target);
  if (i < 0) return {{"forbidden", target ? ordered_json(stateText(t, r, target, i)) : ordered_json(nullptr)},
                     {"reason", noViolation(r)}};
  if (!r.explainCutOff.empty()) return {{"allowed", stateText(t, r, target, i)}, {"reason", allowedCutOff(r)}};
  if (const checker::Execution* x = witnessOf(r, i)) return allowedJson(t, *x, stateText(t, r, target, i), r.gaps, r.fixChecked);
  return {{"allowed", stateText(t, r, target, i)}, {"witness", nullptr}, {"missing", nullptr}};
}

void printExplanation(std::ostream& os, const litmus::Test& t, const checker::Result& r,
                      const ExplainTarget& target) {
  if (r.violation) {
    os << "Forbidden " << litmus::formatState(t.observed, r.violation->execution.state) << " "
       << checker::describe(t, *r.violation) << "\n";
    return;
  }
  if (r.outcome.status != litmus::Status::Done) return;
  const int i = allowedTarget(t, r, target);
  if (i < 0) {
    os << "Forbidden";  // "Forbidden: no candidate ..." or "Forbidden P1:r0=7; no candidate ..."
    if (target) os << " " << stateText(t, r, target, i);
    os << (target ? " " : ": ") << noViolation(r) << "\n\n";
    return;
  }
  if (!r.explainCutOff.empty()) {
    os << "Allowed " << stateText(t, r, target, i) << " " << allowedCutOff(r) << "\n\n";
    return;
  }
  const checker::Execution* x = witnessOf(r, i);
  if (!x) {
    os << "Allowed " << stateText(t, r, target, i) << " (the " << r.outcome.engine
       << " engine keeps no witness execution: use --engine explicit)\n\n";
    return;
  }
  os << "Allowed " << stateText(t, r, target, i) << " reached by this execution:\n";
  // the weakest link first: the one change that would make a missing synchronization hold
  if (const std::string weakest = checker::weakestLink(r.gaps); !weakest.empty())
    os << "Weakest link: " << weakest << "\n" << (r.fixChecked.empty() ? "" : "  " + r.fixChecked + "\n");
  checker::printWitness(os, t, *x);
  checker::printGaps(os, t, *x, r.gaps);
  os << "\n";
}

bool writeGraphs(const std::string& dir, bool full, double timeout, const litmus::Test& t,
                 const checker::Result& r, std::ostream& err) {
  const litmus::Deadline deadline(timeout, r.outcome.seconds);
  try {
    checker::writeGraphs(dir, t, r, full, &deadline);
    return true;
  } catch (const litmus::Deadline::Expired&) {
    err << t.file << ": Unknown: the graphs were cut off (" << deadline.describe() << ")\n";
    return false;
  }
}

}  // namespace cli
