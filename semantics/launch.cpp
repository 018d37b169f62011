// Programmatic dependent launch in the interpreter (semantics/launch.h; docs/model.md D37-D39):
// each thread's place in the launch order, its launch event and griddepcontrol.wait. The grid
// boundary these events take part in is the model's (model/grids.h).
#include "semantics/launch.h"

#include <algorithm>

#include "semantics/interpreter.h"

namespace model {

void placeGrids(const litmus::Test& test, Program& prog) {
  const litmus::LaunchOrder order = litmus::launchOrder(test);
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const int pos = std::max(0, order.position(test.threads[t].grid));
    prog.threads[t].gridPos = pos;
    prog.threads[t].gridStart = order.startAfter[pos];
    prog.threads[t].beforeProgrammatic = pos + 1 < static_cast<int>(order.programmatic.size()) && order.programmatic[pos + 1];
  }
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

// griddepcontrol.launch_dependents is a trigger event: it orders no memory, and only D38's
// reading `gates` reads it (model/grids.h). griddepcontrol.wait waits for every grid launched
// before this one to complete, and their memory operations to be performed (D37); in the first
// grid it has none to wait for.
void Interpreter::stepGrid(Path p, const Instr& in) {
  if (in.gridOp == litmus::GridOp::LaunchDependents) emit(p, baseEvent(p, in, EventKind::Trigger), {});
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

// The end of a thread whose grid a programmatic launch follows: under `gates` its CTA's end opens
// the gate where no launch_dependents did (D38), after the reads its control flow depended on.
void Interpreter::exitTrigger(Path& p) const {
  if (!info_.beforeProgrammatic) return;
  Event e;
  e.kind = EventKind::Trigger;
  e.thread = thread_;
  e.cta = th_.cta;
  e.cluster = th_.cluster;
  e.gpu = th_.gpu;
  const int k = static_cast<int>(p.trace.events.size());
  e.po = k;
  if (k >= kMaxTraceEvents)
    throw litmus::LimitError(th_.loc, "thread " + th_.name + " has more than " + std::to_string(kMaxTraceEvents) +
                                          " events: too large for the model (lower --unroll)");
  for (int r = 0; r < k; ++r)
    if (p.ctrl[r]) p.trace.dep.emplace_back(r, k);
  p.trace.events.push_back(e);
  p.trace.vals.emplace_back(0);
}

void Interpreter::stampGrid() {
  for (auto* list : {&out_.traces, &out_.dropped})
    for (Trace& tr : *list)
      for (Event& e : tr.events) e.grid = info_.gridPos;
}

}  // namespace detail
}  // namespace model
