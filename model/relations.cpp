#include "model/relations.h"

#include "model/barriers.h"
#include "model/grids.h"
#include "litmus/instructions.h"

#include <map>

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
  // §9.7.13.15: the operations of one mbarrier object (updates and waits; init and inval are not
  // flagged) never race or lose one another, whatever their scopes, which bound only whom their
  // memory-synchronizing effect reaches (D35; that bound is synchronizesInScope's)
  if (a.mbarrier && b.mbarrier) return true;
  return synchronizesInScope(a, b);
}

bool synchronizesInScope(const Event& a, const Event& b) {
  if (&a == &b) return false;
  if (a.isMem() && b.isMem() && !overlap(a, b)) return false;
  if (a.mbarrier && b.mbarrier && a.atomic && b.atomic) return true;
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

// An access is made through a view: a proxy and the generic address it uses (D27). A pending view
// (D31) is where a uni-directional proxy fence's release half leaves a location: on the way from
// the generic proxy to `proxy`, waiting for the acquire half.
struct View {
  Proxy proxy;
  int va;
  int loc;
  litmus::Space space;
  int64_t offset;
  bool pending = false;
};

bool isShared(litmus::Space space) {
  using litmus::Space;
  return space == Space::Shared || space == Space::SharedCta || space == Space::SharedCluster;
}

// The uni-directional fences (D31): the release half takes the generic view to the pending view
// of the to-proxy; the acquire half takes the pending view to the to-proxy's view (for the
// tensormap acquire, only within the 128 bytes it names). The async::generic fences act on
// shared memory only (.sync_restrict).
bool turnsOneWay(const Event& f, const View& u, const View& v) {
  if (u.loc != v.loc || u.va != v.va) return false;
  const bool async = f.proxyFence == FenceProxyKind::AsyncGenericRelease ||
                     f.proxyFence == FenceProxyKind::AsyncGenericAcquire;
  const Proxy to = async ? Proxy::Async : Proxy::Tensormap;
  if (v.proxy != to || (async && !isShared(u.space))) return false;
  if (f.proxyFence == FenceProxyKind::AsyncGenericRelease || f.proxyFence == FenceProxyKind::TensormapRelease)
    return u.proxy == Proxy::Generic && !u.pending && v.pending;
  const bool inRange = async || (f.va == v.va && v.offset >= f.offset && v.offset < f.offset + f.value);
  return u.pending && u.proxy == to && !v.pending && inRange;
}

// Whether proxy fence f turns view u into view v, where u.va and v.va are the generic addresses
// viewed (D27). Bi-directional fences work both ways; the async fences with a state space only
// for locations in that space.
bool turns(const Event& f, const View& u, const View& v) {
  using litmus::Space;
  const FenceProxyKind k = f.proxyFence;
  if (litmus::isUniDirectional(k)) return turnsOneWay(f, u, v);
  if (u.pending || v.pending) return false;
  const Proxy pu = u.proxy, pv = v.proxy;
  if (pu == pv && u.va == v.va) return false;
  if (k == FenceProxyKind::Alias) return pu == Proxy::Generic && pv == Proxy::Generic && u.va != v.va;
  if (u.va != v.va) return false;
  auto between = [&](Proxy p) {
    return (pu == Proxy::Generic && pv == p) || (pu == p && pv == Proxy::Generic);
  };
  switch (k) {
    case FenceProxyKind::Texture: return between(Proxy::Texture);
    case FenceProxyKind::Surface: return between(Proxy::Surface);
    case FenceProxyKind::Constant: return between(Proxy::Constant);
    case FenceProxyKind::Async: return between(Proxy::Async);
    case FenceProxyKind::AsyncGlobal: return between(Proxy::Async) && u.space == Space::Global;
    case FenceProxyKind::AsyncSharedCta:
    case FenceProxyKind::AsyncSharedCluster: return between(Proxy::Async) && isShared(u.space);
    default: return false;
  }
}

// D36's reading `release-orders`: base causality from a generic read to an async-proxy write of
// the location is proxy-preserved without a proxy fence.
bool ppStaticPair(const Event& x, const Event& y, bool readBeforeAsyncWrite) {
  if (!x.isMem() || !y.isMem() || x.va != y.va) return false;
  if (x.proxy == Proxy::Generic && y.proxy == Proxy::Generic) return true;
  if (readBeforeAsyncWrite && x.isRead() && x.proxy == Proxy::Generic && y.kind == EventKind::Write &&
      y.proxy == Proxy::Async)
    return true;
  return x.proxy == y.proxy && x.cta == y.cta;
}

// The events as the readings of D30, D31 and D44 make the release, acquire and scope relations
// see them (the other relations see the events as they are).
std::vector<Event> asRead(const std::vector<Event>& ev, const Readings& r) {
  std::vector<Event> out = ev;
  const bool receiverCta = r.is(Decision::D30, "receiver-cta");
  const bool memoryFences = r.is(Decision::D31, "memory-fences");
  const bool relaxedArriveOn = r.is(Decision::D44, "relaxed");
  for (Event& e : out) {
    // D30: a complete-tx is in the CTA whose mbarrier it signals
    if (receiverCta && e.mbarrier && e.isAsync() && e.ownerCta >= 0) e.cta = e.ownerCta;
    // D31: the tensormap proxy fence halves are also memory fences
    if (memoryFences && e.kind == EventKind::ProxyFence &&
        (e.proxyFence == FenceProxyKind::TensormapRelease || e.proxyFence == FenceProxyKind::TensormapAcquire)) {
      e.kind = EventKind::Fence;
      e.sem = e.proxyFence == FenceProxyKind::TensormapRelease ? Sem::Release : Sem::Acquire;
      if (e.scope == Scope::None) e.scope = Scope::Gpu;
    }
    // D44: the arrive-on has no memory order
    if (relaxedArriveOn && e.arriveOnCopies && e.sem == Sem::Release) e.sem = Sem::Relaxed;
  }
  return out;
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
  std::vector<int> fences;
  BitRel::Row pf;
  for (int f = 0; f < n; ++f)
    if (ev[f].kind == EventKind::ProxyFence) {
      fences.push_back(f);
      pf[f] = true;
    }
  s.PF = BitRel::diag(n, pf);
  if (fences.empty()) return;
  std::vector<View> views;
  std::vector<BitRel::Row> members;
  auto viewOf = [&](Proxy p, const Event& e, bool pending = false) {
    size_t v = 0;
    while (v < views.size() && !(views[v].proxy == p && views[v].va == e.view && views[v].loc == e.loc &&
                                 views[v].pending == pending))
      ++v;
    if (v == views.size()) {
      views.push_back({p, e.view, e.loc, e.space, e.offset, pending});
      members.emplace_back();
    }
    return v;
  };
  for (int a = 0; a < n; ++a) {
    const Event& e = ev[a];
    if (!e.isMem() || e.thread < 0) continue;
    members[viewOf(e.proxy, e)][a] = true;
    viewOf(Proxy::Generic, e);  // a chain may pass through the generic view of e's address
    // ... and through the pending view on the way to e's proxy (D31)
    if (e.proxy == Proxy::Async || e.proxy == Proxy::Tensormap) viewOf(e.proxy, e, true);
  }
  for (const auto& m : members) s.views.push_back(BitRel::diag(n, m));
  // a pending view is on the generic side: the fence's release half need not share a CTA with
  // the generic accesses before it (D31)
  for (const auto& v : views) s.viewGeneric.push_back(v.proxy == Proxy::Generic || v.pending);
  s.sameCta = BitRel(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) s.sameCta.set(a, b, ev[a].thread >= 0 && ev[b].thread >= 0 && ev[a].cta == ev[b].cta);
  for (size_t u = 0; u < views.size(); ++u)
    for (size_t v = 0; v < views.size(); ++v) {
      if (u == v || views[u].loc != views[v].loc) continue;
      BitRel::Row by;
      for (int f : fences)
        by[f] = turns(ev[f], views[u], views[v]);
      if (by.any()) s.viewSteps.push_back({static_cast<int>(u), static_cast<int>(v), BitRel::diag(n, by)});
    }
  s.chain = std::min(static_cast<int>(fences.size()), static_cast<int>(views.size()) - 1);
  if (s.viewSteps.empty()) s.chain = 0;
}

// Whether restricted fence f orders memory event x (§9.7.13.4, D29): fence.mbarrier_init the
// thread's prior mbarrier.init; .sync_restrict::shared::cta operations on objects in the shared
// memory of f's CTA; .sync_restrict::shared::cluster those in the shared memory of f's cluster.
bool restrictionApplies(const Event& f, const Event& x, const std::map<int, std::pair<int, int>>& ctaCluster) {
  using litmus::FenceRestrict;
  if (!x.isMem() || x.thread < 0) return false;
  switch (f.restrict) {
    case FenceRestrict::MbarrierInit: return x.mbarrierInit && x.thread == f.thread && x.po < f.po;
    case FenceRestrict::SharedCta: return x.ownerCta >= 0 && x.ownerCta == f.cta;
    case FenceRestrict::SharedCluster: {
      const auto it = ctaCluster.find(x.ownerCta);
      return it != ctaCluster.end() && it->second == std::make_pair(f.cluster, f.gpu);
    }
    case FenceRestrict::None: return false;
  }
  return false;
}

// Groups the events by the restricted fences that apply to them (Static::restrictKeys). The
// first key is the events no restricted fence applies to (fences and barriers among them).
void addRestrictions(const std::vector<Event>& ev, Static<BitRel>& s) {
  const int n = static_cast<int>(ev.size());
  std::vector<int> fences;
  std::map<int, std::pair<int, int>> ctaCluster;
  BitRel::Row restricted;
  for (int f = 0; f < n; ++f) {
    if (ev[f].thread >= 0) ctaCluster[ev[f].cta] = {ev[f].cluster, ev[f].gpu};
    if (ev[f].isFence() && ev[f].restrict != litmus::FenceRestrict::None &&
        (s.FRel.get(f, f) || s.FAcq.get(f, f))) {
      fences.push_back(f);
      restricted[f] = true;
    }
  }
  const BitRel unrestricted = BitRel::diag(n, ~restricted);
  s.FRelU = s.FRel & unrestricted;
  s.FAcqU = s.FAcq & unrestricted;
  s.restricted = !fences.empty();
  if (!s.restricted) return;
  std::map<std::vector<bool>, size_t> keyOf;
  std::vector<BitRel::Row> from;
  keyOf[std::vector<bool>(fences.size(), false)] = 0;
  from.emplace_back();
  for (int x = 0; x < n; ++x) {
    std::vector<bool> applies;
    for (int f : fences) applies.push_back(restrictionApplies(ev[f], ev[x], ctaCluster));
    const auto [it, fresh] = keyOf.emplace(applies, from.size());
    if (fresh) from.emplace_back();
    from[it->second][x] = true;
  }
  s.restrictKeys.resize(from.size());
  for (const auto& [applies, k] : keyOf) {
    BitRel::Row rel, acq;
    for (size_t i = 0; i < fences.size(); ++i) {
      rel[fences[i]] = applies[i] && s.FRel.get(fences[i], fences[i]);
      acq[fences[i]] = applies[i] && s.FAcq.get(fences[i], fences[i]);
    }
    s.restrictKeys[k].from = BitRel::diag(n, from[k]);
    s.restrictKeys[k].rel = BitRel::diag(n, rel);
    s.restrictKeys[k].acq = BitRel::diag(n, acq);
  }
}

}  // namespace

Static<BitRel> staticRelations(const EventGraph& g, const Readings& readings) {
  // the release, acquire and scope relations read the events under the readings; the views,
  // proxies and restrictions read them as they are
  // (copied only when some reading is not the default)
  std::vector<Event> asReadings;
  if (readings.pick != Readings{}.pick) asReadings = asRead(g.events, readings);
  const auto& raw = g.events;
  const auto& ev = asReadings.empty() ? raw : asReadings;
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
  s.poAsync = BitRel(n);
  s.po_loc = BitRel(n);
  s.loc = BitRel(n);
  s.ms = BitRel(n);
  s.msSync = BitRel(n);
  s.ppStatic = BitRel(n);
  // D53 `overtaken`: the thread's own plain arrivals (both halves of the RMW) on an mbarrier are
  // not before a later complete-tx of its asynchronous operations on that mbarrier. An arrival
  // with expect-tx keeps its place: it commutes with the complete-tx (the phase cannot complete
  // before it either way), so both orders would only multiply the executions.
  const bool overtaken = readings.is(Decision::D53, "overtaken");
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      const Event &x = ev[a], &y = ev[b];
      const bool before = x.thread >= 0 && x.thread == y.thread && x.po < y.po;
      // D30: into an asynchronous operation from the thread's earlier events (or from the
      // operations a wait_group completed); out of one only after such a wait.
      const bool done = !x.isAsync() || y.po >= x.joinPo;
      // A release async write (st.async/red.async.release, D51) orders the earlier ones too.
      const bool releases = y.kind == EventKind::Write && y.sem == litmus::Sem::Release && !y.mbarrier;
      // D43: cp.async.mbarrier.arrive's arrive-on follows the thread's earlier cp.async
      const bool tracked = before && x.cpAsync && y.arriveOnCopies;
      const bool po =
          (before && (x.async == y.async || ((!y.isAsync() || releases) && done))) || tracked;
      const bool overtakes = overtaken && x.plainArrive && y.mbarrier && x.loc == y.loc;
      const bool intoAsync = before && y.isAsync() && x.async != y.async && done && !overtakes;
      s.po.set(a, b, po);
      s.poAsync.set(a, b, intoAsync);
      s.async = s.async || intoAsync;
      s.po_loc.set(a, b, (po || intoAsync) && overlap(x, y));
      s.loc.set(a, b, x.isMem() && y.isMem() && x.loc == y.loc);
      s.ms.set(a, b, morallyStrong(x, y));
      s.msSync.set(a, b, synchronizesInScope(x, y));
      s.ppStatic.set(a, b, ppStaticPair(x, y, readings.is(Decision::D36, "release-orders")));
    }
  s.rmw = BitRel(n);
  for (auto [r, w] : g.rmw) s.rmw.set(r, w);
  s.dep = BitRel(n);
  for (auto [r, e] : g.dep) s.dep.set(r, e);
  // D38: under `gates` a dependent grid starts after the reads its gate's opening depends on
  s.gate = BitRel(n);
  if (readings.is(Decision::D38, "gates"))
    for (auto [r, e] : gateOrder(raw, g.dep)) s.gate.set(r, e);
  s.gated = !s.gate.empty();
  addViews(raw, s);
  s.grid = gridOrder(raw);
  s.grids = !s.grid.empty();
  // D39: under `generic-only` the grid boundary is base causality only
  s.gridAllProxies = readings.is(Decision::D39, "all-proxies");
  addRestrictions(raw, s);
  s.poPlus = plus(s.po);
  withPatterns(s);
  return s;
}

}  // namespace model
