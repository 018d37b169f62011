// The grid boundary of programmatic dependent launch (model/grids.h; docs/model.md D37-D39).
#include "model/grids.h"

#include <algorithm>
#include <map>
#include <set>

namespace model {

namespace {

// A launch event of a programmatic grid: it waits for fewer grids than come before it.
bool programmaticLaunch(const Event& e) {
  return e.kind == EventKind::GridWait && e.instr < 0 && e.count < e.grid;
}

bool triggerInstr(const Event& e) { return e.kind == EventKind::Trigger && e.instr >= 0; }

// Under `gates`: whether every CTA of `grid` has executed launch_dependents or ended (none of
// its threads is stuck; a thread that never starts is stuck at its launch).
bool gateOpen(const std::vector<Event>& ev, const std::vector<Stuck>& stuck, int grid) {
  std::set<int> triggered, blocked;
  for (const Event& e : ev) {
    if (e.thread < 0 || e.grid != grid) continue;
    if (triggerInstr(e)) triggered.insert(e.cta);
    if (stuck[e.thread] != Stuck::No) blocked.insert(e.cta);
  }
  return std::all_of(blocked.begin(), blocked.end(), [&](int c) { return triggered.count(c) > 0; });
}

}  // namespace

BitRel gridOrder(const std::vector<Event>& ev) {
  const int n = static_cast<int>(ev.size());
  BitRel r(n);
  for (int w = 0; w < n; ++w) {
    if (ev[w].kind != EventKind::GridWait) continue;
    for (int e = 0; e < n; ++e)
      if (ev[e].thread >= 0 && ev[e].grid < ev[w].count) r.set(e, w);
  }
  return r;
}

bool gridsConsistent(const std::vector<Event>& ev, const std::vector<Stuck>& stuck, bool gates) {
  const int n = static_cast<int>(ev.size());
  // the earliest grid (launch position) with a thread that never ends; every such trace has an
  // event (its read, wait or launch), which carries the grid
  int firstStuck = 1 << 30;
  for (const Event& e : ev)
    if (e.thread >= 0 && stuck[e.thread] != Stuck::No) firstStuck = std::min(firstStuck, e.grid);
  for (int w = 0; w < n; ++w) {
    const Event& e = ev[w];
    if (e.kind != EventKind::GridWait) continue;
    const bool last = w + 1 == n || ev[w + 1].thread != e.thread;
    const bool hangs = last && stuck[e.thread] == Stuck::AtWait;
    // Stuck: some earlier grid never completes (a launch is not promised before that: D38).
    // Returns: every grid it waits for completes, and under `gates` the gate is open.
    if (hangs ? firstStuck >= e.grid : firstStuck < e.count) return false;
    if (!hangs && gates && programmaticLaunch(e) && !gateOpen(ev, stuck, e.grid - 1)) return false;
  }
  return true;
}

std::vector<std::pair<int, int>> gateOrder(const std::vector<Event>& ev, const std::vector<std::pair<int, int>>& dep) {
  const int n = static_cast<int>(ev.size());
  std::set<int> gated;  // the programmatic grids present
  for (const Event& e : ev)
    if (programmaticLaunch(e)) gated.insert(e.grid);
  if (gated.empty()) return {};
  std::map<int, std::set<int>> depsOf;  // event -> the reads it depends on
  for (auto [r, e] : dep) depsOf[e].insert(r);
  // Per CTA, the reads before its gate opens: those every launch_dependents of the CTA depends
  // on (the earliest opens it), or without one, those any exit depends on (the last opens it).
  std::map<int, std::set<int>> before;
  std::map<int, bool> hasTrigger;
  for (int t = 0; t < n; ++t)
    if (triggerInstr(ev[t])) hasTrigger[ev[t].cta] = true;
  std::map<int, bool> seen;
  for (int t = 0; t < n; ++t) {
    const Event& e = ev[t];
    if (e.kind != EventKind::Trigger || e.thread < 0 || !gated.count(e.grid + 1)) continue;
    if (hasTrigger[e.cta] != triggerInstr(e)) continue;  // an exit, where a trigger instruction opens it
    std::set<int>& b = before[e.cta];
    const std::set<int>& d = depsOf[t];
    if (!triggerInstr(e)) b.insert(d.begin(), d.end());
    else if (!seen[e.cta]) b = d;
    else std::erase_if(b, [&](int r) { return !d.count(r); });
    seen[e.cta] = true;
  }
  std::vector<std::pair<int, int>> out;
  for (const auto& [cta, reads] : before)
    for (int r : reads)
      for (int e = 0; e < n; ++e)
        if (ev[e].thread >= 0 && gated.count(ev[e].grid) && ev[e].grid == ev[r].grid + 1) out.emplace_back(r, e);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace model
