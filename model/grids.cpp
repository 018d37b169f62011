// Programmatic dependent launch and the grid boundary (model/grids.h; docs/model.md D37-D39).
#include "model/grids.h"

#include <algorithm>

#include "model/interpreter.h"

namespace model {

void placeGrids(const litmus::Test& test, Program& prog) {
  const litmus::LaunchOrder order = litmus::launchOrder(test);
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const int pos = std::max(0, order.position(test.threads[t].grid));
    prog.threads[t].gridPos = pos;
    prog.threads[t].gridStart = order.startAfter[pos];
  }
}

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

namespace detail {

// A thread of a grid launched after another starts with its launch: it waits for the grids
// complete at its start (all before it for a serialized launch, D38 for a programmatic one), or
// it never starts while an earlier grid never ends.
void Interpreter::launch(Path p) {
  if (info_.gridPos == 0) return explore(std::move(p));
  Event e;
  e.kind = EventKind::GridWait;
  e.thread = thread_;
  e.cta = th_.cta;
  e.cluster = th_.cluster;
  e.gpu = th_.gpu;
  e.count = info_.gridStart;
  Path never = p;
  never.trace.events.push_back(e);
  never.trace.vals.emplace_back(0);
  never.trace.stuckAt = -1;  // no instruction: the thread never starts
  finish(std::move(never), Stuck::AtWait);
  p.trace.events.push_back(e);
  p.trace.vals.emplace_back(0);
  explore(std::move(p));
}

// griddepcontrol.launch_dependents orders nothing: it only lets the dependent grid be scheduled
// early (D38). griddepcontrol.wait waits for every grid launched before this one to complete,
// and their memory operations to be performed (D37); in the first grid it has none to wait for.
void Interpreter::stepGrid(Path p, const Instr& in) {
  if (in.gridOp == litmus::GridOp::Wait && info_.gridPos > 0) {
    Event e = baseEvent(p, in, EventKind::GridWait);
    e.count = info_.gridPos;
    Path hang = p;
    emit(hang, e, {});
    hang.trace.stuckAt = hang.pc;
    finish(std::move(hang), Stuck::AtWait);
    emit(p, e, {});
  }
  ++p.pc;
  explore(std::move(p));
}

void Interpreter::stampGrid() {
  for (auto* list : {&out_.traces, &out_.dropped})
    for (Trace& tr : *list)
      for (Event& e : tr.events) e.grid = info_.gridPos;
}

}  // namespace detail
}  // namespace model
