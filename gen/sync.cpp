// Sync edges as the catalogue writes the primitives (catalog/barriers, mbarrier, cluster,
// async): each joins the end of one thread to the start of another.
#include "gen/sync.h"

#include <set>

namespace gen {
namespace {

std::string thread(int t) { return "P" + std::to_string(t); }

int rank(const Spec& s, int cta) {
  int cluster = -1;
  for (const Place& p : s.place)
    if (p.cta == cta) cluster = p.cluster;
  std::set<int> ctas;
  for (const Place& p : s.place)
    if (p.cluster == cluster) ctas.insert(p.cta);
  return static_cast<int>(std::distance(ctas.begin(), ctas.find(cta)));
}

// bar.sync counts warps of 32 threads: no CTA of the two may have a warp of several test threads.
void sameCta(const Spec& s, const std::string& prim, int a, int b) {
  if (s.place[a].cta != s.place[b].cta) throw Error("Sync." + prim + " joins threads of one CTA");
  for (size_t t = 0; t < s.place.size(); ++t)
    for (size_t u = t + 1; u < s.place.size(); ++u)
      if (s.place[t].cta == s.place[a].cta && s.place[u].cta == s.place[a].cta && s.place[t].warp >= 0 &&
          s.place[t].warp == s.place[u].warp)
        throw Error("Sync." + prim + " uses bar.sync, which cannot count lanes of one warp");
}

// barrier.cluster waits for every thread of the cluster: the two threads must be its only ones.
void aloneInCluster(const Spec& s, const std::string& prim, int a, int b, bool otherCta) {
  if (!s.clusters || s.place[a].cluster != s.place[b].cluster)
    throw Error("Sync." + prim + " joins threads of one cluster");
  if (otherCta && s.place[a].cta == s.place[b].cta) throw Error("Sync." + prim + " joins two CTAs");
  for (size_t t = 0; t < s.place.size(); ++t)
    if (s.place[t].cluster == s.place[a].cluster && static_cast<int>(t) != a && static_cast<int>(t) != b)
      throw Error("Sync." + prim + ": every thread of the cluster would have to arrive");
}

const char* kInit = "mbarrier.init.shared::cta.b64 [m], 1;\n";
const char* kClusterBarrier = "barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n";

}  // namespace

const std::vector<std::string>& syncPrimitives() {
  static const std::vector<std::string> p = {"bar", "cluster", "mbar", "mbarspin", "mbarremote", "tx", "stasync"};
  return p;
}

void addSync(const Spec& s, const Edge& e, int a, int b, SyncCode& out) {
  const std::string& p = e.fence;
  const std::string home = std::to_string(s.place[b].cta);
  auto shared = [&](const std::string& name, const std::string& extra = "") {
    out.locations.push_back(name + ": {space: shared, cta: " + home + extra + "}");
  };
  const std::string waitOnce = "mbarrier.try_wait.parity.shared::cta.b64 %p, [m], 0;\n";
  if (p == "bar") {
    sameCta(s, p, a, b);
    out.tail[a] += "bar.sync 1, 64;\n";
    out.head[b] += "bar.sync 1, 64;\n";
  } else if (p == "cluster") {
    aloneInCluster(s, p, a, b, false);
    out.tail[a] += kClusterBarrier;
    out.head[b] += kClusterBarrier;
  } else if (p == "mbar" || p == "mbarspin" || p == "tx") {
    // An mbarrier in the CTA of both, published by bar.sync before either side uses it.
    sameCta(s, p, a, b);
    shared("m");
    out.head[a] = "bar.sync 2, 64;\n" + out.head[a];
    out.head[b] = std::string(kInit) + "bar.sync 2, 64;\n" + out.head[b];
    if (p == "tx") {
      // The phase completes when the expect_tx arrive and the bulk copy's bytes are both in.
      out.locations.push_back("tg: 1");
      shared("ts");
      out.tail[a] += "mbarrier.arrive.expect_tx.shared::cta.b64 %st, [m], 16;\n"
                     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [ts], [tg], 16, [m];\n";
    } else {
      out.tail[a] += "mbarrier.arrive.shared::cta.b64 %st, [m];\n";
    }
    if (p == "mbarspin") {
      out.head[b] += "SPIN:\nmbarrier.try_wait.parity.shared::cta.b64 %p, [m], 0;\n@!%p bra SPIN;\n";
    } else {
      out.head[b] += waitOnce;
      out.condition.push_back(thread(b) + ":p == 1");
    }
  } else if (p == "mbarremote" || p == "stasync") {
    // The mbarrier in the destination's CTA, reached from the other CTA of the cluster by mapa;
    // the cluster barrier publishes its initialisation.
    aloneInCluster(s, p, a, b, true);
    shared("m");
    const std::string r = std::to_string(rank(s, s.place[b].cta));
    std::string init = kInit;
    if (p == "stasync") init += "mbarrier.arrive.expect_tx.shared::cta.b64 %st, [m], 4;\n";
    out.head[b] = init + "fence.mbarrier_init.release.cluster;\n" + kClusterBarrier + out.head[b] +
                  "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [m], 0;\n";
    out.head[a] = kClusterBarrier + out.head[a];
    out.tail[a] += "mapa.shared::cluster.u32 %am, m, " + r + ";\n";
    if (p == "stasync") {
      shared("tf");
      out.tail[a] += "mapa.shared::cluster.u32 %atf, tf, " + r +
                     ";\nst.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%atf], 1, [%am];\n";
    } else {
      out.tail[a] += "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%am];\n";
    }
    out.condition.push_back(thread(b) + ":p == 1");
  } else {
    throw Error("unknown sync primitive '" + p + "'");
  }
}

}  // namespace gen
