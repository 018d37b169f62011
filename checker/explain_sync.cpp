#include "checker/explain_sync.h"

#include <algorithm>
#include <ostream>
#include <set>

#include "checker/explain.h"
#include "model/relations.h"

namespace checker {

using litmus::Scope;
using model::BitRel;
using model::Event;

namespace {

// What the analysis reads: the test (for names), the execution and the model's relations on it.
struct Ctx {
  const litmus::Test& test;
  const Execution& x;
  Evaluated m;

  const Event& ev(int i) const { return x.graph.events[i]; }
  std::string name(int i) const { return eventName(test, x, i); }
  std::string thread(int i) const {
    return ev(i).thread < 0 ? std::string("the initial state") : test.threads[ev(i).thread].name;
  }
  bool bcEq(int a, int b) const { return a == b || m.d.bc.get(a, b); }  // bc?
  int size() const { return static_cast<int>(x.graph.events.size()); }
};

// Where `q`'s thread runs as seen from `p`'s: the placement a scope has to cover.
std::string whereIs(const Event& p, const Event& q) {
  if (p.gpu != q.gpu) return "on another GPU";
  if (p.cluster != q.cluster) return "in another CTA and cluster";
  if (p.cta != q.cta) return "in another CTA of the cluster";
  return "in the same CTA";
}

// For each side whose scope leaves the other's thread out (model::inScope), the smallest scope
// that would include it. Empty when both scopes include the other thread.
std::vector<std::string> scopeAdvice(const Ctx& c, int p, int q) {
  std::vector<std::string> out;
  for (auto [a, b] : {std::pair{p, q}, std::pair{q, p}}) {
    const Event &ea = c.ev(a), &eb = c.ev(b);
    if (ea.thread < 0 || eb.thread < 0 || model::inScope(ea, eb)) continue;
    std::string wider;
    for (Scope s : {Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys}) {
      Event widened = ea;
      widened.scope = s;
      if (wider.empty() && model::inScope(widened, eb)) wider = litmus::toString(s);
    }
    const std::string head = "scope ." + std::string(litmus::toString(ea.scope)) + " of " + c.name(a) +
                             " does not include " + c.thread(b) + " (" + whereIs(ea, eb) + ")";
    // The effective scope is capped by the state space (§8.3): a wider one written does not help.
    const litmus::Scope written = c.test.threads[ea.thread].code[ea.instr].scope;
    if (written != ea.scope && written != Scope::None)
      out.push_back(head + ": the state space caps its ." + litmus::toString(written) + " at ." +
                    litmus::toString(ea.scope));
    else
      out.push_back(head + ": use ." + wider);
  }
  return out;
}

// Why p and q are not morally strong: the scope that is too narrow, or the model's own reason
// (weak, proxies, aliases) for two memory accesses.
std::vector<std::string> notMorallyStrong(const Ctx& c, int p, int q, const std::string& what) {
  const Event &a = c.ev(p), &b = c.ev(q);
  if (a.strong() && b.strong()) {
    std::vector<std::string> scope = scopeAdvice(c, p, q);
    if (!scope.empty() && a.proxy == b.proxy && (a.va == b.va || !a.isMem() || !b.isMem())) {
      for (auto& s : scope) s = what + " are not morally strong: " + s;
      return scope;
    }
  }
  const std::string why = a.isMem() && b.isMem() ? model::whyNotMorallyStrong(a, b) : "scopes";
  return {what + " are not morally strong (" + c.name(p) + ", " + c.name(q) + "): " + why};
}

std::string semWord(const Event& e) {
  if (!e.strong()) return "weak";
  std::string out = ".";
  out += litmus::toString(e.sem);
  return out;
}

// A kind of pattern as the model defines it (start -> end), with the words its messages use.
struct Pattern {
  BitRel r;
  const char* what;    // "release pattern"
  const char* fences;  // the fences that make one with a plain access
  const char* fix;
};

Pattern releasePattern(const Ctx& c) {
  return {model::unionOf(model::releasePatterns(c.m.s)), "release pattern",
          "fence.release, fence.acq_rel or fence.sc comes before it", "make it .release, or put a fence.acq_rel before it"};
}
Pattern acquirePattern(const Ctx& c) {
  return {model::unionOf(model::acquirePatterns(c.m.s)), "acquire pattern",
          "fence.acquire, fence.acq_rel or fence.sc comes after it", "make it .acquire, or put a fence.acq_rel after it"};
}
Pattern barrierRelease(const Ctx& c) {
  return {model::unionOf(model::barrierReleases(c.m.s)), "releasing arrival",
          "fence.release, fence.acq_rel or fence.sc comes before it", "drop .relaxed, or put a fence.acq_rel before it"};
}
Pattern barrierAcquire(const Ctx& c) {
  return {model::unionOf(model::barrierAcquires(c.m.s)), "acquiring wait",
          "fence.acquire, fence.acq_rel or fence.sc comes after it", "use an acquiring wait, or put a fence.acq_rel after it"};
}

// Why event e is no end of any pattern of p: weak, or no fence of the kind beside it.
std::string noPattern(const Ctx& c, const Pattern& p, int e) {
  if (c.ev(e).isMem() && !c.ev(e).strong())
    return c.name(e) + " is weak and so no " + p.what + " (" + p.fix + ")";
  return c.name(e) + " is no " + p.what + ": it is " + semWord(c.ev(e)) + " and no " + p.fences +
         " in " + c.thread(e) + " (" + p.fix + ")";
}

// The change to the event itself, the first of a pattern's fixes ("make it .release").
std::string selfFix(const Pattern& p) {
  const std::string fix = p.fix;
  return fix.substr(0, fix.find(", or"));
}

// Release side: is there a pattern that ends at `end` and starts at or after `a` (bc?)? Returns
// the problem, or "" when there is one.
std::string releaseSide(const Ctx& c, const Pattern& p, int a, int end) {
  int first = -1;
  for (int v = 0; v < c.size(); ++v) {
    if (!p.r.get(v, end)) continue;
    if (c.bcEq(a, v)) return "";
    if (first < 0) first = v;
  }
  if (first < 0) return noPattern(c, p, end);
  const std::string where = std::string("the ") + p.what + " of " + c.name(end) + " starts at " + c.name(first) +
                            ", which does not come after " + c.name(a);
  // the end is no release itself: strengthening it is the one change that does
  if (!p.r.get(end, end)) return c.name(end) + " is " + semWord(c.ev(end)) + ": " + selfFix(p) + " (" + where + ")";
  return where + " (put the release after it)";
}

// Acquire side: is there a pattern that starts at `start` and ends at or before `b`?
std::string acquireSide(const Ctx& c, const Pattern& p, int start, int b) {
  int last = -1;
  for (int v = 0; v < c.size(); ++v) {
    if (!p.r.get(start, v)) continue;
    if (c.bcEq(v, b)) return "";
    if (last < 0) last = v;
  }
  if (last < 0) return noPattern(c, p, start);
  const std::string where = std::string("the ") + p.what + " of " + c.name(start) + " ends at " + c.name(last) +
                            ", which does not come before " + c.name(b);
  if (!p.r.get(start, start)) return c.name(start) + " is " + semWord(c.ev(start)) + ": " + selfFix(p) + " (" + where + ")";
  return where + " (put the acquire before it)";
}

// The edge u -> v (an rf, or an arrival -> a wait its barrier phase completes) between threads,
// with a on u's side and b on v's: which step of synchronizes-with (§8.9.4) fails. `linked`: the
// edge itself is observation (rf) or morally strong (bar).
Bridge diagnose(const Ctx& c, int a, int b, int u, int v, const Pattern& rel, const Pattern& acq,
                bool linked, const char* kind) {
  Bridge br{u, v, kind, {}};
  // an end that is no pattern itself can be made one: the release end at u, the acquire end at
  // v (both are on the path from a to b already)
  if (std::string p = releaseSide(c, rel, a, u); !p.empty()) {
    br.problems.push_back(p);
    if (!rel.r.get(u, u) && c.ev(u).thread >= 0) br.fixEvent = u, br.fixSem = litmus::Sem::Release;
  }
  if (std::string p = acquireSide(c, acq, v, b); !p.empty()) {
    br.problems.push_back(p);
    if (!acq.r.get(v, v)) br.fixEvent = v, br.fixSem = litmus::Sem::Acquire;
  }
  if (br.problems.size() != 1) br.fixEvent = -1;
  if (!linked) {
    for (auto& p : notMorallyStrong(c, u, v, std::string("the two ends of the ") + kind)) br.problems.push_back(p);
  } else if (br.problems.empty()) {
    // Both patterns exist and the edge links them: their ends are not morally strong.
    for (int p = 0; p < c.size() && br.problems.empty(); ++p)
      for (int q = 0; q < c.size() && br.problems.empty(); ++q)
        if (rel.r.get(p, u) && c.bcEq(a, p) && acq.r.get(v, q) && c.bcEq(q, b) && !c.m.s.ms.get(p, q))
          br.problems = notMorallyStrong(c, p, q, "the release and the acquire");
  }
  return br;
}

bool isScFence(const Event& e) { return e.isFence() && e.sem == litmus::Sem::Sc; }

// Without an rf to synchronize through, only Fence-SC order (a fence.sc in each thread) can
// order two threads: say which is missing, too narrow, or ordered the other way.
std::string withoutRf(const Ctx& c, int a, int b) {
  const std::string lead = "no rf or barrier leads from " + c.thread(a) + " (at or after " + c.name(a) +
                           ") to " + c.thread(b) + " (at or before " + c.name(b) + ")";
  int f1 = -1, f2 = -1;
  for (int v = 0; v < c.size(); ++v) {
    if (isScFence(c.ev(v)) && f1 < 0 && c.m.d.bc.get(a, v)) f1 = v;
    if (isScFence(c.ev(v)) && f2 < 0 && c.m.d.bc.get(v, b)) f2 = v;
  }
  if (f1 < 0 || f2 < 0)
    return lead + ", and no fence.sc " + (f1 < 0 ? "after it in " + c.thread(a) : "before it in " + c.thread(b)) +
           " could order them in Fence-SC order";
  if (!c.m.s.ms.get(f1, f2)) {
    auto why = notMorallyStrong(c, f1, f2, "the fence.sc pair");
    return lead + "; " + why.front();
  }
  return lead + "; the fences " + c.name(f1) + " and " + c.name(f2) +
         " are ordered the other way in Fence-SC order in this execution";
}

// Base causality a -> b holds but is not causality: the accesses use different proxies or
// addresses, and no proxy fence chain turns one view into the other (§8.9.5).
std::string proxyNote(const Ctx& c, int a, int b) {
  const Event &ea = c.ev(a), &eb = c.ev(b);
  const std::string how = ea.proxy != eb.proxy
                              ? std::string("the ") + litmus::toString(ea.proxy) + " proxy and the " +
                                    litmus::toString(eb.proxy) + " proxy"
                              : std::string("two addresses of one location (aliases)");
  const litmus::Proxy other = ea.proxy == litmus::Proxy::Generic ? eb.proxy : ea.proxy;
  const std::string fence = ea.proxy == eb.proxy ? "fence.proxy.alias"
                                                 : "fence.proxy." + std::string(litmus::toString(other));
  return "base causality orders " + c.name(a) + " before " + c.name(b) +
         ", but they access the location through " + how +
         ", and no proxy fence between them makes it causality order (" + fence + ")";
}

SyncGap analyse(const Ctx& c, int a, int b, const std::string& closing, model::Axiom axiom) {
  SyncGap g{a, b, closing, axiom, {}, {}};
  if (c.m.d.bc.get(a, b)) {
    g.note = proxyNote(c, a, b);
    return g;
  }
  const Pattern rel = releasePattern(c), acq = acquirePattern(c);
  for (auto [w, r] : c.x.rf.edges()) {
    if (c.ev(w).thread < 0 || c.ev(w).thread == c.ev(r).thread || !c.bcEq(a, w) || !c.bcEq(r, b)) continue;
    g.bridges.push_back(diagnose(c, a, b, w, r, rel, acq, c.m.d.obs.get(w, r), "rf"));
  }
  const Pattern barRel = barrierRelease(c), barAcq = barrierAcquire(c);
  for (auto [u, v] : c.x.bar.edges()) {
    if (c.ev(u).thread == c.ev(v).thread || !c.bcEq(a, u) || !c.bcEq(v, b)) continue;
    g.bridges.push_back(diagnose(c, a, b, u, v, barRel, barAcq, c.m.s.ms.get(u, v), "barrier"));
  }
  if (g.bridges.empty()) g.note = withoutRf(c, a, b);
  // an earlier grid in the stream: only a launch or griddepcontrol.wait would order it (D37, D38)
  if (c.ev(a).grid < c.ev(b).grid)
    g.note += (g.note.empty() ? "" : "; ") + c.thread(b) +
              "'s grid may run beside " + c.thread(a) + "'s (programmatic launch), and no griddepcontrol.wait before " +
              c.name(b) + " waits for " + c.thread(a) + "'s grid";
  return g;
}

}  // namespace

namespace {

// The events behind the terms, and the reads whose values a final write carries (a dependency,
// or the source read of the same copy: cp.async.bulk writes what it read).
std::vector<int> focusEvents(const Ctx& c, const std::vector<litmus::Term>& terms) {
  std::vector<int> out = termEvents(c.test, c.x, terms);
  const size_t named = out.size();
  for (size_t i = 0; i < named; ++i) {
    const Event& e = c.ev(out[i]);
    if (!e.isWrite() || e.thread < 0) continue;
    for (int v = 0; v < c.size(); ++v)
      if (c.ev(v).isRead() && (c.m.s.dep.get(v, out[i]) || (c.ev(v).thread == e.thread && c.ev(v).instr == e.instr)))
        out.push_back(v);
  }
  return out;
}

// Two writes of one location left unordered by co (they race): either may be the final one.
bool unordered(const Ctx& c, int a, int b) {
  return a != b && c.ev(a).isWrite() && c.ev(b).isWrite() && c.ev(a).loc == c.ev(b).loc &&
         !c.x.co.get(a, b) && !c.x.co.get(b, a);
}

}  // namespace

std::vector<SyncGap> syncGaps(const litmus::Test& test, const Execution& x,
                              const std::vector<litmus::Term>& terms, const litmus::Deadline* deadline) {
  if (deadline) deadline->check();
  const Ctx c{test, x, evaluate(x)};
  const BitRel fr = inv(x.rf) * x.co;
  std::vector<SyncGap> out;
  std::set<std::pair<int, int>> seen;
  // A read that misses a write (fr) is what a stale-read outcome is made of, and a final write
  // that another write precedes in co (or races with) what a coherence outcome is made of: both
  // are reported, between threads, and within one thread where base causality already orders
  // the pair (then only proxies can be missing). A read of another thread's write (rf) is the
  // usual case; it is reported only where something could have ordered the pair the other way
  // (an rf or barrier to synchronize through, or base causality). A pair already ordered the
  // other way in base causality (the write after the read it is "missed" by) lacks nothing.
  auto add = [&](int a, int b, const char* closing, model::Axiom axiom) {
    const bool sameThread = c.ev(a).thread == c.ev(b).thread;
    if (a == b || c.ev(a).thread < 0 || c.ev(b).thread < 0 || c.m.d.cause.get(a, b) || c.m.d.bc.get(b, a)) return;
    // (asynchronous operations of one thread are not in its program order: they count as apart)
    if (sameThread && !c.m.d.bc.get(a, b) && !c.ev(a).isAsync() && !c.ev(b).isAsync()) return;
    if (!seen.insert({a, b}).second) return;
    SyncGap g = analyse(c, a, b, closing, axiom);
    if (unordered(c, a, b)) {
      g.closing = "race";
      g.note = "the two writes are not ordered in coherence order (" +
               model::whyNotMorallyStrong(c.ev(a), c.ev(b)) + "), so either may be final, and reads may see them in either order" +
               (g.note.empty() ? "" : "; " + g.note);
    }
    if (std::string(closing) != "rf" || !g.bridges.empty() || c.m.d.bc.get(a, b)) out.push_back(std::move(g));
  };
  // (focus events: the condition's or the named state's)
  for (int e : focusEvents(c, terms)) {
    for (int v = 0; v < c.size(); ++v) {
      if (deadline) deadline->check();
      if (c.ev(e).isRead() && fr.get(e, v)) add(v, e, "fr", model::Axiom::Causality);
      // a read of a write that races with another: no fr at all, the reads may see either first
      for (int w = 0; w < c.size() && c.ev(e).isRead(); ++w)
        if (x.rf.get(w, e) && w < v && unordered(c, w, v)) add(w, v, "co", model::Axiom::Coherence);
      if (c.ev(e).isRead() && x.rf.get(v, e)) add(e, v, "rf", model::Axiom::Causality);
      if (x.co.get(v, e) || unordered(c, v, e)) add(e, v, "co", model::Axiom::Coherence);
      // a read of a write that another write (a refill) overtook in co: the write read should
      // have come first
      for (int w = 0; w < c.size() && c.ev(e).isRead(); ++w)
        if (x.rf.get(w, e) && x.co.get(v, w)) add(w, v, "co", model::Axiom::Coherence);
    }
  }
  // The weakest link first: bridges that one change would make synchronize before those that
  // need several, and the gaps in the order of their best bridge (weakestLink reads the first).
  auto cost = [](const Bridge& b) { return b.problems.empty() ? size_t{1000} : b.problems.size(); };
  for (SyncGap& g : out)
    std::stable_sort(g.bridges.begin(), g.bridges.end(),
                     [&](const Bridge& a, const Bridge& b) { return cost(a) < cost(b); });
  auto best = [&](const SyncGap& g) { return g.bridges.empty() ? size_t{2000} : cost(g.bridges.front()); };
  std::stable_sort(out.begin(), out.end(), [&](const SyncGap& a, const SyncGap& b) { return best(a) < best(b); });
  return out;
}

namespace {

// The terms of the parts of `c` that `state` satisfies; nullopt where a part decides nothing
// smaller (a negation, or a comparison of two terms the state does not both show).
void satisfiedParts(const litmus::Cond& c, const litmus::Test& test, const litmus::State& state,
                    std::vector<litmus::Term>& out) {
  using K = litmus::Cond::Kind;
  if (c.kind == K::Or) {
    for (const auto& kid : c.kids)
      if (litmus::evalCondition(kid, test.observed, state)) return satisfiedParts(kid, test, state, out);
  }
  if (c.kind == K::And) {
    for (const auto& kid : c.kids) satisfiedParts(kid, test, state, out);
    return;
  }
  for (const auto& t : litmus::conditionTerms(c)) out.push_back(t);
}

}  // namespace

std::vector<litmus::Term> satisfiedTerms(const litmus::Test& test, const litmus::State& state) {
  // for forall, or a state the body does not hold in, every term of the condition counts
  if (test.quantifier == litmus::Quantifier::Forall || !litmus::evalCondition(test.condition, test.observed, state))
    return litmus::conditionTerms(test.condition);
  std::vector<litmus::Term> out;
  satisfiedParts(test.condition, test, state, out);
  return out.empty() ? litmus::conditionTerms(test.condition) : out;
}

// The weakest link's change (Bridge::fixEvent), checked: the test again with that instruction
// made .release or .acquire; is the explained state still allowed? (Result::fixChecked)
void checkFix(const litmus::Test& test, const Options& options, const litmus::Deadline& deadline, Result& r) {
  if (r.gaps.empty() || r.gaps.front().bridges.empty() || r.gaps.front().bridges.front().fixEvent < 0) return;
  const Bridge& b = r.gaps.front().bridges.front();
  const Execution& x = r.witnesses[r.explainedState];
  const model::Event& e = x.graph.events[b.fixEvent];
  litmus::Test fixed = test;
  litmus::Instr& in = fixed.threads[e.thread].code[e.instr];
  in.sem = b.fixSem;
  if (in.scope == Scope::None) in.scope = Scope::Gpu;
  Options o = options;
  o.explain = o.witnesses = o.alternatives = false;
  o.explainState.reset();
  o.explainPhase = nullptr;
  o.spentSeconds = 0;
  o.timeoutSeconds = deadline.set() ? deadline.secondsLeft() : 0;
  const litmus::Outcome out = check(fixed, o).outcome;
  const std::string what = "with " + test.threads[e.thread].name + ": " + test.threads[e.thread].code[e.instr].text +
                           " made ." + litmus::toString(b.fixSem);
  const litmus::State& st = r.outcome.states[r.explainedState];
  if (out.status != litmus::Status::Done)
    r.fixChecked = what + ", the check did not finish (" + out.statusDetail + "): the change is not checked";
  else if (std::find(out.states.begin(), out.states.end(), st) == out.states.end())
    r.fixChecked = what + ", this state is not allowed (checked)";
  else
    r.fixChecked = what + ", this state is still allowed (checked): other links are missing too";
}

void explainAllowed(const litmus::Test& test, const Options& options, const litmus::Deadline& deadline,
                    Result& r) {
  if (options.explainPhase) options.explainPhase("gaps");
  const auto& states = r.outcome.states;
  auto wanted = [&](const litmus::State& s) {
    if (options.explainState) return litmus::matches(*options.explainState, s);
    const bool body = litmus::evalCondition(test.condition, test.observed, s);
    return test.quantifier == litmus::Quantifier::Forall ? !body : body;
  };
  for (size_t i = 0; i < states.size() && r.explainedState < 0; ++i)
    if (wanted(states[i])) r.explainedState = static_cast<int>(i);
  if (r.explainedState < 0 || static_cast<size_t>(r.explainedState) >= r.witnesses.size()) return;
  const Execution& x = r.witnesses[r.explainedState];
  const std::vector<litmus::Term> terms =
      options.explainState ? focusTerms(test, options.explainState) : satisfiedTerms(test, x.state);
  r.gaps = syncGaps(test, x, terms, &deadline);
  checkFix(test, options, deadline, r);
}

std::string weakestLink(const std::vector<SyncGap>& gaps) {
  for (const SyncGap& g : gaps)
    for (const Bridge& b : g.bridges)
      if (!b.problems.empty()) return b.problems.front();
  return gaps.empty() ? std::string() : gaps.front().note;
}

void printWitness(std::ostream& os, const litmus::Test& test, const Execution& x) {
  const int n = static_cast<int>(x.graph.events.size());
  for (auto [w, r] : x.rf.edges())
    os << "  rf  " << eventName(test, x, w) << "  -->  " << eventName(test, x, r) << "\n";
  // co is a strict order per location: show each write's immediate successor only
  for (auto [a, b] : x.co.edges()) {
    if (x.graph.events[a].thread < 0) continue;
    bool immediate = true;
    for (int v = 0; v < n && immediate; ++v) immediate = !(x.co.get(a, v) && x.co.get(v, b));
    if (immediate) os << "  co  " << eventName(test, x, a) << "  -->  " << eventName(test, x, b) << "\n";
  }
}

void printGaps(std::ostream& os, const litmus::Test& test, const Execution& x,
               const std::vector<SyncGap>& gaps) {
  if (gaps.empty())
    os << "Nothing is missing: no event of this state misses, or reads ahead of, a write of "
          "another thread.\n";
  for (const SyncGap& g : gaps) {
    os << "Nothing orders " << eventName(test, x, g.from) << " before " << eventName(test, x, g.to)
       << " in causality order (with it, ";
    if (g.closing == "race") os << model::axiomName(g.axiom) << " would order them in co):\n";
    else os << "the " << g.closing << " edge back would violate " << model::axiomName(g.axiom) << "):\n";
    if (!g.note.empty()) os << "  " << g.note << "\n";
    for (const Bridge& b : g.bridges) {
      os << "  the " << b.kind << " " << eventName(test, x, b.from) << " -> " << eventName(test, x, b.to)
         << " does not synchronize:\n";
      for (const std::string& p : b.problems) os << "    " << p << "\n";
    }
  }
}

}  // namespace checker
