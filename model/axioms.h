// The vocabulary in which the PTX axioms are written, independent of how relations are
// represented: a constraint names its axiom and has one of four shapes over relation values.
//
// A constraint is built from named parts, and everything the checker says about an axiom comes
// from it: the engines decide it from `r` (and `sup`), the explicit engine prunes with it
// (checker/explicit_engine.cpp), and an explanation of a violation is read off its shape and the
// names of its parts (checker/explain.cpp). So the model is written once, in ptx_model.h.
#pragma once

#include <array>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace model {

enum class Axiom { Coherence, FenceSc, Atomicity, NoThinAir, ScPerLocation, Causality };
inline constexpr std::array<Axiom, 6> kAxioms = {Axiom::Coherence,     Axiom::FenceSc,
                                                 Axiom::Atomicity,     Axiom::NoThinAir,
                                                 Axiom::ScPerLocation, Axiom::Causality};

inline std::string_view axiomName(Axiom a) {
  switch (a) {
    case Axiom::Coherence: return "Coherence";
    case Axiom::FenceSc: return "Fence-SC";
    case Axiom::Atomicity: return "Atomicity";
    case Axiom::NoThinAir: return "No-Thin-Air";
    case Axiom::ScPerLocation: return "SC-per-Location";
    case Axiom::Causality: return "Causality";
  }
  return "?";
}

// The PTX ISA section each axiom encodes.
inline std::string_view axiomSection(Axiom a) {
  switch (a) {
    case Axiom::Coherence: return "§8.10.1";
    case Axiom::FenceSc: return "§8.10.2";
    case Axiom::Atomicity: return "§8.10.3";
    case Axiom::NoThinAir: return "§8.10.4";
    case Axiom::ScPerLocation: return "§8.10.5";
    case Axiom::Causality: return "§8.10.6";
  }
  return "";
}

enum class Shape { Acyclic, Irreflexive, Empty, Subset };

// A relation a constraint reads: one of the relations of the execution or the model, borrowed
// while the constraint is built and decided (the explicit engine builds constraints on every
// step of its search, and copies of relations were a large part of its time), or one computed
// for the constraint, owned. A copy owns its relation, so a constraint kept past the relations
// it was built from (an explanation's) holds what it read; a move keeps what it had.
template <class Rel>
class Held {
 public:
  Held() = default;
  Held(const Rel& r) : ref_(&r) {}                 // NOLINT: borrowed
  Held(Rel&& r) : own_(std::move(r)) {}            // NOLINT: owned
  Held(const Held& o) : own_(o.get()) {}
  Held& operator=(const Held& o) {
    if (this != &o) {
      Rel copy = o.get();
      own_ = std::move(copy);
      ref_ = nullptr;
    }
    return *this;
  }
  Held(Held&&) noexcept = default;
  Held& operator=(Held&&) noexcept = default;
  ~Held() = default;
  // The same relation, borrowed from this one (which must outlive it).
  Held borrowed() const { return Held(get()); }
  const Rel& get() const { return ref_ ? *ref_ : own_; }
  const Rel& operator*() const { return get(); }
  const Rel* operator->() const { return &get(); }
  // The relation as a value: moved out if owned, copied if borrowed.
  Rel take() && { return ref_ ? *ref_ : std::move(own_); }

 private:
  const Rel* ref_ = nullptr;
  Rel own_;
};

// A relation under the name the model gives it; the name only labels edges in explanations.
template <class Rel>
struct Part {
  std::string_view name;
  Held<Rel> r;
};

// One step of a constraint's relation: the union of named parts (an edge is named after the
// first part that has it). A filter is a set [S] or a restriction such as `loc`: it narrows the
// relation and is left out of explanations.
template <class Rel> struct Factor;
template <class Rel> using Path = std::vector<Factor<Rel>>;

template <class Rel>
struct Factor {
  std::vector<Part<Rel>> parts;
  Held<Rel> r;
  bool filter = false;
};

// A constraint on the relation path[0] ; path[1] ; ... ; path[k-1] (intersected with `within`
// when it has parts), held as `r`. Subset: r must be included in `sup`, which the model calls
// `supName`. Its text is printed from the constraint itself (model/formula.h), not written beside it.
template <class Rel>
struct Constraint {
  Shape shape;
  Path<Rel> path;
  Factor<Rel> within;
  Rel r;
  Held<Rel> sup;
  std::string_view supName;
};

// A part borrows a named relation and owns a computed one; relations are united in place.
template <class R> Part<std::decay_t<R>> part(std::string_view name, R&& r) {
  return {name, Held<std::decay_t<R>>(std::forward<R>(r))};
}

namespace detail {
template <class Rel> void uniteInto(Rel& into, const Rel& r) {
  if constexpr (requires { into |= r; }) into |= r;
  else into = into | r;
}
template <class Rel> void intersectInto(Rel& into, const Rel& r) {
  if constexpr (requires { into &= r; }) into &= r;
  else into = into & r;
}
}  // namespace detail

// A relation the model names after its definition (herd's `let`, as fr = inv(rf) ; co): the
// relation itself, except over model::Formula, which prints it by its name.
template <class Rel> Rel let(std::string_view name, Rel r) {
  if constexpr (requires { Rel::let(name, std::move(r)); }) return Rel::let(name, std::move(r));
  else return r;
}

// A factor that is the union of its parts.
// A factor of one part reads that part's relation (the parts' storage does not move when the
// factor does; a copy of the factor owns its own).
template <class Rel, class... More>
Factor<Rel> either(Part<Rel> first, More... more) {
  Factor<Rel> f;
  if constexpr (sizeof...(more) > 0) {
    Rel u = *first.r;
    (detail::uniteInto(u, *more.r), ...);
    f.r = Held<Rel>(std::move(u));
  }
  f.parts.reserve(1 + sizeof...(more));
  f.parts.push_back(std::move(first));
  (f.parts.push_back(std::move(more)), ...);
  if constexpr (sizeof...(more) == 0) f.r = f.parts.front().r.borrowed();
  return f;
}
template <class R> Factor<std::decay_t<R>> only(std::string_view name, R&& r) {
  return either(part(name, std::forward<R>(r)));
}
template <class R> Factor<std::decay_t<R>> filter(std::string_view name, R&& r) {
  Factor<std::decay_t<R>> f = only(name, std::forward<R>(r));
  f.filter = true;
  return f;
}

// The path first ; more... (herd's `;`), for empty and subset.
template <class Rel, class... Fs>
Path<Rel> seq(Factor<Rel> first, Fs... more) {
  Path<Rel> v;
  v.reserve(1 + sizeof...(more));
  v.push_back(std::move(first));
  (v.push_back(std::move(more)), ...);
  return v;
}

namespace detail {

template <class Rel>
Constraint<Rel> make(Shape shape, Path<Rel> path, Factor<Rel> within = {}) {
  Rel r = *path.front().r;
  for (size_t i = 1; i < path.size(); ++i) r = r * *path[i].r;
  if (!within.parts.empty()) intersectInto(r, *within.r);
  return Constraint<Rel>{shape, std::move(path), std::move(within), std::move(r), {}, {}};
}
}  // namespace detail

template <class Rel> Constraint<Rel> acyclic(Factor<Rel> f) {
  return detail::make(Shape::Acyclic, seq(std::move(f)));
}
// irreflexive(a ; b)
template <class Rel> Constraint<Rel> irreflexive(Factor<Rel> a, Factor<Rel> b) {
  return detail::make(Shape::Irreflexive, seq(std::move(a), std::move(b)));
}
// empty((path[0] ; ...) & within)
template <class Rel>
Constraint<Rel> empty(Path<Rel> path, Factor<Rel> within) {
  return detail::make(Shape::Empty, std::move(path), std::move(within));
}
// subset((path[0] ; ...) & within, sup)
template <class Rel>
Constraint<Rel> subset(Path<Rel> path, Factor<Rel> within, Part<Rel> sup) {
  Constraint<Rel> c = detail::make(Shape::Subset, std::move(path), std::move(within));
  c.sup = std::move(sup.r);  // borrowed or owned, as the part was
  c.supName = sup.name;
  return c;
}

// Whether a constraint holds, for a relation type that can be decided (model::BitRel).
template <class Rel> bool holds(const Constraint<Rel>& c) {
  switch (c.shape) {
    case Shape::Acyclic: return acyclic(c.r);
    case Shape::Irreflexive: return c.r.irreflexive();
    case Shape::Empty: return c.r.empty();
    case Shape::Subset: return c.r.subsetOf(*c.sup);
  }
  return false;
}

}  // namespace model
