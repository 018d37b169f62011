#include "gen/cycle.h"

#include "gen/sync.h"

#include <algorithm>
#include <map>

namespace gen {
namespace {

bool dirOf(char c, Dir& d) {
  if (c == 'R') d = Dir::R;
  else if (c == 'W') d = Dir::W;
  else return false;
  return true;
}
char letter(Dir d) { return d == Dir::R ? 'R' : 'W'; }

// "sWR" / "dW" (one letter: a dependency, whose source is a read).
bool locDirs(std::string_view s, Edge& e, bool depForm) {
  if (s.size() != (depForm ? 2u : 3u) || (s[0] != 's' && s[0] != 'd')) return false;
  e.sameLoc = s[0] == 's';
  if (depForm) {
    e.src = Dir::R;
    return dirOf(s[1], e.dst);
  }
  return dirOf(s[1], e.src) && dirOf(s[2], e.dst);
}

const std::vector<std::string> kFenceSems = {"sc", "acq_rel", "acquire", "release"};
const std::vector<std::string> kScopes = {"cta", "cluster", "gpu", "sys"};

bool member(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

Edge parseEdge(std::string_view t) {
  const std::string text(t);
  auto bad = [&](const std::string& why) { return Error("unknown edge '" + text + "'" + why); };
  Edge e;
  static const std::map<std::string, std::pair<EdgeKind, std::pair<Dir, Dir>>> com = {
      {"Rf", {EdgeKind::Rf, {Dir::W, Dir::R}}},
      {"Fr", {EdgeKind::Fr, {Dir::R, Dir::W}}},
      {"Co", {EdgeKind::Co, {Dir::W, Dir::W}}}};
  if (text.size() == 3 && com.count(text.substr(0, 2)) && (text[2] == 'e' || text[2] == 'i')) {
    const auto& [k, dirs] = com.at(text.substr(0, 2));
    e.kind = k;
    e.ext = text[2] == 'e';
    e.sameLoc = true;
    e.src = dirs.first;
    e.dst = dirs.second;
    return e;
  }
  if (text.rfind("Po", 0) == 0) {
    if (!locDirs(t.substr(2), e, false)) throw bad(": program order is Po{s,d}{R,W}{R,W}");
    return e;
  }
  if (text.rfind("Dp", 0) == 0 && text.size() >= 6) {
    const std::string k = text.substr(2, 4);
    if (k == "Addr") e.dp = DpKind::Addr;
    else if (k == "Data") e.dp = DpKind::Data;
    else if (k == "Ctrl") e.dp = DpKind::Ctrl;
    else throw bad(": dependencies are DpAddr, DpData, DpCtrl");
    e.kind = EdgeKind::Dp;
    if (!locDirs(t.substr(6), e, true)) throw bad(": a dependency ends in {s,d}{R,W}");
    if (e.dp == DpKind::Data && e.dst != Dir::W) throw bad(": a data dependency ends in a write");
    return e;
  }
  const bool fence = text.rfind("Fence.", 0) == 0, sync = text.rfind("Sync.", 0) == 0;
  if (fence || sync) {
    const size_t last = text.rfind('.');
    const std::string mid = text.substr(fence ? 6 : 5, last - (fence ? 6 : 5));
    if (last == std::string::npos || !locDirs(t.substr(last + 1), e, false))
      throw bad(": it ends in .{s,d}{R,W}{R,W}");
    e.fence = mid;
    if (fence) {
      const size_t dot = mid.find('.');
      if (dot == std::string::npos || !member(kFenceSems, mid.substr(0, dot)) ||
          !member(kScopes, mid.substr(dot + 1)))
        throw bad(": a fence is Fence.SEM.SCOPE (sc, acq_rel, acquire, release; cta, cluster, gpu, sys)");
      e.kind = EdgeKind::Fence;
    } else {
      if (!member(syncPrimitives(), mid))
        throw bad(": sync edges are Sync.PRIM with PRIM bar cluster mbar mbarspin mbarremote tx stasync");
      e.kind = EdgeKind::Sync;
      e.ext = true;
    }
    return e;
  }
  throw bad("");
}

std::string toString(const Edge& e) {
  std::string ld = std::string(e.sameLoc ? "s" : "d");
  const std::string dirs = std::string(1, letter(e.src)) + letter(e.dst);
  switch (e.kind) {
    case EdgeKind::Rf: return e.ext ? "Rfe" : "Rfi";
    case EdgeKind::Fr: return e.ext ? "Fre" : "Fri";
    case EdgeKind::Co: return e.ext ? "Coe" : "Coi";
    case EdgeKind::Po: return "Po" + ld + dirs;
    case EdgeKind::Fence: return "Fence." + e.fence + "." + ld + dirs;
    case EdgeKind::Sync: return "Sync." + e.fence + "." + ld + dirs;
    case EdgeKind::Dp: {
      const char* k = e.dp == DpKind::Addr ? "Addr" : e.dp == DpKind::Data ? "Data" : "Ctrl";
      return std::string("Dp") + k + ld + letter(e.dst);
    }
  }
  return "?";
}

std::vector<Edge> parseCycle(std::string_view text) {
  std::vector<Edge> out;
  std::string cur;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (c == ' ' || c == ',' || c == '\t' || c == '\n') {
      if (!cur.empty()) out.push_back(parseEdge(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (out.empty()) throw Error("empty cycle");
  return out;
}

std::string toString(const std::vector<Edge>& cycle) {
  std::string s;
  for (const Edge& e : cycle) s += (s.empty() ? "" : " ") + toString(e);
  return s;
}

namespace {

std::vector<Edge> rotate(const std::vector<Edge>& c, size_t k) {
  std::vector<Edge> r(c.begin() + k, c.end());
  r.insert(r.end(), c.begin(), c.begin() + k);
  return r;
}

// Rotations that start a thread: the edge before the first is external (or none is: one thread).
std::vector<size_t> threadStarts(const std::vector<Edge>& c) {
  std::vector<size_t> out;
  const bool anyExt = std::any_of(c.begin(), c.end(), [](const Edge& e) { return e.ext; });
  for (size_t k = 0; k < c.size(); ++k)
    if (!anyExt || c[(k + c.size() - 1) % c.size()].ext) out.push_back(k);
  return out;
}

// Location segments: a new location after each edge that changes location; values follow the
// communication edges, which run forward in coherence order along a segment.
void assignValues(Skeleton& s) {
  const size_t n = s.edges.size();
  std::vector<std::vector<int>> writes(s.locs);  // per location, in coherence order
  // Start each location's walk after a location change, or (one location) after a po edge.
  size_t start = 0;
  bool found = false;
  for (int pass = 0; pass < 2 && !found; ++pass)
    for (size_t k = 0; k < n && !found; ++k) {
      const Edge& e = s.edges[k];
      const bool com = e.kind == EdgeKind::Rf || e.kind == EdgeKind::Fr || e.kind == EdgeKind::Co;
      if (pass == 0 ? !e.sameLoc : !com) {
        start = (k + 1) % n;
        found = true;
      }
    }
  if (!found) throw Error("the cycle has no program-order edge: no execution can witness it");
  for (size_t j = 0; j < n; ++j) {
    Event& ev = s.events[(start + j) % n];
    if (ev.dir == Dir::W) {
      writes[ev.loc].push_back((start + j) % n);
      ev.value = static_cast<int>(writes[ev.loc].size());
    }
  }
  for (size_t i = 0; i < n; ++i) {
    Event& ev = s.events[i];
    if (ev.dir != Dir::R) continue;
    const Edge& in = s.edges[(i + n - 1) % n];
    const Edge& out = s.edges[i];
    int v = -1;
    if (in.kind == EdgeKind::Rf) v = s.events[(i + n - 1) % n].value;
    if (out.kind == EdgeKind::Fr) {
      const int w = s.events[(i + 1) % n].value - 1;
      if (v != -1 && v != w) throw Error("a read of the cycle would have to return two values");
      v = w;
    }
    ev.value = v;
  }
  s.finalValue.assign(s.locs, -1);
  for (int l = 0; l < s.locs; ++l)
    if (writes[l].size() >= 2) s.finalValue[l] = static_cast<int>(writes[l].size());
}

}  // namespace

Skeleton buildSkeleton(const std::vector<Edge>& cycle) {
  if (cycle.size() < 2) throw Error("a cycle needs at least two edges");
  const size_t n = cycle.size();
  for (size_t i = 0; i < n; ++i)
    if (cycle[i].dst != cycle[(i + 1) % n].src)
      throw Error("edges '" + toString(cycle[i]) + "' and '" + toString(cycle[(i + 1) % n]) +
                  "' do not chain: the first ends in a " + (cycle[i].dst == Dir::R ? "read" : "write"));
  if (std::none_of(cycle.begin(), cycle.end(), [](const Edge& e) {
        return e.kind == EdgeKind::Rf || e.kind == EdgeKind::Fr || e.kind == EdgeKind::Co;
      }))
    throw Error("the cycle has no communication edge (Rf, Fr, Co): nothing can witness it");
  const auto ext = std::count_if(cycle.begin(), cycle.end(), [](const Edge& e) { return e.ext; });
  if (ext == 1) throw Error("a cycle with one external edge would leave its thread and come back to it");
  Skeleton s;
  s.edges = rotate(cycle, threadStarts(cycle).front());
  s.events.resize(n);
  int thread = 0, loc = 0;
  for (size_t i = 0; i < n; ++i) {
    s.events[i].thread = thread;
    s.events[i].loc = loc;
    s.events[i].dir = s.edges[i].src;
    if (s.edges[i].ext && i + 1 < n) ++thread;
    if (!s.edges[i].sameLoc && i + 1 < n) ++loc;
  }
  s.threads = thread + 1;
  const auto changes = std::count_if(cycle.begin(), cycle.end(), [](const Edge& e) { return !e.sameLoc; });
  if (changes == 1) throw Error("a cycle that changes location once cannot come back to its first location");
  // The last segment wraps around to the first.
  if (changes > 0 && s.edges.back().sameLoc)
    for (size_t i = n; i-- > 0 && s.events[i].loc == loc;) s.events[i].loc = 0;
  s.locs = changes > 0 ? static_cast<int>(changes) : 1;
  assignValues(s);
  std::vector<int> regs(s.threads, 0);
  for (Event& ev : s.events)
    if (ev.dir == Dir::R) ev.reg = regs[ev.thread]++;
  return s;
}

std::vector<Edge> canonicalRotation(const std::vector<Edge>& cycle) {
  std::vector<Edge> best;
  std::string bestText;
  for (size_t k : threadStarts(cycle)) {
    std::vector<Edge> r = rotate(cycle, k);
    const std::string t = toString(r);
    if (best.empty() || t < bestText) {
      best = r;
      bestText = t;
    }
  }
  return best;
}

std::vector<Edge> shapeOf(const std::vector<Edge>& cycle) {
  std::vector<Edge> out = cycle;
  for (Edge& e : out)
    if (e.kind == EdgeKind::Fence || e.kind == EdgeKind::Dp) {
      e.kind = EdgeKind::Po;
      e.fence.clear();
      e.dp = DpKind::Data;
    } else if (e.kind == EdgeKind::Sync) {
      e.fence = "bar";  // the family does not depend on the primitive
    }
  return out;
}

}  // namespace gen
