// sync-weaken and scope-narrow: weaker synchronisation (MC Mutants' weakening-sw mutator,
// adapted to PTX's memory orders and fences) and narrower scopes (PTX's own: a release or fence at
// too narrow a scope does not synchronise with a thread outside it).
#include "litmus/ptx_format.h"
#include "mutate/edit.h"

namespace mutate::detail {
namespace {

using litmus::Instr;
using litmus::Opcode;
using litmus::Scope;
using litmus::Sem;

Instr relaxed(const Instr& in) {
  Instr out = in;
  out.sem = Sem::Relaxed;
  out.semExplicit = true;
  // ptxas: "Modifier '.relaxed' requires scope with 'mbarrier.arrive'" (the front end accepts it
  // without one, defaulting to .cta)
  if (in.op == Opcode::Mbarrier) out.scopeExplicit = true;
  return out;
}

// A release, acquire or acq_rel access or RMW, an mbarrier arrive or wait, barrier.cluster.arrive:
// their memory order can become relaxed.
bool hasStrongOrder(const Instr& in) {
  const bool order = in.sem == Sem::Acquire || in.sem == Sem::Release || in.sem == Sem::AcqRel;
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: return order;
    case Opcode::Mbarrier:  // (.noComplete arrivals take .release.cta only)
      return order && !in.noComplete && (in.mbarOp == litmus::MbarOp::Arrive || in.mbarOp == litmus::MbarOp::ArriveDrop ||
                       in.mbarOp == litmus::MbarOp::TestWait || in.mbarOp == litmus::MbarOp::TryWait);
    case Opcode::Bar: return in.barOp == litmus::BarOp::ClusterArrive && in.sem == Sem::Release;
    default: return false;
  }
}

// Does some other thread lie outside `t`'s instance of `scope`?
bool someoneOutside(const litmus::Test& test, size_t t, Scope scope) {
  const litmus::Thread& me = test.threads[t];
  for (const litmus::Thread& other : test.threads) {
    if (&other == &me) continue;
    const bool outside = scope == Scope::Cta       ? other.cta != me.cta
                         : scope == Scope::Cluster ? other.cluster != me.cluster
                         : scope == Scope::Gpu     ? other.gpu != me.gpu
                                                   : false;
    if (outside) return true;
  }
  return false;
}

// The scopes one step narrower that matter here: sys -> gpu, gpu -> cluster (when some cluster
// of the test holds several CTAs) and gpu -> cta, cluster -> cta.
std::vector<Scope> narrower(const litmus::Test& test, Scope s) {
  bool bigCluster = false;
  for (const litmus::Thread& a : test.threads)
    for (const litmus::Thread& b : test.threads) bigCluster = bigCluster || (a.cluster == b.cluster && a.cta != b.cta);
  switch (s) {
    case Scope::Sys: return {Scope::Gpu};
    case Scope::Gpu: return bigCluster ? std::vector<Scope>{Scope::Cluster, Scope::Cta} : std::vector<Scope>{Scope::Cta};
    case Scope::Cluster: return {Scope::Cta};
    default: return {};
  }
}

// Instructions whose scope means something: morally strong accesses and RMWs, fences (not
// fence.mbarrier_init, which is .cluster only), the tensormap proxy-fence halves, mbarrier
// operations with a memory order.
bool scoped(const Instr& in) {
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
      return in.sem != Sem::Weak && in.sem != Sem::Volatile && in.sem != Sem::Mmio;
    case Opcode::Fence: return in.restrict == litmus::FenceRestrict::None;
    case Opcode::FenceProxy:  // the tensormap halves; the async::generic halves are .cluster only
      return (in.proxyKind == litmus::FenceProxyKind::TensormapRelease ||
              in.proxyKind == litmus::FenceProxyKind::TensormapAcquire) && in.scope != Scope::None;
    case Opcode::Mbarrier: return in.sem != Sem::Weak && in.scope != Scope::None;
    default: return false;
  }
}

}  // namespace

std::vector<Mutation> syncWeaken(const litmus::Test& test) {
  std::vector<Mutation> out;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const litmus::Thread& th = test.threads[t];
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      if (hasStrongOrder(in)) out.push_back(replaced(test, Category::SyncWeaken, t, i, relaxed(in)));
      if (in.op != Opcode::Fence) continue;
      if (in.sem == Sem::Sc && in.restrict == litmus::FenceRestrict::None) {
        Instr weaker = in;
        weaker.sem = Sem::AcqRel;
        weaker.semExplicit = true;
        out.push_back(replaced(test, Category::SyncWeaken, t, i, weaker));
      }
      out.push_back(dropped(test, Category::SyncWeaken, t, i));
    }
  }
  return out;
}

std::vector<Mutation> scopeNarrow(const litmus::Test& test) {
  std::vector<Mutation> out;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const litmus::Thread& th = test.threads[t];
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      if (!scoped(in)) continue;
      for (Scope s : narrower(test, in.scope)) {
        // mbarrier operations take .cta or .cluster only
        if (in.op == Opcode::Mbarrier && s != Scope::Cta && s != Scope::Cluster) continue;
        if (!someoneOutside(test, t, s)) continue;
        Instr n = in;
        n.scope = s;
        n.scopeExplicit = true;
        out.push_back(replaced(test, Category::ScopeNarrow, t, i, n));
      }
    }
  }
  return out;
}

}  // namespace mutate::detail
