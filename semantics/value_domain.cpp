// The values each location may hold: the domain reads fork over (see semantics.h).
#include "semantics/semantics.h"

#include <algorithm>

#include "semantics/collectives.h"

namespace model {

// Values reach a location only through chains of writes, each write of a chain a distinct event
// of one execution whose value depends (data or control, the `dep` of the trace) on a read of the
// previous write's location; without thin-air cycles (§8.10.4) a chain is no longer than the
// number of such writes one execution can make. Round k of the fixed point below adds the values made by
// chains of length k. Every write of a chain ending at location l writes a location that can feed
// l through dependencies (an ancestor of l, l included), so l takes new values only while k is
// below the most writes to l's ancestors one execution makes (the per-path maximum of each thread,
// summed); this bound grows with the paths found, and the loop ends when no location changes.
// (A single bound for all locations, the number of writes of an execution, is also sound, but
// vector atoms make it grow with every element and the domains with it.)
Domain valueDomain(const Program& prog, int unroll) {
  const size_t nloc = prog.locNames.size();
  Domain dom(domainSize(prog));  // the locations, then the collectives' results
  for (size_t l = 0; l < nloc; ++l) dom[l].insert(prog.locInit[l]);
  for (size_t round = 0;; ++round) {
    Domain made(nloc);
    std::vector<std::vector<bool>> feeds(nloc, std::vector<bool>(nloc, false));  // [from][to]
    for (size_t l = 0; l < nloc; ++l) feeds[l][l] = true;
    // per thread, per trace: its writes by location
    std::vector<std::vector<std::vector<size_t>>> writes(prog.threads.size());
    std::vector<TraceSet> sets;
    for (size_t t = 0; t < prog.threads.size(); ++t) {
      sets.push_back(enumerateTraces(prog, static_cast<int>(t), dom, unroll));
      TraceSet& ts = sets.back();
      // paths dropped at the loop bound write values too (a loop exiting on its own write)
      ts.traces.insert(ts.traces.end(), ts.dropped.begin(), ts.dropped.end());
      for (const auto& tr : ts.traces) {
        std::vector<size_t> count(nloc, 0);
        for (size_t i = 0; i < tr.events.size(); ++i) {
          const Event& e = tr.events[i];
          if (e.kind != EventKind::Write) continue;
          ++count[e.loc];
          // a lazy value: every value it takes over the domains of the reads it uses (a superset
          // of what the path's decisions allow, which only makes the domain larger)
          forEachAssignment(tr, lazyReadsOf(tr, tr.vals[i]), dom, [&](const ReadLookup& look) {
            made[e.loc].insert(*evaluate(tr.vals[i], look));
          });
        }
        for (const auto& [r, w] : tr.dep)
          if (tr.events[r].kind == EventKind::Read && tr.events[w].kind == EventKind::Write)
            feeds[tr.events[r].loc][tr.events[w].loc] = true;
        writes[t].push_back(std::move(count));
      }
    }
    for (size_t k = 0; k < nloc; ++k)  // transitive closure (Warshall)
      for (size_t i = 0; i < nloc; ++i)
        if (feeds[i][k])
          for (size_t j = 0; j < nloc; ++j) feeds[i][j] = feeds[i][j] || feeds[k][j];
    bool changed = false;
    for (size_t l = 0; l < nloc; ++l) {
      size_t bound = 1;  // rounds: the longest chain into l, plus the round that finds no more
      for (const auto& perTrace : writes) {
        size_t most = 0;
        for (const auto& count : perTrace) {
          size_t n = 0;
          for (size_t a = 0; a < nloc; ++a)
            if (feeds[a][l]) n += count[a];
          most = std::max(most, n);
        }
        bound += most;
      }
      if (round + 1 >= bound) continue;
      for (int64_t v : made[l]) changed = dom[l].insert(v).second || changed;
    }
    // The collectives' results over the operands' values; a chain of collectives is no longer
    // than the collectives one execution runs (each at most unroll + 1 times).
    std::vector<const TraceSet*> all;
    for (const TraceSet& ts : sets) all.push_back(&ts);
    if (round <= (dom.size() - nloc) * (static_cast<size_t>(unroll) + 1))
      changed = addCollectiveResults(prog, all, dom) || changed;
    if (!changed) return dom;
  }
}

std::vector<int> lazyReadsOf(const Trace& tr, const Val& v) {
  std::vector<int> out;
  for (int r : readsOf(v))
    if (!tr.vals[r].known()) out.push_back(r);
  return out;
}

void forEachAssignment(const Trace& tr, const std::vector<int>& lazy, const Domain& dom,
                       const std::function<void(const ReadLookup&)>& f) {
  std::vector<int64_t> value(tr.events.size(), 0);
  for (size_t i = 0; i < tr.events.size(); ++i)
    if (tr.vals[i].known()) value[i] = tr.vals[i].k;
  const ReadLookup look = [&](int r) -> std::optional<int64_t> { return value[r]; };
  std::function<void(size_t)> assign = [&](size_t i) {
    if (i == lazy.size()) return f(look);
    for (int64_t v : dom[tr.events[lazy[i]].loc]) {
      value[lazy[i]] = v;
      assign(i + 1);
    }
  };
  assign(0);
}

}  // namespace model
