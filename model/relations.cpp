#include "model/relations.h"

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

// Which pairs of accesses a proxy fence makes proxy-preserved when it lies between them.
bool covers(FenceProxyKind k, const Event& x, const Event& y) {
  if (x.loc != y.loc) return false;
  auto onlyGenericOr = [&](Proxy p) {
    return (x.proxy == Proxy::Generic || x.proxy == p) && (y.proxy == Proxy::Generic || y.proxy == p);
  };
  switch (k) {
    case FenceProxyKind::Alias:
      return x.proxy == Proxy::Generic && y.proxy == Proxy::Generic && x.va != y.va;
    case FenceProxyKind::Texture: return onlyGenericOr(Proxy::Texture);
    case FenceProxyKind::Surface: return onlyGenericOr(Proxy::Surface);
    case FenceProxyKind::Constant: return onlyGenericOr(Proxy::Constant);
    case FenceProxyKind::Async:
    case FenceProxyKind::AsyncGlobal:
    case FenceProxyKind::AsyncSharedCta:
    case FenceProxyKind::AsyncSharedCluster: return onlyGenericOr(Proxy::Async);
    case FenceProxyKind::None: return false;
  }
  return false;
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

}  // namespace

Static<BitRel> staticRelations(const EventGraph& g) {
  const auto& ev = g.events;
  const int n = static_cast<int>(ev.size());
  auto diag = [&](auto pred) { return BitRel::diag(n, setOf(ev, pred)); };
  auto isRel = [](Sem s) { return s == Sem::Release || s == Sem::AcqRel; };
  auto isAcq = [](Sem s) { return s == Sem::Acquire || s == Sem::AcqRel; };
  auto fenceRel = [&](const Event& e) { return e.isFence() && (isRel(e.sem) || e.sem == Sem::Sc); };
  auto fenceAcq = [&](const Event& e) { return e.isFence() && (isAcq(e.sem) || e.sem == Sem::Sc); };

  Static<BitRel> s;
  s.W = diag([](const Event& e) { return e.isWrite(); });
  s.M = diag([](const Event& e) { return e.isMem(); });
  s.RelW = diag([&](const Event& e) { return e.kind == EventKind::Write && isRel(e.sem); });
  s.StrongW = diag([](const Event& e) { return e.kind == EventKind::Write && e.strong(); });
  s.StrongR = diag([](const Event& e) { return e.isRead() && !e.red && e.strong(); });
  s.AcqR = diag([&](const Event& e) { return e.isRead() && !e.red && isAcq(e.sem); });
  s.FRel = diag(fenceRel);
  s.FAcq = diag(fenceAcq);
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
  for (int f = 0; f < n; ++f) {
    if (ev[f].kind != EventKind::ProxyFence) continue;
    BitRel cov(n);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (a != b && ev[a].isMem() && ev[b].isMem() && ev[a].thread >= 0 &&
            covers(ev[f].proxyFence, ev[a], ev[b]))
          cov.set(a, b);
    BitRel::Row only;
    only[f] = true;
    s.proxyFences.emplace_back(BitRel::diag(n, only), std::move(cov));
  }
  return s;
}

}  // namespace model
