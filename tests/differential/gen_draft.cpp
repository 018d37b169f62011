// The draft test: registers, labels, how a thread names a location (directly, or through mapa in
// another CTA of its cluster), the cost estimate, and the YAML text.
#include <algorithm>
#include <limits>
#include <set>
#include <sstream>

#include "gen.h"

namespace difftest::gen {

int Draft::addLocation(Location l) {
  locs.push_back(std::move(l));
  return static_cast<int>(locs.size()) - 1;
}

int Draft::find(const std::string& name) const {
  for (size_t i = 0; i < locs.size(); ++i)
    if (locs[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string Draft::reg(int t, const std::string& prefix, bool observe) {
  ThreadDraft& th = threads[t];
  const std::string name = prefix + std::to_string(th.regs++);
  if (observe) th.observed.push_back(name);
  return "%" + name;
}

std::string Draft::pred(int t, bool observe) { return reg(t, "p", observe); }

std::string Draft::label(int t) { return "L" + std::to_string(threads[t].labels++); }

bool Draft::reaches(int t, int l) const {
  const Location& loc = locs[l];
  const ThreadDraft& th = threads[t];
  if (loc.owner < 0 || loc.owner == th.cta) return true;
  for (const ThreadDraft& u : threads)
    if (u.cta == loc.owner) return u.cluster == th.cluster && u.gpu == th.gpu;
  return false;
}

int Draft::rankOf(int cta, int cluster) const {
  std::set<int> ctas;
  for (const ThreadDraft& u : threads)
    if (u.cluster == cluster) ctas.insert(u.cta);
  return static_cast<int>(std::distance(ctas.begin(), ctas.find(cta)));
}

// Another CTA's shared memory is reached through a register that mapa writes once, in the
// thread's prologue (so that every path has it): .shared::cluster mostly, a generic address at
// times.
std::string Draft::address(int t, int l) {
  const Location& loc = locs[l];
  ThreadDraft& th = threads[t];
  if (loc.owner < 0 || loc.owner == th.cta) return "[" + loc.name + "]";
  auto it = th.mapaReg.find(loc.name);
  if (it == th.mapaReg.end()) {
    const bool generic = g.coin(20);
    const std::string r = (generic ? "%g" : "%a") + loc.name;
    th.prologue.push_back(std::string("mapa") + (generic ? "" : ".shared::cluster") + ".u32 " + r +
                          ", " + loc.name + ", " + std::to_string(rankOf(loc.owner, th.cluster)) + ";");
    it = th.mapaReg.emplace(loc.name, r).first;
  }
  return "[" + it->second + "]";
}

std::string Draft::space(int t, int l) {
  const Location& loc = locs[l];
  const ThreadDraft& th = threads[t];
  if (loc.owner >= 0 && loc.owner != th.cta) {
    const auto it = th.mapaReg.find(loc.name);
    return it != th.mapaReg.end() && it->second[1] == 'g' ? "" : ".shared::cluster";
  }
  switch (loc.kind) {
    case Location::Kind::Shared:
    case Location::Kind::Owned:
    case Location::Kind::Mbarrier: {
      static const std::vector<std::string> spaces = {".shared", ".shared", ".shared::cta", ""};
      return g.of(spaces);
    }
    default: return g.coin(85) ? ".global" : "";
  }
}

std::vector<int> Draft::reachable(int t, bool (*want)(const Location&)) const {
  std::vector<int> out;
  for (size_t l = 0; l < locs.size(); ++l)
    if (want(locs[l]) && reaches(t, static_cast<int>(l))) out.push_back(static_cast<int>(l));
  return out;
}

std::vector<int> Draft::sameCta(int t) const {
  std::vector<int> out;
  for (size_t u = 0; u < threads.size(); ++u)
    if (static_cast<int>(u) != t && threads[u].cta == threads[t].cta) out.push_back(static_cast<int>(u));
  return out;
}

std::vector<int> Draft::sameCluster(int t) const {
  std::vector<int> out;
  for (size_t u = 0; u < threads.size(); ++u)
    if (static_cast<int>(u) != t && threads[u].cluster == threads[t].cluster) out.push_back(static_cast<int>(u));
  return out;
}

// A read forks its path once per value its location may hold: at most one per write of the
// location, and the initial value. An mbarrier's value changes with each operation in several
// ways (pending count, tx-count, phase), hence the larger factor: its value domain can explode
// (a 14-instruction test with arrive_drop, arrive.noComplete and expect_tx needs over 3 GB), and
// the exact count of traces (random_tests.cpp) that follows must not meet such a draw.
// Infinity when a location has too many writes or RMWs.
double Draft::paths() const {
  auto root = [&](int l) { return locs[l].of.empty() ? l : std::max(0, find(locs[l].of)); };
  std::vector<int> writes(locs.size(), 0), rmws(locs.size(), 0);
  for (size_t l = 0; l < locs.size(); ++l) {
    writes[root(static_cast<int>(l))] += locs[l].writes;
    rmws[root(static_cast<int>(l))] += locs[l].rmws;
  }
  for (size_t l = 0; l < locs.size(); ++l)
    if (rmws[l] > opt.maxRmwPerLocation || writes[l] > opt.maxWritesPerLocation)
      return std::numeric_limits<double>::infinity();
  double paths = 1;
  for (const ThreadDraft& th : threads) {
    paths *= th.forks;
    for (int l : th.readsOf)
      paths *= 1 + (locs[root(l)].kind == Location::Kind::Mbarrier ? 2 : 1) * writes[root(l)];
  }
  return paths;
}

bool Draft::withinBound() const { return paths() <= opt.maxPaths; }

std::string Draft::yaml(uint64_t seed) const {
  std::ostringstream y;
  y << "name: random-" << seed << "\nlocations:\n";
  for (const Location& l : locs) y << "  " << l.name << ": " << l.definition << "\n";
  y << "threads:\n";
  std::vector<std::string> terms;
  for (size_t t = 0; t < threads.size(); ++t) {
    const ThreadDraft& th = threads[t];
    y << "  P" << t << ":\n    cta: " << th.cta << "\n    cluster: " << th.cluster << "\n    gpu: "
      << th.gpu << "\n";
    if (th.warp >= 0) y << "    warp: " << th.warp << "\n";
    if (!th.init.empty()) {
      y << "    init: {";
      bool first = true;
      for (const auto& [r, v] : th.init) y << (first ? "" : ", ") << r << ": " << v, first = false;
      y << "}\n";
    }
    y << "    code: |\n";
    for (const auto& line : th.prologue) y << "      " << line << "\n";
    for (const auto& line : th.code) y << "      " << line << "\n";
    for (const auto& r : th.observed) terms.push_back("P" + std::to_string(t) + ":" + r);
  }
  for (const Location& l : locs)
    if (l.observe) terms.push_back(l.name);
  y << "condition: exists (true)\nobserve: [";
  for (size_t i = 0; i < terms.size(); ++i) y << (i ? ", " : "") << terms[i];
  y << "]\n";
  return y.str();
}

}  // namespace difftest::gen
