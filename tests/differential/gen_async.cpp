// Families of mbarriers and asynchronous operations: mbarrier phases (init, arrive, expect_tx,
// complete_tx, test_wait/try_wait by parity or state), bulk copies completing on an mbarrier or
// in bulk groups, st.async and red.async into another CTA, the tensormap proxy, and the async
// proxy fences.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include <functional>

#include "gen.h"

namespace difftest::gen {

namespace {

using Plan = std::map<int, std::vector<Block>>;  // per thread: its blocks in order

int newShared(Draft& d, const std::string& name, Location::Kind kind, int cta) {
  const int found = d.find(name);
  if (found >= 0 && d.locs[found].owner != cta)
    throw std::logic_error("generator: shared location " + name + " placed in two CTAs");
  if (found >= 0) return found;
  Location l;
  l.name = name;
  l.kind = kind;
  l.owner = cta;
  const bool one = kind != Location::Kind::Mbarrier && d.g.coin(25);
  l.definition = "{space: shared, cta: " + std::to_string(cta) + (one ? ", init: 1}" : "}");
  l.observe = kind != Location::Kind::Mbarrier || d.g.coin(25);
  return d.addLocation(l);
}

int global(Draft& d, const std::string& name) {
  const int found = d.find(name);
  if (found >= 0) return found;
  Location l;
  l.name = name;
  l.definition = d.g.coin(50) ? "1" : "0";
  return d.addLocation(l);
}

// "mbarrier.OP{sem}{scope}{space}.b64 " for thread t on m (its address made first).
std::string mbar(Draft& d, int t, int m, const std::string& op, const std::vector<std::string>& sems,
                 std::string& a) {
  a = d.address(t, m);
  const std::string sp = d.space(t, m);
  std::string q;
  if (d.g.coin(60)) {
    q = d.g.of(sems);
    if (!q.empty()) q += sp == ".shared::cluster" || d.g.coin(40) ? ".cluster" : ".cta";
  }
  return "mbarrier." + op + q + sp + ".b64 ";
}

Block init(Draft& d, int t, int m, int count) {
  std::string a;
  d.write(m);
  return {{mbar(d, t, m, "init", {""}, a) + a + ", " + std::to_string(count) + ";"}};
}

// An arrival (tx > 0: arrive.expect_tx); the state it returns is kept in `state`.
Block arrive(Draft& d, int t, int m, int tx, std::string& state) {
  auto& g = d.g;
  std::string a;
  d.read(t, m);
  d.write(m, true);
  const bool local = d.locs[m].owner == d.threads[t].cta;
  // a remote arrive returns no state: the sink is mandatory (§9.7.13.15.13)
  state = local ? d.reg(t, "s", false) : "_";
  if (tx > 0)
    return {{mbar(d, t, m, "arrive.expect_tx", {".release", ".relaxed"}, a) + state + ", " + a + ", " +
             std::to_string(tx) + ";"}};
  const int k = g.pick(0, 19);
  if (k == 0 && local) return {{"mbarrier.arrive.noComplete.shared.b64 " + state + ", [" + d.locs[m].name + "], 1;"}};
  if (k <= 4 && local)  // issue 18: arrive_drop.noComplete
    return {{"mbarrier.arrive_drop.noComplete.shared.b64 " + state + ", [" + d.locs[m].name + "], 1;"}};
  if (k <= 10) return {{mbar(d, t, m, "arrive_drop", {".release", ".relaxed"}, a) + state + ", " + a + ";"}};
  const std::string line = mbar(d, t, m, "arrive", {"", ".release", ".relaxed"}, a) + state + ", " + a;
  return {{line + (k <= 12 ? ", " + std::to_string(g.pick(1, 2)) : "") + ";"}};
}

// expect_tx or complete_tx of `tx` bytes.
Block tx(Draft& d, int t, int m, const std::string& op, int bytes) {
  std::string a;
  d.read(t, m);
  d.write(m, true);
  return {{mbar(d, t, m, op, {".relaxed"}, a) + a + ", " + std::to_string(bytes) + ";"}};
}

// A wait by a thread of m's CTA: once, or spinning until the phase of that parity completes;
// with a state from the thread's own arrival at times (token form).
Block wait(Draft& d, int t, int m, const std::string& token, bool spin, int parity = -1) {
  auto& g = d.g;
  std::string a;
  d.read(t, m);
  const bool byParity = token.empty();
  if (byParity && parity < 0) parity = g.coin(75) ? 0 : 1;
  const std::string op = std::string(spin || g.coin(50) ? "try_wait" : "test_wait") + (byParity ? ".parity" : "");
  const std::string p = d.pred(t, true);
  const std::string relaxed = g.coin(20) ? ".relaxed" : "";
  const std::string line = mbar(d, t, m, op, {relaxed.empty() ? ".acquire" : relaxed}, a) + p + ", " + a +
                           ", " + (byParity ? std::to_string(parity) : token) + ";";
  Block b;
  if (spin) {
    const std::string l = d.label(t);
    b.lines = {l + ":", line, "@!" + p + " bra " + l + ";"};
  } else {
    b.lines = {line};
  }
  if (line.find(".relaxed") != std::string::npos && g.coin(50)) b.lines.push_back("fence.acquire.cta;");
  return b;
}

// The readers of the mbarrier's initialisation must see it: bar.sync within its CTA, or the
// cluster barrier with fence.mbarrier_init (§9.7.13.4); or nothing at times.
void publish(Draft& d, int owner, const std::vector<int>& users, Plan& plan) {
  auto& g = d.g;
  if (g.coin(15)) return;
  bool remote = false;
  for (int u : users) remote |= d.threads[u].cta != d.threads[owner].cta;
  if (!remote) {
    for (int u : users) plan[u].push_back({{"bar.sync 0;"}, false});
    for (int u : users) d.threads[u].forks *= 2;
    return;
  }
  for (int u : users) {
    Block b;
    if (u == owner && g.coin(70)) b.lines.push_back("fence.mbarrier_init.release.cluster;");
    b.lines.push_back("barrier.cluster.arrive" + std::string(g.coin(70) ? ".relaxed;" : ";"));
    b.lines.push_back("barrier.cluster.wait;");
    b.branchable = false;
    plan[u].push_back(b);
    d.threads[u].forks *= 2;
  }
}

void commit(Draft& d, Plan& plan) {
  for (auto& [t, blocks] : plan)
    if (!blocks.empty()) d.threads[t].sequences.push_back(blocks);
}

// Draws what `add` adds only where the draft stays within the cost bound: issue 18's second
// phases and re-arrivals add writes and reads of the mbarrier, and a draw they push over the
// bound would be redrawn without its arrive_drop.
void withinBoundOnly(Draft& d, Plan& plan, const std::function<void()>& add) {
  const auto locs = d.locs;
  const auto threads = d.threads;
  const Plan saved = plan;
  add();
  if (d.withinBound()) return;
  d.locs = locs;
  d.threads = threads;
  plan = saved;
}

// Roles: arrivers anywhere in the cluster (remote ones through mapa), waiters in m's CTA, and
// with tx-counts, a thread completing them.
void mbarrierRoles(Draft& d, int m, int count, const std::vector<int>& users, Plan& plan) {
  auto& g = d.g;
  const int owner = d.locs[m].owner;
  std::vector<int> pool = users;
  std::vector<int> droppers;  // threads that left with arrive_drop
  const int arrivals = std::min<int>(static_cast<int>(pool.size()), g.pick(1, count + 1));
  const int txBytes = g.coin(45) ? g.of(std::vector<int>{4, 16}) : 0;
  for (int i = 0; i < arrivals; ++i) {
    const int t = pool[g.pick(0, static_cast<int>(pool.size()) - 1)];
    if (g.coin(25)) plan[t].push_back(memoryOp(d, t));
    std::string state;
    plan[t].push_back(arrive(d, t, m, i == 0 ? txBytes : 0, state));
    if (plan[t].back().lines.back().find("arrive_drop") != std::string::npos) {
      droppers.push_back(t);
      if (g.coin(80))  // issue 18: a thread that dropped out arrives again (a later phase)
        withinBoundOnly(d, plan, [&] {
          std::string again;
          plan[t].push_back(arrive(d, t, m, 0, again));
        });
    }
    const bool local = d.threads[t].cta == owner;
    if (local && g.coin(35)) plan[t].push_back({{"mbarrier.pending_count.b64 " + d.reg(t, "c") + ", " + state + ";"}});
    if (local && g.coin(40)) plan[t].push_back(wait(d, t, m, state, false));
  }
  if (txBytes > 0 && g.coin(85)) {
    const int t = g.of(pool);
    plan[t].push_back(tx(d, t, m, "complete_tx", txBytes));
  } else if (g.coin(60)) {
    const int t = g.of(pool);
    plan[t].push_back(tx(d, t, m, "expect_tx", 4));
  }
  std::vector<int> local;
  for (int u : users)
    if (d.threads[u].cta == owner) local.push_back(u);
  for (int i = g.pick(1, 2); i > 0; --i) {
    const int t = g.of(local);
    plan[t].push_back(wait(d, t, m, "", g.coin(40)));
    if (g.coin(40)) plan[t].push_back(memoryOp(d, t));
  }
  // A second phase (issue 18): an arrival after the waits, at times by a thread that dropped out
  // (its re-arrival counts in a phase that no longer expects it), then a wait on parity 1.
  if (g.coin(50))
    withinBoundOnly(d, plan, [&] {
      const int t = !droppers.empty() && g.coin(90) ? g.of(droppers) : g.of(pool);
      std::string state;
      plan[t].push_back(arrive(d, t, m, 0, state));
      const int w = g.of(local);
      plan[w].push_back(wait(d, w, m, "", g.coin(50), 1));
    });
}

}  // namespace

void drawMbarrier(Draft& d) {
  auto& g = d.g;
  const int i0 = g.pick(0, static_cast<int>(d.threads.size()) - 1);
  const int m = newShared(d, "m", Location::Kind::Mbarrier, d.threads[i0].cta);
  std::vector<int> users;
  for (size_t u = 0; u < d.threads.size(); ++u)
    if (d.reaches(static_cast<int>(u), m) && (static_cast<int>(u) == i0 || g.coin(70)))
      users.push_back(static_cast<int>(u));
  Plan plan;
  const int count = g.pick(1, 2);
  if (g.coin(92)) plan[i0].push_back(init(d, i0, m, count));
  publish(d, i0, users, plan);
  mbarrierRoles(d, m, count, users, plan);
  if (g.coin(18)) {
    std::string a;
    plan[i0].push_back({{mbar(d, i0, m, "inval", {""}, a) + a + ";"}});
    d.write(m);
  }
  commit(d, plan);
}

// The bidirectional async proxy fences, or (as often) a half of the restricted async::generic one.
void drawProxyFences(Draft& d, std::vector<Block>& seq) {
  static const std::vector<std::string> fences = {
      "fence.proxy.async;", "fence.proxy.async.global;", "fence.proxy.async.shared::cta;",
      "fence.proxy.async.shared::cluster;"};
  static const std::vector<std::string> halves = {
      "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
      "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;"};
  seq.push_back({{d.g.of(d.g.coin(50) ? fences : halves)}});
}

namespace {

// Two threads in different CTAs of one cluster (receiver first), if the placement has them.
bool remotePair(Draft& d, int& r, int& s) {
  std::vector<std::pair<int, int>> pairs;
  for (size_t a = 0; a < d.threads.size(); ++a)
    for (size_t b = 0; b < d.threads.size(); ++b)
      if (d.threads[a].cluster == d.threads[b].cluster && d.threads[a].cta != d.threads[b].cta)
        pairs.emplace_back(static_cast<int>(a), static_cast<int>(b));
  if (pairs.empty()) return false;
  std::tie(r, s) = d.g.of(pairs);
  return true;
}

// The receiving side of a transfer into CTA of r: an mbarrier initialised for one arrival that
// expects `bytes` (or, at times, an arrival without it), published, then a wait and the reads.
void receive(Draft& d, int r, int m, int bytes, const std::vector<int>& senders,
             const std::vector<std::string>& reads, Plan& plan) {
  auto& g = d.g;
  plan[r].push_back(init(d, r, m, 1));
  std::string state;
  const int how = g.pick(0, 19);  // arrive.expect_tx; expect_tx, then arrive; arrive alone
  if (how >= 12 && how < 17) plan[r].push_back(tx(d, r, m, "expect_tx", bytes));
  plan[r].push_back(arrive(d, r, m, how < 12 ? bytes : 0, state));
  std::vector<int> users{r};
  for (int s : senders)
    if (s != r) users.push_back(s);
  publish(d, r, users, plan);
  plan[r].push_back(wait(d, r, m, "", g.coin(40)));
  Block b;
  for (const auto& name : reads) {
    const std::string reg = d.reg(r);
    d.read(r, d.find(name.substr(0, name.find('+'))));
    b.lines.push_back("ld.shared.u32 " + reg + ", [" + name + "];");
  }
  plan[r].push_back(b);
}

// A bulk copy from global memory into the shared memory of the thread's CTA (TMA load).
void tmaLoad(Draft& d, Plan& plan) {
  auto& g = d.g;
  const int t = g.pick(0, static_cast<int>(d.threads.size()) - 1);
  const int cta = d.threads[t].cta;
  const int b = newShared(d, "b", Location::Kind::Owned, cta), src = global(d, "g");
  const int m = newShared(d, "mt", Location::Kind::Mbarrier, cta);
  std::vector<int> local = d.sameCta(t);
  const int w = local.empty() || g.coin(30) ? t : g.of(local);
  const std::vector<std::string> reads = g.coin(30) ? std::vector<std::string>{"b", "b+4"}
                                                    : std::vector<std::string>{"b"};
  receive(d, w, m, 16, {t}, reads, plan);
  d.read(t, src);
  d.write(b);
  d.read(t, m);
  d.write(m, true);
  const std::string dst = g.coin(50) ? ".shared::cluster" : ".shared::cta";
  plan[t].push_back({{"cp.async.bulk" + dst + ".global.mbarrier::complete_tx::bytes [b], [g], 16, [mt];"}});
  if (g.coin(30)) {  // someone writes the source
    const int u = g.pick(0, static_cast<int>(d.threads.size()) - 1);
    d.write(src);
    plan[u].push_back({{"st.global.u32 [g+" + std::string(reads.size() > 1 && g.coin(50) ? "4" : "0") + "], 2;"}});
  }
}

// A bulk copy from shared to global memory in a bulk async-group (TMA store), then a flag.
void tmaStore(Draft& d, Plan& plan) {
  auto& g = d.g;
  const int t = g.pick(0, static_cast<int>(d.threads.size()) - 1);
  const int b = newShared(d, "b", Location::Kind::Owned, d.threads[t].cta), dst = global(d, "g");
  auto& seq = plan[t];
  if (g.coin(60)) {
    d.write(b);
    seq.push_back({{"st.shared.u32 [b], 1;"}});
  }
  if (g.coin(50)) drawProxyFences(d, seq);
  const int copies = g.coin(20) ? 2 : 1;
  for (int k = 0; k < copies; ++k) {
    d.read(t, b);
    d.write(dst);
    seq.push_back({{"cp.async.bulk.global.shared::cta.bulk_group [g], [b], 16;"}});
    if (g.coin(80)) seq.push_back({{"cp.async.bulk.commit_group;"}});
  }
  if (g.coin(75)) {
    const int pending = g.coin(80) ? 0 : 1;  // one draw after the other: + leaves their order open
    seq.push_back({{"cp.async.bulk.wait_group" + std::string(g.coin(30) ? ".read " : " ") +
                    std::to_string(pending) + ";"}});
  }
  if (!g.coin(60) || d.threads.size() < 2) return;
  const int f = d.find("y");
  d.write(f);
  seq.push_back({{"st.release.gpu.global.u32 [y], 1;"}});
  const int u = (t + 1) % static_cast<int>(d.threads.size());
  d.read(u, f);
  d.read(u, dst);
  plan[u].push_back({{"ld.acquire.gpu.global.u32 " + d.reg(u) + ", [y];", "ld.global.u32 " + d.reg(u) + ", [g];"}});
}

// st.async or red.async from s into the shared memory of r's CTA, or a bulk copy from s's
// shared memory into it; completion on r's mbarrier (D30).
void remoteTransfer(Draft& d, Plan& plan, bool copy) {
  auto& g = d.g;
  int r = 0, s = 0;
  if (!remotePair(d, r, s)) return copy ? tmaStore(d, plan) : tmaLoad(d, plan);
  const int e = newShared(d, "e", Location::Kind::Owned, d.threads[r].cta);
  const int m = newShared(d, "mt", Location::Kind::Mbarrier, d.threads[r].cta);
  const int sends = copy || g.coin(70) ? 1 : 2;
  receive(d, r, m, copy ? 16 : 4 * sends, {s}, {"e"}, plan);
  std::string ae = d.address(s, e), am = d.address(s, m);
  d.write(e, !copy);
  d.read(s, m);
  d.write(m, true);
  if (copy) {
    const int b = newShared(d, "b", Location::Kind::Owned, d.threads[s].cta);
    if (g.coin(60)) {
      d.write(b);
      plan[s].push_back({{"st.shared.u32 [b], 1;"}});
    }
    if (g.coin(50)) drawProxyFences(d, plan[s]);
    d.read(s, b);
    plan[s].push_back({{"cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes " + ae +
                        ", [b], 16, " + am + ";"}});
    return;
  }
  for (int k = 0; k < sends; ++k) {
    if (g.coin(30)) {
      const int value = g.pick(1, 2);  // one draw after the other: + leaves their order open
      plan[s].push_back({{"st.async" + std::string(g.coin(30) ? ".weak" : "") +
                          ".shared::cluster.mbarrier::complete_tx::bytes.b32 " + ae + ", " +
                          std::to_string(value) + ", " + am + ";"}});
    } else {
      d.read(s, e);
      plan[s].push_back({{"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes." +
                          g.of(std::vector<std::string>{"add", "max", "inc"}) + ".u32 " + ae + ", 1, " +
                          am + ";"}});
    }
  }
}

// The tensormap proxy: a generic write of a tensor map published to a read through the
// tensormap proxy, with (or without) the fence halves, or through tensormap.cp_fenceproxy.
void tensormap(Draft& d, Plan& plan) {
  auto& g = d.g;
  if (d.find("xm") < 0) {
    Location l;
    l.name = "xm";
    l.kind = Location::Kind::Proxied;
    l.of = "x";
    l.proxy = "tensormap";
    l.definition = "{alias-of: x, proxy: tensormap}";
    l.observe = false;
    d.addLocation(l);
  }
  const int n = static_cast<int>(d.threads.size());
  const int t = g.pick(0, n - 1), u = (t + 1) % n;
  const int x = d.find("x"), y = d.find("y");
  if (g.coin(45)) {
    const int b = newShared(d, "b", Location::Kind::Owned, d.threads[t].cta);
    d.write(b);
    d.read(t, b);
    d.write(x);
    plan[t].push_back({{"st.shared.u32 [b], 1;", "tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
                                                  "generic.release.gpu.sync.aligned [x], [b], 128;"}});
  } else {
    d.write(x);
    plan[t].push_back({{"st.global.u32 [x], 1;"}});
    if (g.coin(70)) plan[t].push_back({{"fence.proxy.tensormap::generic.release.gpu;"}});
  }
  d.write(y);
  plan[t].push_back({{"st.release.gpu.global.u32 [y], 1;"}});
  d.read(u, y);
  d.read(u, x);
  plan[u].push_back({{"ld.acquire.gpu.global.u32 " + d.reg(u) + ", [y];"}});
  if (g.coin(70)) plan[u].push_back({{"fence.proxy.tensormap::generic.acquire.gpu [x], 128;"}});
  plan[u].push_back({{"ld.u32 " + d.reg(u) + ", [xm];"}});
}

}  // namespace

void drawAsync(Draft& d) {
  Plan plan;
  // The costlier variants (more of their draws break the cost bound) weigh more.
  switch (d.g.pick(0, 8)) {
    case 0:
    case 1: tmaLoad(d, plan); break;
    case 2: tmaStore(d, plan); break;
    case 3:
    case 4:
    case 5: remoteTransfer(d, plan, false); break;  // st.async and red.async
    case 6:
    case 7: remoteTransfer(d, plan, true); break;
    default: tensormap(d, plan); break;
  }
  if (d.g.coin(25)) {
    const int t = d.g.pick(0, static_cast<int>(d.threads.size()) - 1);
    drawProxyFences(d, plan[t]);
  }
  commit(d, plan);
}

}  // namespace difftest::gen
