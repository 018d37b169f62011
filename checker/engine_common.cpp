#include "checker/engine_common.h"

#include <sstream>

namespace checker {

std::string instrText(const litmus::Test& test, const model::Event& e) {
  if (e.instr < 0) return e.kind == model::EventKind::GridWait ? "(launch)" : "(exit)";
  return litmus::shownText(test.threads[e.thread].code[e.instr]);
}

std::string describeHang(const litmus::Test& test, const std::vector<const model::Trace*>& traces) {
  std::string out;
  for (size_t t = 0; t < traces.size(); ++t) {
    if (traces[t]->stuck == model::Stuck::No) continue;
    const auto& th = test.threads[t];
    if (traces[t]->stuckAt < 0) {  // a dependent grid's thread that never starts (semantics/launch.cpp)
      out += (out.empty() ? "" : "; ") + th.name + " is never launched";
      continue;
    }
    const std::string where = " forever at '" + litmus::shownText(th.code[traces[t]->stuckAt]) + "'";
    out += (out.empty() ? "" : "; ") + th.name +
           (traces[t]->stuck == model::Stuck::AtWait ? " waits" : " spins") + where;
  }
  return out;
}

std::vector<int> addInitialWrites(const model::Program& prog, model::EventGraph& g) {
  std::vector<int> initOf;
  for (size_t l = 0; l < prog.locNames.size(); ++l) {
    model::Event e;
    e.kind = model::EventKind::Init;
    e.loc = static_cast<int>(l);
    e.va = prog.vaOf(prog.locNames[l]);
    e.offset = prog.locOffset[l];
    e.value = prog.locInit[l];
    e.scope = litmus::Scope::Sys;
    initOf.push_back(static_cast<int>(g.events.size()));
    g.events.push_back(e);
  }
  return initOf;
}

void addState(litmus::Outcome& out, const litmus::Test& test, const litmus::State& st,
              uint64_t executions) {
  const bool sat = litmus::evalCondition(test.condition, test.observed, st);
  out.states.push_back(st);
  out.satisfies.push_back(sat);
  (sat ? out.positive : out.negative) += executions;
}

void describeTest(litmus::Outcome& out, const litmus::Test& test, const char* engine, bool bounded,
                  int unroll) {
  out.test = test.name;
  out.engine = engine;
  out.observed = test.observed;
  out.quantifier = test.quantifier;
  out.condition = litmus::formatCondition(test.condition);
  if (bounded) out.loopBound = unroll;
}

}  // namespace checker
