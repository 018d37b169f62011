// Campaign configs (YAML) and their expansion into specs.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "base/suggest.h"
#include "gen/campaign.h"
#include "gen/families.h"

namespace gen {
namespace {

// An error at a node of the config: "LINE:COL: message" (parseConfig adds the file).
Error at(const YAML::Node& n, const std::string& message) {
  const YAML::Mark m = n.Mark();
  if (m.is_null()) return Error(message);
  return Error(std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + message);
}

std::vector<std::string> strings(const YAML::Node& n, const std::string& key) {
  std::vector<std::string> out;
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence()) throw at(n, "'" + key + "' must be a list");
  for (const YAML::Node& v : n) out.push_back(v.as<std::string>());
  return out;
}

const std::set<std::string> kScopes = {"cta", "cluster", "gpu", "sys"};
const std::set<std::string> kOrders = {"weak", "rlx", "relacq", "ra", "ra-weak", "sc"};
const std::set<std::string> kFences = {"none", "sc", "acq_rel", "acquire", "release"};

void checkAll(const YAML::Node& n, const std::vector<std::string>& v, const std::set<std::string>& allowed,
              const std::string& key) {
  for (const std::string& s : v)
    if (!allowed.count(s)) throw at(n, "unknown value '" + s + "' in '" + key + "'");
}

Variant parseVariant(const std::string& name, const YAML::Node& n) {
  Variant v;
  v.name = name;
  if (!n || n.IsNull()) return v;
  if (!n.IsMap()) throw at(n, "variant " + name + " must be a mapping");
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>();
    if (k == "base") v.base = kv.second.as<std::string>();
    else if (k == "fences" && !kv.second.IsMap())
      throw at(kv.second, "variant " + name + ": 'fences' maps threads to fence semantics");
    else if (k == "fences")
      for (const auto& f : kv.second) v.fences[f.first.as<int>()] = f.second.as<std::string>();
    else if (k == "acq" || k == "rel" || k == "rlx" || k == "weak" || k == "sc")
      for (const std::string& a : strings(kv.second, k)) v.orders[a] = k;
    else throw at(kv.first, "variant " + name + ": unknown key '" + k + "'");
  }
  return v;
}

// Every access and thread a variant names exists in each cycle of its group.
void checkVariants(const YAML::Node& n, const Group& g) {
  for (const auto& [family, cycle] : g.cycles) {
    const Skeleton sk = buildSkeleton(cycle);
    std::set<std::string> accesses;
    std::vector<int> count(sk.threads, 0);
    for (const Event& ev : sk.events)
      accesses.insert(std::to_string(ev.thread) + "." + std::to_string(count[ev.thread]++));
    for (const Variant& v : g.variants) {
      for (const auto& [access, order] : v.orders)
        if (!accesses.count(access))
          throw at(n, "variant " + v.name + ": " + family + " has no access " + access + " (THREAD.INDEX)");
      for (const auto& [t, sem] : v.fences) {
        if (t < 0 || t >= sk.threads) throw at(n, "variant " + v.name + ": " + family + " has no thread " + std::to_string(t));
        if (!kFences.count(sem) || sem == "none") throw at(n, "variant " + v.name + ": unknown fence '" + sem + "'");
      }
      if (v.base != "weak" && v.base != "rlx" && v.base != "sc")
        throw at(n, "variant " + v.name + ": base is weak, rlx or sc");
    }
  }
}

Group parseGroup(const YAML::Node& n) {
  Group g;
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (k == "families") {
      for (const std::string& f : strings(v, k)) {
        const Family* fam = findFamily(f);
        if (!fam) {
          std::vector<std::string> names;
          for (const Family& known : families()) names.push_back(known.name);
          throw at(v, "unknown family '" + f + "'" + litmus::didYouMean(f, names));
        }
        g.cycles.push_back({fam->name, parseCycle(fam->cycle)});
      }
    } else if (k == "cycles") {
      for (const std::string& c : strings(v, k)) {
        std::vector<Edge> cycle;
        try {
          cycle = parseCycle(c);
          buildSkeleton(cycle);
        } catch (const Error& e) {
          throw at(v, e.what());
        }
        g.cycles.push_back({familyOf(cycle), cycle});
      }
    } else if (k == "placements") {
      const std::vector<std::string> levels = strings(v, k);
      checkAll(v, levels, {"gpu", "cluster", "cta", "warp"}, k);
      for (const std::string& l : levels) {
        g.clusters |= l == "cluster";
        g.gpus |= l == "gpu";
        g.warps |= l == "warp";
      }
    } else if (k == "scopes") {
      checkAll(v, g.scopes = strings(v, k), kScopes, k);
    } else if (k == "orders") {
      checkAll(v, g.orders = strings(v, k), kOrders, k);
    } else if (k == "fences") {
      checkAll(v, g.fences = strings(v, k), kFences, k);
    } else if (k == "fence-scopes") {
      checkAll(v, g.fenceScopes = strings(v, k), kScopes, k);
    } else if (k == "spaces") {
      checkAll(v, g.spaces = strings(v, k), {"global", "shared"}, k);
    } else if (k == "proxies") {
      checkAll(v, g.proxies = strings(v, k), {"generic", "alias", "alias-fence"}, k);
    } else if (k == "variants") {
      if (!v.IsMap()) throw at(v, "'variants' must be a mapping from names to annotations");
      for (const auto& var : v) g.variants.push_back(parseVariant(var.first.as<std::string>(), var.second));
    } else if (k == "peer") {
      g.peer = v.as<std::string>();
    } else if (k == "peer-placements") {
      g.peerPlacements = strings(v, k);
    } else {
      throw at(kv.first, "unknown key '" + k + "' in a group");
    }
  }
  if (g.cycles.empty()) throw at(n, "a group needs 'families' or 'cycles'");
  checkVariants(n, g);
  return g;
}

}  // namespace

Config parseConfig(const std::string& text, const std::string& file) {
  try {
    const YAML::Node root = YAML::Load(text);
    if (!root.IsMap()) throw Error("the config is a mapping");
    Config c;
    for (const auto& kv : root) {
      const std::string k = kv.first.as<std::string>();
      if (k == "output") c.output = kv.second.as<std::string>();
      else if (k == "timeout") c.timeout = kv.second.as<double>();
      else if (k == "limit") c.limit = kv.second.as<int>();
      else if (k == "runner") {
        c.runner = kv.second.as<std::string>();
        if (c.runner != "filter" && c.runner != "report" && c.runner != "off")
          throw at(kv.second, "runner: filter, report or off");
      } else if (k == "groups") {
        for (const YAML::Node& g : kv.second) c.groups.push_back(parseGroup(g));
      } else if (k == "description") {
      } else {
        throw at(kv.first, "unknown key '" + k + "'");
      }
    }
    if (c.groups.empty()) throw Error("the config has no groups");
    return c;
  } catch (const Error& e) {
    const std::string m = e.what();
    const bool located = !m.empty() && std::isdigit(static_cast<unsigned char>(m[0]));
    if (located) {
      const size_t colon = m.find(": ", m.find(':') + 1);
      throw Error(file + ":" + m.substr(0, colon) + ": error: " + m.substr(colon + 2));
    }
    throw Error(file + ": error: " + m);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw Error(file + ": error: " + e.msg);
    throw Error(file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                ": error: " + e.msg);
  }
}

namespace {

// Per event: its thread and its index among the thread's accesses.
std::vector<std::pair<int, int>> positions(const Skeleton& sk) {
  std::vector<std::pair<int, int>> out;
  std::vector<int> count(sk.threads, 0);
  for (const Event& ev : sk.events) out.push_back({ev.thread, count[ev.thread]++});
  return out;
}

std::vector<Access> profile(const Skeleton& sk, const std::string& order, const std::string& scope) {
  std::vector<Access> out;
  const size_t n = sk.events.size();
  for (size_t i = 0; i < n; ++i) {
    const Event& ev = sk.events[i];
    const bool first = sk.edges[(i + n - 1) % n].ext, last = sk.edges[i].ext;
    std::string o = order;
    if (order == "relacq") o = ev.dir == Dir::R ? "acq" : "rel";
    if (order == "ra" || order == "ra-weak") {
      o = order == "ra" ? "rlx" : "weak";
      if (first && ev.dir == Dir::R) o = "acq";
      if (last && ev.dir == Dir::W) o = "rel";
    }
    out.push_back({o, o == "weak" ? "" : scope});
  }
  return out;
}

// Each program-order edge of the threads in `threads` (all when empty) becomes a fence.
std::vector<Edge> withFences(std::vector<Edge> cycle, const Skeleton& sk, const std::map<int, std::string>& sems,
                             const std::string& all, const std::string& scope) {
  for (size_t i = 0; i < cycle.size(); ++i) {
    Edge& e = cycle[i];
    if (e.kind != EdgeKind::Po) continue;
    const int t = sk.events[i].thread;
    const std::string sem = all.empty() ? (sems.count(t) ? sems.at(t) : "") : all;
    if (sem.empty()) continue;
    e.kind = EdgeKind::Fence;
    e.fence = sem + "." + scope;
  }
  return cycle;
}

std::string peerScope(const std::string& s) {
  return s == "cta" ? "BLOCK" : s == "gpu" ? "DEVICE" : s == "sys" ? "SYSTEM" : "CLUSTER";
}

// The peer's spelling of a split: the listed one with the same groups.
std::string peerPlacement(const Group& g, const std::vector<Place>& pl) {
  std::vector<int> ctas;
  for (const Place& p : pl) ctas.push_back(p.cta);
  const std::string mine = partitionName(ctas);
  auto groups = [](const std::string& s) {
    std::set<std::string> out;
    size_t a = 0;
    for (size_t b; (b = s.find('_', a)) != std::string::npos; a = b + 1) out.insert(s.substr(a, b - a));
    out.insert(s.substr(a));
    return out;
  };
  for (const std::string& p : g.peerPlacements)
    if (groups(p) == groups(mine)) return p;
  return mine;
}

struct Adder {
  Expanded& out;
  std::set<std::string>& keys;
  std::map<std::string, size_t>& byKey;
  void add(Spec s) {
    std::string key;
    try {
      emit(s);
      key = canonicalKey(s);
    } catch (const Error&) {
      ++out.impossible;
      return;
    }
    if (!keys.insert(key).second) {
      ++out.duplicates;
      Spec& first = out.specs[byKey[key]];
      if (!s.peer.empty()) first.peer += (first.peer.empty() ? "" : ",") + s.peer;
      return;
    }
    byKey[key] = out.specs.size();
    out.specs.push_back(std::move(s));
  }
};

void expandVariants(const Group& g, const std::string& family, const std::vector<Edge>& cycle,
                    const Skeleton& sk, const std::vector<Place>& pl, Adder& add) {
  const auto pos = positions(sk);
  for (const std::string& scope : g.scopes)
    for (const Variant& v : g.variants) {
      const std::vector<std::string> fscopes =
          v.fences.empty() ? std::vector<std::string>{""} : g.fenceScopes.empty() ? g.scopes : g.fenceScopes;
      for (const std::string& fs : fscopes) {
        if (!v.fences.empty() && g.fenceScopes.empty() && fs != scope) continue;
        Spec s{family, withFences(cycle, sk, v.fences, "", fs), {}, pl, g.clusters, g.gpus, g.warps,
               Space::Global, "", v.name};
        for (size_t i = 0; i < sk.events.size(); ++i) {
          const std::string at = std::to_string(pos[i].first) + "." + std::to_string(pos[i].second);
          const std::string o = v.orders.count(at) ? v.orders.at(at) : v.base;
          s.access.push_back({o, o == "weak" ? "" : scope});
        }
        if (!g.peer.empty())
          s.peer = g.peer + "_TB_" + peerPlacement(g, pl) + "_SCOPE_" + peerScope(scope) + "_" +
                   (v.fences.empty() ? "NO_FENCE_" : "FENCE_SCOPE_" + peerScope(fs) + "_") + v.name;
        add.add(std::move(s));
      }
    }
}

void expandAxes(const Group& g, const std::string& family, const std::vector<Edge>& cycle, const Skeleton& sk,
                const std::vector<Place>& pl, Adder& add) {
  for (const std::string& space : g.spaces)
    for (const std::string& order : g.orders)
      for (const std::string& scope : g.scopes) {
        if (order == "weak" && scope != g.scopes.front()) continue;  // weak takes no scope
        for (const std::string& fence : g.fences) {
          std::vector<std::string> fscopes = g.fenceScopes.empty() ? std::vector<std::string>{scope} : g.fenceScopes;
          if (fence == "none") fscopes = {""};
          for (const std::string& fs : fscopes) {
            for (const std::string& proxy : g.proxies) {
              Spec s{family, fence == "none" ? cycle : withFences(cycle, sk, {}, fence, fs),
                     profile(sk, order, scope), pl, g.clusters, g.gpus, g.warps,
                     space == "shared" ? Space::Shared : Space::Global, "", "", proxy};
              add.add(std::move(s));
            }
          }
        }
      }
}

}  // namespace

Expanded expand(const Config& config) {
  Expanded out;
  std::set<std::string> keys;
  std::map<std::string, size_t> byKey;
  Adder add{out, keys, byKey};
  for (const Group& g : config.groups)
    for (const auto& [family, given] : g.cycles) {
      const Skeleton sk = buildSkeleton(given);
      for (const std::vector<Place>& pl : placements(sk.threads, {g.gpus, g.clusters, g.warps})) {
        if (g.variants.empty()) expandAxes(g, family, sk.edges, sk, pl, add);
        else expandVariants(g, family, sk.edges, sk, pl, add);
        if (config.limit && static_cast<int>(out.specs.size()) >= config.limit) {
          out.specs.resize(config.limit);
          return out;
        }
      }
    }
  return out;
}

}  // namespace gen
