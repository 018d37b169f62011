// The inside of the random test generator (random_tests.h): a draft test that feature families
// add code to, one thread at a time, and the cost estimate that bounds what a draw may cost.
#pragma once

// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "random_tests.h"

namespace difftest::gen {

class Rng {
 public:
  explicit Rng(uint64_t seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  template <class T>
  const T& of(const std::vector<T>& v) { return v[pick(0, static_cast<int>(v.size()) - 1)]; }
  bool coin(int percent) { return pick(1, 100) <= percent; }

 private:
  std::mt19937_64 rng_;
};

// Families of features a test may draw; each adds code of its kind (gen_sync.cpp, gen_async.cpp,
// gen_memory.cpp). Plain loads, stores, atomics and fences are drawn in every test.
enum class Family { Branch, Spin, Loop, Bar, ClusterBar, Warp, Mbarrier, Async, Alias, Proxy, Dsmem,
                    Shared, kCount };
constexpr int kFamilies = static_cast<int>(Family::kCount);

struct Location {
  enum class Kind {
    Global,    // .global
    Shared,    // .shared, no owner: every thread naming it reaches it (herd style)
    Owned,     // .shared in the shared memory of CTA `owner` (DSMEM through mapa elsewhere)
    Mbarrier,  // an mbarrier object (.shared, owned)
    Alias,     // a second generic address of `of`
    Proxied,   // `of` seen through the texture, surface, constant or tensormap proxy
  };
  std::string name;
  Kind kind = Kind::Global;
  std::string definition;  // the YAML value after "name: "
  int owner = -1;          // Owned, Mbarrier: the CTA holding it
  std::string of;          // Alias, Proxied: the location it aliases
  std::string proxy;       // Proxied: texture, surface, constant, tensormap
  bool observe = true;
  int writes = 0;          // write instructions (stores, RMWs, mbarrier updates, copies)
  int rmws = 0;
};

// A few lines of code that belong together (a loop, a barrier with its fence); the merge keeps
// each family's blocks in order and may put a block under a forward branch.
struct Block {
  std::vector<std::string> lines;
  bool branchable = true;  // may be skipped by a forward branch
};

struct ThreadDraft {
  int cta = 0, cluster = 0, gpu = 0, warp = -1, lane = 0, lanes = 1;
  std::vector<std::string> prologue;            // mapa lines: run on every path, first
  std::map<std::string, std::string> mapaReg;   // location -> register holding its address
  std::vector<std::vector<Block>> sequences;    // one per family that gave this thread code
  std::vector<std::string> code;                // after the merge
  std::map<std::string, int64_t> init;          // initial register values
  std::vector<std::string> observed;            // registers whose final values the test shows
  int regs = 0, preds = 0, labels = 0;
  std::vector<std::string> values;              // registers holding values read (conditions)
  std::vector<int> readsOf;                     // per read made: the location index read
  double forks = 1;                             // other path splits: barrier waits, bar.red
};

class Draft {
 public:
  Draft(Rng& g, const GenOptions& opt) : g(g), opt(opt) {}
  Rng& g;
  const GenOptions& opt;
  std::vector<Location> locs;
  std::vector<ThreadDraft> threads;
  std::array<bool, kFamilies> families{};

  bool has(Family f) const { return families[static_cast<int>(f)]; }
  int addLocation(Location l);
  int find(const std::string& name) const;  // -1 if absent
  // A fresh register ("%r3"), predicate ("%p1") or label ("L2") of thread t; observed registers
  // are shown in the final state.
  std::string reg(int t, const std::string& prefix = "r", bool observe = true);
  std::string pred(int t, bool observe = false);
  std::string label(int t);
  // How thread t names location l: "[x]" (its own memory, or global), or "[%ad]" through a
  // mapa register for a location owned by another CTA of its cluster. The state space that goes
  // with it: ".global", ".shared", ".shared::cluster", or "" (generic).
  bool reaches(int t, int l) const;
  std::string address(int t, int l);
  std::string space(int t, int l);
  std::vector<int> reachable(int t, bool (*want)(const Location&)) const;
  // Cost bookkeeping: thread t reads location l; someone writes it.
  void read(int t, int l) { threads[t].readsOf.push_back(l); }
  void write(int l, bool rmw = false) {
    ++locs[l].writes;
    locs[l].rmws += rmw;
  }
  // Threads sharing a CTA / a cluster with t (t excluded).
  std::vector<int> sameCta(int t) const;
  std::vector<int> sameCluster(int t) const;
  int rankOf(int cta, int cluster) const;  // %cluster_ctarank of a CTA

  // Estimated candidate paths (product over threads of the reads' value choices); false when
  // the draw exceeds the cost bound.
  double paths() const;
  bool withinBound() const;
  std::string yaml(uint64_t seed) const;
};

// Families (each adds sequences of blocks to some threads).
void drawSpin(Draft& d);
void drawLoop(Draft& d);
void drawBar(Draft& d);
void drawClusterBar(Draft& d);
void drawWarp(Draft& d);
void drawMbarrier(Draft& d);
void drawAsync(Draft& d);
void drawProxyFences(Draft& d, std::vector<Block>& seq);

// One plain memory operation of thread t on a location it reaches (loads, stores, atom, red,
// fences, cas, and the proxy forms for proxied aliases), as a block.
Block memoryOp(Draft& d, int t);
Block memoryOpAt(Draft& d, int t, int l);
// A load of location l into a fresh observed register; returns the register.
std::string load(Draft& d, int t, int l, std::vector<std::string>& out, bool observe = true);
// Interleaves the sequences of each thread with plain operations, and puts some blocks under
// forward branches or guards (Branch family).
void merge(Draft& d);

}  // namespace difftest::gen
