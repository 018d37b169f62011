#include "model/bitrel.h"

#include <algorithm>
#include <bit>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace model {

bool ConstRowRef::any() const {
  for (int i = 0; i < words_; ++i)
    if (w_[i]) return true;
  return false;
}

bool ConstRowRef::intersects(ConstRowRef o) const {
  for (int i = 0; i < words_; ++i)
    if (w_[i] & o.w_[i]) return true;
  return false;
}

int ConstRowRef::first() const { return next(-1); }

int ConstRowRef::next(int j) const {
  ++j;
  int i = j >> 6;
  if (i >= words_) return -1;
  uint64_t word = w_[i] & (~uint64_t{0} << (j & 63));
  while (true) {
    if (word) return (i << 6) + std::countr_zero(word);
    if (++i >= words_) return -1;
    word = w_[i];
  }
}

BitRel::BitRel(int n) : n_(n), w_((n + 63) / 64) {
  if (wordsTotal() > kInlineWords) big_.assign(wordsTotal(), 0);
  else std::fill(small_, small_ + wordsTotal(), 0);
}

// Copies move only the words in use: most relations are far smaller than the inline buffer.
BitRel::BitRel(const BitRel& o) : n_(o.n_), w_(o.w_) {
  if (wordsTotal() > kInlineWords) big_ = o.big_;
  else std::copy(o.small_, o.small_ + wordsTotal(), small_);
}

BitRel::BitRel(BitRel&& o) noexcept : n_(o.n_), w_(o.w_), big_(std::move(o.big_)) {
  if (wordsTotal() <= kInlineWords) std::copy(o.small_, o.small_ + wordsTotal(), small_);
  o.n_ = o.w_ = 0;
}

BitRel& BitRel::operator=(const BitRel& o) {
  if (this == &o) return *this;
  n_ = o.n_;
  w_ = o.w_;
  if (wordsTotal() > kInlineWords) {
    big_ = o.big_;
  } else {
    std::copy(o.small_, o.small_ + wordsTotal(), small_);
  }
  return *this;
}

BitRel& BitRel::operator=(BitRel&& o) noexcept {
  if (this == &o) return *this;
  n_ = o.n_;
  w_ = o.w_;
  if (wordsTotal() > kInlineWords) {
    big_ = std::move(o.big_);
  } else {
    std::copy(o.small_, o.small_ + wordsTotal(), small_);
  }
  o.n_ = o.w_ = 0;
  return *this;
}

BitRel BitRel::identity(int n) {
  BitRel r(n);
  for (int i = 0; i < n; ++i) r.set(i, i);
  return r;
}

BitRel BitRel::diag(int n, const Row& set) {
  BitRel r(n);
  for (int i = 0; i < n; ++i)
    if (set[i]) r.set(i, i);
  return r;
}

BitRel& BitRel::operator|=(const BitRel& o) {
  uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i) a[i] |= b[i];
  return *this;
}
BitRel& BitRel::operator&=(const BitRel& o) {
  uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i) a[i] &= b[i];
  return *this;
}
BitRel& BitRel::operator-=(const BitRel& o) {
  uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i) a[i] &= ~b[i];
  return *this;
}

// Relations of litmus tests are sparse: composition visits set bits only, either those of `a`
// (each adds a row of b), or, when b has few non-empty rows (b is a set [S], or a relation out of
// a few events) and a is dense (a transitive order), b's non-empty rows j and the events i with
// i a j: the second costs n per such row instead of a's size.
BitRel operator*(const BitRel& a, const BitRel& b) {
  BitRel r(a.n_);
  const int n = a.n_, w = a.w_;
  const uint64_t* ad = a.data();
  const uint64_t* bd = b.data();
  uint64_t* rd = r.data();
  // a's size, counted only as far as the choice needs (bit counts without a popcnt instruction
  // are a library call)
  size_t rowsB = 0;
  for (int j = 0; j < n; ++j) rowsB += b.row(j).any();
  const size_t columnCost = rowsB * static_cast<size_t>(n);
  size_t bitsA = 0;
  for (size_t i = 0; i < a.wordsTotal() && bitsA <= columnCost; ++i)
    for (uint64_t word = ad[i]; word && bitsA <= columnCost; word &= word - 1) ++bitsA;
  if (columnCost < bitsA) {
    for (int j = 0; j < n; ++j) {
      if (b.row(j).none()) continue;
      const uint64_t* bj = bd + static_cast<size_t>(j) * w;
      const uint64_t mask = uint64_t{1} << (j & 63);
      for (int i = 0; i < n; ++i)
        if (ad[static_cast<size_t>(i) * w + (j >> 6)] & mask) {
          uint64_t* ri = rd + static_cast<size_t>(i) * w;
          for (int x = 0; x < w; ++x) ri[x] |= bj[x];
        }
    }
    return r;
  }
  for (int i = 0; i < n; ++i) {
    uint64_t* ri = rd + static_cast<size_t>(i) * w;
    for (int k = 0; k < w; ++k)
      for (uint64_t word = ad[static_cast<size_t>(i) * w + k]; word; word &= word - 1) {
        const uint64_t* bj = bd + static_cast<size_t>((k << 6) + std::countr_zero(word)) * w;
        for (int x = 0; x < w; ++x) ri[x] |= bj[x];
      }
  }
  return r;
}

bool BitRel::operator==(const BitRel& o) const {
  if (n_ != o.n_) return false;
  return std::equal(data(), data() + wordsTotal(), o.data());
}

bool BitRel::empty() const {
  return std::all_of(data(), data() + wordsTotal(), [](uint64_t x) { return x == 0; });
}

bool BitRel::irreflexive() const {
  for (int i = 0; i < n_; ++i)
    if (get(i, i)) return false;
  return true;
}

bool BitRel::subsetOf(const BitRel& o) const {
  const uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i)
    if (a[i] & ~b[i]) return false;
  return true;
}

std::vector<std::pair<int, int>> BitRel::edges() const {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < n_; ++i)
    for (int j = row(i).first(); j >= 0; j = row(i).next(j)) out.emplace_back(i, j);
  return out;
}

BitRel inv(const BitRel& r) {
  BitRel t(r.size());
  for (int i = 0; i < r.size(); ++i)
    for (int j = r.row(i).first(); j >= 0; j = r.row(i).next(j)) t.set(j, i);
  return t;
}

// Warshall's algorithm on bit rows: O(n^2) row operations (none for a k with no successor).
BitRel plus(const BitRel& r) {
  BitRel c = r;
  const int n = r.size();
  for (int k = 0; k < n; ++k) {
    const ConstRowRef ck = std::as_const(c).row(k);
    if (ck.none()) continue;
    for (int i = 0; i < n; ++i)
      if (c.get(i, k)) c.row(i) |= ck;
  }
  return c;
}

// Peels events with no successor left until none can go: whatever remains lies on or leads to a
// cycle. Visiting events from the last, most relations of a test (which follow program order)
// peel in one or two passes; cheaper than plus() followed by a look at the diagonal.
bool acyclic(const BitRel& r) {
  const int n = r.size();
  if (n == 0) return true;
  std::vector<uint64_t> left(static_cast<size_t>((n + 63) / 64), 0);
  for (int i = 0; i < n; ++i) left[i >> 6] |= uint64_t{1} << (i & 63);
  const ConstRowRef leftRow(left.data(), static_cast<int>(left.size()));
  int remaining = n;
  for (bool changed = true; changed && remaining > 0;) {
    changed = false;
    for (int i = n - 1; i >= 0; --i)
      if (leftRow[i] && !r.row(i).intersects(leftRow)) {
        left[i >> 6] &= ~(uint64_t{1} << (i & 63));
        --remaining;
        changed = true;
      }
  }
  return remaining == 0;
}

BitRel star(const BitRel& r) { return plus(r) | BitRel::identity(r.size()); }
BitRel opt(const BitRel& r) { return r | BitRel::identity(r.size()); }

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

Graph toGraph(const BitRel& r) {
  Graph g(r.size());
  for (int i = 0; i < r.size(); ++i)
    for (int j = r.row(i).first(); j >= 0; j = r.row(i).next(j)) boost::add_edge(i, j, g);
  return g;
}

// Records the DFS tree and the first back edge: the back edge (u, v) closes the cycle
// v -> ... -> u -> v along tree edges.
struct CycleVisitor : boost::default_dfs_visitor {
  std::vector<int>* parent;
  std::pair<int, int>* back;
  void tree_edge(Graph::edge_descriptor e, const Graph& g) const {
    (*parent)[boost::target(e, g)] = static_cast<int>(boost::source(e, g));
  }
  void back_edge(Graph::edge_descriptor e, const Graph& g) const {
    if (back->first < 0)
      *back = {static_cast<int>(boost::source(e, g)), static_cast<int>(boost::target(e, g))};
  }
};

}  // namespace

std::vector<int> findCycle(const BitRel& r) {
  for (int i = 0; i < r.size(); ++i)
    if (r.get(i, i)) return {i, i};
  Graph g = toGraph(r);
  std::vector<int> parent(r.size(), -1);
  std::pair<int, int> back{-1, -1};
  CycleVisitor vis;
  vis.parent = &parent;
  vis.back = &back;
  std::vector<boost::default_color_type> color(r.size());
  boost::depth_first_search(
      g, boost::visitor(vis).color_map(boost::make_iterator_property_map(
             color.begin(), boost::get(boost::vertex_index, g))));
  if (back.first < 0) return {};
  std::vector<int> cycle{back.first};
  for (int v = back.first; v != back.second;) {
    v = parent[v];
    cycle.push_back(v);
  }
  std::reverse(cycle.begin(), cycle.end());
  cycle.push_back(cycle.front());
  return cycle;
}

bool isAcyclic(const BitRel& r) { return findCycle(r).empty(); }

}  // namespace model
