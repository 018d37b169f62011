// The grid boundary of programmatic dependent launch (model/grids.h; docs/model.md D37-D39).
#include "model/grids.h"

#include <algorithm>

namespace model {

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

bool gridsConsistent(const std::vector<Event>& ev, const std::vector<Stuck>& stuck) {
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
    // Returns: every grid it waits for completes.
    if (hangs ? firstStuck >= e.grid : firstStuck < e.count) return false;
  }
  return true;
}

}  // namespace model
