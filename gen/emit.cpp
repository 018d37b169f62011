// Spec -> YAML test text (docs/format.md) and herd-style name.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "gen/spec.h"

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
  std::vector<int> homeCta;  // per location (shared space): the CTA whose memory holds it
  std::vector<std::string> code;
  std::vector<std::string> condRegs;
};

std::string threadName(int t) { return "P" + std::to_string(t); }

// The address operand and the state-space qualifier of an access of location l by thread t.
std::pair<std::string, std::string> operand(Ctx& c, int t, int l) {
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
  if ((a.order == "acq" && ev.dir == Dir::W) || (a.order == "rel" && ev.dir == Dir::R))
    throw Error("order '" + a.order + "' on a " + (ev.dir == Dir::R ? "read" : "write"));
  if (ev.dir == Dir::R)
    return pre + "ld" + sem + space + ".u32 %r" + std::to_string(ev.reg) + ", " + addr + ";";
  return pre + "st" + sem + space + ".u32 " + addr + ", " + valueOperand + ";";
}

// Code of a sync edge: the release side at the end of the source thread, the acquire side at the
// start of the destination thread.
void syncCode(Ctx& c, const Edge& e, int from, int to, std::vector<std::string>& head,
              std::vector<std::string>& tail) {
  const Place& a = c.spec.place[from];
  const Place& b = c.spec.place[to];
  if (e.fence == "bar") {
    if (a.cta != b.cta) throw Error("Sync.bar joins threads of one CTA");
    tail[from] += "bar.sync 1, 64;\n";
    head[to] += "bar.sync 1, 64;\n";
  } else if (e.fence == "cluster") {
    if (a.cluster != b.cluster || !c.spec.clusters) throw Error("Sync.cluster joins threads of one cluster");
    for (size_t t = 0; t < c.spec.place.size(); ++t)
      if (c.spec.place[t].cluster == a.cluster && static_cast<int>(t) != from && static_cast<int>(t) != to)
        throw Error("Sync.cluster: every thread of the cluster would have to arrive");
    tail[from] += "barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n";
    head[to] += "barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n";
  } else {  // mbar: an mbarrier in the destination's CTA, initialised before either side runs
    if (a.cta != b.cta) throw Error("Sync.mbar joins threads of one CTA");
    head[from] = "bar.sync 2, 64;\n" + head[from];
    head[to] = "mbarrier.init.shared::cta.b64 [m], 1;\nbar.sync 2, 64;\n" + head[to] +
               "mbarrier.try_wait.parity.shared::cta.b64 %p, [m], 0;\n";
    tail[from] += "mbarrier.arrive.shared::cta.b64 %st, [m];\n";
    c.condRegs.push_back(threadName(to) + ":p == 1");
  }
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
  std::vector<std::string> head(T), body(T), tail(T);
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
      syncCode(c, e, ev.thread, c.sk.events[(i + 1) % n].thread, head, tail);
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
  std::vector<int> ctas, clusters;
  for (const Place& p : spec.place) {
    ctas.push_back(p.cta);
    clusters.push_back(p.cluster);
  }
  if (spec.clusters) name += "-cl" + partitionName(clusters);
  name += "-cta" + partitionName(ctas);
  if (spec.space == Space::Shared) {
    const std::set<int> distinct(ctas.begin(), ctas.end());
    name += distinct.size() == 1 ? "-shared" : "-dsmem";
  }
  return name;
}

Generated emit(const Spec& spec) {
  Ctx c{spec, buildSkeleton(spec.cycle), {}, {}, {}};
  if (c.sk.edges != spec.cycle) throw Error("internal: the cycle does not start a thread at its first edge");
  if (spec.access.size() != c.sk.events.size() || static_cast<int>(spec.place.size()) != c.sk.threads)
    throw Error("internal: annotations do not match the cycle");
  c.homeCta.assign(c.sk.locs, 0);
  for (int l = c.sk.locs; l-- > 0;)
    for (size_t i = c.sk.events.size(); i-- > 0;)
      if (c.sk.events[i].loc == l) c.homeCta[l] = spec.place[c.sk.events[i].thread].cta;
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
  bool needsMbar = false;
  for (const std::string& code : c.code) needsMbar |= code.find("[m]") != std::string::npos;
  for (int l = 0; l < c.sk.locs; ++l) {
    if (spec.space == Space::Global) y << "  " << locName(l) << ": 0\n";
    else y << "  " << locName(l) << ": {space: shared, cta: " << c.homeCta[l] << "}\n";
  }
  if (needsMbar) {
    int cta = 0;
    for (size_t t = 0; t < c.code.size(); ++t)
      if (c.code[t].find("mbarrier.init") != std::string::npos) cta = spec.place[t].cta;
    y << "  m: {space: shared, cta: " << cta << "}\n";
  }
  y << "threads:\n";
  for (int t = 0; t < c.sk.threads; ++t) {
    y << "  " << threadName(t) << ":\n    cta: " << spec.place[t].cta << "\n";
    if (spec.clusters) y << "    cluster: " << spec.place[t].cluster << "\n";
    y << "    code: |\n";
    std::istringstream lines(c.code[t]);
    for (std::string line; std::getline(lines, line);) y << "      " << line << "\n";
  }
  std::vector<std::string> terms;
  for (const Event& ev : c.sk.events)
    if (ev.dir == Dir::R && ev.value >= 0)
      terms.push_back(threadName(ev.thread) + ":r" + std::to_string(ev.reg) + " == " + std::to_string(ev.value));
  terms.insert(terms.end(), c.condRegs.begin(), c.condRegs.end());
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
    std::map<int, int> cta, cluster;  // renamed in order of first use along the rotation
    std::string key;
    for (size_t j = 0; j < n; ++j) {
      const size_t i = (k + j) % n;
      const Place& p = spec.place[sk.events[i].thread];
      cta.emplace(p.cta, static_cast<int>(cta.size()));
      cluster.emplace(p.cluster, static_cast<int>(cluster.size()));
      key += toString(sk.edges[i]) + "/" + spec.access[i].order + "." + spec.access[i].scope + "@" +
             std::to_string(cta[p.cta]) + "." + std::to_string(cluster[p.cluster]) + " ";
    }
    if (best.empty() || key < best) best = key;
  }
  return best + (spec.space == Space::Shared ? "shared" : "global");
}

}  // namespace gen
