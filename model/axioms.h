// The vocabulary in which the PTX axioms are written, independent of how relations are
// represented: a constraint names its axiom and has one of four shapes over relation values.
#pragma once

#include <array>
#include <string_view>

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

template <class Rel>
struct Constraint {
  Shape shape;
  Rel r;
  Rel sup;  // Subset only: r ⊆ sup
};

template <class Rel> Constraint<Rel> acyclic(Rel r) { return {Shape::Acyclic, std::move(r), {}}; }
template <class Rel> Constraint<Rel> irreflexive(Rel r) { return {Shape::Irreflexive, std::move(r), {}}; }
template <class Rel> Constraint<Rel> empty(Rel r) { return {Shape::Empty, std::move(r), {}}; }
template <class Rel> Constraint<Rel> subset(Rel r, Rel sup) {
  return {Shape::Subset, std::move(r), std::move(sup)};
}

}  // namespace model
