#include "model/relations.h"

#include "model/barriers.h"

namespace model {

using litmus::FenceProxyKind;
using litmus::Proxy;
using litmus::Scope;
using litmus::Sem;

bool inScope(const Event& a, const Event& b) {
  if (a.thread < 0 || b.thread < 0) return true;
  switch (a.scope) {
    case Scope::Cta: return a.cta == b.cta;
    case Scope::Cluster: return a.cluster == b.cluster && a.gpu == b.gpu;
    case Scope::Gpu: return a.gpu == b.gpu;
    case Scope::Sys: return true;
    case Scope::None: return false;
  }
  return false;
}

namespace {

// Fences and barriers access no memory and carry no proxy: they are compatible with every proxy
// (decision recorded in docs/model.md).
bool sameProxy(const Event& a, const Event& b) {
  return !(a.isMem() && b.isMem()) || a.proxy == b.proxy;
}

// §8.2.1 (PTX <= 9.2 wording): operations overlap when they use the same virtual address;
// aliases are two addresses of one location and so do not overlap, although rf/co/fr relate them.
bool overlap(const Event& a, const Event& b) {
  return a.isMem() && b.isMem() && a.loc == b.loc && (a.va == b.va || a.thread < 0 || b.thread < 0);
}

}  // namespace

bool morallyStrong(const Event& a, const Event& b) {
  if (&a == &b) return false;
  if (a.isMem() && b.isMem() && !overlap(a, b)) return false;
  if (!sameProxy(a, b)) return false;
  if (a.thread < 0 || b.thread < 0) return true;  // the initial writes precede every thread
  if (a.thread == b.thread) return true;
  return a.strong() && b.strong() && inScope(a, b) && inScope(b, a);
}

std::string whyNotMorallyStrong(const Event& a, const Event& b) {
  if (!sameProxy(a, b)) return "they use different proxies";
  if (a.va != b.va) return "they access the location through different addresses (aliases)";
  if (!a.strong() && !b.strong()) return "both are weak";
  if (!a.strong()) return "the first is weak";
  if (!b.strong()) return "the second is weak";
  if (!inScope(a, b)) return "the second thread is outside the first's scope";
  return "the first thread is outside the second's scope";
}

namespace {

// Whether proxy fence kind k turns view (pu, u) into view (pv, v), where u and v are the generic
// addresses viewed (D27). Bi-directional fences work both ways; the async fences with a state
// space only for locations in that space.
bool turns(FenceProxyKind k, Proxy pu, int u, Proxy pv, int v, litmus::Space space) {
  using litmus::Space;
  if (pu == pv && u == v) return false;
  if (k == FenceProxyKind::Alias) return pu == Proxy::Generic && pv == Proxy::Generic && u != v;
  if (u != v) return false;
  auto between = [&](Proxy p) {
    return (pu == Proxy::Generic && pv == p) || (pu == p && pv == Proxy::Generic);
  };
  const bool shared = space == Space::Shared || space == Space::SharedCta || space == Space::SharedCluster;
  switch (k) {
    case FenceProxyKind::Texture: return between(Proxy::Texture);
    case FenceProxyKind::Surface: return between(Proxy::Surface);
    case FenceProxyKind::Constant: return between(Proxy::Constant);
    case FenceProxyKind::Async: return between(Proxy::Async);
    case FenceProxyKind::AsyncGlobal: return between(Proxy::Async) && space == Space::Global;
    case FenceProxyKind::AsyncSharedCta:
    case FenceProxyKind::AsyncSharedCluster: return between(Proxy::Async) && shared;
    default: return false;
  }
}

bool ppStaticPair(const Event& x, const Event& y) {
  if (!x.isMem() || !y.isMem() || x.va != y.va) return false;
  if (x.proxy == Proxy::Generic && y.proxy == Proxy::Generic) return true;
  return x.proxy == y.proxy && x.cta == y.cta;
}

BitRel::Row setOf(const std::vector<Event>& ev, auto pred) {
  BitRel::Row r;
  for (size_t i = 0; i < ev.size(); ++i) r[i] = pred(ev[i]);
  return r;
}

// The views of the accesses, and the steps between views that the proxy fences present can make
// (D27). Only views of one physical location are joined: ppbc matters on one location only.
void addViews(const std::vector<Event>& ev, Static<BitRel>& s) {
  const int n = static_cast<int>(ev.size());
  s.PF = BitRel(n);
  std::vector<int> fences;
  for (int f = 0; f < n; ++f)
    if (ev[f].kind == EventKind::ProxyFence) {
      fences.push_back(f);
      s.PF.set(f, f);
    }
  if (fences.empty()) return;
  struct View { Proxy proxy; int va; int loc; litmus::Space space; };
  std::vector<View> views;
  std::vector<BitRel::Row> members;
  auto viewOf = [&](Proxy p, const Event& e) {
    size_t v = 0;
    while (v < views.size() && !(views[v].proxy == p && views[v].va == e.view && views[v].loc == e.loc)) ++v;
    if (v == views.size()) {
      views.push_back({p, e.view, e.loc, e.space});
      members.emplace_back();
    }
    return v;
  };
  for (int a = 0; a < n; ++a) {
    const Event& e = ev[a];
    if (!e.isMem() || e.thread < 0) continue;
    members[viewOf(e.proxy, e)][a] = true;
    viewOf(Proxy::Generic, e);  // a chain may pass through the generic view of e's address
  }
  for (const auto& m : members) s.views.push_back(BitRel::diag(n, m));
  for (const auto& v : views) s.viewGeneric.push_back(v.proxy == Proxy::Generic);
  s.sameCta = BitRel(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) s.sameCta.set(a, b, ev[a].thread >= 0 && ev[b].thread >= 0 && ev[a].cta == ev[b].cta);
  for (size_t u = 0; u < views.size(); ++u)
    for (size_t v = 0; v < views.size(); ++v) {
      if (u == v || views[u].loc != views[v].loc) continue;
      BitRel::Row by;
      for (int f : fences)
        by[f] = turns(ev[f].proxyFence, views[u].proxy, views[u].va, views[v].proxy, views[v].va, views[u].space);
      if (by.any()) s.viewSteps.push_back({static_cast<int>(u), static_cast<int>(v), BitRel::diag(n, by)});
    }
  s.chain = std::min(static_cast<int>(fences.size()), static_cast<int>(views.size()) - 1);
  if (s.viewSteps.empty()) s.chain = 0;
}

}  // namespace

Static<BitRel> staticRelations(const EventGraph& g) {
  const auto& ev = g.events;
  const int n = static_cast<int>(ev.size());
  auto diag = [&](auto pred) { return BitRel::diag(n, setOf(ev, pred)); };
  auto isRel = [](Sem s) { return s == Sem::Release || s == Sem::AcqRel; };
  auto isAcq = [](Sem s) { return s == Sem::Acquire || s == Sem::AcqRel; };
  // The wait of bar.sync/bar.red is also an acq_rel fence at CTA scope (D23).
  auto barFence = [](const Event& e) {
    return e.kind == EventKind::Wait && e.barOp != litmus::BarOp::ClusterWait;
  };
  auto fenceRel = [&](const Event& e) {
    return (e.isFence() && (isRel(e.sem) || e.sem == Sem::Sc)) || barFence(e);
  };
  auto fenceAcq = [&](const Event& e) {
    return (e.isFence() && (isAcq(e.sem) || e.sem == Sem::Sc)) || barFence(e);
  };

  Static<BitRel> s;
  s.W = diag([](const Event& e) { return e.isWrite(); });
  s.M = diag([](const Event& e) { return e.isMem(); });
  s.RelW = diag([&](const Event& e) { return e.kind == EventKind::Write && isRel(e.sem); });
  s.StrongW = diag([](const Event& e) { return e.kind == EventKind::Write && e.strong(); });
  s.StrongR = diag([](const Event& e) { return e.isRead() && !e.red && e.strong(); });
  s.AcqR = diag([&](const Event& e) { return e.isRead() && !e.red && isAcq(e.sem); });
  s.FRel = diag(fenceRel);
  s.FAcq = diag(fenceAcq);
  // a thread's exit orders barrier phases but never releases (D25)
  s.Arrive = diag([](const Event& e) { return e.kind == EventKind::Arrive && e.barrier != kExitBarrier; });
  s.ArriveRel = diag([&](const Event& e) { return e.kind == EventKind::Arrive && isRel(e.sem); });
  s.Wait = diag([](const Event& e) { return e.kind == EventKind::Wait; });
  s.WaitAcq = diag([&](const Event& e) { return e.kind == EventKind::Wait && isAcq(e.sem); });
  s.po = BitRel(n);
  s.po_loc = BitRel(n);
  s.loc = BitRel(n);
  s.ms = BitRel(n);
  s.ppStatic = BitRel(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      const Event &x = ev[a], &y = ev[b];
      const bool po = x.thread >= 0 && x.thread == y.thread && x.po < y.po;
      s.po.set(a, b, po);
      s.po_loc.set(a, b, po && overlap(x, y));
      s.loc.set(a, b, x.isMem() && y.isMem() && x.loc == y.loc);
      s.ms.set(a, b, morallyStrong(x, y));
      s.ppStatic.set(a, b, ppStaticPair(x, y));
    }
  s.rmw = BitRel(n);
  for (auto [r, w] : g.rmw) s.rmw.set(r, w);
  s.dep = BitRel(n);
  for (auto [r, e] : g.dep) s.dep.set(r, e);
  addViews(ev, s);
  return s;
}

}  // namespace model
