// Generating and judging mutants (generate.h).
#include "mutate/generate.h"

#include <algorithm>
#include <set>

#include "gpu-runner/runner.h"
#include "litmus/parse.h"

namespace mutate {
namespace {

// The model's answer about a test; a test the checker cannot take is unknown.
Verdict judge(const litmus::Test& test, const checker::Options& opt, std::string& why) {
  try {
    return judgeOutcome(checker::check(test, opt).outcome, why);
  } catch (const litmus::Error& e) {
    why = "the model cannot check it: " + e.message();
  } catch (const std::bad_alloc&) {
    why = "out of memory";
  }
  return Verdict::Unknown;
}

std::string runnerSays(const litmus::Test& test) {
  try {
    gpu::generatePtx(test);
    return "runs";
  } catch (const litmus::Error& e) {
    return "refused: " + e.message();
  }
}

// What tells two tests apart: their text without the names, descriptions and expectations that
// mutants do not share with each other or their original.
std::string body(litmus::Test t) {
  t.name = "t";
  t.family.clear();
  t.description.clear();
  t.expect = litmus::Expect::None;
  t.reason.clear();
  t.liveness.clear();
  return litmus::toYaml(t);
}

}  // namespace

const char* toString(Verdict v) {
  switch (v) {
    case Verdict::Killable: return "killable";
    case Verdict::Equivalent: return "equivalent";
    case Verdict::Unknown: return "unknown";
    case Verdict::Invalid: return "invalid";
  }
  return "?";
}

bool negatedCondition(litmus::Quantifier q) { return q == litmus::Quantifier::Forall; }

Verdict judgeOutcome(const litmus::Outcome& o, std::string& why) {
  if (o.status != litmus::Status::Done) {
    why = o.statusDetail.empty() ? "no verdict" : o.statusDetail;
    return Verdict::Unknown;
  }
  // the weak outcome: a state that satisfies the body of `exists`/`~exists`, or one that fails
  // the body of `forall`
  const bool weak = !negatedCondition(o.quantifier);
  if (std::find(o.satisfies.begin(), o.satisfies.end(), weak) != o.satisfies.end())
    return Verdict::Killable;
  if (o.vacuous()) {
    why = o.hang.empty() ? "no execution ends within the loop bound" : "no execution ends: " + o.hang;
    return Verdict::Unknown;
  }
  why = o.loopBound >= 0 ? "the model forbids the condition (up to the loop bound)"
                         : "the model forbids the condition";
  return Verdict::Equivalent;
}

std::string describeMutant(const litmus::Test& original, const Mutation& m) {
  return "Mutant of " + original.name + " (" + toString(m.category) + "): " + m.change + ".";
}

void mutateTest(const litmus::Test& original, const Options& options, Generated& out) {
  Original report{original.name, original.file, false, ""};
  std::string why;
  if (judge(original, options.check, why) != Verdict::Equivalent) {
    report.why = why.empty() ? "the model allows its weak outcome (the condition, or for 'forall' its negation)"
                             : "the model gives no verdict: " + why;
  } else if (options.runnableOnly && runnerSays(original) != "runs") {
    report.why = "the GPU runner " + runnerSays(original);
  }
  report.mutated = report.why.empty();
  out.originals.push_back(report);
  if (!report.mutated) return;
  std::set<std::string> seen = {body(original)};
  for (Category c : options.categories) {
    int k = 0;
    for (Mutation& m : mutations(original, c)) {
      Mutant mu;
      mu.original = original.name;
      mu.negated = negatedCondition(original.quantifier);
      mu.category = c;
      mu.change = m.change;
      litmus::Test& t = m.test;
      t.family = litmus::familyOf(original);
      // the original's expectation and its reason are about the original
      t.expect = litmus::Expect::None;
      t.reason.clear();
      t.liveness.clear();
      try {
        litmus::parseYaml(litmus::toYaml(t), original.file);
      } catch (const litmus::Error& e) {
        mu.why = e.message();
        out.mutants.push_back(mu);
        continue;
      }
      if (!seen.insert(body(t)).second) continue;
      mu.name = original.name + "~" + toString(c) + "-" + std::to_string(++k);
      t.name = mu.name;
      t.description = describeMutant(original, m);
      mu.yaml = litmus::toYaml(t);
      const litmus::Test back = litmus::parseYaml(mu.yaml, mu.name + ".yaml");
      mu.verdict = judge(back, options.check, mu.why);
      mu.runner = runnerSays(back);
      out.mutants.push_back(std::move(mu));
    }
  }
}

}  // namespace mutate
