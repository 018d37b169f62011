// Explanations (checker/explain.h, checker/explain_sync.h): causality broken into its steps, the
// cycle through the events the user asked about, the state --explain=STATE names, and what an
// allowed state lacks. Every expectation here is read off the model on catalogue tests; none of
// them comes from the tests' `expect`.
#include <doctest/doctest.h>

#include <string>

#include "checker/checker.h"
#include "checker/explain.h"
#include "checker/explain_sync.h"
#include "checker/graph.h"
#include "litmus/parse.h"

namespace {

using checker::Step;

litmus::Test catalogue(const std::string& rel) {
  return litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/catalog/" + rel);
}

// GCC 12 at -O2 under the sanitizers (CI's build) reads an optional StatePattern moved into the
// options as maybe uninitialised (-Wmaybe-uninitialized) whatever the form of the assignment; a
// false positive, silenced for this function only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
checker::Result explainCheck(const litmus::Test& t, std::optional<litmus::StatePattern> state = {}) {
  checker::Options o;
  o.engine = checker::Engine::Explicit;
  o.explain = true;
  o.witnesses = true;
  o.explainState = std::move(state);
  return checker::check(t, o);
}
#pragma GCC diagnostic pop

// The relations of the steps, "a -R-> b" joined by " | ", events by their instruction text.
std::string trail(const litmus::Test& t, const checker::Execution& x, const std::vector<Step>& steps) {
  std::string out;
  for (const Step& s : steps)
    out += (out.empty() ? "" : " | ") + checker::eventText(t, x, s.from).text + " -" + s.relation + "-> " +
           checker::eventText(t, x, s.to).text;
  return out;
}

// The detail of the (only) cause step of a forbidden outcome's explanation.
std::string causeTrail(const std::string& rel) {
  const litmus::Test t = catalogue(rel);
  const checker::Result r = explainCheck(t);
  REQUIRE(r.violation);
  for (const Step& s : r.violation->steps)
    if (s.relation == "cause") return trail(t, r.violation->execution, s.detail);
  return "no cause step";
}

// The execution that reaches an allowed state of a test, and its gaps.
std::vector<checker::SyncGap> gapsOf(const litmus::Test& t, const std::string& state,
                                     const checker::Execution** witness = nullptr) {
  static checker::Result keep;  // the witness outlives the call
  const auto pattern = litmus::parseStatePattern(state, t, {"test", 1, 1});
  keep = explainCheck(t, pattern);
  REQUIRE(!keep.violation);
  for (size_t i = 0; i < keep.outcome.states.size(); ++i)
    if (litmus::matches(pattern, keep.outcome.states[i])) {
      if (witness) *witness = &keep.witnesses.at(i);
      return checker::syncGaps(t, keep.witnesses.at(i), checker::focusTerms(t, pattern));
    }
  FAIL("state not allowed: " << state);
  return {};
}

std::string allProblems(const std::vector<checker::SyncGap>& gaps) {
  std::string out;
  for (const auto& g : gaps) {
    out += g.note + "\n";
    for (const auto& b : g.bridges)
      for (const auto& p : b.problems) out += b.kind + ": " + p + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("explain: a cause edge is broken into release pattern, rf and acquire pattern") {
  CHECK(causeTrail("shapes/MP+fence.acq_rel.gpu.yaml") ==
        "st.global.u32 [x], 1 -po-> fence.acq_rel.gpu"
        " | fence.acq_rel.gpu -release pattern (fence ; po)-> st.relaxed.gpu.global.u32 [y], 1"
        " | st.relaxed.gpu.global.u32 [y], 1 -rf-> ld.relaxed.gpu.global.u32 %r0, [y]"
        " | ld.relaxed.gpu.global.u32 %r0, [y] -acquire pattern (po ; fence)-> fence.acq_rel.gpu"
        " | fence.acq_rel.gpu -po-> ld.global.u32 %r1, [x]");
  // a release write and an acquire read are patterns by themselves: a step to the same event
  CHECK(causeTrail("shapes/MP+rel.gpu+acq.gpu-diffcta.yaml") ==
        "st.global.u32 [x], 1 -po-> st.release.gpu.global.u32 [y], 1"
        " | st.release.gpu.global.u32 [y], 1 -release pattern (release)-> st.release.gpu.global.u32 [y], 1"
        " | st.release.gpu.global.u32 [y], 1 -rf-> ld.acquire.gpu.global.u32 %r0, [y]"
        " | ld.acquire.gpu.global.u32 %r0, [y] -acquire pattern (acquire)-> ld.acquire.gpu.global.u32 %r0, [y]"
        " | ld.acquire.gpu.global.u32 %r0, [y] -po-> ld.global.u32 %r1, [x]");
}

TEST_CASE("explain: observation through an RMW, barriers and Fence-SC order as steps of cause") {
  CHECK(causeTrail("shapes/MP+rel.gpu+rmw.gpu+acq.gpu.yaml").find("-obs-> ld.acquire.gpu") != std::string::npos);
  const std::string bar = causeTrail("barriers/MP+bar.sync.yaml");
  CHECK(bar.find("-barrier release (release arrive)->") != std::string::npos);
  CHECK(bar.find("-bar->") != std::string::npos);
  CHECK(bar.find("-barrier acquire (acquire wait)->") != std::string::npos);
  CHECK(causeTrail("shapes/SB+fence.sc.gpu.yaml").find("fence.sc.gpu -sc-> fence.sc.gpu") != std::string::npos);
}

TEST_CASE("explain: every step of a cause detail is an edge of the relation it is named after") {
  const litmus::Test t = catalogue("shapes/MP+fence.acq_rel.gpu.yaml");
  const checker::Result r = explainCheck(t);
  REQUIRE(r.violation);
  const checker::Evaluated m = checker::evaluate(r.violation->execution);
  for (const Step& s : r.violation->steps) {
    if (s.relation != "cause") continue;
    REQUIRE(!s.detail.empty());
    CHECK(s.detail.front().from == s.from);  // the detail walks from the cause edge's source ...
    CHECK(s.detail.back().to == s.to);       // ... to its target
    for (size_t i = 0; i + 1 < s.detail.size(); ++i) CHECK(s.detail[i].to == s.detail[i + 1].from);
    for (const Step& d : s.detail) {
      if (d.relation == "po") CHECK(m.s.po.get(d.from, d.to));
      if (d.relation == "rf") CHECK(m.x.rf.get(d.from, d.to));
      if (d.relation.rfind("release pattern", 0) == 0)
        CHECK(model::unionOf(model::releasePatterns(m.s)).get(d.from, d.to));
      if (d.relation.rfind("acquire pattern", 0) == 0)
        CHECK(model::unionOf(model::acquirePatterns(m.s)).get(d.from, d.to));
    }
  }
}

TEST_CASE("explain: the cycle shown goes through a preferred event when one can") {
  // two disjoint cycles 0 -> 1 -> 0 and 2 -> 3 -> 2; the model's cycle finder picks one of them
  model::BitRel r(4);
  r.set(0, 1), r.set(1, 0), r.set(2, 3), r.set(3, 2);
  const auto c = model::acyclic(model::only("r", r));
  const std::vector<int> found = model::findCycle(r);
  REQUIRE(!found.empty());
  const int other = found.front() < 2 ? 2 : 0;  // an event of the cycle it does not pick
  const auto steps = checker::witness(c, {other});
  REQUIRE(steps.size() == 2);
  CHECK((steps[0].from == other || steps[0].to == other));
  // irreflexive(a ; b): the preferred event may be the middle one
  model::BitRel a(3), b(3);
  a.set(0, 1), b.set(1, 0), a.set(2, 2), b.set(2, 2);
  const auto irr = model::irreflexive(model::only("a", a), model::only("b", b));
  const auto mid = checker::witness(irr, {1});
  REQUIRE(mid.size() == 2);
  CHECK(mid[0].to == 1);
}

TEST_CASE("explain: --explain=STATE patterns are parsed against the observed terms") {
  const litmus::Test t = catalogue("shapes/MP+rlx.gpu+acq.gpu.yaml");
  const auto p = litmus::parseStatePattern("P1:r1 = 0", t, {"--explain", 1, 1});
  REQUIRE(p.values.size() == 2);
  CHECK(!p.values[0]);
  CHECK(*p.values[1] == 0);
  CHECK(litmus::matches(p, litmus::State{{1, 0}}));
  CHECK(!litmus::matches(p, litmus::State{{1, 1}}));
  CHECK(litmus::formatPattern(t.observed, p) == "P1:r1=0;");
  CHECK(litmus::parseStatePattern("P1:r0=1; P1:r1=-1;", t, {"--explain", 1, 1}).values[1] == -1);
  for (const char* bad : {"", ";", "P1:r0", "P1:r0=x", "P1:r9=1", "P1:r0=1; P1:r0=1", "1=1"})
    CHECK_THROWS_AS(litmus::parseStatePattern(bad, t, {"--explain", 1, 1}), litmus::Error);
  try {
    litmus::parseStatePattern("P1:r0=1; P1:r9=1", t, {"--explain", 1, 1});
  } catch (const litmus::Error& e) {
    CHECK(e.loc().col == 9);  // points at the bad term
  }
}

TEST_CASE("explain: a named state picks the forbidden candidate explained") {
  const litmus::Test t = catalogue("shapes/MP+fence.acq_rel.gpu.yaml");
  const checker::Result r = explainCheck(t, litmus::parseStatePattern("P1:r1=0; P1:r0=1", t, {"x", 1, 1}));
  REQUIRE(r.violation);
  CHECK(litmus::formatState(t.observed, r.violation->execution.state) == "P1:r0=1; P1:r1=0;");
  // an allowed state is not explained as forbidden
  CHECK(!explainCheck(t, litmus::parseStatePattern("P1:r0=0", t, {"x", 1, 1})).violation);
}

TEST_CASE("explain: an allowed stale read names the missing release") {
  const litmus::Test t = catalogue("shapes/MP+rlx.gpu+acq.gpu.yaml");
  const auto gaps = gapsOf(t, "P1:r0=1; P1:r1=0");
  REQUIRE(gaps.size() == 1);
  CHECK(gaps[0].closing == "fr");
  REQUIRE(gaps[0].bridges.size() == 1);
  REQUIRE(gaps[0].bridges[0].problems.size() == 1);
  CHECK(gaps[0].bridges[0].problems[0].find("st.relaxed.gpu.global.u32 [y], 1 is no release pattern") !=
        std::string::npos);
  // the acquire side: MP with a release flag read relaxed
  const std::string acq = allProblems(gapsOf(catalogue("shapes/MP+rel.gpu+rlx.gpu.yaml"), "P1:r0=1; P1:r1=0"));
  CHECK(acq.find("ld.relaxed.gpu.global.u32 %r0, [y] is no acquire pattern") != std::string::npos);
  CHECK(acq.find("release pattern") == std::string::npos);
}

TEST_CASE("explain: a scope too narrow is named with the scope that would do") {
  const std::string both = allProblems(gapsOf(catalogue("shapes/MP+rel.cta+acq.cta-diffcta.yaml"), "P1:r0=1; P1:r1=0"));
  CHECK(both.find("scope .cta of P0: st.release.cta.global.u32 [y], 1 does not include P1") != std::string::npos);
  CHECK(both.find("scope .cta of P1: ld.acquire.cta.global.u32 %r0, [y] does not include P0") != std::string::npos);
  CHECK(both.find("use .gpu") != std::string::npos);
  const std::string one = allProblems(gapsOf(catalogue("shapes/MP+rel.gpu+acq.cta-diffcta.yaml"), "P1:r0=1; P1:r1=0"));
  CHECK(one.find("scope .cta of P1") != std::string::npos);
  CHECK(one.find("of P0") == std::string::npos);
  // two fence.sc that do not see each other
  const std::string sc = allProblems(gapsOf(catalogue("shapes/SB+fence.sc.cta-diffcta.yaml"), "P0:r0=0; P1:r1=0"));
  CHECK(sc.find("the fence.sc pair are not morally strong: scope .cta") != std::string::npos);
}

TEST_CASE("explain: a missing proxy fence and a relaxed barrier arrival") {
  const std::string proxy = allProblems(gapsOf(catalogue("proxy/constant-nofence.yaml"), "P1:r0=1; P1:r1=0"));
  CHECK(proxy.find("generic proxy and the constant proxy") != std::string::npos);
  CHECK(proxy.find("fence.proxy.constant") != std::string::npos);
  const std::string bar = allProblems(gapsOf(catalogue("barriers/MP+barrier.cluster.relaxed.yaml"), "P1:r0=1; P1:r1=0"));
  CHECK(bar.find("barrier: P0: barrier.cluster.arrive.relaxed is no releasing arrival") != std::string::npos);
}

TEST_CASE("explain: nothing is missing where the state's reads see the latest writes") {
  CHECK(gapsOf(catalogue("shapes/MP+rlx.gpu+acq.gpu.yaml"), "P1:r0=1; P1:r1=1").empty());
}

TEST_CASE("explain: racing weak writes, and a proxy fence missing within one thread") {
  // x=2 is P0's write; P1's weak write of x races with it: co leaves them unordered
  const auto race = gapsOf(catalogue("shapes/S+weak.yaml"), "P1:r0=1; x=2");
  REQUIRE(!race.empty());
  CHECK(race[0].closing == "race");
  CHECK(race[0].note.find("not ordered in coherence order (both are weak)") != std::string::npos);
  CHECK(allProblems(race).find("ld.global.u32 %r0, [y] is weak and so no acquire pattern") != std::string::npos);
  // reads that see two racing writes in opposite orders: no fr, the race is what is missing
  const auto corr = gapsOf(catalogue("shapes/CoRR2+weak-writers.yaml"), "P2:r0=1; P2:r1=2; P3:r2=2; P3:r3=1");
  REQUIRE(corr.size() == 1);
  CHECK(corr[0].closing == "race");
  // a generic store and a texture-proxy load in program order
  const std::string nc = allProblems(gapsOf(catalogue("proxy/CoWR+ld.global.nc-nofence.yaml"), "P0:r0=0"));
  CHECK(nc.find("generic proxy and the texture proxy") != std::string::npos);
  CHECK(nc.find("fence.proxy.texture") != std::string::npos);
}

TEST_CASE("explain: the weakest link of an allowed pipeline outcome comes first (a .relaxed arrive)") {
  // Issue 31: the consumer releases its stage with a .relaxed arrive, so the refill may land
  // before the first fill (co), and the state that the condition describes reads the first fill
  // where the refill should be. The explanation names the arrive first.
  const litmus::Test t =
      litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/patterns/reference/tma-pipeline/tma-pipeline-S2-K3-relaxed-arrive.yaml");
  const checker::Result r = explainCheck(t);
  REQUIRE(!r.violation);
  REQUIRE(!r.witnesses.empty());
  // the first allowed state that satisfies the condition, as --explain takes it
  size_t i = 0;
  while (i < r.outcome.states.size() && !litmus::evalCondition(t.condition, t.observed, r.outcome.states[i])) ++i;
  REQUIRE(i < r.outcome.states.size());
  const auto gaps = checker::syncGaps(t, r.witnesses.at(i), checker::focusTerms(t, {}));
  REQUIRE(!gaps.empty());
  const std::string first = checker::weakestLink(gaps);
  CHECK(first.find("mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [empty0]") != std::string::npos);
  CHECK(first.find("make it .release") != std::string::npos);
}

TEST_CASE("explain: the weakest link's change is checked, and the explained state is the condition's") {
  const litmus::Test t =
      litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/patterns/reference/tma-pipeline/tma-pipeline-S2-K3-relaxed-arrive.yaml");
  const checker::Result r = explainCheck(t);
  REQUIRE(r.explainCutOff.empty());
  REQUIRE(r.explainedState >= 0);
  const litmus::State& st = r.outcome.states.at(r.explainedState);
  CHECK(litmus::evalCondition(t.condition, t.observed, st));
  REQUIRE(!r.gaps.empty());
  CHECK(checker::weakestLink(r.gaps).find("is .relaxed: make it .release") != std::string::npos);
  CHECK(r.fixChecked.find("made .release, this state is not allowed (checked)") != std::string::npos);
  // only the terms whose values make the condition true: P1:r0 = 1 and P1:r1 = 2 are as expected
  std::vector<std::string> names;
  for (const auto& term : checker::satisfiedTerms(t, st)) names.push_back(litmus::formatTerm(term));
  CHECK(names == std::vector<std::string>{"P1:r2"});
}

TEST_CASE("explain: a deadline in the allowed state's phase cuts it off, and the verdict stands") {
  const litmus::Test t = catalogue("shapes/MP+rlx.gpu+acq.gpu.yaml");
  checker::Options o;
  o.engine = checker::Engine::Explicit;
  o.explain = o.witnesses = true;
  std::vector<std::string> phases;
  o.explainPhase = [&](std::string_view p) {
    phases.emplace_back(p);
    if (p == "gaps") throw litmus::Deadline::Expired{};
  };
  const checker::Result r = checker::check(t, o);
  CHECK(phases == std::vector<std::string>{"gaps"});
  CHECK(r.outcome.status == litmus::Status::Done);
  CHECK(std::string(litmus::toString(r.outcome.observation())) == "Sometimes");
  CHECK(r.explainCutOff.find("while explaining the allowed state") != std::string::npos);
  CHECK(r.gaps.empty());
  CHECK(r.fixChecked.empty());
}

TEST_CASE("explain: graphs draw the decisive events by default, and stop at the deadline") {
  const litmus::Test t = catalogue("shapes/MP+rlx.gpu+acq.gpu.yaml");
  const checker::Result r = explainCheck(t);
  REQUIRE(r.explainedState >= 0);
  const checker::Execution& x = r.witnesses.at(r.explainedState);
  const std::vector<int> decisive = checker::decisiveEvents(t, r, r.explainedState);
  // the two reads of the condition, the writes they read, and the ends of the missing release
  CHECK(decisive.size() >= 4);
  CHECK(decisive.size() < x.graph.events.size());
  const std::string dot = checker::executionDot(t, x, "t", nullptr, &decisive);
  CHECK(dot.find("st.relaxed.gpu.global.u32 [y], 1") != std::string::npos);
  const std::string dir = std::string("/tmp/litmus-explain-test-graphs");
  const litmus::Deadline passed(1e-9);
  while (!passed.passed()) {}
  CHECK_THROWS_AS(checker::writeGraphs(dir, t, r, false, &passed), litmus::Deadline::Expired);
}

namespace {

litmus::Test pattern(const std::string& rel) {
  return litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/patterns/reference/" + rel);
}

}  // namespace

TEST_CASE("explain: a correct pipeline's forbidden outcome is explained by the axiom it breaks") {
  // Before the explanation searched with the model but one axiom, this never finished.
  const litmus::Test t = pattern("tma-pipeline/tma-pipeline-S2-K3.yaml");
  checker::Options o;
  o.engine = checker::Engine::Explicit;
  o.explain = true;
  o.timeoutSeconds = 60;
  const checker::Result r = checker::check(t, o);
  CHECK(std::string(litmus::toString(r.outcome.observation())) == "Never");
  CHECK(r.explainCutOff.empty());
  REQUIRE(r.violation.has_value());
  CHECK(r.violation->axiom == model::Axiom::Causality);
}

TEST_CASE("explain: a deadline in the violation search cuts it off, and the verdict stands") {
  const litmus::Test t = pattern("tma-pipeline/tma-pipeline-S2-K3.yaml");
  checker::Options o;
  o.engine = checker::Engine::Explicit;
  o.explain = true;
  std::vector<std::string> phases;
  o.explainPhase = [&](std::string_view p) {
    phases.emplace_back(p);
    if (p == "violation") throw litmus::Deadline::Expired{};
  };
  const checker::Result r = checker::check(t, o);
  CHECK(phases == std::vector<std::string>{"violation"});
  CHECK(std::string(litmus::toString(r.outcome.observation())) == "Never");
  CHECK(!r.violation.has_value());
  CHECK(!r.explainCutOff.empty());
}
