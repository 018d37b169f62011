#include "model/bitrel.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace model {

BitRel BitRel::identity(int n) {
  BitRel r(n);
  for (int i = 0; i < n; ++i) r.row(i)[i] = true;
  return r;
}

BitRel BitRel::diag(int n, const Row& set) {
  BitRel r(n);
  for (int i = 0; i < n; ++i) r.row(i)[i] = set[i];
  return r;
}

BitRel& BitRel::operator|=(const BitRel& o) {
  for (int i = 0; i < n_; ++i) row(i) |= o.row(i);
  return *this;
}
BitRel& BitRel::operator&=(const BitRel& o) {
  for (int i = 0; i < n_; ++i) row(i) &= o.row(i);
  return *this;
}
BitRel& BitRel::operator-=(const BitRel& o) {
  for (int i = 0; i < n_; ++i) row(i) &= ~o.row(i);
  return *this;
}

// Relations of litmus tests are sparse: the loops below visit set bits only (_Find_first and
// _Find_next are libstdc++'s, and a row's bits past n_ are always clear).
BitRel operator*(const BitRel& a, const BitRel& b) {
  BitRel r(a.n_);
  for (int i = 0; i < a.n_; ++i) {
    const auto& ai = a.row(i);
    auto& ri = r.row(i);
    for (size_t j = ai._Find_first(); j < ai.size(); j = ai._Find_next(j)) ri |= b.row(static_cast<int>(j));
  }
  return r;
}

bool BitRel::operator==(const BitRel& o) const {
  if (n_ != o.n_) return false;
  for (int i = 0; i < n_; ++i)
    if (row(i) != o.row(i)) return false;
  return true;
}

bool BitRel::empty() const {
  for (int i = 0; i < n_; ++i)
    if (row(i).any()) return false;
  return true;
}

bool BitRel::irreflexive() const {
  for (int i = 0; i < n_; ++i)
    if (row(i)[i]) return false;
  return true;
}

bool BitRel::subsetOf(const BitRel& o) const {
  for (int i = 0; i < n_; ++i)
    if ((row(i) & ~o.row(i)).any()) return false;
  return true;
}

std::vector<std::pair<int, int>> BitRel::edges() const {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j < n_; ++j)
      if (row(i)[j]) out.emplace_back(i, j);
  return out;
}

BitRel inv(const BitRel& r) {
  BitRel t(r.size());
  for (int i = 0; i < r.size(); ++i) {
    const auto& ri = r.row(i);
    for (size_t j = ri._Find_first(); j < ri.size(); j = ri._Find_next(j)) t.set(static_cast<int>(j), i);
  }
  return t;
}

// Warshall's algorithm on bit rows: O(n^2) row operations (none for a k with no successor).
BitRel plus(const BitRel& r) {
  BitRel c = r;
  const int n = r.size();
  for (int k = 0; k < n; ++k) {
    if (c.row(k).none()) continue;
    for (int i = 0; i < n; ++i)
      if (c.get(i, k)) c.row(i) |= c.row(k);
  }
  return c;
}

// Peels events with no successor left until none can go: whatever remains lies on or leads to a
// cycle. Visiting events from the last, most relations of a test (which follow program order)
// peel in one or two passes; cheaper than plus() followed by a look at the diagonal.
bool acyclic(const BitRel& r) {
  BitRel::Row left;
  for (int i = 0; i < r.size(); ++i) left.set(i);
  for (bool changed = true; changed && left.any();) {
    changed = false;
    for (int i = r.size() - 1; i >= 0; --i)
      if (left[i] && (r.row(i) & left).none()) {
        left.reset(i);
        changed = true;
      }
  }
  return left.none();
}

BitRel star(const BitRel& r) { return plus(r) | BitRel::identity(r.size()); }
BitRel opt(const BitRel& r) { return r | BitRel::identity(r.size()); }

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

Graph toGraph(const BitRel& r) {
  Graph g(r.size());
  for (int i = 0; i < r.size(); ++i)
    for (int j = 0; j < r.size(); ++j)
      if (r.get(i, j)) boost::add_edge(i, j, g);
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
