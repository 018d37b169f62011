// One random test: its feature families, the placement of its threads (CTAs, clusters, GPUs,
// warps), its locations, then each family's code, merged per thread; a draw over the cost bound
// is drawn again from the same generator.
#include "random_tests.h"

#include <algorithm>
#include <map>

#include "gen.h"
#include "litmus/parse.h"
#include "semantics/semantics.h"

namespace difftest {

namespace {

using gen::Draft;
using gen::Family;
using gen::Location;

// Families with more variants weigh more, so that each variant still appears often.
const std::vector<std::pair<Family, int>> kWeights = {
    {Family::Branch, 1},     {Family::Spin, 1},  {Family::Loop, 1},     {Family::Bar, 3},
    {Family::ClusterBar, 1}, {Family::Warp, 1},  {Family::Mbarrier, 4}, {Family::Async, 7},
    {Family::Alias, 1},      {Family::Proxy, 1}, {Family::Dsmem, 1},    {Family::Shared, 1}};

// The seed names one family that every draw for it has (in turn, by weight), so that a redraw
// for the cost bound cannot drop the costly families; the others are drawn by weight.
void chooseFamilies(Draft& d, uint64_t seed) {
  int total = 0;
  for (const auto& [f, w] : kWeights) total += w;
  int slot = static_cast<int>(seed % static_cast<uint64_t>(total));
  for (const auto& [f, w] : kWeights)
    if ((slot -= w) < 0) {
      d.families[static_cast<int>(f)] = true;
      break;
    }
  const int k = d.g.pick(d.opt.minFamilies, d.opt.maxFamilies);
  for (int drawn = 1; drawn < k;) {
    int left = 0;
    for (const auto& [f, w] : kWeights) left += d.has(f) ? 0 : w;
    int r = d.g.pick(1, left);
    for (const auto& [f, w] : kWeights) {
      if (d.has(f) || (r -= w) > 0) continue;
      d.families[static_cast<int>(f)] = true;
      ++drawn;
      break;
    }
  }
}

// CTAs 0-3 form clusters of two ({0,1}, {2,3}; CTA 3 on a second GPU at times), one cluster of
// four, or a cluster each. Families that need threads in one CTA, or CTAs of one cluster, get
// them; with warps, the threads of CTA 0 are lanes of one warp.
void place(Draft& d) {
  auto& g = d.g;
  const bool needCta = d.has(Family::Bar) || d.has(Family::Warp) || g.coin(30);
  const bool needCluster = d.has(Family::ClusterBar) || d.has(Family::Dsmem) || d.has(Family::Async) ||
                           (d.has(Family::Mbarrier) && g.coin(50)) || g.coin(20);
  int n = g.pick(d.opt.minThreads, d.opt.maxThreads);
  if (needCta && needCluster) n = std::max(n, std::min(3, d.opt.maxThreads));
  const int shape = needCluster ? g.pick(0, 1) : g.pick(0, 2);
  const bool far = shape == 0 && g.coin(40);
  d.threads.resize(n);
  for (int t = 0; t < n; ++t) {
    int cta = g.pick(0, 3);
    if (t == 0) cta = 0;
    if (t == 1) cta = needCta ? 0 : needCluster ? 1 : cta;
    if (t == 2 && needCta && needCluster) cta = 1;
    auto& th = d.threads[t];
    th.cta = cta;
    th.cluster = shape == 1 ? 0 : shape == 2 ? cta : (far && cta == 3) ? 2 : cta / 2;
    th.gpu = far && cta == 3 ? 1 : 0;
  }
  if (!d.has(Family::Warp)) return;
  std::vector<int> lanes;
  for (int t = 0; t < n; ++t)
    if (d.threads[t].cta == 0) lanes.push_back(t);
  for (size_t i = 0; i < lanes.size(); ++i) {
    auto& th = d.threads[lanes[i]];
    th.warp = 0;
    th.lane = static_cast<int>(i);
    th.lanes = static_cast<int>(lanes.size());
  }
}

void addLocation(Draft& d, const std::string& name, Location::Kind kind, const std::string& def,
                 const std::string& of = "", const std::string& proxy = "") {
  Location l;
  l.name = name;
  l.kind = kind;
  l.definition = def;
  l.of = of;
  l.proxy = proxy;
  l.observe = kind != Location::Kind::Alias && kind != Location::Kind::Proxied;
  d.addLocation(l);
}

// A CTA with a thread, preferring one whose cluster has other CTAs (so that DSMEM is used).
int ownerCta(Draft& d) {
  std::vector<int> shared, any;
  for (size_t t = 0; t < d.threads.size(); ++t) {
    any.push_back(d.threads[t].cta);
    for (const auto& u : d.threads)
      if (u.cluster == d.threads[t].cluster && u.cta != d.threads[t].cta) shared.push_back(d.threads[t].cta);
  }
  return d.g.of(shared.empty() ? any : shared);
}

void addOwned(Draft& d, const std::string& name) {
  const int cta = ownerCta(d);
  addLocation(d, name, Location::Kind::Owned, "{space: shared, cta: " + std::to_string(cta) + "}");
  d.locs.back().owner = cta;
}

// Global locations x, y (z), and what the location families add: aliases, proxied aliases,
// shared memory, a location in one CTA's shared memory.
void locations(Draft& d) {
  auto& g = d.g;
  const int n = g.pick(2, d.opt.locations);
  for (int l = 0; l < n; ++l)
    addLocation(d, std::string(1, static_cast<char>('x' + l)), Location::Kind::Global, g.coin(15) ? "1" : "0");
  if (d.has(Family::Alias)) {
    addLocation(d, "xa", Location::Kind::Alias, "{alias-of: x}", "x");
    if (g.coin(30)) addLocation(d, "ya", Location::Kind::Alias, "{alias-of: y}", "y");
  }
  if (d.has(Family::Proxy)) {
    static const std::vector<std::pair<std::string, std::string>> proxies = {
        {"xt", "texture"}, {"xs", "surface"}, {"xc", "constant"}};
    for (const auto& [name, proxy] : proxies)
      if (g.coin(50)) addLocation(d, name, Location::Kind::Proxied, "{alias-of: x, proxy: " + proxy + "}", "x", proxy);
    if (d.find("xs") < 0 && d.find("xt") < 0) addLocation(d, "xs", Location::Kind::Proxied, "{alias-of: x, proxy: surface}", "x", "surface");
  }
  if (d.has(Family::Shared)) {
    if (g.coin(70)) addLocation(d, "s", Location::Kind::Shared, g.coin(20) ? "{space: shared, init: 1}" : "{space: shared}");
    else addOwned(d, "w");
  }
  if (d.has(Family::Dsmem)) addOwned(d, "d");
}

// Every location a family added is used by some thread that reaches it; with clusters, the
// special registers and getctarank are read at times.
void useLocations(Draft& d) {
  auto& g = d.g;
  for (size_t l = 0; l < d.locs.size(); ++l) {
    const Location& loc = d.locs[l];
    if (loc.kind == Location::Kind::Global || loc.kind == Location::Kind::Mbarrier) continue;
    std::vector<int> users;
    for (size_t t = 0; t < d.threads.size(); ++t)
      if (d.reaches(static_cast<int>(t), static_cast<int>(l)) &&
          (loc.owner < 0 || d.threads[t].cta != loc.owner || g.coin(30)))
        users.push_back(static_cast<int>(t));
    if (users.empty()) continue;
    const int t = g.of(users);
    std::vector<gen::Block> seq;
    // the proxy fence that orders this alias's accesses with the generic ones (or none)
    if (loc.kind == Location::Kind::Alias && g.coin(40)) seq.push_back({{"fence.proxy.alias;"}});
    if (loc.kind == Location::Kind::Proxied && g.coin(40)) seq.push_back({{"fence.proxy." + loc.proxy + ";"}});
    seq.push_back(gen::memoryOpAt(d, t, static_cast<int>(l)));
    d.threads[t].sequences.push_back(seq);
  }
  if (!d.has(Family::Dsmem) || !g.coin(50)) return;
  const int t = g.pick(0, static_cast<int>(d.threads.size()) - 1);
  const int dl = d.find("d");
  std::vector<std::string> lines = {"mov.u32 " + d.reg(t) + ", %cluster_ctarank;"};
  if (g.coin(50)) lines.push_back("mov.u32 " + d.reg(t) + ", %cluster_nctarank;");
  if (d.reaches(t, dl)) {
    const std::string a = d.address(t, dl);  // "[d]", or "[%ad]" from mapa
    const bool viaRegister = a[1] == '%' && g.coin(50);
    lines.push_back(std::string(viaRegister && a[2] == 'g' ? "getctarank.u32 " : "getctarank.shared::cluster.u32 ") +
                    d.reg(t) + ", " + (viaRegister ? a.substr(1, a.size() - 2) : std::string("d")) + ";");
  }
  d.threads[t].sequences.push_back({{lines}});
}

// The symbolic engine's work grows with the traces (paths, with a value per read) of each
// thread, which the estimate above cannot see well (an mbarrier's state takes many values):
// count them as the engines enumerate them.
bool withinTraceBound(const std::string& text, const GenOptions& opt) {
  const litmus::Test t = litmus::parseYaml(text, "random.yaml");
  const model::Program prog = model::buildProgram(t);
  const model::Domain dom = model::valueDomain(prog, opt.unroll);
  size_t total = 0;
  for (size_t th = 0; th < t.threads.size(); ++th) {
    const size_t n = model::enumerateTraces(prog, static_cast<int>(th), dom, opt.unroll).traces.size();
    if (n > opt.maxTracesPerThread) return false;
    total += n;
  }
  return total <= opt.maxTraces;
}

bool draw(gen::Rng& g, const GenOptions& opt, uint64_t seed, std::string& out) {
  Draft d(g, opt);
  chooseFamilies(d, seed);
  place(d);
  locations(d);
  useLocations(d);
  if (d.has(Family::Bar)) drawBar(d);
  if (d.has(Family::ClusterBar)) drawClusterBar(d);
  if (d.has(Family::Warp)) drawWarp(d);
  if (d.has(Family::Mbarrier)) drawMbarrier(d);
  if (d.has(Family::Async)) drawAsync(d);
  if (d.has(Family::Spin)) drawSpin(d);
  if (d.has(Family::Loop)) drawLoop(d);
  merge(d);
  if (!d.withinBound()) return false;
  out = d.yaml(seed);
  return withinTraceBound(out, opt);
}

}  // namespace

std::string randomTest(uint64_t seed, const GenOptions& opt) {
  gen::Rng g(seed);
  std::string text;
  while (!draw(g, opt, seed, text)) {
  }
  return text;
}

}  // namespace difftest
