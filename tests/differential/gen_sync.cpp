// Families of control flow and execution barriers: spin loops on a flag, bounded loops that
// write, bar/barrier (sync, arrive, red), barrier.cluster, and the lanes of a warp
// (bar.warp.sync, elect.sync).
#include <algorithm>
#include <map>

#include "gen.h"

namespace difftest::gen {

namespace {

bool flagLike(const Location& l) {
  return l.kind == Location::Kind::Global || l.kind == Location::Kind::Shared ||
         l.kind == Location::Kind::Owned;
}

const std::vector<std::string> kScopes = {".cta", ".cluster", ".gpu", ".sys"};

// The threads of one CTA (or one cluster) that has more than one.
std::vector<int> groupOf(const Draft& d, bool cluster) {
  std::map<int, std::vector<int>> groups;
  for (size_t t = 0; t < d.threads.size(); ++t)
    groups[cluster ? d.threads[t].cluster : d.threads[t].cta].push_back(static_cast<int>(t));
  std::vector<std::vector<int>> multi;
  for (auto& [k, v] : groups)
    if (v.size() > 1) multi.push_back(v);
  if (multi.empty()) return groups.begin()->second;
  return d.g.of(multi);
}

}  // namespace

// A spin loop on a flag that another thread may raise (D19, D26): the loop reads and computes
// only, so the engines explore it with its exit taken and report a hang when it can spin forever.
void drawSpin(Draft& d) {
  auto& g = d.g;
  const int t = g.pick(0, static_cast<int>(d.threads.size()) - 1);
  const int f = g.of(d.reachable(t, flagLike));
  std::vector<Block> spin;
  Block loop;
  const std::string l = d.label(t), p = d.pred(t);
  loop.lines.push_back(l + ":");
  const std::string r = load(d, t, f, loop.lines);
  const bool untilOne = g.coin(30);
  loop.lines.push_back("setp." + std::string(untilOne ? "ne" : "eq") + ".u32 " + p + ", " + r +
                       ", " + (untilOne ? "1" : "0") + ";");
  loop.lines.push_back("@" + p + " bra " + l + ";");
  spin.push_back(loop);
  if (g.coin(60)) spin.push_back(memoryOp(d, t));
  d.threads[t].sequences.push_back(spin);
  // the thread that raises the flag (none at times: then the spinner may hang)
  std::vector<int> writers;
  for (size_t u = 0; u < d.threads.size(); ++u)
    if (static_cast<int>(u) != t && d.reaches(static_cast<int>(u), f)) writers.push_back(static_cast<int>(u));
  if (writers.empty() || g.coin(10)) return;
  const int u = g.of(writers);
  std::vector<Block> raise;
  if (g.coin(60)) raise.push_back(memoryOp(d, u));
  const std::string a = d.address(u, f), sp = d.space(u, f);
  const bool atomic = g.coin(25);
  d.write(f, atomic);
  if (atomic)
    raise.push_back({{"atom.release.gpu" + sp + ".exch.b32 " + d.reg(u) + ", " + a + ", 1;"}});
  else
    raise.push_back({{"st" + std::string(g.coin(60) ? ".release" + g.of(kScopes) : "") + sp +
                      ".u32 " + a + ", 1;"}});
  d.threads[u].sequences.push_back(raise);
}

// A loop that writes, so that the engines unroll it (--unroll 2): a counter loop of two
// iterations, or one whose exit depends on the value an atom reads (longer paths are dropped).
void drawLoop(Draft& d) {
  auto& g = d.g;
  const int t = g.pick(0, static_cast<int>(d.threads.size()) - 1);
  const int x = g.of(d.reachable(t, flagLike));
  Block b;
  const std::string l = d.label(t), p = d.pred(t);
  const std::string a = d.address(t, x), sp = d.space(t, x);
  if (g.coin(50)) {
    const std::string i = d.reg(t, "i", false);
    b.lines = {"mov.u32 " + i + ", 0;", l + ":", "st" + sp + ".u32 " + a + ", " + i + ";",
               "add.u32 " + i + ", " + i + ", 1;", "setp.lt.u32 " + p + ", " + i + ", 2;",
               "@" + p + " bra " + l + ";"};
    d.write(x);
    d.write(x);
  } else {
    const std::string r = d.reg(t);
    // one draw after the other: the operands of + are unsequenced (GCC and clang differ)
    const std::string scope = g.of(kScopes);
    b.lines = {l + ":", "atom" + g.of(std::vector<std::string>{"", ".relaxed", ".acquire"}) + scope + sp +
                            ".add.u32 " + r + ", " + a + ", 1;",
               "setp.lt.u32 " + p + ", " + r + ", 1;", "@" + p + " bra " + l + ";"};
    for (int k = 0; k < 2; ++k) {
      d.read(t, x);
      d.write(x, true);
    }
  }
  d.threads[t].sequences.push_back({b});
}

namespace {

std::string barSpelling(Rng& g) {
  static const std::vector<std::string> s = {"bar.sync", "bar.cta.sync", "barrier.sync",
                                             "barrier.cta.sync.aligned", "barrier.sync.aligned"};
  return g.of(s);
}

// bar.red: every thread of the CTA reduces a predicate it computed from a value it read.
void barRed(Draft& d, const std::vector<int>& cta, int id) {
  auto& g = d.g;
  const int op = g.pick(0, 2);
  for (int t : cta) {
    if (!g.coin(90)) continue;
    Block b;
    std::string src;
    if (g.coin(50)) {
      src = load(d, t, g.of(d.reachable(t, flagLike)), b.lines);
    } else {
      src = "%v" + std::to_string(d.threads[t].regs++);
      d.threads[t].init[src.substr(1)] = g.pick(0, 1);
    }
    const std::string p = d.pred(t);
    b.lines.push_back("setp.ne.u32 " + p + ", " + src + ", 0;");
    const std::string neg = g.coin(30) ? "!" : "";
    const std::string id_ = std::to_string(id);
    if (op == 0)
      b.lines.push_back("bar.red.popc.u32 " + d.reg(t) + ", " + id_ + ", " + neg + p + ";");
    else
      b.lines.push_back(std::string("bar.red.") + (op == 1 ? "and" : "or") + ".pred " + d.pred(t, true) +
                        ", " + id_ + ", " + neg + p + ";");
    d.threads[t].forks *= op == 0 ? 1 + static_cast<double>(d.threads.size()) : 3;
    d.threads[t].sequences.push_back({b});
  }
}

bool multiLane(const Draft& d, int cta) {
  return std::any_of(d.threads.begin(), d.threads.end(),
                     [&](const ThreadDraft& th) { return th.cta == cta && th.lanes > 1; });
}

}  // namespace

// bar/barrier in one CTA: every thread (bar.sync, no count), a producer-consumer pair with a
// thread count (bar.arrive, bar.sync), or a reduction (bar.red).
void drawBar(Draft& d) {
  auto& g = d.g;
  const std::vector<int> cta = groupOf(d, false);
  const int id = g.pick(0, 3);
  const int variant = g.pick(0, 2);
  if (variant == 2) return barRed(d, cta, id);
  const bool counted = variant == 1 && !multiLane(d, d.threads[cta[0]].cta);
  const int k = std::min<int>(static_cast<int>(cta.size()), 2 + g.coin(20));
  const std::string count = ", " + std::to_string(32 * (k + (g.coin(10) ? 1 : 0)));
  int consumers = 0;
  for (size_t i = 0; i < cta.size(); ++i) {
    const int t = cta[i];
    if (counted ? static_cast<int>(i) >= k : !g.coin(85)) continue;
    std::vector<Block> seq;
    if (g.coin(60)) seq.push_back(memoryOp(d, t));
    Block b;
    std::string idText = std::to_string(id);
    if (g.coin(20)) {
      idText = d.reg(t, "b", false);
      b.lines.push_back("mov.u32 " + idText + ", " + std::to_string(id) + ";");
    }
    const bool arrive = counted && (consumers > 0 || static_cast<int>(i) + 1 < k) && g.coin(50);
    consumers += !arrive;
    b.lines.push_back((arrive ? "bar.arrive" : barSpelling(g)) + " " + idText + (counted ? count : "") + ";");
    if (!arrive) d.threads[t].forks *= 2;  // a wait completes, or hangs
    seq.push_back(b);
    if (g.coin(60)) seq.push_back(memoryOp(d, t));
    if (!counted && g.coin(20)) {
      seq.push_back({{barSpelling(g) + " " + std::to_string(id) + ";"}});
      d.threads[t].forks *= 2;
    }
    d.threads[t].sequences.push_back(seq);
  }
}

// barrier.cluster.arrive and .wait in the threads of one cluster, at times with a fence before
// a .relaxed arrive, or a second round.
void drawClusterBar(Draft& d) {
  auto& g = d.g;
  for (int t : groupOf(d, true)) {
    if (!g.coin(85)) continue;
    std::vector<Block> seq;
    const int rounds = g.coin(20) ? 2 : 1;
    for (int k = 0; k < rounds; ++k) {
      if (g.coin(50)) seq.push_back(memoryOp(d, t));
      Block b;
      const std::string sem = g.of(std::vector<std::string>{"", ".release", ".relaxed"});
      if (sem == ".relaxed" && g.coin(50)) b.lines.push_back("fence.acq_rel.cluster;");
      b.lines.push_back("barrier.cluster.arrive" + sem + (g.coin(30) ? ".aligned;" : ";"));
      seq.push_back(b);
      if (g.coin(30)) seq.push_back(memoryOp(d, t));
      if (g.coin(90)) {
        const std::string aligned = g.coin(30) ? ".aligned;" : ";";  // one draw after the other
        seq.push_back({{"barrier.cluster.wait" + std::string(g.coin(30) ? ".acquire" : "") + aligned}});
        d.threads[t].forks *= 2;
      }
      if (g.coin(50)) seq.push_back(memoryOp(d, t));
    }
    d.threads[t].sequences.push_back(seq);
  }
}

// The lanes of the warp that the placement made (warp 0 of one CTA): bar.warp.sync with the
// whole warp or a part of it, elect.sync, %laneid.
void drawWarp(Draft& d) {
  auto& g = d.g;
  for (size_t t = 0; t < d.threads.size(); ++t) {
    const ThreadDraft& th = d.threads[t];
    if (th.warp < 0) continue;
    const int ti = static_cast<int>(t);
    const int all = (1 << th.lanes) - 1;
    auto mask = [&] { return std::to_string(g.coin(75) ? all : (g.pick(0, all) | (1 << th.lane))); };
    std::vector<Block> seq;
    if (g.coin(50)) seq.push_back(memoryOp(d, ti));
    if (g.coin(75)) {
      seq.push_back({{"bar.warp.sync " + mask() + ";"}});
      d.threads[t].forks *= 2;
    }
    if (g.coin(50)) seq.push_back(memoryOp(d, ti));
    if (g.coin(50)) {
      const std::string lane = g.coin(70) ? d.reg(ti, "l") : "_";
      seq.push_back({{"elect.sync " + lane + "|" + d.pred(ti, true) + ", " + mask() + ";"}});
    }
    if (g.coin(25)) seq.push_back({{"mov.u32 " + d.reg(ti) + ", %laneid;"}});
    if (!seq.empty()) d.threads[t].sequences.push_back(seq);
  }
}

}  // namespace difftest::gen
