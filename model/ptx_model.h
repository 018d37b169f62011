// The PTX memory consistency model (PTX ISA chapter 8), written once over an abstract relation
// type. The explicit engine instantiates it with concrete bit matrices (model::BitRel), the
// symbolic engine with matrices of Boolean terms. `a * b` is sequential composition (herd's
// `a ; b`), `|` union, `&` intersection, `-` difference, [S] a set as an identity relation.
#pragma once

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
  Rel FRel, FAcq;            // fences with release / acquire semantics (fence.sc included)
  Rel po;                    // program order (§8.9.1)
  Rel po_loc;                // po between overlapping operations (same virtual address)
  Rel loc;                   // same physical location (what rf, co and fr relate)
  Rel ms;                    // morally strong (§8.7)
  Rel rmw;                   // read half -> write half of one atom/red
  Rel dep;                   // syntactic data, address and control dependencies
  Rel ppStatic;              // memory pairs whose base causality is proxy-preserved as is (§8.9.5)
  // Each proxy fence present, as [F]; and the memory pairs it makes proxy-preserved when it lies
  // on the base-causality path between them (§8.9.5 clause 3 and its proxy analogues).
  std::vector<std::pair<Rel, Rel>> proxyFences;
};

// The relations an execution chooses: reads-from, coherence order, Fence-SC order.
template <class Rel>
struct Choice {
  Rel rf, co, sc;
};

template <class Rel>
struct Derived {
  Rel obs, sw, bc, cause;
};

// The orders of §8.9 that do not depend on coherence order: observation order, synchronizes-with,
// base causality and causality order. (The explicit engine derives them once per rf and Fence-SC
// choice, before it enumerates coherence orders.)
template <class Rel>
Derived<Rel> derive(const Static<Rel>& s, const Rel& rf, const Rel& sc) {
  // §8.9.2 observation order: morally strong rf, continued through atomic RMWs
  const Rel msrf = s.ms & rf;
  const Rel obs = msrf * star(s.rmw * msrf);
  // §8.8 release patterns (first operation -> the strong write on M) ...
  const Rel relPat = s.RelW | (s.RelW * s.po_loc * s.StrongW) | (s.FRel * s.po * s.StrongW);
  // ... and acquire patterns (the strong read of M -> last operation)
  const Rel acqPat = s.AcqR | (s.StrongR * s.po_loc * s.AcqR) | (s.StrongR * s.po * s.FAcq);
  // §8.9.4 synchronizes-with: patterns whose ends are morally strong, and Fence-SC order
  const Rel sw = (s.ms & (relPat * obs * acqPat)) | sc;
  // §8.9.5 base causality, proxy-preserved base causality, causality order
  const Rel bc = plus(s.po | sw);
  Rel ppbc = bc & s.ppStatic;
  for (const auto& [fence, covers] : s.proxyFences) ppbc = ppbc | ((bc * fence * bc) & covers);
  const Rel cause = ppbc | (obs * ppbc);
  return Derived<Rel>{obs, sw, bc, cause};
}

// The six axioms of §8.10 on one candidate execution. `check(axiom, constraint)` decides whether
// the constraint holds (explicit engine) or records it (symbolic engine); evaluation stops at the
// first constraint reported false. Cheap axioms come first so that the explicit engine fails fast.
template <class Rel, class Check>
bool axioms(const Static<Rel>& s, const Choice<Rel>& x, const Derived<Rel>& d, Check&& check) {
  // §8.9.7 communication order: from-reads completes rf and co
  const Rel fr = inv(x.rf) * x.co;
  const Rel com = x.rf | x.co | fr;

  // §8.10.5 Sequential consistency per location
  if (!check(Axiom::ScPerLocation, acyclic((s.ms & com) | s.po_loc))) return false;
  // §8.10.4 No thin air
  if (!check(Axiom::NoThinAir, acyclic(x.rf | s.dep))) return false;
  // §8.10.3 Atomicity (of read-modify-writes against morally strong writes)
  if (!check(Axiom::Atomicity, empty(((s.ms & fr) * (s.ms & x.co)) & s.rmw))) return false;
  // §8.10.1 Coherence
  if (!check(Axiom::Coherence, subset((s.W * d.cause * s.W) & s.loc, x.co))) return false;
  // §8.10.6 Causality
  if (!check(Axiom::Causality, irreflexive((x.rf | fr) * d.cause))) return false;
  // §8.10.2 Fence-SC (causality between fences is base causality: they are not memory operations)
  if (!check(Axiom::FenceSc, irreflexive(x.sc * d.bc))) return false;
  return true;
}

template <class Rel, class Check>
bool ptxModel(const Static<Rel>& s, const Choice<Rel>& x, Check&& check, Derived<Rel>* out = nullptr) {
  const Derived<Rel> d = derive(s, x.rf, x.sc);
  if (out) *out = d;
  return axioms(s, x, d, check);
}

}  // namespace model
