#include "model/bitrel.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace model {

BitRel BitRel::identity(int n) {
  BitRel r(n);
  for (int i = 0; i < n; ++i) r.rows_[i][i] = true;
  return r;
}

BitRel BitRel::diag(int n, const Row& set) {
  BitRel r(n);
  for (int i = 0; i < n; ++i) r.rows_[i][i] = set[i];
  return r;
}

BitRel& BitRel::operator|=(const BitRel& o) {
  for (int i = 0; i < n_; ++i) rows_[i] |= o.rows_[i];
  return *this;
}
BitRel& BitRel::operator&=(const BitRel& o) {
  for (int i = 0; i < n_; ++i) rows_[i] &= o.rows_[i];
  return *this;
}
BitRel& BitRel::operator-=(const BitRel& o) {
  for (int i = 0; i < n_; ++i) rows_[i] &= ~o.rows_[i];
  return *this;
}

BitRel operator*(const BitRel& a, const BitRel& b) {
  BitRel r(a.n_);
  for (int i = 0; i < a.n_; ++i) {
    const auto& ai = a.rows_[i];
    if (ai.none()) continue;
    for (int j = 0; j < a.n_; ++j)
      if (ai[j]) r.rows_[i] |= b.rows_[j];
  }
  return r;
}

bool BitRel::empty() const {
  for (const auto& row : rows_)
    if (row.any()) return false;
  return true;
}

bool BitRel::irreflexive() const {
  for (int i = 0; i < n_; ++i)
    if (rows_[i][i]) return false;
  return true;
}

bool BitRel::subsetOf(const BitRel& o) const {
  for (int i = 0; i < n_; ++i)
    if ((rows_[i] & ~o.rows_[i]).any()) return false;
  return true;
}

std::vector<std::pair<int, int>> BitRel::edges() const {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j < n_; ++j)
      if (rows_[i][j]) out.emplace_back(i, j);
  return out;
}

BitRel inv(const BitRel& r) {
  BitRel t(r.size());
  for (int i = 0; i < r.size(); ++i)
    for (int j = 0; j < r.size(); ++j)
      if (r.get(i, j)) t.set(j, i);
  return t;
}

// Warshall's algorithm on bit rows: O(n^2) row operations.
BitRel plus(const BitRel& r) {
  BitRel c = r;
  const int n = r.size();
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      if (c.get(i, k)) c.row(i) |= c.row(k);
  return c;
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
