#include "random_tests.h"

// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <sstream>
#include <vector>

namespace difftest {

namespace {

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  template <class T>
  const T& of(const std::vector<T>& v) { return v[pick(0, static_cast<int>(v.size()) - 1)]; }
  bool coin(int percent) { return pick(1, 100) <= percent; }

 private:
  std::mt19937_64 rng_;
};

const std::vector<std::string> kScopes = {"cta", "cluster", "gpu", "sys"};

std::string loadSem(Gen& g) {
  switch (g.pick(0, 3)) {
    case 0: return "";
    case 1: return ".relaxed." + g.of(kScopes);
    case 2: return ".acquire." + g.of(kScopes);
    default: return ".volatile";
  }
}

std::string storeSem(Gen& g) {
  switch (g.pick(0, 2)) {
    case 0: return "";
    case 1: return ".relaxed." + g.of(kScopes);
    default: return ".release." + g.of(kScopes);
  }
}

std::string instruction(Gen& g, const std::string& loc, int& reg) {
  switch (g.pick(0, 9)) {
    case 0: case 1: case 2:
      return "ld" + loadSem(g) + ".global.u32 %r" + std::to_string(reg++) + ", [" + loc + "];";
    case 3: case 4: case 5:
      return "st" + storeSem(g) + ".global.u32 [" + loc + "], " + std::to_string(g.pick(1, 2)) + ";";
    case 6: {
      static const std::vector<std::string> sems = {"", ".relaxed", ".acquire", ".release", ".acq_rel"};
      static const std::vector<std::string> ops = {"add.u32", "exch.b32", "max.u32", "inc.u32"};
      return "atom" + g.of(sems) + "." + g.of(kScopes) + ".global." + g.of(ops) + " %r" +
             std::to_string(reg++) + ", [" + loc + "], " + std::to_string(g.pick(1, 2)) + ";";
    }
    case 7:
      return "red." + std::string(g.coin(50) ? "relaxed" : "release") + "." + g.of(kScopes) +
             ".global.add.u32 [" + loc + "], 1;";
    case 8: {
      static const std::vector<std::string> sems = {"sc", "acq_rel", "acquire", "release"};
      return "fence." + g.of(sems) + "." + g.of(kScopes) + ";";
    }
    default:
      return "atom.relaxed." + g.of(kScopes) + ".global.cas.b32 %r" + std::to_string(reg++) + ", [" +
             loc + "], 0, " + std::to_string(g.pick(1, 2)) + ";";
  }
}

bool isRmw(const std::string& instr) { return instr.rfind("atom", 0) == 0 || instr.rfind("red", 0) == 0; }

// One draw; false if it breaks the cost bound on read-modify-writes per location.
bool draw(Gen& g, const GenOptions& opt, uint64_t seed, std::string& out) {
  std::ostringstream y;
  y << "name: random-" << seed << "\nlocations:\n";
  const int nloc = g.pick(2, opt.locations);
  std::vector<std::string> locs;
  for (int l = 0; l < nloc; ++l) {
    locs.push_back(std::string(1, static_cast<char>('x' + l % 3)) + (l >= 3 ? std::to_string(l) : ""));
    y << "  " << locs.back() << ": 0\n";
  }
  y << "threads:\n";
  const int nthreads = g.pick(opt.minThreads, opt.maxThreads);
  std::vector<std::string> terms;
  std::vector<int> rmwsAt(locs.size(), 0);
  // Placement: CTAs 0-1 form cluster 0, CTAs 2-3 cluster 1; in some tests CTA 3 sits alone on a
  // second GPU instead.
  const bool secondGpu = g.coin(30);
  for (int t = 0; t < nthreads; ++t) {
    const int cta = g.pick(0, 3);
    const bool far = cta == 3 && secondGpu;
    y << "  P" << t << ":\n    cta: " << cta << "\n    cluster: " << (far ? 2 : cta / 2)
      << "\n    gpu: " << (far ? 1 : 0) << "\n    code: |\n";
    int reg = 0;
    const int ops = g.pick(opt.minOps, opt.maxOps);
    for (int i = 0; i < ops; ++i) {
      const int l = g.pick(0, nloc - 1);
      const std::string instr = instruction(g, locs[l], reg);
      if (isRmw(instr) && ++rmwsAt[l] > opt.maxRmwPerLocation) return false;
      y << "      " << instr << "\n";
    }
    for (int r = 0; r < reg; ++r) terms.push_back("P" + std::to_string(t) + ":r" + std::to_string(r));
  }
  for (const auto& l : locs) terms.push_back(l);
  y << "condition: exists (true)\nobserve: [";
  for (size_t i = 0; i < terms.size(); ++i) y << (i ? ", " : "") << terms[i];
  y << "]\n";
  out = y.str();
  return true;
}

}  // namespace

std::string randomTest(uint64_t seed, const GenOptions& opt) {
  Gen g(seed);
  std::string text;
  while (!draw(g, opt, seed, text)) {
  }
  return text;
}

}  // namespace difftest
