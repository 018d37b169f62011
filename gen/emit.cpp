// Spec -> YAML test text (docs/format.md) and herd-style name.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "gen/spec.h"
#include "gen/sync.h"

namespace gen {
namespace {

const char* kLocNames[] = {"x", "y", "z", "w", "u", "v", "s", "t"};

std::string locName(int l) {
  return l < 8 ? kLocNames[l] : "l" + std::to_string(l);
}

std::string token(const Access& a) {
  return a.order == "weak" ? "" : a.order + "." + a.scope;
}

std::string edgeToken(const Edge& e) {
  switch (e.kind) {
    case EdgeKind::Fence: return "fence." + e.fence;
    case EdgeKind::Dp: return e.dp == DpKind::Addr ? "addr" : e.dp == DpKind::Data ? "data" : "ctrl";
    case EdgeKind::Po: return e.sameLoc ? "pos" : "";
    case EdgeKind::Rf: case EdgeKind::Fr: case EdgeKind::Co: return e.ext ? "" : "pos";
    case EdgeKind::Sync: return "";
  }
  return "";
}

// The CTAs of each cluster, ranked in increasing CTA number (%cluster_ctarank).
int rankInCluster(const Spec& s, int cta) {
  int cluster = -1;
  for (const Place& p : s.place)
    if (p.cta == cta) cluster = p.cluster;
  std::set<int> ctas;
  for (const Place& p : s.place)
    if (p.cluster == cluster) ctas.insert(p.cta);
  return static_cast<int>(std::distance(ctas.begin(), ctas.find(cta)));
}

struct Ctx {
  const Spec& spec;
  Skeleton sk;
  std::vector<int> homeCta;     // per location (shared space): the CTA whose memory holds it
  std::vector<int> homeThread;  // per location: the thread of its first access
  std::vector<std::string> code;
  SyncCode sync;
};

std::string threadName(int t) { return "P" + std::to_string(t); }

// The address operand and the state-space qualifier of an access of location l by thread t.
std::pair<std::string, std::string> operand(Ctx& c, int t, int l) {
  if (c.spec.proxy != "generic" && t != c.homeThread[l]) return {"[" + locName(l) + "a]", ".global"};
  if (c.spec.space == Space::Global) return {"[" + locName(l) + "]", ".global"};
  if (c.spec.place[t].cta == c.homeCta[l]) return {"[" + locName(l) + "]", ".shared"};
  return {"[%a" + locName(l) + "]", ".shared::cluster"};
}

std::string access(Ctx& c, int i, const std::string& valueOperand) {
  const Event& ev = c.sk.events[i];
  const Access& a = c.spec.access[i];
  auto [addr, space] = operand(c, ev.thread, ev.loc);
  std::string pre, sem;
  if (a.order == "rlx") sem = ".relaxed." + a.scope;
  else if (a.order == "acq") sem = ".acquire." + a.scope;
  else if (a.order == "rel") sem = ".release." + a.scope;
  else if (a.order == "sc") {
    pre = "fence.sc." + a.scope + ";\n";
    sem = (ev.dir == Dir::R ? ".acquire." : ".relaxed.") + a.scope;
  } else if (a.order != "weak") {
    throw Error("unknown memory order '" + a.order + "'");
  }
  if (c.spec.proxy == "alias-fence" && addr.back() == ']' && addr.find("a]") != std::string::npos)
    pre = "fence.proxy.alias;\n" + pre;
  if ((a.order == "acq" && ev.dir == Dir::W) || (a.order == "rel" && ev.dir == Dir::R))
    throw Error("order '" + a.order + "' on a " + (ev.dir == Dir::R ? "read" : "write"));
  if (ev.dir == Dir::R)
    return pre + "ld" + sem + space + ".u32 %r" + std::to_string(ev.reg) + ", " + addr + ";";
  return pre + "st" + sem + space + ".u32 " + addr + ", " + valueOperand + ";";
}

std::string dependency(const Edge& e, const Event& src, int k, std::string& value) {
  const std::string r = "%r" + std::to_string(src.reg), d = std::to_string(k);
  if (e.dp == DpKind::Addr)
    throw Error("DpAddr: the test format computes no addresses from data (docs/format.md 3.4)");
  if (e.dp == DpKind::Data) {
    const std::string reg = "%d" + d;
    std::string out = "xor.b32 " + reg + ", " + r + ", " + r + ";\nadd.u32 " + reg + ", " + reg + ", " + value + ";\n";
    value = reg;
    return out;
  }
  return "setp.eq.u32 %c" + d + ", " + r + ", " + r + ";\n@%c" + d + " bra LC" + d + ";\nLC" + d + ":\n";
}

void buildCode(Ctx& c) {
  const size_t n = c.sk.events.size();
  const int T = c.sk.threads;
  c.sync.head.assign(T, "");
  c.sync.tail.assign(T, "");
  std::vector<std::string>& head = c.sync.head;
  std::vector<std::string>& tail = c.sync.tail;
  std::vector<std::string> body(T);
  if (std::count_if(c.sk.edges.begin(), c.sk.edges.end(), [](const Edge& e) { return e.kind == EdgeKind::Sync; }) > 1)
    throw Error("one sync edge per cycle");
  if (c.spec.space == Space::Shared)
    for (int t = 0; t < T; ++t) {
      std::set<int> remote;
      for (const Event& ev : c.sk.events)
        if (ev.thread == t && c.spec.place[t].cta != c.homeCta[ev.loc]) remote.insert(ev.loc);
      for (int l : remote) {
        int home = 0;
        for (int u = 0; u < T; ++u)
          if (c.spec.place[u].cta == c.homeCta[l]) home = u;
        if (c.spec.place[t].cluster != c.spec.place[home].cluster || !c.spec.clusters)
          throw Error("a shared location is reached from another cluster");
        head[t] += "mapa.shared::cluster.u32 %a" + locName(l) + ", " + locName(l) + ", " +
                   std::to_string(rankInCluster(c.spec, c.homeCta[l])) + ";\n";
      }
    }
  int dep = 0;
  std::string pendingValue;
  std::string pendingCode;
  for (size_t i = 0; i < n; ++i) {
    const Event& ev = c.sk.events[i];
    std::string value = std::to_string(ev.value);
    if (!pendingValue.empty()) value = pendingValue;
    body[ev.thread] += pendingCode + access(c, static_cast<int>(i), value) + "\n";
    pendingValue.clear();
    pendingCode.clear();
    const Edge& e = c.sk.edges[i];
    if (e.kind == EdgeKind::Fence) {
      pendingCode = "fence." + e.fence + ";\n";
    } else if (e.kind == EdgeKind::Dp) {
      std::string v = std::to_string(c.sk.events[(i + 1) % n].value);
      pendingCode = dependency(e, ev, dep++, v);
      if (e.dp == DpKind::Data) pendingValue = v;
    } else if (e.kind == EdgeKind::Sync) {
      addSync(c.spec, e, ev.thread, c.sk.events[(i + 1) % n].thread, c.sync);
    }
  }
  for (int t = 0; t < T; ++t) c.code.push_back(head[t] + body[t] + tail[t]);
}

}  // namespace

std::string partitionName(const std::vector<int>& group) {
  std::vector<int> order;
  std::map<int, std::string> members;
  for (size_t t = 0; t < group.size(); ++t) {
    if (!members.count(group[t])) order.push_back(group[t]);
    members[group[t]] += std::to_string(t);
  }
  std::string s;
  for (int g : order) s += (s.empty() ? "" : "_") + members[g];
  return s;
}

std::string nameOf(const Spec& spec) {
  const Skeleton sk = buildSkeleton(spec.cycle);
  std::set<std::string> annots;
  for (const Access& a : spec.access) annots.insert(token(a));
  const bool uniform = annots.size() == 1;
  std::vector<std::string> parts(sk.threads);
  for (size_t i = 0; i < sk.events.size(); ++i) {
    std::string& p = parts[sk.events[i].thread];
    std::vector<std::string> toks;
    if (!uniform) toks.push_back(token(spec.access[i]));
    toks.push_back(edgeToken(sk.edges[i]));
    for (const std::string& t : toks)
      if (!t.empty()) p += (p.empty() ? "" : "_") + t;
  }
  for (std::string& p : parts)
    if (p.empty()) p = "po";
  std::string name = spec.family;
  if (uniform && !annots.begin()->empty()) name += "+" + *annots.begin();
  // Identical thread parts are written once only when they name edges alone (a uniform test):
  // otherwise the parts' positions tell which access carries which order.
  const bool allSame = std::all_of(parts.begin(), parts.end(), [&](const std::string& p) { return p == parts[0]; });
  if (!(allSame && parts[0] == "po" && uniform)) {
    if (allSame && uniform) name += "+" + parts[0];
    else
      for (const std::string& p : parts) name += "+" + p;
  }
  for (const Edge& e : sk.edges)
    if (e.kind == EdgeKind::Sync) name += "+sync." + e.fence;
  std::vector<int> ctas, clusters, gpus, warps;
  for (const Place& p : spec.place) {
    ctas.push_back(p.cta);
    clusters.push_back(p.cluster);
    gpus.push_back(p.gpu);
    warps.push_back(p.warp);
  }
  if (spec.gpus) name += "-gpu" + partitionName(gpus);
  if (spec.clusters) name += "-cl" + partitionName(clusters);
  name += "-cta" + partitionName(ctas);
  if (spec.warps) name += "-warp" + partitionName(warps);
  if (spec.space == Space::Shared) {
    const std::set<int> distinct(ctas.begin(), ctas.end());
    name += distinct.size() == 1 ? "-shared" : "-dsmem";
  }
  if (spec.proxy != "generic") name += spec.proxy == "alias" ? "-alias" : "-aliasfence";
  return name;
}

Generated emit(const Spec& spec) {
  Ctx c{spec, buildSkeleton(spec.cycle), {}, {}, {}, {}};
  if (spec.proxy != "generic" && spec.proxy != "alias" && spec.proxy != "alias-fence")
    throw Error("unknown proxy '" + spec.proxy + "'");
  if (spec.proxy != "generic" && spec.space != Space::Global) throw Error("aliases are of global locations");
  if (c.sk.edges != spec.cycle) throw Error("internal: the cycle does not start a thread at its first edge");
  if (spec.access.size() != c.sk.events.size() || static_cast<int>(spec.place.size()) != c.sk.threads)
    throw Error("internal: annotations do not match the cycle");
  c.homeCta.assign(c.sk.locs, 0);
  c.homeThread.assign(c.sk.locs, 0);
  for (size_t i = c.sk.events.size(); i-- > 0;) {
    c.homeThread[c.sk.events[i].loc] = c.sk.events[i].thread;
    c.homeCta[c.sk.events[i].loc] = spec.place[c.sk.events[i].thread].cta;
  }
  buildCode(c);
  Generated g;
  g.name = nameOf(spec);
  g.family = spec.family;
  g.peer = spec.peer;
  std::ostringstream y;
  y << "name: " << g.name << "\n";
  y << "family: " << spec.family << "\n";
  y << "description: \"Generated by litmus gen from the cycle " << toString(spec.cycle);
  if (!spec.note.empty()) y << "; " << spec.note;
  if (!spec.peer.empty()) y << "; peer " << spec.peer;
  y << ".\"\n";
  y << "locations:\n";
  for (int l = 0; l < c.sk.locs; ++l) {
    if (spec.space == Space::Global) y << "  " << locName(l) << ": 0\n";
    else y << "  " << locName(l) << ": {space: shared, cta: " << c.homeCta[l] << "}\n";
  }
  if (spec.proxy != "generic")
    for (int l = 0; l < c.sk.locs; ++l) {
      bool aliased = false;
      for (const Event& ev : c.sk.events) aliased |= ev.loc == l && ev.thread != c.homeThread[l];
      if (aliased) y << "  " << locName(l) << "a: {alias-of: " << locName(l) << "}\n";
    }
  for (const std::string& l : c.sync.locations) y << "  " << l << "\n";
  y << "threads:\n";
  for (int t = 0; t < c.sk.threads; ++t) {
    y << "  " << threadName(t) << ":\n    cta: " << spec.place[t].cta << "\n";
    if (spec.clusters) y << "    cluster: " << spec.place[t].cluster << "\n";
    if (spec.gpus) y << "    gpu: " << spec.place[t].gpu << "\n";
    if (spec.warps) y << "    warp: " << spec.place[t].warp << "\n";
    y << "    code: |\n";
    std::istringstream lines(c.code[t]);
    for (std::string line; std::getline(lines, line);) y << "      " << line << "\n";
  }
  std::vector<std::string> terms;
  for (const Event& ev : c.sk.events)
    if (ev.dir == Dir::R && ev.value >= 0)
      terms.push_back(threadName(ev.thread) + ":r" + std::to_string(ev.reg) + " == " + std::to_string(ev.value));
  terms.insert(terms.end(), c.sync.condition.begin(), c.sync.condition.end());
  for (int l = 0; l < c.sk.locs; ++l)
    if (c.sk.finalValue[l] >= 0) terms.push_back(locName(l) + " == " + std::to_string(c.sk.finalValue[l]));
  std::string cond;
  for (const std::string& t : terms) cond += (cond.empty() ? "" : " /\\ ") + t;
  if (cond.empty()) cond = "true";
  y << "condition: 'exists (" << cond << ")'\n";
  g.yaml = y.str();
  return g;
}

std::string canonicalKey(const Spec& spec) {
  const Skeleton sk = buildSkeleton(spec.cycle);
  const size_t n = sk.edges.size();
  std::string best;
  for (size_t k = 0; k < n; ++k) {
    if (!sk.edges[(k + n - 1) % n].ext && std::any_of(sk.edges.begin(), sk.edges.end(), [](const Edge& e) { return e.ext; }))
      continue;
    std::map<int, int> cta, cluster, gpu, warp;  // renamed in order of first use along the rotation
    std::string key;
    for (size_t j = 0; j < n; ++j) {
      const size_t i = (k + j) % n;
      const Place& p = spec.place[sk.events[i].thread];
      cta.emplace(p.cta, static_cast<int>(cta.size()));
      cluster.emplace(p.cluster, static_cast<int>(cluster.size()));
      gpu.emplace(p.gpu, static_cast<int>(gpu.size()));
      // A thread without a warp is a warp of its own.
      const int w = p.warp >= 0 ? p.warp : -1 - sk.events[i].thread;
      warp.emplace(w, static_cast<int>(warp.size()));
      key += toString(sk.edges[i]) + "/" + spec.access[i].order + "." + spec.access[i].scope + "@" +
             std::to_string(cta[p.cta]) + "." + std::to_string(cluster[p.cluster]) + "." +
             std::to_string(gpu[p.gpu]) + "." + std::to_string(warp[w]) + " ";
    }
    if (best.empty() || key < best) best = key;
  }
  return best + (spec.space == Space::Shared ? "shared" : "global") + " " + spec.proxy;
}

}  // namespace gen
