// The PTX memory consistency model (PTX ISA chapter 8), written once over an abstract relation
// type. The explicit engine instantiates it with concrete bit matrices (model::BitRel), the
// symbolic engine with matrices of Boolean terms. `a * b` is sequential composition (herd's
// `a ; b`), `|` union, `&` intersection, `-` difference, [S] a set as an identity relation.
#pragma once

#include <array>
#include <concepts>
#include <optional>
#include <vector>

#include "model/axioms.h"

namespace model {

// Relations fixed by the events alone (computed once per combination of thread paths).
template <class Rel>
struct Static {
  Rel W, M;                  // [writes] (initial writes included), [memory operations]
  Rel RelW;                  // release writes: st.release, release halves of atom/red (§8.4)
  Rel StrongW, StrongR;      // strong writes; strong reads, read halves of red excluded (§8.8)
  Rel AcqR;                  // acquire reads: ld.acquire, acquire halves of atom
  Rel FRel, FAcq;            // fences with release / acquire semantics (fence.sc and the wait
                             // of bar.sync/bar.red included: D23)
  Rel Arrive, ArriveRel;     // barrier arrivals; those with release semantics
  Rel Wait, WaitAcq;         // barrier waits; those with acquire semantics
  Rel po;                    // program order (§8.9.1), less what asynchronous operations leave out
  Rel poPlus;                // po+, from which base causality's closure starts (concrete relations only)
  Rel poAsync;               // issuing thread's earlier events -> an asynchronous operation (D30)
  bool async = false;        // some event is asynchronous (poAsync is not empty)
  Rel po_loc;                // po between overlapping operations (same virtual address)
  Rel loc;                   // same physical location (what rf, co and fr relate)
  Rel ms;                    // morally strong (§8.7), mbarrier operations of one object among them (D35)
  Rel msSync;                // morally strong by scope: the ends of a synchronization (D35: an
                             // mbarrier wait's scope still bounds whom it synchronizes with)
  Rel rmw;                   // read half -> write half of one atom/red
  Rel dep;                   // syntactic data, address and control dependencies
  // D38 `gates`: each read a gate's opening depends on -> the events of the dependent grid
  // (model/grids.h); a scheduling order that only No thin air reads.
  Rel gate;
  bool gated = false;        // gate is not empty
  Rel ppStatic;              // memory pairs whose base causality is proxy-preserved as is (§8.9.5)
  // Views (D27): an access is made through a proxy and a generic address, its view. views[v] is
  // [accesses through view v]; PF is [proxy fences]; each step says which fences turn view
  // `from` into view `to` (both ways for the bi-directional fences); chain bounds how many
  // fences a chain between two views needs.
  struct ViewStep {
    int from, to;
    Rel fences;
  };
  std::vector<Rel> views;
  std::vector<bool> viewGeneric;  // per view: through the generic proxy
  Rel PF;
  Rel sameCta;                    // pairs of events of one CTA
  std::vector<ViewStep> viewSteps;
  int chain = 0;
  // The grid boundary (model/grids.h): the events of the grids a launch or griddepcontrol.wait
  // waits for -> that launch or wait (D37-D39).
  Rel grid;
  bool grids = false;             // some launch or grid wait orders something (grid is not empty)
  bool gridAllProxies = true;     // the boundary is proxy-preserved (D39's default reading)
  // Restricted fences (§9.7.13.4, D29): fence.mbarrier_init orders only the thread's prior
  // mbarrier.init, .sync_restrict::shared::cta only operations on objects in the fence CTA's
  // shared memory, .sync_restrict::shared::cluster only those in its cluster's. FRelU/FAcqU are
  // the unrestricted release/acquire fences (FRel/FAcq hold all, for the names of the patterns).
  // Each key is a set of events (`from`) and the restricted fences (`rel`, `acq`) that apply to
  // them: a causality path from X may pass a restricted fence only when that fence applies to X.
  // The pairs the axioms read relate one location (Coherence, Causality) or fences (Fence-SC,
  // to which no restricted fence applies), so a condition on X is one on both ends.
  struct RestrictKey {
    Rel from, rel, acq;
    Rel relPat, acqPat, barRel, barAcq;  // the patterns with the fences that apply (withPatterns)
  };
  Rel FRelU, FAcqU;
  std::vector<RestrictKey> restrictKeys;
  bool restricted = false;        // some restricted fence releases or acquires
  // The union of the release patterns, acquire patterns, barrier releases and barrier acquires
  // below, every fence counted: they depend on the events only, so they are built once per
  // combination of paths (withPatterns) rather than once per derivation.
  Rel relPat, acqPat, barRel, barAcq;
};

// The relations an execution chooses: reads-from, coherence order, Fence-SC order, and `bar`:
// each barrier arrival -> the waits that its barrier phase completes (model/barriers.h).
template <class Rel>
struct Choice {
  Rel rf, co, sc, bar;
};

template <class Rel>
struct Derived {
  Rel obs, sw, bc, cause;
  // What bc and cause were derived from, for derive() to reuse on a larger rf: proxy-preserved
  // base causality, and per restricted-fence key its synchronizes-with (empty: none restricted).
  Rel ppbc;
  std::vector<Rel> keySw;
};

// §8.8 release patterns, first operation -> the strong write on M, one named part per form (the
// names label the steps of an explanation of causality, checker/explain.cpp) ...
// `fRel`/`fAcq`: the release/acquire fences that count (all of them unless a restriction, D29,
// leaves some out).
template <class Rel>
std::array<Part<Rel>, 3> releasePatterns(const Static<Rel>& s, const Rel& fRel) {
  return {part("release", s.RelW), part("release ; po_loc", s.RelW * s.po_loc * s.StrongW),
          part("fence ; po", fRel * s.po * s.StrongW)};
}
template <class Rel>
std::array<Part<Rel>, 3> releasePatterns(const Static<Rel>& s) { return releasePatterns(s, s.FRel); }
// ... and acquire patterns, the strong read of M -> last operation.
template <class Rel>
std::array<Part<Rel>, 3> acquirePatterns(const Static<Rel>& s, const Rel& fAcq) {
  return {part("acquire", s.AcqR), part("po_loc ; acquire", s.StrongR * s.po_loc * s.AcqR),
          part("po ; fence", s.StrongR * s.po * fAcq)};
}
template <class Rel>
std::array<Part<Rel>, 3> acquirePatterns(const Static<Rel>& s) { return acquirePatterns(s, s.FAcq); }
// Barriers: an arrival, released by itself or a fence before it, synchronizes with each wait its
// phase completes, acquiring by itself or a fence after it (§9.7.13.1, D23, D26).
template <class Rel>
std::array<Part<Rel>, 2> barrierReleases(const Static<Rel>& s, const Rel& fRel) {
  return {part("release arrive", s.ArriveRel), part("fence ; po", fRel * s.po * s.Arrive)};
}
template <class Rel>
std::array<Part<Rel>, 2> barrierReleases(const Static<Rel>& s) { return barrierReleases(s, s.FRel); }
template <class Rel>
std::array<Part<Rel>, 2> barrierAcquires(const Static<Rel>& s, const Rel& fAcq) {
  return {part("acquire wait", s.WaitAcq), part("po ; fence", s.Wait * s.po * fAcq)};
}
template <class Rel>
std::array<Part<Rel>, 2> barrierAcquires(const Static<Rel>& s) { return barrierAcquires(s, s.FAcq); }
// The union of the parts (taken by value, so that derive() moves rather than copies them).
template <class Rel, size_t N>
Rel unionOf(std::array<Part<Rel>, N> parts) {
  Rel r = std::move(parts[0].r).take();
  for (size_t i = 1; i < N; ++i) r = std::move(r) | *parts[i].r;
  return r;
}

// §8.9.4 synchronizes-with from the release patterns relPat and acquire patterns acqPat (§8.8),
// whose ends are morally strong, Fence-SC order, and barriers (barRel, barAcq).
template <class Rel>
Rel synchronizesWith(const Static<Rel>& s, const Rel& obs, const Rel& sc, const Rel& bar, const Rel& relPat,
                     const Rel& acqPat, const Rel& barRel, const Rel& barAcq) {
  const Rel swMem = s.msSync & (relPat * obs * acqPat);
  return swMem | (s.ms & (barRel * (s.ms & bar) * barAcq)) | sc;
}

// ... counting the release fences fRel and acquire fences fAcq.
template <class Rel>
Rel synchronizesWith(const Static<Rel>& s, const Rel& obs, const Rel& sc, const Rel& bar, const Rel& fRel,
                     const Rel& fAcq) {
  return synchronizesWith(s, obs, sc, bar, unionOf(releasePatterns(s, fRel)),
                          unionOf(acquirePatterns(s, fAcq)), unionOf(barrierReleases(s, fRel)),
                          unionOf(barrierAcquires(s, fAcq)));
}

// The static relations with their patterns built (Static::relPat ...).
template <class Rel>
void withPatterns(Static<Rel>& s) {
  s.relPat = unionOf(releasePatterns(s));
  s.acqPat = unionOf(acquirePatterns(s));
  s.barRel = unionOf(barrierReleases(s));
  s.barAcq = unionOf(barrierAcquires(s));
  for (auto& key : s.restrictKeys) {
    const Rel fRel = s.FRelU | key.rel, fAcq = s.FAcqU | key.acq;
    key.relPat = unionOf(releasePatterns(s, fRel));
    key.acqPat = unionOf(acquirePatterns(s, fAcq));
    key.barRel = unionOf(barrierReleases(s, fRel));
    key.barAcq = unionOf(barrierAcquires(s, fAcq));
  }
}

// For evaluating fixed points: whether r is known to be empty, and the part of r beyond what
// `known` has. Concrete relations tell; symbolic ones (which cannot) answer "not known empty"
// and r itself, which gives the same fixed point after the same number of steps.
template <class Rel>
bool nothing(const Rel& r) {
  if constexpr (requires { { r.empty() } -> std::convertible_to<bool>; }) return r.empty();
  else return false;
}
template <class Rel>
Rel beyond(Rel r, const Rel& known) {
  if constexpr (requires { { r.empty() } -> std::convertible_to<bool>; }) return std::move(r) - known;
  else return r;
}

// (po | extra)+. Concrete relations add extra's edges to po+ one at a time (few: an edge a -> b
// joins what reaches a to what b reaches), rather than closing the dense po again on every
// derivation; symbolic ones close the union.
template <class Rel>
Rel closeOver(const Static<Rel>& s, const Rel& extra) {
  if constexpr (requires { plusOver(s.poPlus, extra); }) return plusOver(s.poPlus, extra);
  else return plus(s.po | extra);
}

template <class Rel>
struct Causal {
  Rel bc, ppbc;
};

// §8.9.5 base causality and proxy-preserved base causality over synchronizes-with sw. With
// `rows` ([S]), only S's rows of the result are wanted (derive() keeps, of each group of events
// under restricted fences, the group's rows). A row of bc and ppbc reads, past the closure, only
// bc's rows of itself and of the proxy fences its chains pass, so the other rows are dropped
// before the dear steps (not across a grid boundary, which reads any row).
template <class Rel>
Causal<Rel> baseCausality(const Static<Rel>& s, const Rel& sw, const Rel* rows = nullptr) {
  // An asynchronous operation comes after the issuing thread's earlier operations, but nothing
  // reaches beyond it that way: its completion does not carry the thread's history (§8.9.1.1,
  // D30). A completed grid is before the launches and griddepcontrol.waits that wait for it
  // (D37-D39).
  const Rel closed = closeOver(s, s.grids ? sw | s.grid : sw);
  const Rel bc0 = rows && !s.grids ? (*rows | s.PF) * closed : closed;
  const Rel bc = let("bc", s.async ? bc0 | s.poAsync | (bc0 * s.poAsync) : bc0);
  // §8.9.5 proxy-preserved base causality: as is through one view, or on one location through a
  // chain of proxy fences along base causality, each fence turning one view into the next
  // (clause 3 for aliases; D2, D27). reach[v]: X -> X, or -> a fence after which X is seen via v.
  // A fence reaches a non-generic proxy's accesses only in its own CTA (D27).
  Rel ppbc = bc & s.ppStatic;
  std::vector<Rel> reach = s.views;
  // bc ; [fences of a step], once per step rather than once per link of the chain
  std::vector<Rel> toFence;
  if (s.chain > 0)
    for (const auto& st : s.viewSteps) toFence.push_back(bc * st.fences);
  // Link i extends only the chains that link i-1 found (`added`): the same reach as extending
  // every chain each time, since composition distributes over union.
  std::vector<std::optional<Rel>> added(s.views.begin(), s.views.end());
  for (int i = 0; i < s.chain; ++i) {
    std::vector<std::optional<Rel>> found(reach.size());
    for (size_t k = 0; k < s.viewSteps.size(); ++k) {
      const auto& st = s.viewSteps[k];
      if (!added[st.from]) continue;
      Rel step = *added[st.from] * toFence[k];
      if (!s.viewGeneric[st.from]) step = std::move(step) & s.sameCta;
      found[st.to] = found[st.to] ? std::move(*found[st.to]) | step : std::move(step);
    }
    bool more = false;
    for (size_t v = 0; v < reach.size(); ++v) {
      added[v].reset();
      if (!found[v]) continue;
      Rel fresh = beyond(std::move(*found[v]), reach[v]);
      if (nothing(fresh)) continue;
      reach[v] = std::move(reach[v]) | fresh;
      added[v] = std::move(fresh);
      more = true;
    }
    if (!more) break;  // no chain grew: none will
  }
  const Rel fenceBc = s.chain > 0 ? s.PF * bc : Rel();
  for (size_t v = 0; v < reach.size() && s.chain > 0; ++v) {
    const Rel last = fenceBc * s.views[v];
    ppbc = ppbc | ((reach[v] * (s.viewGeneric[v] ? last : last & s.sameCta)) & s.loc);
  }
  // A grid's memory operations are performed and visible when it completes (§9.7.13.13), to
  // every proxy: base causality through a grid boundary is proxy-preserved (D39).
  if (s.grids && s.gridAllProxies) ppbc = ppbc | (((s.grid | bc * s.grid) * bc) & s.loc);
  return {bc, let("ppbc", std::move(ppbc))};
}

// The orders of §8.9 that do not depend on coherence order: observation order, synchronizes-with,
// base causality and causality order. (The explicit engine derives them once per rf and Fence-SC
// choice, before it enumerates coherence orders.)
//
// Base causality reads rf only through synchronizes-with: `like`, the relations derived from a
// smaller rf (the explicit engine's previous step), lends its bc and ppbc where every
// synchronizes-with they came from is unchanged (a relation type with ==), which is most steps
// of a pipeline's search: a read that is not an acquire adds observation edges but no sw.
template <class Rel>
Derived<Rel> derive(const Static<Rel>& s, const Rel& rf, const Rel& sc, const Rel& bar,
                    const Derived<Rel>* like = nullptr) {
  // §8.9.2 observation order: morally strong rf, continued through atomic RMWs
  const Rel msrf = s.ms & rf;
  Derived<Rel> d;
  d.obs = let("obs", msrf * star(s.rmw * msrf));
  // §8.9.4 synchronizes-with, every fence counted (what explanations name)
  d.sw = let("sw", synchronizesWith(s, d.obs, sc, bar, s.relPat, s.acqPat, s.barRel, s.barAcq));
  // §9.7.13.4 (D29): a restricted fence's effect applies only to operations on objects of its
  // state space (or the thread's prior mbarrier.init): base causality from X passes only the
  // restricted fences that apply to X, one key of events at a time.
  if (s.restricted)
    for (const auto& key : s.restrictKeys)
      d.keySw.push_back(synchronizesWith(s, d.obs, sc, bar, key.relPat, key.acqPat, key.barRel, key.barAcq));
  bool reuse = false;
  if constexpr (requires { { rf == rf } -> std::same_as<bool>; }) {
    reuse = like && like->keySw.size() == d.keySw.size() && (s.restricted || like->sw == d.sw);
    for (size_t k = 0; reuse && k < d.keySw.size(); ++k) reuse = like->keySw[k] == d.keySw[k];
  }
  Causal<Rel> c;
  if (reuse) {
    c = {like->bc, like->ppbc};
  } else if (!s.restricted) {
    c = baseCausality(s, d.sw);
  } else {
    for (size_t k = 0; k < s.restrictKeys.size(); ++k) {
      const auto& key = s.restrictKeys[k];
      const Causal<Rel> ck = baseCausality(s, d.keySw[k], &key.from);
      if (k == 0) {
        c = {key.from * ck.bc, key.from * ck.ppbc};
      } else {
        c.bc = c.bc | (key.from * ck.bc);
        c.ppbc = c.ppbc | (key.from * ck.ppbc);
      }
    }
  }
  // §8.9.5 causality order
  d.cause = let("cause", c.ppbc | (d.obs * c.ppbc));
  d.bc = std::move(c.bc);
  d.ppbc = std::move(c.ppbc);
  return d;
}

// A check may skip axioms it already knows the answer to (`check.wants(axiom)`, e.g. the
// explicit engine's case analysis on co, which changes only co): a skipped constraint is not
// even built. A check without `wants` is asked about every axiom.
template <class Check> bool wants(const Check& check, Axiom a) {
  if constexpr (requires { check.wants(a); }) return check.wants(a);
  else return true;
}

// The six axioms of §8.10 on one candidate execution. `check(axiom, constraint)` decides whether
// the constraint holds (explicit engine) or records it (symbolic engine); evaluation stops at the
// first constraint reported false. Cheap axioms come first so that the explicit engine fails fast.
//
// Each constraint is built from named parts (model/axioms.h): the names label the edges of an
// explanation, and the relation the constraint decides is built from those same parts. Its text
// (explanations, docs/model.md) is this code evaluated over model::Formula (model/formula.h).
// One line an axiom, after the section it encodes.
//
// Monotonicity, which the explicit engine's pruning relies on (docs/model.md, "Pruning and
// explanations"): every relation here and in derive() is built from rf, co, sc and bar with
// union, intersection, composition, converse and closures only, never with difference or
// complement of a chosen relation. So each grows (weakly) as the choice grows, and an acyclic,
// irreflexive or empty constraint that fails on part of an execution fails on all of it. Keep it so.
template <class Rel, class Check>
bool axioms(const Static<Rel>& s, const Choice<Rel>& x, const Derived<Rel>& d, Check&& check) {
  auto decide = [&](Axiom a, auto&& build) { return !wants(check, a) || check(a, build()); };
  // §8.9.7 communication order: from-reads completes rf and co
  const Rel fr = let("fr", inv(x.rf) * x.co);
  // §8.10.5 Sequential consistency per location (com = rf | co | fr)
  if (!decide(Axiom::ScPerLocation, [&] { return acyclic(either(part("po", s.po_loc), part("rf", s.ms & x.rf), part("co", s.ms & x.co), part("fr", s.ms & fr))); })) return false;
  // §8.10.4 No thin air (D38 `gates`: a dependent grid's events come after the reads its start depended on)
  if (!decide(Axiom::NoThinAir, [&] { return acyclic(s.gated ? either(part("rf", x.rf), part("dep", s.dep), part("gate", s.gate)) : either(part("rf", x.rf), part("dep", s.dep))); })) return false;
  // §8.10.3 Atomicity (of read-modify-writes against morally strong writes)
  if (!decide(Axiom::Atomicity, [&] { return empty(seq(only("fr", s.ms & fr), only("co", s.ms & x.co)), only("rmw", s.rmw)); })) return false;
  // §8.10.1 Coherence: causality between writes of one location is in coherence order
  if (!decide(Axiom::Coherence, [&] { return subset(seq(filter("[W]", s.W), only("cause", d.cause), filter("[W]", s.W)), filter("loc", s.loc), part("co", x.co)); })) return false;
  // §8.10.6 Causality
  if (!decide(Axiom::Causality, [&] { return irreflexive(either(part("rf", x.rf), part("fr", fr)), only("cause", d.cause)); })) return false;
  // §8.10.2 Fence-SC (causality between fences is base causality: they are not memory operations)
  return decide(Axiom::FenceSc, [&] { return irreflexive(only("sc", x.sc), only("bc", d.bc)); });
}

template <class Rel, class Check>
bool ptxModel(const Static<Rel>& s, const Choice<Rel>& x, Check&& check, Derived<Rel>* out = nullptr) {
  const Derived<Rel> d = derive(s, x.rf, x.sc, x.bar);
  if (out) *out = d;
  return axioms(s, x, d, check);
}

}  // namespace model
