// The explicit engine's search over reads-from, Fence-SC order and coherence for one candidate
// (the enumerator is declared in explicit_enum.h; the rest of the run is explicit_engine.cpp).
#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "checker/explicit_enum.h"
#include "model/wellformed.h"

namespace checker::explicit_detail {

// Whether some completion of the part x (with derived relations d of a part of it) may satisfy
// the model: co must stay a strict order, and no monotone constraint may fail yet. With `forced`,
// adds the co edges Coherence forces on every completion. x is the caller's, lent: its co is
// replaced by its closure while the model is asked, and given back as it was (copying the part's
// four relations per call was a tenth of the engine's time; a closed co kept in the part made
// every later closure of it dearer).
bool mayComplete(const model::Static<BitRel>& s, model::Choice<BitRel>& x,
                 const model::Derived<BitRel>& d, BitRel* forced, std::optional<Axiom> relax, bool coOnly) {
  BitRel co = plus(x.co);
  if (!co.irreflexive()) return false;
  std::swap(co, x.co);
  PartialCheck chk{BitRel(co.size()), relax, coOnly};
  const bool ok = model::axioms(s, x, d, chk);
  std::swap(co, x.co);
  if (ok && forced) *forced |= chk.forcedCo;
  return ok;
}

// Whether the spinning read r, reading w, must eventually see a write co-after w: any one, for an
// mbarrier wait; for a load, one morally strong with it (D26: the model promises nothing else).
bool laterWriteReleases(const Candidate& c, const BitRel& co, int w, int r) {
  return c.g.events[r].mbarrier ? co.row(w).any() : co.row(w).intersects(c.s.ms.row(r));
}

// The co edges every execution has: each location's initial write before its other writes.
BitRel initialWritesFirst(const Candidate& c) {
  BitRel co(static_cast<int>(c.g.events.size()));
  for (const auto& [i, w] : model::initialWritesFirst(c.writesByLoc, c.initOf)) co.set(i, w);
  return co;
}

// Per location, the morally strong pairs of its writes: every execution orders each of them in co
// (§8.9.6), one way or the other.
namespace {

std::vector<std::vector<std::pair<int, int>>> mustOrder(const Candidate& c) {
  std::vector<std::vector<std::pair<int, int>>> out(c.writesByLoc.size());
  const auto ms = [&](int a, int b) { return c.s.ms.get(a, b); };
  for (size_t l = 0; l < c.writesByLoc.size(); ++l)
    for (const model::WritePair& p : model::writePairs(c.writesByLoc[l], ms))
      if (p.forced) out[l].emplace_back(p.a, p.b);
  return out;
}

}  // namespace

// Case analysis on pairs co must order, with the model as the judge: if the model refutes the
// part with a -> b added to co, every completion has b -> a (and what Coherence then forces); if
// it refutes both ways, it refutes the part. Repeats until nothing more is forced. Returns false
// when the part is refuted; otherwise x.co gains the forced edges.
bool settleOrder(const model::Static<BitRel>& s, model::Choice<BitRel>& x, const model::Derived<BitRel>& d,
                 const std::vector<std::pair<int, int>>& pairs, const BitRel::Row& near,
                 std::optional<Axiom> relax) {
  model::Choice<BitRel> y = x;  // the part with one more co edge: only its co changes
  for (bool changed = true; changed;) {
    changed = false;
    BitRel closed = plus(x.co);
    for (auto [a, b] : pairs) {
      if (!near[a] && !near[b]) continue;
      if (closed.get(a, b) || closed.get(b, a)) continue;
      BitRel forcedAb(x.co.size()), forcedBa(x.co.size());
      // x passed the whole model with d (refine): only the axioms that read co can fail now
      y.co = x.co;
      y.co.set(a, b);
      const bool okAb = mayComplete(s, y, d, &forcedAb, relax, true);
      BitRel ab = y.co;
      y.co = x.co;
      y.co.set(b, a);
      const bool okBa = mayComplete(s, y, d, &forcedBa, relax, true);
      if (!okAb && !okBa) return false;
      if (okAb && okBa) continue;
      x.co = okAb ? ab | forcedAb : y.co | forcedBa;
      closed = plus(x.co);
      changed = true;
    }
  }
  return true;
}

// Reads-from is chosen one read at a time. With `prune`, a partial choice is dropped as soon as
// the model refutes it (mayComplete, settleOrder): the part it sees is the rf chosen so far, the
// co edges every completion of it has (initial writes first, what Coherence forces, what the case
// analysis on co forces), empty sc and bar, and the relations derived from the rf chosen so far,
// all of them included in those of every completion. Deriving costs a derivation per step, but
// sees synchronization as soon as it is chosen: a read of a pipeline stage that a later refill
// overwrites is refuted as soon as the release/acquire chain that orders them is chosen, not
// after every read between them was enumerated (a 2-stage, 3-tile TMA pipeline: 150 s -> 3 s).
//
// The case analysis costs two evaluations of the model per pair, so after a read r is given its
// write w it looks only at the pairs of r's location with an end near the new edge: w itself, or
// the first write after r in its thread (e.g. the write half of r's RMW). Any choice of pairs is sound; this
// one finds what the new edge makes decidable in the tests we have (bench/corpus.sh).
namespace {

// The reads of the last iteration of each thread that spins forever (Stuck::Spinning).
std::vector<bool> spinningReads(const Candidate& c) {
  std::vector<bool> out(c.g.events.size(), false);
  for (size_t t = 0; t < c.traces.size(); ++t) {
    if (c.stuck[t] != model::Stuck::Spinning) continue;
    for (size_t i = c.traces[t]->spinFrom; i < c.traces[t]->events.size(); ++i)
      if (c.traces[t]->events[i].isRead()) out[c.offset[t] + i] = true;
  }
  return out;
}

// Makes w, read by the spinning read r, co-maximal among the writes co must order with it that
// must reach r (spinsForever): each morally strong write of its location comes before it (for a
// load, each one also morally strong with r).
void maxInCo(const Candidate& c, BitRel& co, int w, int r) {
  const int loc = c.g.events[w].loc;
  for (int v : c.writesByLoc[loc])
    if (v != w && c.s.ms.get(v, w) && (c.g.events[r].mbarrier || c.s.ms.get(v, r))) co.set(v, w);
}

// The locations whose read-modify-writes are morally strong two by two (a spin lock's exch or cas,
// a counter's atom.add, an mbarrier's arrivals and tx updates, D35), whatever other writes they
// have (an mbarrier's init, a plain store): per location, the indices into c.reads of its RMWs'
// reads, in event order (program order within a thread); empty for the others. In every
// consistent execution the RMWs form one chain in co: co orders each morally strong pair
// (§8.9.6) and SC per location puts each RMW's write after the write it reads. So an RMW reads
// either the RMW just before it in the chain or a write that is not an RMW: not an earlier RMW
// (the one just before would lie between the two, and Atomicity forbids a morally strong write
// there), not a later one (SC per location). forEachRf builds the chain one RMW at a time,
// instead of choosing each read's write apart: a choice of writes that no chain has is then never
// made, where reads chosen one by one (a spin lock's loops: each read of each iteration, any
// write; each arrival on a pipeline's barriers) found it out only once most reads were chosen.
// Plain loads of the location still choose freely. writeOf: per event, the write half of the RMW
// it is the read half of (-1: none).
std::vector<std::vector<size_t>> rmwChains(const Candidate& c, const std::vector<int>& writeOf) {
  std::vector<std::vector<size_t>> out(c.writesByLoc.size());
  std::vector<std::vector<int>> events(c.writesByLoc.size());  // the RMWs' reads and writes
  for (size_t k = 0; k < c.reads.size(); ++k) {
    const int r = c.reads[k], loc = c.g.events[r].loc;
    if (writeOf[r] < 0 || c.g.events[writeOf[r]].loc != loc) continue;  // a plain read: any write
    out[loc].push_back(k);
    events[loc].push_back(r);
    events[loc].push_back(writeOf[r]);
  }
  // The chain takes a thread's RMWs in event order: that is co's order only where program order
  // relates them as accesses of one address (po_loc: SC per location), which an asynchronous RMW
  // (red.async) or one through another address of the location (an alias, mapa) does not.
  for (size_t l = 0; l < out.size(); ++l) {
    bool ok = true;
    for (size_t i = 0; ok && i < events[l].size(); ++i)
      for (size_t j = i + 1; ok && j < events[l].size(); ++j) {
        const int a = events[l][i], b = events[l][j];
        ok = c.s.ms.get(a, b) &&
             (i % 2 || j % 2 || c.g.events[a].thread != c.g.events[b].thread || c.s.po_loc.get(writeOf[a], writeOf[b]));
      }
    if (!ok) out[l].clear();
  }
  return out;
}

}  // namespace

namespace {
// Below this many complete rf choices, forEachRf enumerates without refining (bench/corpus-ratio.sh).
constexpr double kSmallRfSpace = 64;
// Above this many, and with this many events, each step looks ahead at every read left
// (forEachRf's `next`): a settling of values per read and write, which pays only when the search
// is deep and each step's derivation dear: on the corpus's loops (under
// 30 events, rf spaces past 1e6) it cost a quarter more instructions (callgrind), on pipelines
// (50 events and more) it divides the time by 3 to 20 (bench/pipelines.sh).
constexpr double kLookAheadRfSpace = 1e6;
constexpr int kLookAheadEvents = 40;
}  // namespace

bool Enumerator::forEachRf(const Candidate& c, bool prune,
                           const std::function<bool(const BitRel&, const BitRel&)>& f) {
  const int n = static_cast<int>(c.g.events.size());
  const BitRel none(n);
  // When the barrier phases fill only one way (each bar.sync executed once, say), every
  // completion has that bar relation: the part sees it from the start.
  const BitRel& bar = c.bars.size() == 1 ? c.bars.front() : none;
  const model::Derived<BitRel> d0 = model::derive(c.s, none, none, bar);
  const auto pairs = mustOrder(c);
  // A thread that spins forever reads, in its last iteration, the final value of each location
  // (spinsForever): its write is co-maximal. Those reads go first, so that the co edges this
  // forces on every hanging execution prune the rest of the search from the start.
  const std::vector<bool> spinRead = spinningReads(c);
  std::vector<size_t> order(c.reads.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  // Then the strong reads (synchronization), then the weak ones: a weak read synchronizes with
  // nothing, so once the synchronization is chosen each weak read's writes are refuted or not at
  // once, instead of a wrong early choice being found out only after the reads between it and
  // the synchronization that refutes it were enumerated (any order is sound).
  // Right after the spinning reads come the read halves of the RMWs on the locations they read
  // (mbarrier arrivals): the value a spinning read returns is known only once the chain of RMWs
  // before its write is, and a hang that value rules out is refuted at once.
  std::vector<bool> spunLoc(c.writesByLoc.size(), false);
  for (int r : c.reads)
    if (spinRead[r]) spunLoc[c.g.events[r].loc] = true;
  std::vector<bool> rmwRead(n, false);
  for (const auto& [a, b] : c.g.rmw) rmwRead[a] = true;
  auto rank = [&](size_t k) {
    const int r = c.reads[k];
    if (spinRead[r]) return 0;
    if (rmwRead[r] && spunLoc[c.g.events[r].loc]) return 1;
    return c.g.events[r].strong() ? 2 : 3;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
  // The writes chosen so far, per read: the values they decide must agree with the paths (the
  // lazy values' counterpart of reading only writes of the value read).
  std::vector<int> source(n, -1);
  // A hanging execution needs each spinning read's write co-maximal (spinsForever); co only
  // grows as the part completes, so a write the part already orders before another refutes it.
  auto spinWritesLast = [&](const BitRel& co) {
    if (!c.hangs) return true;
    const BitRel closed = plus(co);
    for (int rr : c.reads)
      if (spinRead[rr] && source[rr] >= 0 && laterWriteReleases(c, closed, source[rr], rr)) return false;
    return true;
  };
  // Whether the part x may still complete, after read r (-1: none yet) was given write w; x.co
  // gains the edges every completion has, and d the relations derived from x.rf. `parent`: those
  // derived before r read w. rf enters the derivation only through its morally strong edges
  // (observation order, model::derive), so an edge that is not one leaves them as they were: on a
  // pipeline, every read of a tile's data.
  auto refine = [&](model::Choice<BitRel>& x, int r, int w, model::Derived<BitRel>& d,
                    const model::Derived<BitRel>* parent) {
    BitRel forced(n);
    const bool keep = r >= 0 && parent && !c.s.ms.get(w, r);
    // The relations derived without rf are included in those derived with it (the model is
    // monotone), so a part the model refutes with them is refuted before the dearer derivation
    // (not needed where nothing is derived).
    if (r >= 0 && !keep && !mayComplete(c.s, x, d0, nullptr, relax_)) return false;
    if (r < 0) d = d0;
    else if (keep) d = *parent;
    else d = model::derive(c.s, x.rf, none, bar, parent);
    if (!mayComplete(c.s, x, d, &forced, relax_)) return false;
    x.co |= forced;
    BitRel::Row near;
    if (r < 0) near.set();
    else near.set(w);
    for (int e = r + 1; r >= 0 && e < n && c.g.events[e].thread == c.g.events[r].thread; ++e)
      if (c.g.events[e].isWrite()) {
        near.set(e);
        break;
      }
    for (size_t l = 0; l < pairs.size(); ++l)
      if ((r < 0 || static_cast<int>(l) == c.g.events[r].loc) && !settleOrder(c.s, x, d, pairs[l], near, relax_))
        return false;
    return spinWritesLast(x.co);
  };
  // Refining costs a derivation and several evaluations of the model per step; when the whole rf
  // space is small, enumerating it costs less than pruning it, and forEachCo refutes each
  // complete rf on its own.
  double space = 1;
  for (const auto& ws : c.rfChoices) space *= static_cast<double>(ws.size());
  prune = prune && space > kSmallRfSpace;
  const bool lookAhead = prune && space > kLookAheadRfSpace && n >= kLookAheadEvents;
  // The writes read r may still read: those whose value agrees with what the part decides and,
  // when pruning, that are not caused by r (rf ; cause would be reflexive: §8.10.6).
  auto viable = [&](size_t k, const model::Derived<BitRel>* d) {
    const int r = c.reads[k];
    std::vector<int> out;
    for (int w : c.rfChoices[k]) {
      if (d && d->cause.get(r, w)) continue;
      source[r] = w;
      if (model::valuesMayHold(c.g.events, c.traces, c.offset, source)) out.push_back(w);
    }
    source[r] = -1;
    return out;
  };
  // The next read to choose: the one with the fewest writes left (a read with none refutes the
  // part at once, before the reads after it in the static order are enumerated), the earlier in
  // `order` among equals. Spinning reads always go first.
  std::vector<bool> assigned(c.reads.size(), false);
  auto next = [&](const model::Derived<BitRel>* d, std::vector<int>& writes) -> std::optional<size_t> {
    std::optional<size_t> best;
    for (size_t k : order) {
      if (assigned[k]) continue;
      if (!lookAhead) return k;  // the static order; values are checked as writes are chosen
      std::vector<int> ws = viable(k, d);
      if (!best || ws.size() <= 1) {
        best = k;
        writes = std::move(ws);
      }
      if (writes.size() <= 1 || spinRead[c.reads[k]]) break;
    }
    return best;
  };
  // Read r (c.reads[k]) is given write w: the checks every choice passes, then the rest of the
  // search from i + 1.
  std::function<bool(size_t, model::Choice<BitRel>&, const model::Derived<BitRel>*)> pick;
  // `next`, if any, is the write of r's RMW when r is a link of a chain: co has it after `prev`,
  // the chain's link before (when there is one), and after w when `wBefore` (w is the link before,
  // the initial write, or a write morally strong with the RMW: SC per location; a weak write the
  // RMW reads may stay unordered with it).
  auto give = [&](size_t i, const model::Choice<BitRel>& x, int r, int w, model::Derived<BitRel>& dn,
                  const model::Derived<BitRel>* d, int next = -1, int prev = -1, bool wBefore = true) {
    source[r] = w;
    if (!lookAhead && !model::valuesMayHold(c.g.events, c.traces, c.offset, source)) return true;
    if ((explaining_ || (seek_ && !c.hangs)) && !mayReachWanted(c, source)) return true;
    model::Choice<BitRel> nx = x;
    nx.rf.set(w, r);
    if (next >= 0 && wBefore) nx.co.set(w, next);
    if (next >= 0 && prev >= 0) nx.co.set(prev, next);
    if (spinRead[r]) maxInCo(c, nx.co, w, r);
    return !((!prune || refine(nx, r, w, dn, d)) && !pick(i + 1, nx, &dn));
  };
  // The RMW chains (rmwChains) go first, one link at a time: the next link of location l is the
  // first read of l not yet placed in some thread, and reads the write of the last link (at first
  // the initial write) or a write of l that is not an RMW's. Not while explaining an axiom away:
  // the chain is what three of them make of co.
  std::vector<int> writeOf(n, -1);
  for (const auto& [r, w] : c.g.rmw) writeOf[r] = w;
  const std::vector<std::vector<size_t>> chains =
      prune && !relax_ ? rmwChains(c, writeOf) : std::vector<std::vector<size_t>>{};
  std::vector<int> chainEnd(chains.size());
  std::vector<size_t> linked(chains.size(), 0);  // links placed per chain
  std::vector<std::vector<int>> plainWrites(chains.size());  // per chained location, its other writes
  {
    std::vector<bool> link(n, false);  // the write of a chain's link
    for (size_t l = 0; l < chains.size(); ++l)
      for (size_t k : chains[l]) link[writeOf[c.reads[k]]] = true;
    for (size_t l = 0; l < chains.size(); ++l) {
      chainEnd[l] = c.initOf[l];
      for (int w : c.writesByLoc[l])
        if (!chains[l].empty() && !link[w]) plainWrites[l].push_back(w);
    }
  }
  auto extendChain = [&](size_t i, model::Choice<BitRel>& x, size_t l, const model::Derived<BitRel>* d) {
    const int from = chainEnd[l];
    const int prev = linked[l] > 0 ? from : -1;
    model::Derived<BitRel> dn;
    int lastThread = -1;
    for (size_t k : chains[l]) {
      const int r = c.reads[k];
      if (assigned[k] || c.g.events[r].thread == lastThread) continue;
      lastThread = c.g.events[r].thread;  // later reads of this thread wait for this one
      assigned[k] = true;
      chainEnd[l] = writeOf[r];
      ++linked[l];
      bool more = true;
      for (size_t j = 0; more && j <= plainWrites[l].size(); ++j) {
        const int w = j == 0 ? from : plainWrites[l][j - 1];
        if (std::find(c.rfChoices[k].begin(), c.rfChoices[k].end(), w) == c.rfChoices[k].end()) continue;
        const bool wBefore = j == 0 || (c.s.ms.get(w, r) && c.s.ms.get(w, writeOf[r]));
        more = give(i, x, r, w, dn, d, writeOf[r], prev, wBefore);
      }
      --linked[l];
      chainEnd[l] = from;
      assigned[k] = false;
      source[r] = -1;
      if (!more) return false;
    }
    return true;
  };
  pick = [&](size_t i, model::Choice<BitRel>& x, const model::Derived<BitRel>* d) -> bool {
    if (overTime()) return false;
    if (i == c.reads.size()) return f(x.rf, x.co);
    for (size_t l = 0; l < chains.size(); ++l)
      if (linked[l] < chains[l].size()) return extendChain(i, x, l, d);
    std::vector<int> viableWrites;
    const size_t k = *next(prune ? d : nullptr, viableWrites);
    const std::vector<int>& writes = lookAhead ? viableWrites : c.rfChoices[k];
    const int r = c.reads[k];
    assigned[k] = true;
    model::Derived<BitRel> dn;
    for (int w : writes)
      if (!give(i, x, r, w, dn, d)) return false;
    source[r] = -1;
    assigned[k] = false;
    return true;
  };
  model::Choice<BitRel> x{none, initialWritesFirst(c), none, bar};
  model::Derived<BitRel> d;
  if (prune && !refine(x, -1, -1, d, nullptr)) return true;
  return pick(0, x, &d);
}

// Fence-SC order: an acyclic orientation of every morally strong pair of fence.sc, closed
// transitively.
bool Enumerator::forEachSc(const Candidate& c, const std::function<bool(const BitRel&)>& f) {
  const int n = static_cast<int>(c.g.events.size());
  const size_t k = c.scPairs.size();
  for (uint64_t mask = 0; mask < (uint64_t{1} << k); ++mask) {
    BitRel sc(n);
    for (size_t i = 0; i < k; ++i) {
      auto [a, b] = c.scPairs[i];
      if (mask >> i & 1) std::swap(a, b);
      sc.set(a, b);
    }
    sc = plus(sc);
    if (sc.irreflexive() && !f(sc)) return false;
  }
  return true;
}

// Coherence order (§8.9.6) is a strict partial order per location with the initial write first.
// Morally strong pairs must be ordered; other pairs (racing writes) may stay unordered (decision
// in docs/model.md). With `prune`, the search starts from the co edges the Coherence axiom forces
// and drops a partial order as soon as the model refutes it (mayComplete). Locations whose writes
// are pairwise morally strong get a total order, built one write at a time.
bool Enumerator::forEachCo(const Candidate& c, const model::Choice<BitRel>& x,
                           const model::Derived<BitRel>& d, bool prune, const Visit& f) {
  const BitRel& rf = x.rf;
  BitRel co = initialWritesFirst(c);
  if (prune && x.co.size() == co.size()) co |= x.co;  // what forEachRf found every completion has
  // `known`: the closure of the co the search starts from, which the model passed. A part that
  // only adds edges of it has that same closure, which is all mayComplete looks at: it passes too
  // (on the corpus most locations' orders are settled before forEachCo, edge by edge).
  BitRel known;
  model::Choice<BitRel> y;  // the part the model is asked about (prune): only its co changes
  auto viable = [&](const BitRel& part) {
    if (!prune) return acyclic(part);
    if (part.subsetOf(known)) return true;
    y.co = part;
    return mayComplete(c.s, y, d, nullptr, relax_);
  };
  if (prune) {
    y = {rf, co, x.sc, x.bar};
    BitRel forced(co.size());
    if (!mayComplete(c.s, y, d, &forced, relax_)) return true;
    co |= forced;
    y.co = co;
    if (!mayComplete(c.s, y, d, nullptr, relax_)) return true;
    known = plus(co);
  } else if (!acyclic(co)) {
    return true;
  }
  std::function<bool(size_t, BitRel&)> perLoc = [&](size_t l, BitRel& co) -> bool {
    if (overTime()) return false;
    if (l == c.writesByLoc.size()) {
      // pruned: every step was viable, and the least order containing the choices is the one
      const BitRel closed = plus(co);
      if (prune) return f(c, model::Choice<BitRel>{rf, closed, x.sc, x.bar}, d);
      if (!(closed == co)) return true;  // only transitive assignments are orders
      return f(c, model::Choice<BitRel>{rf, co, x.sc, x.bar}, d);
    }
    const auto& ws = c.writesByLoc[l];
    bool total = true;
    for (size_t i = 0; i < ws.size(); ++i)
      for (size_t j = i + 1; j < ws.size(); ++j) total = total && c.s.ms.get(ws[i], ws[j]);
    if (ws.empty()) return perLoc(l + 1, co);
    auto next = [&](BitRel& co) { return perLoc(l + 1, co); };
    return total ? totalOrders(ws, prune, viable, co, next) : partialOrders(c, ws, prune, viable, co, next);
  };
  return perLoc(0, co);
}

// Linear orders of `ws` extending co, built by appending one write at a time. With `prune`, the
// part the model sees also has the edges from each placed write to each write not yet placed:
// every order built from here has them.
bool Enumerator::totalOrders(const std::vector<int>& ws, bool prune,
                             const std::function<bool(const BitRel&)>& viable, BitRel& co,
                             const std::function<bool(BitRel&)>& next) {
  std::vector<int> placed;
  std::vector<bool> used(ws.size(), false);
  std::function<bool()> extend = [&]() -> bool {
    if (placed.size() == ws.size()) return next(co);
    for (size_t i = 0; i < ws.size(); ++i) {
      if (used[i]) continue;
      const int x = ws[i];
      BitRel saved = co;
      for (int p : placed) co.set(p, x);
      used[i] = true;
      placed.push_back(x);
      BitRel part = co;
      for (size_t j = 0; j < ws.size() && prune; ++j)
        if (!used[j])
          for (int p : placed) part.set(p, ws[j]);
      if (viable(part) && !extend()) return false;
      placed.pop_back();
      used[i] = false;
      co = saved;
    }
    return true;
  };
  return extend();
}

// Partial orders of `ws` extending co: each pair ordered either way, or (if not morally strong)
// left unordered; transitivity is checked once every location is done.
//
// With `prune`, only the least orders are built: morally strong pairs ordered either way, every
// other pair left to what transitivity and the Coherence axiom force (co is closed in forEachCo).
// No final state is lost. Every axiom but Coherence only gets harder as co grows, and Coherence
// asks only for the forced pairs, so the least order inside a consistent co is consistent too; and
// removing co edges keeps every co-maximal write co-maximal, so its final states include those of
// the larger order. (Execution counts then count least orders.)
bool Enumerator::partialOrders(const Candidate& c, const std::vector<int>& ws, bool prune,
                               const std::function<bool(const BitRel&)>& viable, BitRel& co,
                               const std::function<bool(BitRel&)>& next) {
  struct Pair { int a, b; bool forced; };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < ws.size(); ++i)
    for (size_t j = i + 1; j < ws.size(); ++j)
      if (!co.get(ws[i], ws[j]) && !co.get(ws[j], ws[i]) && (!prune || c.s.ms.get(ws[i], ws[j])))
        pairs.push_back({ws[i], ws[j], c.s.ms.get(ws[i], ws[j])});
  std::function<bool(size_t)> assign = [&](size_t i) -> bool {
    if (overTime()) return false;
    if (i == pairs.size()) return next(co);
    const auto [a, b, forced] = pairs[i];
    for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      co.set(x, y);
      if (viable(co) && !assign(i + 1)) return false;
      co.set(x, y, false);
    }
    if (forced) return true;
    // Leaving the pair unordered is hopeless once the order chosen so far already implies it.
    const BitRel closed = plus(co);
    if (closed.get(a, b) || closed.get(b, a)) return true;
    return assign(i + 1);
  };
  return assign(0);
}

}  // namespace checker::explicit_detail
