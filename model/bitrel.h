// Concrete relations over the events of one candidate execution, as bit matrices. This is the
// relation algebra the explicit engine evaluates the model with (model/ptx_model.h); the symbolic
// engine evaluates the same model text over Boolean terms instead.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <utility>
#include <vector>

namespace model {

// Candidate executions of litmus tests are small; past this the symbolic engine is the tool.
inline constexpr int kMaxEvents = 128;

class BitRel {
 public:
  using Row = std::bitset<kMaxEvents>;

  BitRel() = default;
  explicit BitRel(int n) : n_(n) {
    if (n > kInline) big_.resize(static_cast<size_t>(n));
  }

  int size() const { return n_; }
  bool get(int a, int b) const { return rows_data()[a][b]; }
  void set(int a, int b, bool v = true) { rows_data()[a][b] = v; }
  const Row& row(int a) const { return rows_data()[a]; }
  Row& row(int a) { return rows_data()[a]; }

  static BitRel identity(int n);
  // The identity restricted to a set: herd's [S].
  static BitRel diag(int n, const Row& set);

  BitRel& operator|=(const BitRel& o);
  BitRel& operator&=(const BitRel& o);
  BitRel& operator-=(const BitRel& o);
  friend BitRel operator|(BitRel a, const BitRel& b) { return a |= b; }
  friend BitRel operator&(BitRel a, const BitRel& b) { return a &= b; }
  friend BitRel operator-(BitRel a, const BitRel& b) { return a -= b; }
  // Sequential composition: herd's `a ; b`.
  friend BitRel operator*(const BitRel& a, const BitRel& b);

  bool empty() const;
  bool irreflexive() const;
  bool subsetOf(const BitRel& o) const;
  bool operator==(const BitRel& o) const;

  std::vector<std::pair<int, int>> edges() const;

 private:
  // Most relations of a litmus test have few events: up to kInline rows live in the object, so
  // that building the many intermediate relations of the model allocates nothing (allocation was
  // about 40% of the explicit engine's time). Unused inline rows stay clear.
  static constexpr int kInline = 32;
  int n_ = 0;
  std::array<Row, kInline> small_{};
  std::vector<Row> big_;
  Row* rows_data() { return n_ <= kInline ? small_.data() : big_.data(); }
  const Row* rows_data() const { return n_ <= kInline ? small_.data() : big_.data(); }
};

BitRel inv(const BitRel& r);
BitRel plus(const BitRel& r);  // transitive closure r+
BitRel star(const BitRel& r);  // reflexive-transitive closure r*
BitRel opt(const BitRel& r);   // r?
bool acyclic(const BitRel& r);  // plus(r).irreflexive(), without building plus(r)

// Acyclicity, and a witness cycle, computed with Boost.Graph.
bool isAcyclic(const BitRel& r);
std::vector<int> findCycle(const BitRel& r);  // empty if acyclic; else events v0 -> ... -> v0

}  // namespace model
