// The values each location may hold: the domain reads fork over (see semantics.h).
#include "semantics/semantics.h"

#include <algorithm>
#include <map>

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
namespace {

// What one round learns from the traces: per thread and trace, how often it writes each location
// (sparse: a trace writes few of a test's locations), and which locations feed which through a
// dependency of a write on a read (sparse too).
struct Round {
  std::vector<std::vector<std::vector<std::pair<size_t, size_t>>>> writes;  // [thread][trace]: (loc, n)
  std::vector<std::vector<size_t>> fedBy;    // [to]: the locations whose reads feed writes of `to`
  std::vector<std::vector<size_t>> writers;  // [loc]: the threads some trace of which writes it
};

// The most writes to `ancestors` (marked in `in`) that one execution makes: per thread, its
// trace with the most such writes, summed over the threads that write any of them.
size_t mostWrites(const Round& r, const std::vector<size_t>& ancestors, const std::vector<char>& in,
                  std::vector<char>& seen, const litmus::Deadline& deadline) {
  std::vector<size_t> threads;
  for (size_t a : ancestors)
    for (size_t t : r.writers[a])
      if (!seen[t]) seen[t] = 1, threads.push_back(t);
  size_t total = 0;
  for (size_t t : threads) {
    seen[t] = 0;
    size_t most = 0;
    for (const auto& counts : r.writes[t]) {
      deadline.check();
      size_t n = 0;
      if (ancestors.size() < counts.size()) {  // look the few ancestors up in the sorted counts
        for (size_t a : ancestors) {
          auto it = std::lower_bound(counts.begin(), counts.end(), std::make_pair(a, size_t{0}));
          if (it != counts.end() && it->first == a) n += it->second;
        }
      } else {
        for (const auto& [loc, count] : counts)
          if (in[loc]) n += count;
      }
      most = std::max(most, n);
    }
    total += most;
  }
  return total;
}

// The locations that can feed `l` through dependencies (l included), by a search backwards
// along fedBy; `in` marks them (the caller clears it).
std::vector<size_t> ancestorsOf(const Round& r, size_t l, std::vector<char>& in) {
  std::vector<size_t> out{l};
  in[l] = 1;
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t from : r.fedBy[out[i]])
      if (!in[from]) in[from] = 1, out.push_back(from);
  return out;
}

}  // namespace

// Values reach a location only through chains of writes, each write of a chain a distinct event
// of one execution whose value depends (data or control, the `dep` of the trace) on a read of the
// previous write's location; without thin-air cycles (§8.10.4) a chain is no longer than the
// number of such writes one execution can make. Round k of the fixed point below adds the values
// made by chains of length k. Every write of a chain ending at location l writes a location that
// can feed l through dependencies (an ancestor of l, l included), so l takes new values only while
// k is below the most writes to l's ancestors one execution makes (the per-path maximum of each
// thread, summed); this bound grows with the paths found, and the loop ends when no location
// changes. (A single bound for all locations, the number of writes of an execution, is also
// sound, but vector atoms make it grow with every element and the domains with it.) The bound is
// computed only for locations that were given a new value, from sparse counts and a search of
// their ancestors: tests with tens of thousands of locations have few dependencies, and an n x n
// closure of them took minutes (issue 30).
Domain valueDomain(const Program& prog, int unroll, const litmus::Deadline& deadline) {
  const size_t nloc = prog.locNames.size();
  Domain dom(domainSize(prog));  // the locations, then the collectives' results
  for (size_t l = 0; l < nloc; ++l) dom[l].insert(prog.locInit[l]);
  std::vector<char> in(nloc, 0), seen(prog.threads.size(), 0);
  for (size_t round = 0;; ++round) {
    Domain made(nloc);
    Round r;
    r.writes.resize(prog.threads.size());
    r.fedBy.resize(nloc);
    r.writers.resize(nloc);
    std::vector<TraceSet> sets;
    for (size_t t = 0; t < prog.threads.size(); ++t) {
      deadline.check();
      sets.push_back(enumerateTraces(prog, static_cast<int>(t), dom, unroll, deadline));
      TraceSet& ts = sets.back();
      // paths dropped at the loop bound write values too (a loop exiting on its own write)
      ts.traces.insert(ts.traces.end(), ts.dropped.begin(), ts.dropped.end());
      for (const auto& tr : ts.traces) {
        std::map<size_t, size_t> count;
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
        for (const auto& [r0, w] : tr.dep)
          if (tr.events[r0].kind == EventKind::Read && tr.events[w].kind == EventKind::Write)
            r.fedBy[tr.events[w].loc].push_back(tr.events[r0].loc);
        for (const auto& [loc, n] : count)
          if (r.writers[loc].empty() || r.writers[loc].back() != t) r.writers[loc].push_back(t);
        r.writes[t].emplace_back(count.begin(), count.end());
      }
    }
    for (auto& from : r.fedBy) {
      std::sort(from.begin(), from.end());
      from.erase(std::unique(from.begin(), from.end()), from.end());
    }
    bool changed = false;
    for (size_t l = 0; l < nloc; ++l) {
      if (std::all_of(made[l].begin(), made[l].end(), [&](int64_t v) { return dom[l].count(v) > 0; }))
        continue;  // nothing new: no bound needed
      deadline.check();
      const std::vector<size_t> ancestors = ancestorsOf(r, l, in);
      // rounds: the longest chain into l, plus the round that finds no more
      const size_t bound = 1 + mostWrites(r, ancestors, in, seen, deadline);
      for (size_t a : ancestors) in[a] = 0;
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
