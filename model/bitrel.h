// Concrete relations over the events of one candidate execution, as bit matrices. This is the
// relation algebra the explicit engine evaluates the model with (model/ptx_model.h); the symbolic
// engine evaluates the same model text over Boolean terms instead.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace model {

// The most events one candidate execution may have (a production-size pipeline has a few
// hundred). A relation's rows are as wide as its own event count needs, so small tests pay
// for one 64-bit word per row, not for this bound.
inline constexpr int kMaxEvents = 1024;

// A row of a relation inside its matrix: the successors of one event.
class ConstRowRef {
 public:
  ConstRowRef(const uint64_t* w, int words) : w_(w), words_(words) {}
  bool operator[](int j) const { return w_[j >> 6] >> (j & 63) & 1; }
  // inline: the engines ask these of every row on every step
  bool any() const {
    for (int i = 0; i < words_; ++i)
      if (w_[i]) return true;
    return false;
  }
  bool none() const { return !any(); }
  bool intersects(ConstRowRef o) const {
    for (int i = 0; i < words_; ++i)
      if (w_[i] & o.w_[i]) return true;
    return false;
  }
  int first() const;       // the least member, or -1
  int next(int j) const;   // the least member above j, or -1
  const uint64_t* words() const { return w_; }
  int wordCount() const { return words_; }

 private:
  const uint64_t* w_;
  int words_;
};

class RowRef {
 public:
  RowRef(uint64_t* w, int words) : w_(w), words_(words) {}
  operator ConstRowRef() const { return {w_, words_}; }
  bool operator[](int j) const { return w_[j >> 6] >> (j & 63) & 1; }
  bool any() const { return ConstRowRef(*this).any(); }
  bool none() const { return !any(); }
  RowRef& operator|=(ConstRowRef o) {
    for (int i = 0; i < words_; ++i) w_[i] |= o.words()[i];
    return *this;
  }

 private:
  uint64_t* w_;
  int words_;
};

class BitRel {
 public:
  // A set of events, on its own (not a row of a matrix).
  using Row = std::bitset<kMaxEvents>;

  BitRel() = default;
  explicit BitRel(int n);
  BitRel(const BitRel& o);
  BitRel(BitRel&& o) noexcept;
  BitRel& operator=(const BitRel& o);
  BitRel& operator=(BitRel&& o) noexcept;
  ~BitRel() = default;

  int size() const { return n_; }
  bool get(int a, int b) const { return data()[a * w_ + (b >> 6)] >> (b & 63) & 1; }
  void set(int a, int b, bool v = true) {
    diag_ = false;
    uint64_t& word = data()[a * w_ + (b >> 6)];
    const uint64_t bit = uint64_t{1} << (b & 63);
    word = v ? word | bit : word & ~bit;
  }
  ConstRowRef row(int a) const { return {data() + a * w_, w_}; }
  RowRef row(int a) {
    diag_ = false;
    return {data() + a * w_, w_};
  }

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
  friend BitRel plus(const BitRel& r);
  friend bool acyclic(const BitRel& r);
  friend BitRel plusOver(const BitRel& closed, const BitRel& extra);

  bool empty() const;
  bool irreflexive() const;
  bool subsetOf(const BitRel& o) const;
  bool operator==(const BitRel& o) const;

  std::vector<std::pair<int, int>> edges() const;

 private:
  // Most relations of a litmus test have few events: up to kInlineWords words live in the
  // object (64 events at one word a row), so that building the many intermediate relations of
  // the model allocates nothing (allocation was about 40% of the explicit engine's time). Words
  // past the last event of a row are always clear.
  static constexpr int kInlineWords = 64;
  int n_ = 0;
  int w_ = 0;  // words per row
  // Known to be a set's diagonal [S]: made by diag() or identity() and changed since only in ways
  // that keep it one (operator* masks instead of multiplying). False says nothing.
  bool diag_ = false;
  uint64_t small_[kInlineWords];  // the first wordsTotal() are in use (and initialised)
  std::vector<uint64_t> big_;
  size_t wordsTotal() const { return static_cast<size_t>(n_) * w_; }
  uint64_t* data() { return wordsTotal() <= kInlineWords ? small_ : big_.data(); }
  const uint64_t* data() const { return wordsTotal() <= kInlineWords ? small_ : big_.data(); }
};

// A set of events, united with a row of a relation.
inline BitRel::Row& operator|=(BitRel::Row& s, ConstRowRef r) {
  for (int j = r.first(); j >= 0; j = r.next(j)) s.set(static_cast<size_t>(j));
  return s;
}

BitRel inv(const BitRel& r);
BitRel plus(const BitRel& r);  // transitive closure r+
BitRel plusOver(const BitRel& closed, const BitRel& extra);  // (closed | extra)+, closed transitive
BitRel star(const BitRel& r);  // reflexive-transitive closure r*
BitRel opt(const BitRel& r);   // r?
bool acyclic(const BitRel& r);  // plus(r).irreflexive(), without building plus(r)

// Acyclicity, and a witness cycle, computed with Boost.Graph.
bool isAcyclic(const BitRel& r);
std::vector<int> findCycle(const BitRel& r);  // empty if acyclic; else events v0 -> ... -> v0

}  // namespace model
