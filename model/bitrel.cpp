#include "model/bitrel.h"

#include <cstring>

#include <algorithm>
#include <array>
#include <utility>
#include <bit>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace model {

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

namespace {
// The inline words in use, copied in blocks of eight (one 512-bit move each, inlined): a call to
// memmove per copy of a small relation cost more than the copy (the explicit engine copies
// relations millions of times). The words of the last block past those in use are copied too;
// they are never read.
inline void copyWords(uint64_t* to, const uint64_t* from, size_t words) {
  for (size_t i = 0; i < words; i += 8) std::memcpy(to + i, from + i, 8 * sizeof(uint64_t));
}
}  // namespace

BitRel::BitRel(int n) : n_(n), w_((n + 63) / 64) {
  if (wordsTotal() > kInlineWords) big_.assign(wordsTotal(), 0);
  else std::fill(small_, small_ + wordsTotal(), 0);
}

// Copies move only the words in use: most relations are far smaller than the inline buffer.
BitRel::BitRel(const BitRel& o) : n_(o.n_), w_(o.w_), diag_(o.diag_) {
  if (wordsTotal() > kInlineWords) big_ = o.big_;
  else copyWords(small_, o.small_, wordsTotal());
}

BitRel::BitRel(BitRel&& o) noexcept : n_(o.n_), w_(o.w_), diag_(o.diag_), big_(std::move(o.big_)) {
  if (wordsTotal() <= kInlineWords) copyWords(small_, o.small_, wordsTotal());
  o.n_ = o.w_ = 0;
}

BitRel& BitRel::operator=(const BitRel& o) {
  if (this == &o) return *this;
  n_ = o.n_;
  w_ = o.w_;
  diag_ = o.diag_;
  if (wordsTotal() > kInlineWords) {
    big_ = o.big_;
  } else {
    copyWords(small_, o.small_, wordsTotal());
  }
  return *this;
}

BitRel& BitRel::operator=(BitRel&& o) noexcept {
  if (this == &o) return *this;
  n_ = o.n_;
  w_ = o.w_;
  diag_ = o.diag_;
  if (wordsTotal() > kInlineWords) {
    big_ = std::move(o.big_);
  } else {
    copyWords(small_, o.small_, wordsTotal());
  }
  o.n_ = o.w_ = 0;
  return *this;
}

BitRel BitRel::identity(int n) {
  BitRel r(n);
  for (int i = 0; i < n; ++i) r.set(i, i);
  r.diag_ = true;
  return r;
}

BitRel BitRel::diag(int n, const Row& set) {
  BitRel r(n);
  for (int i = 0; i < n; ++i)
    if (set[i]) r.set(i, i);
  r.diag_ = true;
  return r;
}

BitRel& BitRel::operator|=(const BitRel& o) {
  uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i) a[i] |= b[i];
  diag_ = diag_ && o.diag_;
  return *this;
}
BitRel& BitRel::operator&=(const BitRel& o) {
  uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i) a[i] &= b[i];
  diag_ = diag_ || o.diag_;  // within a set's diagonal
  return *this;
}
BitRel& BitRel::operator-=(const BitRel& o) {
  uint64_t* a = data();
  const uint64_t* b = o.data();
  for (size_t i = 0; i < wordsTotal(); ++i) a[i] &= ~b[i];
  return *this;
}

// Relations of litmus tests are sparse: composition visits the set bits of `a` only, and of
// those only the ones whose row of b is not empty (b is often a set [S], or a relation out of a
// few events, while a is a dense transitive order): row i of a ; b is the union of the rows j of b
// with i a j. One pass over b finds its non-empty rows.
BitRel operator*(const BitRel& a, const BitRel& b) {
  BitRel r(a.n_);
  const int n = a.n_, w = a.w_;
  // A product with a set [S] on one side masks the other's columns or rows: on pipelines of a
  // few hundred events the general product below (a row ORed per edge) with such a side was half
  // of the explicit engine's time.
  if (b.diag_ || a.diag_) {
    const BitRel& d = b.diag_ ? b : a;
    std::array<uint64_t, kMaxEvents / 64> set{};
    for (int i = 0; i < n; ++i) set[i >> 6] |= d.data()[static_cast<size_t>(i) * w + (i >> 6)];
    const uint64_t* od = (b.diag_ ? a : b).data();
    uint64_t* rd = r.data();
    for (int i = 0; i < n; ++i) {
      const size_t at = static_cast<size_t>(i) * w;
      if (b.diag_) {  // a ; [S]
        for (int x = 0; x < w; ++x) rd[at + x] = od[at + x] & set[x];
      } else if (set[i >> 6] >> (i & 63) & 1) {  // [S] ; b
        for (int x = 0; x < w; ++x) rd[at + x] = od[at + x];
      }
    }
    return r;
  }
  const uint64_t* ad = a.data();
  const uint64_t* bd = b.data();
  uint64_t* rd = r.data();
  std::array<uint64_t, kMaxEvents / 64> mask;  // the non-empty rows of b
  if (w == 1) {  // up to 64 events, one word a row: the common case, kept tight
    uint64_t m = 0;
    for (int j = 0; j < n; ++j) m |= uint64_t{bd[j] != 0} << j;
    for (int i = 0; i < n; ++i) {
      uint64_t acc = 0;
      for (uint64_t word = ad[i] & m; word; word &= word - 1) acc |= bd[std::countr_zero(word)];
      rd[i] = acc;
    }
    return r;
  }
  std::fill(mask.begin(), mask.begin() + w, 0);
  for (int j = 0; j < n; ++j)
    if (b.row(j).any()) mask[j >> 6] |= uint64_t{1} << (j & 63);
  for (int i = 0; i < n; ++i) {
    uint64_t* ri = rd + static_cast<size_t>(i) * w;
    for (int k = 0; k < w; ++k)
      for (uint64_t word = ad[static_cast<size_t>(i) * w + k] & mask[k]; word; word &= word - 1) {
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

// Warshall's algorithm on bit rows, over the non-empty rows only: a row that is empty stays
// empty (an edge i -> j is added only when i already reaches k), so an order on a few events of
// many (coherence, one location's writes) costs the square of those few.
BitRel plus(const BitRel& r) {
  BitRel c = r;
  const int n = r.size(), w = r.w_;
  uint64_t* d = c.data();
  std::array<uint64_t, kMaxEvents / 64> rows{};  // the non-empty rows
  for (int i = 0; i < n; ++i)
    if (c.row(i).any()) rows[i >> 6] |= uint64_t{1} << (i & 63);
  if (w == 1) {  // up to 64 events: a row is a word
    for (uint64_t ks = rows[0]; ks; ks &= ks - 1) {
      const int k = std::countr_zero(ks);
      const uint64_t bit = uint64_t{1} << k;
      for (uint64_t is = rows[0]; is; is &= is - 1) {
        const int i = std::countr_zero(is);
        if (d[i] & bit) d[i] |= d[k];
      }
    }
    return c;
  }
  const ConstRowRef nonEmpty(rows.data(), w);
  for (int k = nonEmpty.first(); k >= 0; k = nonEmpty.next(k)) {
    const ConstRowRef ck = std::as_const(c).row(k);
    for (int i = nonEmpty.first(); i >= 0; i = nonEmpty.next(i))
      if (c.get(i, k)) c.row(i) |= ck;
  }
  return c;
}

// Each edge a -> b of extra not yet in the closure joins every event that reaches a (and a) to
// b and everything b reaches: the closure stays closed, at n row operations an edge.
BitRel plusOver(const BitRel& closed, const BitRel& extra) {
  BitRel c = closed;
  const int n = closed.size(), w = closed.w_;
  std::array<uint64_t, kMaxEvents / 64> joined;  // b and what b reaches
  for (int a = 0; a < n; ++a)
    for (int b = extra.row(a).first(); b >= 0; b = extra.row(a).next(b)) {
      if (c.get(a, b)) continue;
      const ConstRowRef rb = std::as_const(c).row(b);
      std::copy(rb.words(), rb.words() + w, joined.begin());
      joined[b >> 6] |= uint64_t{1} << (b & 63);
      const ConstRowRef j(joined.data(), w);
      for (int i = 0; i < n; ++i)
        if (i == a || c.get(i, a)) c.row(i) |= j;
    }
  return c;
}

// Peels events with no successor left until none can go: whatever remains lies on or leads to a
// cycle. Visiting events from the last, most relations of a test (which follow program order)
// peel in one or two passes; cheaper than plus() followed by a look at the diagonal. Only events
// with successors can lie on a cycle, so only they are visited.
bool acyclic(const BitRel& r) {
  const int n = r.size();
  if (n == 0) return true;
  if (r.w_ == 1) {  // up to 64 events: the set left is a word
    const uint64_t* d = r.data();
    uint64_t left = 0;
    for (int i = 0; i < n; ++i) left |= uint64_t{d[i] != 0} << i;
    for (uint64_t before = 0; left && left != before;) {
      before = left;
      for (int i = n - 1; i >= 0; --i)
        if ((left >> i & 1) && !(d[i] & left)) left &= ~(uint64_t{1} << i);
    }
    return left == 0;
  }
  std::array<uint64_t, kMaxEvents / 64> left;  // the events not peeled yet that have successors
  const int words = (n + 63) / 64;
  std::fill(left.begin(), left.begin() + words, 0);
  int remaining = 0;
  for (int i = 0; i < n; ++i)
    if (r.row(i).any()) left[i >> 6] |= uint64_t{1} << (i & 63), ++remaining;
  const ConstRowRef leftRow(left.data(), words);
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
