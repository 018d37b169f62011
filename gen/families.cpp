#include "gen/families.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

namespace gen {

const std::vector<Family>& families() {
  static const std::vector<Family> table = {
      {"MP", "PodWW Rfe PodRR Fre"},
      {"SB", "PodWR Fre PodWR Fre"},
      {"LB", "PodRW Rfe PodRW Rfe"},
      {"S", "PodWW Rfe PodRW Coe"},
      {"R", "PodWW Coe PodWR Fre"},
      {"2+2W", "PodWW Coe PodWW Coe"},
      {"WRC", "Rfe PodRW Rfe PodRR Fre"},
      {"ISA2", "PodWW Rfe PodRW Rfe PodRR Fre"},
      {"IRIW", "Rfe PodRR Fre Rfe PodRR Fre"},
      {"Z6.3", "PodWW Coe PodWW Rfe PodRR Fre"},
      {"3.2W", "PodWW Coe PodWW Coe PodWW Coe"},
      {"WWC", "Rfe PodRW Rfe PodRW Coe"},
      {"RWC", "Rfe PodRR Fre PodWR Fre"},
      {"WRW+2W", "Rfe PodRW Coe PodWW Coe"},
      // The synchronisation primitives as edges (docs/gen.md): a write or read before the
      // primitive in one thread against an access after it in another.
      {"SyncWR", "Sync.bar.sWR Fre"},
      {"SyncWW", "Sync.bar.sWW Coe"},
      {"SyncRW", "Sync.bar.sRW Rfe"},
      {"SyncMP", "PodWW Sync.bar.dWR PodRR Fre"},
      {"CoRR", "Rfe PosRR Fre"},
      {"CoWW", "PosWW Coi"},
  };
  return table;
}

namespace {
std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

const Family* findFamily(const std::string& name) {
  for (const Family& f : families())
    if (upper(f.name) == upper(name)) return &f;
  return nullptr;
}

std::string familyOf(const std::vector<Edge>& cycle) {
  const std::string shape = toString(canonicalRotation(shapeOf(cycle)));
  for (const Family& f : families())
    if (toString(canonicalRotation(parseCycle(f.cycle))) == shape) return f.name;
  std::string s;
  for (const Edge& e : canonicalRotation(shapeOf(cycle))) s += (s.empty() ? "" : "+") + toString(e);
  return s;
}

namespace {

// Restricted growth strings of length n: every set partition once.
void partitions(int n, std::vector<int>& cur, int maxUsed, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(cur.size()) == n) {
    out.push_back(cur);
    return;
  }
  for (int g = 0; g <= maxUsed + 1; ++g) {
    cur.push_back(g);
    partitions(n, cur, std::max(maxUsed, g), out);
    cur.pop_back();
  }
}

std::vector<std::vector<int>> partitions(int n) {
  std::vector<std::vector<int>> out;
  std::vector<int> cur;
  partitions(n, cur, -1, out);
  return out;
}

}  // namespace

namespace {

// Does partition `inner` refine `outer` (never joins threads that `outer` separates)?
bool refines(const std::vector<int>& inner, const std::vector<int>& outer) {
  for (size_t a = 0; a < inner.size(); ++a)
    for (size_t b = 0; b < inner.size(); ++b)
      if (inner[a] == inner[b] && outer[a] != outer[b]) return false;
  return true;
}

}  // namespace

std::vector<std::vector<Place>> placements(int threads, Levels levels) {
  const std::vector<std::vector<int>> all = partitions(threads);
  const std::vector<int> one(threads, 0);
  std::vector<std::vector<int>> identity;  // each thread alone: no split at a level not asked for
  std::vector<int> alone(threads);
  for (int t = 0; t < threads; ++t) alone[t] = t;
  std::vector<std::vector<Place>> out;
  for (const std::vector<int>& gpu : levels.gpu ? all : std::vector<std::vector<int>>{one})
    for (const std::vector<int>& cl : levels.cluster ? all : std::vector<std::vector<int>>{gpu})
      for (const std::vector<int>& cta : all) {
        if (!refines(cl, gpu) || !refines(cta, cl)) continue;
        // Without the cluster level each CTA is its own cluster.
        const std::vector<int>& cluster = levels.cluster ? cl : cta;
        if (!refines(cta, gpu)) continue;
        for (const std::vector<int>& warp : levels.warp ? all : std::vector<std::vector<int>>{alone}) {
          if (!refines(warp, cta)) continue;
          std::vector<Place> pl;
          for (int t = 0; t < threads; ++t) pl.push_back({cta[t], cluster[t], gpu[t], levels.warp ? warp[t] : -1});
          out.push_back(pl);
        }
      }
  return out;
}

std::vector<std::vector<Edge>> enumerateCycles(const std::vector<Edge>& relax, const std::vector<Edge>& safe,
                                               int size, int nprocs) {
  std::vector<Edge> pool = relax;
  for (const Edge& e : safe)
    if (std::find(pool.begin(), pool.end(), e) == pool.end()) pool.push_back(e);
  std::set<std::string> seen;
  std::vector<std::vector<Edge>> out;
  std::vector<Edge> cur;
  std::function<void()> walk = [&] {
    if (cur.size() >= 2 && cur.back().dst == cur.front().src) {
      const bool hasRelax = std::any_of(cur.begin(), cur.end(), [&](const Edge& e) {
        return std::find(relax.begin(), relax.end(), e) != relax.end();
      });
      const auto ext = std::count_if(cur.begin(), cur.end(), [](const Edge& e) { return e.ext; });
      if (hasRelax && ext >= 2 && ext <= nprocs) {
        const std::vector<Edge> c = canonicalRotation(cur);
        if (seen.insert(toString(c)).second) {
          try {
            buildSkeleton(c);
            out.push_back(c);
          } catch (const Error&) {
          }
        }
      }
    }
    if (static_cast<int>(cur.size()) >= size) return;
    for (const Edge& e : pool) {
      if (!cur.empty() && cur.back().dst != e.src) continue;
      cur.push_back(e);
      walk();
      cur.pop_back();
    }
  };
  walk();
  std::sort(out.begin(), out.end(), [](const std::vector<Edge>& a, const std::vector<Edge>& b) {
    return a.size() != b.size() ? a.size() < b.size() : toString(a) < toString(b);
  });
  return out;
}

}  // namespace gen
