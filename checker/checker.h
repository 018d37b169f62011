// The checker: every final state of a litmus test that the PTX model allows. Two engines evaluate
// the one model text in model/ptx_model.h: explicit enumeration of candidate executions (this
// issue) and a symbolic encoding on Z3.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/deadline.h"
#include "litmus/outcome.h"
#include "litmus/test.h"
#include "model/axioms.h"
#include "model/relations.h"

namespace checker {

// Portfolio: the explicit and the symbolic engine at once, the first answer wins (portfolio.h).
enum class Engine { Auto, Explicit, Smt, Both, Portfolio };

struct Options {
  Engine engine = Engine::Auto;
  int unroll = 2;                 // backward jumps allowed per branch instruction
  double timeoutSeconds = 0;      // 0: none
  // Seconds already spent on the test before the check (reading and validating its file), which
  // count against timeoutSeconds: the deadline covers every phase.
  double spentSeconds = 0;
  // The memory the caller let checking allocate (the CLI's --max-memory, limits it sets on the
  // whole process); 0: none. The checker enforces nothing itself: it names this limit
  // when an allocation fails and the test ends Unknown.
  uint64_t maxMemoryBytes = 0;
  bool witnesses = false;         // keep one execution per allowed state (for --graph)
  // The most final states listed (--max-states; 0: every one). Past it the engines search only
  // for what the Observation and liveness still need (litmus::Outcome::statesCut): a buggy
  // pipeline whose weak reads multiply the states gets its verdict without listing them all.
  size_t maxStates = 100;
  bool explain = false;           // for a forbidden condition, find a violating candidate
  // --explain=STATE: the state (or part of one) to explain instead of the condition's outcome.
  std::optional<litmus::StatePattern> explainState;
  // For tests: called as a phase of an explanation starts ("gaps": what an allowed state's
  // witness lacks); it may throw litmus::Deadline::Expired to cut the explanation off there.
  std::function<void(std::string_view phase)> explainPhase;
  // The readings of the model's decisions (--reading; a test's `readings:` goes on top).
  model::Readings readings;
  // Evaluate the other readings of the decisions a test touches and report those that change
  // the verdict (Outcome::reliesOn).
  bool alternatives = true;
};

// One execution, concrete: its events and the relations that were chosen.
struct Execution {
  model::EventGraph graph;
  model::BitRel rf, co, sc, bar;
  litmus::State state;
  model::Readings readings = {};  // under which the model's relations are evaluated on it
};

// One step of an explanation: an edge of a named relation between two events.
struct Step {
  int from, to;
  std::string relation;  // "po", "rf", "co", "fr", "cause", "sc", "bc", "dep", "rmw", "not co"
  // A `cause` (or `bc`) step broken into what it is made of (checker/explain.h, causeSteps):
  // po, and each synchronizes-with as its release pattern, the rf that synchronizes, and its
  // acquire pattern. Empty for other steps.
  std::vector<Step> detail = {};
};

// Why a candidate execution is not allowed: the axiom it violates, the relation the axiom
// constrains, and the steps of the cycle (or the offending pair) that breaks it.
struct Violation {
  Execution execution;
  model::Axiom axiom;
  std::string relation;
  std::vector<Step> steps;
};
std::string describe(const litmus::Test&, const Violation&);  // one line per step
// An event of an execution as explanations name it: its thread and instruction text, or for an
// initial write no thread and "init of x".
struct EventText {
  std::string thread, text;
};
EventText eventText(const litmus::Test&, const Execution&, int event);
std::string eventName(const litmus::Test&, const Execution&, int event);  // "P0: st [x], 1"
// Steps one per line after `indent`, the detail of each below it, indented further.
void printSteps(std::ostream&, const litmus::Test&, const Execution&, const std::vector<Step>&,
                const std::string& indent);

// An edge that could carry the missing synchronization, and why it does not: an rf (write ->
// read), or a barrier's arrival -> a wait that its phase completes.
struct Bridge {
  int from, to;
  std::string kind;                   // "rf" or "barrier"
  std::vector<std::string> problems;  // "P0: st.relaxed.gpu.global.u32 [y], 1 is no release pattern: ..."
  // Where the one problem is an end of the edge that is no release (acquire) itself: that event,
  // and the semantics that would make it one; -1 otherwise.
  int fixEvent = -1;
  litmus::Sem fixSem = litmus::Sem::Weak;
};

// `from` is not ordered before `to` in causality order; if it were, the edge `closing` (from `to`
// to `from`: fr or rf; co for two writes) would break `axiom`; "race" for two writes that co
// leaves unordered (not morally strong), which Coherence would then order.
struct SyncGap {
  int from, to;
  std::string closing;
  model::Axiom axiom;
  std::vector<Bridge> bridges;  // edges from `from`'s side to `to`'s side
  std::string note;             // without bridges, or where base causality holds: what is missing
};

// How the engines' answers differ under --engine both; empty when they agree.
struct Disagreement {
  std::string test;                                  // the test's name, for the message
  std::vector<litmus::State> explicitOnly, smtOnly;  // allowed final states one engine alone found
  bool hangDiffers = false;                          // one engine says the test may hang, the other not
  bool explicitMayHang = false, smtMayHang = false;
  // A listing cut at --max-states compares the observations instead of the state sets.
  std::optional<std::pair<litmus::Observation, litmus::Observation>> observations;  // explicit, smt
  bool empty() const { return explicitOnly.empty() && smtOnly.empty() && !hangDiffers && !observations; }
  // "engines disagree on NAME: [explicit only: STATE] [smt only: STATE] [may hang: explicit yes,
  // smt no]"; empty when they agree.
  std::string describe(const std::vector<litmus::Term>& observed) const;
};

struct Result {
  litmus::Outcome outcome;
  std::vector<Execution> witnesses;     // one per allowed state, same order as outcome.states
  std::optional<Violation> violation;   // set when explain and the condition's outcome is forbidden
  bool bounded = false;                 // some path hit the loop bound
  Disagreement disagreement;            // --engine both: how the engines' answers differ
  // Why the explanation (the search for a violating candidate) was cut off before it finished:
  // its deadline or a memory limit. The verdict stands; the explanation establishes nothing and
  // the check is Unknown for it (exit 3). Empty: the explanation ran to its end.
  std::string explainCutOff;

  // The disagreement as judge/ and the printers word it; empty when the engines agree.
  std::string mismatch() const { return disagreement.describe(outcome.observed); }
  // --explain of an allowed state (checker/explain_sync.h, explainAllowed): the state explained
  // (index into outcome.states; -1: none allowed is wanted) and what its witness lacks, weakest
  // link first. Computed under the deadline, before anything is printed.
  int explainedState = -1;
  std::vector<SyncGap> gaps;
  // The weakest link's change, checked: the test checked again with it ("with P1's
  // mbarrier.arrive... .release the state is not allowed"); empty when there is no such change.
  std::string fixChecked;
  // The test as checked where a reading was pinned on a copy of it (D42): events point into it.
  std::shared_ptr<const litmus::Test> pinnedTest;
};

Result check(const litmus::Test& test, const Options& options);

// A byte count for people: "64 MiB", "5.5 GiB", "512 bytes".
std::string formatBytes(uint64_t bytes);

// Named for messages and JSON.
const char* toString(Engine);
std::optional<Engine> parseEngine(const std::string&);

}  // namespace checker
