// From conformance tests to judged mutants: each mutant is re-read from the YAML it will be
// written as (so what is judged is what is written), checked by the model, and asked of the GPU
// runner's generator whether it could run.
#pragma once

#include <string>
#include <vector>

#include "checker/checker.h"
#include "mutate/mutate.h"

namespace mutate {

enum class Verdict {
  Killable,    // the model allows the mutant's condition: a run that sees it kills the mutant
  Equivalent,  // the model still forbids it: no run can kill it, so it is not counted
  Unknown,     // the model gave no answer (timeout, no execution finishes)
  Invalid,     // the mutation is not a valid test (the front end rejects it); not written
};
const char* toString(Verdict);

struct Options {
  std::vector<Category> categories = allCategories();
  checker::Options check;     // engine, loop bound, timeout per test
  bool runnableOnly = false;  // mutate only the tests the GPU runner can run
};

struct Mutant {
  std::string name;      // "<original>~<category>-<k>"; empty for an invalid one
  std::string original;  // the original's name
  Category category = Category::PoReverse;
  // false: the weak outcome is a state that satisfies the condition (`exists`, `~exists`); true: one
  // that fails it (`forall`)
  bool negated = false;
  Verdict verdict = Verdict::Invalid;
  std::string why;       // equivalent, unknown, invalid: the model's or the front end's words
  std::string change;    // the one change, in words
  std::string runner;    // "runs", or "refused: <why>"
  std::string yaml;      // the test file (empty when invalid)
};

// What became of one input test.
struct Original {
  std::string name, file;
  bool mutated = false;
  std::string why;  // skipped: why
};

struct Generated {
  std::vector<Original> originals;
  std::vector<Mutant> mutants;
};

// Whether a test's weak outcome is a state that fails its condition (`forall`) rather than one
// that satisfies it (`exists`, `~exists`).
bool negatedCondition(litmus::Quantifier);

// One test: skipped unless the model forbids its weak outcome (and, with
// runnableOnly, the runner can run it); else its mutants, numbered 1, 2, .. per category in program
// order, duplicates (the same test text) left out.
void mutateTest(const litmus::Test& original, const Options& options, Generated& out);

// How the model judges a test's weak outcome: allowed (Killable), forbidden (Equivalent) or
// Unknown; `why` for the last two.
Verdict judgeOutcome(const litmus::Outcome& outcome, std::string& why);

// The description a mutant carries: which original, which category, what changed.
std::string describeMutant(const litmus::Test& original, const Mutation& m);

}  // namespace mutate
