// Plain memory operations in every state space and through every proxy: loads (generic, .nc,
// texture, surface, constant), stores, atom, red, cas and fences, some of them using a value read
// before (a data dependency).
#include "gen.h"

namespace difftest::gen {

namespace {

const std::vector<std::string> kScopes = {".cta", ".cluster", ".gpu", ".sys"};

std::string loadSem(Rng& g) {
  switch (g.pick(0, 3)) {
    case 0: return "";
    case 1: return ".relaxed" + g.of(kScopes);
    case 2: return ".acquire" + g.of(kScopes);
    default: return ".volatile";
  }
}

std::string storeSem(Rng& g) {
  switch (g.pick(0, 2)) {
    case 0: return "";
    case 1: return ".relaxed" + g.of(kScopes);
    default: return ".release" + g.of(kScopes);
  }
}

bool plain(const Location& l) { return l.kind != Location::Kind::Mbarrier; }

// A value to store: a constant, or (making a data dependency) a register read before.
std::string storeValue(Draft& d, int t) {
  const auto& values = d.threads[t].values;
  if (!values.empty() && d.g.coin(25)) return d.g.of(values);
  return std::to_string(d.g.pick(1, 2));
}

// Accesses through a proxied alias (the herd pseudo-instructions, docs/format.md 3.1).
Block proxiedOp(Draft& d, int t, int l) {
  const Location& loc = d.locs[l];
  const std::string a = "[" + loc.name + "]";
  if (loc.proxy == "surface" && d.g.coin(50)) {
    d.write(l);
    return {{"sust.weak.b32 " + a + ", " + storeValue(d, t) + ";"}};
  }
  d.read(t, l);
  const std::string r = d.reg(t);
  d.threads[t].values.push_back(r);
  if (loc.proxy == "texture") return {{"tld.weak.u32 " + r + ", " + a + ";"}};
  if (loc.proxy == "surface") return {{"suld.weak.b32 " + r + ", " + a + ";"}};
  if (loc.proxy == "constant") return {{"cold.weak.u32 " + r + ", " + a + ";"}};
  return {{"ld.u32 " + r + ", " + a + ";"}};  // a tensormap alias: the read of a tensor map
}

std::string fence(Draft& d) {
  auto& g = d.g;
  std::vector<std::string> kinds = {"fence.sc", "fence.acq_rel", "fence.acquire", "fence.release"};
  const int k = g.pick(0, 9);
  if (k == 0) return g.of(std::vector<std::string>{"membar.cta;", "membar.gl;", "membar.sys;"});
  if (k == 1 && d.has(Family::Alias)) return "fence.proxy.alias;";
  if (k == 2 && d.has(Family::Proxy))
    return g.of(std::vector<std::string>{"fence.proxy.texture;", "fence.proxy.surface;",
                                         "fence.proxy.constant;"});
  if (k == 3 && d.has(Family::Async))
    return g.of(std::vector<std::string>{"fence.proxy.async;", "fence.proxy.async.global;",
                                         "fence.proxy.async.shared::cta;",
                                         "fence.proxy.async.shared::cluster;"});
  // the operands of + are unsequenced (GCC and clang draw in opposite orders): the draws are
  // made one by one, so that a seed names one test whatever the compiler
  const std::string scope = g.of(kScopes);
  return g.of(kinds) + scope + ";";
}

Block rmw(Draft& d, int t, int l, const std::string& sp, const std::string& a) {
  auto& g = d.g;
  d.read(t, l);
  d.write(l, true);
  const std::string v = std::to_string(g.pick(1, 2));
  switch (g.pick(0, 2)) {
    case 0: {
      static const std::vector<std::string> sems = {"", ".relaxed", ".acquire", ".release", ".acq_rel"};
      static const std::vector<std::string> ops = {".add.u32", ".exch.b32", ".max.u32", ".inc.u32"};
      const std::string r = d.reg(t);
      d.threads[t].values.push_back(r);
      const std::string op = g.of(ops), scope = g.of(kScopes), sem = g.of(sems);  // one by one
      return {{"atom" + sem + scope + sp + op + " " + r + ", " + a + ", " + v + ";"}};
    }
    case 1: {
      const std::string scope = g.of(kScopes);  // one by one
      return {{"red" + std::string(g.coin(50) ? ".relaxed" : ".release") + scope + sp + ".add.u32 " + a + ", 1;"}};
    }
    default: {
      const std::string r = d.reg(t);
      d.threads[t].values.push_back(r);
      return {{"atom.relaxed" + g.of(kScopes) + sp + ".cas.b32 " + r + ", " + a + ", 0, " + v + ";"}};
    }
  }
}

}  // namespace

std::string load(Draft& d, int t, int l, std::vector<std::string>& out, bool observe) {
  const std::string a = d.address(t, l), sp = d.space(t, l);
  const std::string r = d.reg(t, "r", observe);
  d.read(t, l);
  d.threads[t].values.push_back(r);
  out.push_back("ld" + loadSem(d.g) + sp + ".u32 " + r + ", " + a + ";");
  return r;
}

Block memoryOp(Draft& d, int t) {
  if (d.g.coin(10)) return {{fence(d)}};
  return memoryOpAt(d, t, d.g.of(d.reachable(t, plain)));
}

Block memoryOpAt(Draft& d, int t, int l) {
  auto& g = d.g;
  const Location& loc = d.locs[l];
  if (loc.kind == Location::Kind::Proxied) return proxiedOp(d, t, l);
  const std::string a = d.address(t, l), sp = d.space(t, l);
  const int k = g.pick(0, 8);
  if (k <= 2) {
    Block b;
    if (loc.kind == Location::Kind::Global && sp == ".global" && g.coin(15)) {  // texture proxy
      d.read(t, l);
      const std::string r = d.reg(t);
      d.threads[t].values.push_back(r);
      return {{"ld.global.nc.u32 " + r + ", " + a + ";"}};
    }
    load(d, t, l, b.lines);
    return b;
  }
  if (k <= 5) {
    d.write(l);
    const std::string value = storeValue(d, t);  // one draw after the other
    return {{"st" + storeSem(g) + sp + ".u32 " + a + ", " + value + ";"}};
  }
  return rmw(d, t, l, sp, a);
}

}  // namespace difftest::gen
