// The checker: every final state of a litmus test that the PTX model allows. Two engines evaluate
// the one model text in model/ptx_model.h: explicit enumeration of candidate executions (this
// issue) and a symbolic encoding on Z3.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "litmus/outcome.h"
#include "litmus/test.h"
#include "model/axioms.h"
#include "model/relations.h"

namespace checker {

enum class Engine { Auto, Explicit, Smt, Both };

struct Options {
  Engine engine = Engine::Auto;
  int unroll = 2;                 // backward jumps allowed per branch instruction
  double timeoutSeconds = 0;      // 0: none
  bool witnesses = false;         // keep one execution per allowed state (for --graph)
  bool explain = false;           // for a forbidden condition, find a violating candidate
};

// One execution, concrete: its events and the relations that were chosen.
struct Execution {
  model::EventGraph graph;
  model::BitRel rf, co, sc;
  litmus::State state;
};

// Why a candidate execution is not allowed: the axiom it violates and a cycle (or offending edge).
struct Violation {
  Execution execution;
  model::Axiom axiom;
  std::string relation;         // the relation the axiom constrains, in model terms
  std::vector<int> cycle;       // events v0 -> v1 -> ... -> v0 (or the offending pair)
};

struct Result {
  litmus::Outcome outcome;
  std::vector<Execution> witnesses;     // one per allowed state, same order as outcome.states
  std::optional<Violation> violation;   // set when explain and the condition's outcome is forbidden
  bool bounded = false;                 // some path hit the loop bound
};

Result check(const litmus::Test& test, const Options& options);

// Named for messages and JSON.
const char* toString(Engine);
std::optional<Engine> parseEngine(const std::string&);

}  // namespace checker
