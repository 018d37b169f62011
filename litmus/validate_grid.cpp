// Validation of tests with several grids (docs/format.md, "Grids"): the `grids:` launches form one
// stream (a chain from the first grid, no gaps, no cycles, no two grids after one), and what a
// grid boundary cuts cannot be shared across it: a CTA or cluster lies in one grid, shared
// memory lives only as long as its grid, and one stream runs on one GPU.
#include <algorithm>
#include <map>
#include <set>

#include "litmus/parse.h"
#include "base/deadline.h"

namespace litmus {

int LaunchOrder::position(int gridNumber) const {
  const auto it = std::find(grid.begin(), grid.end(), gridNumber);
  return it == grid.end() ? -1 : static_cast<int>(it - grid.begin());
}

namespace {

std::set<int> threadGrids(const Test& test) {
  std::set<int> out;
  for (const Thread& t : test.threads) out.insert(t.grid);
  return out;
}

// The first grid of the stream: the one grid of the threads that no launch names.
std::vector<int> firstGrids(const Test& test) {
  std::vector<int> out;
  for (int g : threadGrids(test))
    if (std::none_of(test.grids.begin(), test.grids.end(), [&](const GridLaunch& l) { return l.grid == g; }))
      out.push_back(g);
  return out;
}

const GridLaunch* launchAfter(const Test& test, int grid) {
  for (const GridLaunch& l : test.grids)
    if (l.after == grid) return &l;
  return nullptr;
}

void checkLaunches(const Test& test) {
  const std::set<int> used = threadGrids(test);
  std::map<int, const GridLaunch*> byGrid, byAfter;
  for (const GridLaunch& l : test.grids) {
    const std::string g = "grid " + std::to_string(l.grid);
    if (l.grid == l.after) throw Error(l.loc, g + " cannot be launched after itself");
    if (!used.count(l.grid)) throw Error(l.loc, g + " has no threads (give a thread 'grid: " + std::to_string(l.grid) + "')");
    if (!used.count(l.after))
      throw Error(l.loc, "unknown grid " + std::to_string(l.after) + ": no thread runs in it");
    if (!byGrid.emplace(l.grid, &l).second) throw Error(l.loc, g + " is launched twice");
    if (!byAfter.emplace(l.after, &l).second)
      throw Error(l.loc, "grids " + std::to_string(byAfter[l.after]->grid) + " and " + std::to_string(l.grid) +
                             " are both launched right after grid " + std::to_string(l.after) +
                             ": one stream launches one grid after another (chain them)");
  }
  const std::vector<int> first = firstGrids(test);
  if (first.empty()) throw Error(test.grids.front().loc, "the grid launches form a cycle: no grid is launched first");
  if (first.size() > 1) {
    const int g = first[1];
    const auto t = std::find_if(test.threads.begin(), test.threads.end(), [&](const Thread& th) { return th.grid == g; });
    throw Error(t->loc, "thread " + t->name + " is in grid " + std::to_string(g) +
                            ", which no launch in 'grids' names (add {grid: " + std::to_string(g) + ", after: " +
                            std::to_string(first[0]) + ", launch: serialized})");
  }
  // every launch must be reached from the first grid, or the rest loop among themselves
  std::set<int> reached{first[0]};
  for (const GridLaunch* l = launchAfter(test, first[0]); l && reached.insert(l->grid).second;)
    l = launchAfter(test, l->grid);
  for (const GridLaunch& l : test.grids)
    if (!reached.count(l.grid))
      throw Error(l.loc, "grid " + std::to_string(l.grid) + " is not reached from the first grid " +
                             std::to_string(first[0]) + ": the launches form a cycle");
}

// A CTA or cluster is part of one launch, and one stream runs on one GPU. Reports the first
// clashing pair (in file order of the later thread, then of the earlier). The threads before one
// that passed agree with each other, so the earliest clash is with the first thread of its CTA,
// of its cluster, or of some (grid, GPU): comparing with those is enough (every pair was
// quadratic in the threads).
void checkPlacement(const Test& test, const Deadline& deadline) {
  std::map<int, size_t> firstOfCta, firstOfCluster;
  std::map<std::pair<int, int>, size_t> firstOfGridGpu;
  for (size_t j = 0; j < test.threads.size(); ++j) {
    const Thread& b = test.threads[j];
    size_t i = j;  // the earliest clash
    const size_t c = firstOfCta.emplace(b.cta, j).first->second, k = firstOfCluster.emplace(b.cluster, j).first->second;
    if (test.threads[c].grid != b.grid) i = std::min(i, c);
    if (test.threads[k].grid != b.grid) i = std::min(i, k);
    for (const auto& [gridGpu, first] : firstOfGridGpu) {
      deadline.check();
      if (gridGpu.first != b.grid && gridGpu.second != b.gpu) i = std::min(i, first);
    }
    firstOfGridGpu.emplace(std::make_pair(b.grid, b.gpu), j);
    if (i == j) continue;
    {
      const Thread& a = test.threads[i];
      const std::string pair = "threads " + a.name + " and " + b.name;
      if (a.cta == b.cta)
        throw Error(b.loc, pair + " share CTA " + std::to_string(a.cta) + " but are in grids " +
                               std::to_string(a.grid) + " and " + std::to_string(b.grid) + " (a CTA is part of one grid)");
      if (a.cluster == b.cluster)
        throw Error(b.loc, pair + " share cluster " + std::to_string(a.cluster) + " but are in grids " +
                               std::to_string(a.grid) + " and " + std::to_string(b.grid) + " (a cluster is part of one grid)");
      if (a.gpu != b.gpu)
        throw Error(b.loc, pair + " are in grids of one stream but on GPUs " + std::to_string(a.gpu) + " and " +
                               std::to_string(b.gpu) + " (a stream runs on one GPU)");
    }
  }
}

// Shared memory belongs to a CTA and ends with its grid: a grid cannot see another's.
void checkSharedAcrossGrids(const Test& test) {
  std::map<std::string, int> gridOf;  // shared location -> the grid that first used it
  std::map<std::string, Space> space;  // validation gave aliases their root's space
  for (const Location& l : test.locations) space[l.name] = l.space;
  for (const Thread& t : test.threads)
    for (const Instr& in : t.code)
      for (const Operand& a : in.args) {
        const std::string loc = addressLocation(t, a);
        if (loc.empty() || space[loc] == Space::Global) continue;
        const auto [it, fresh] = gridOf.emplace(loc, t.grid);
        if (!fresh && it->second != t.grid)
          throw Error(a.loc, "shared location '" + loc + "' is used in grids " + std::to_string(it->second) + " and " +
                                 std::to_string(t.grid) + ": shared memory does not outlive its grid");
      }
}

}  // namespace

LaunchOrder launchOrder(const Test& test) {
  LaunchOrder o;
  const std::vector<int> first = firstGrids(test);
  o.grid.push_back(first.empty() ? 0 : first[0]);
  o.programmatic.push_back(false);
  o.startAfter.push_back(0);
  for (const GridLaunch* l = launchAfter(test, o.grid.back()); l && o.grid.size() <= test.grids.size();
       l = launchAfter(test, l->grid)) {
    const int p = static_cast<int>(o.grid.size());
    o.grid.push_back(l->grid);
    o.programmatic.push_back(l->programmatic);
    // a programmatic launch may start as soon as the grid before it has (D38)
    o.startAfter.push_back(l->programmatic ? o.startAfter[p - 1] : p);
  }
  return o;
}

void checkGrids(const Test& test, const Deadline& deadline) {
  if (test.grids.empty() && threadGrids(test).size() <= 1) return;
  checkLaunches(test);
  checkPlacement(test, deadline);
  checkSharedAcrossGrids(test);
}

}  // namespace litmus
