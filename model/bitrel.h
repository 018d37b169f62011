// Concrete relations over the events of one candidate execution, as bit matrices. This is the
// relation algebra the explicit engine evaluates the model with (model/ptx_model.h); the symbolic
// engine evaluates the same model text over Boolean terms instead.
#pragma once

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
  explicit BitRel(int n) : n_(n), rows_(n) {}

  int size() const { return n_; }
  bool get(int a, int b) const { return rows_[a][b]; }
  void set(int a, int b, bool v = true) { rows_[a][b] = v; }
  const Row& row(int a) const { return rows_[a]; }
  Row& row(int a) { return rows_[a]; }

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
  bool operator==(const BitRel& o) const { return n_ == o.n_ && rows_ == o.rows_; }

  std::vector<std::pair<int, int>> edges() const;

 private:
  int n_ = 0;
  std::vector<Row> rows_;
};

BitRel inv(const BitRel& r);
BitRel plus(const BitRel& r);  // transitive closure r+
BitRel star(const BitRel& r);  // reflexive-transitive closure r*
BitRel opt(const BitRel& r);   // r?

// Acyclicity, and a witness cycle, computed with Boost.Graph.
bool isAcyclic(const BitRel& r);
std::vector<int> findCycle(const BitRel& r);  // empty if acyclic; else events v0 -> ... -> v0

}  // namespace model
