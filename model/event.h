// Events: what the instructions of one execution path lower to (semantics/semantics.h), and the
// attributes the PTX memory model (model/ptx_model.h) reads off them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus/test.h"
#include "model/value.h"

namespace model {

enum class EventKind : uint8_t {
  Init,        // the hypothetical initial write of a location (§8.2.6)
  Read,        // ld, the read half of atom, the read half of red (flagged `red`)
  Write,       // st, the write half of atom/red
  Fence,       // fence.{sc,acq_rel,acquire,release}, membar
  ProxyFence,  // fence.proxy.*
  Arrive,      // a thread's arrival at an execution barrier (bar.sync/arrive/red, barrier.cluster)
  Wait,        // waiting for the arrival's barrier phase to complete (bar.sync/red, cluster wait)
  GridWait,    // griddepcontrol.wait, or the launch of a dependent grid's thread (instr -1): waits
               // for the first `count` grids of the stream to complete (model/grids.h)
  Trigger,     // griddepcontrol.launch_dependents, or (instr -1) the end of a thread whose grid a
               // programmatic launch follows: what may let the dependent grid start (D38)
};

struct Event {
  EventKind kind = EventKind::Init;
  int thread = -1;  // -1: the initial writes, which belong to no thread
  int cta = -1, cluster = -1, gpu = -1;
  int grid = 0;     // position of the thread's grid in the stream's launch order (model/grids.h)
  int instr = -1;   // index of the instruction in the thread's code
  int po = 0;       // position in the thread's program order
  litmus::Sem sem = litmus::Sem::Weak;  // Volatile and Mmio are lowered to Relaxed (§8.4.1-2)
  litmus::Scope scope = litmus::Scope::None;  // effective: capped by the state space (§8.3)
  litmus::Proxy proxy = litmus::Proxy::Generic;
  litmus::FenceProxyKind proxyFence = litmus::FenceProxyKind::None;
  int loc = -1;     // physical location (aliases share it); -1 for fences
  int va = -1;      // virtual address: the declared name used (aliases differ)
  // The generic address whose (proxy) view the access uses: va itself, or for an access through
  // `s @ surface aliases y`, y. An access is made through the view (proxy, view) (D27).
  int view = -1;
  litmus::Space space = litmus::Space::Global;  // of the location accessed
  // Byte offset of the element `[name+offset]` accessed (D21): Program::locOffset[loc]. The
  // engines build the initial writes and leave it 0 there; take it from locOffset for them.
  int64_t offset = 0;
  int64_t value = 0;
  // Arrive and Wait: the barrier (a key naming the barrier object: kind, CTA or cluster, id);
  // the number of arrivals that complete a phase (0: every thread that uses the barrier); the
  // reduction of bar.red (Arrive.value is the thread's predicate, Wait.value the result).
  int64_t barrier = -1;
  int count = 0;
  litmus::BarOp barOp = litmus::BarOp::None;
  bool atomic = false;  // performed by atom or red
  bool mbarrier = false;  // an access of an mbarrier object by an mbarrier operation (D28, D35)
  bool plainArrive = false;  // both halves of an mbarrier arrival without expect-tx (D53)
  bool red = false;     // the read half of a red: not a "read" for acquire patterns (§8.8)
  // Asynchronous operations (§8.9.1.1, D30): the events of one cp.async.bulk, st.async or
  // red.async share `async` (>= 0; -1: not asynchronous). They come after the issuing thread's
  // earlier events but before none of its later ones, except those from `joinPo` on (the
  // thread's events after the cp.async.bulk.wait_group that completed them).
  int async = -1;
  int joinPo = kNever;
  // Warp collectives (D40-D42): the instruction of a collective's Arrive (value: the lane's
  // operand) and Wait (value: the lane's result, settled from its phase's arrivals like a read's
  // from its write; loc: the result's slot in the value domain, semantics/collectives.h), and the lane.
  const litmus::Instr* warpInstr = nullptr;
  int lane = 0;
  static constexpr int kNever = 1 << 30;
  // Non-bulk cp.async (D43): its events are cpAsync; the asynchronous arrive-on of
  // cp.async.mbarrier.arrive (arriveOnCopies) comes after the thread's earlier cp.async events.
  bool cpAsync = false;
  bool arriveOnCopies = false;
  // Restricted fences (§9.7.13.4, D29): which operations the fence orders. Memory events carry
  // what the restriction reads: the CTA whose shared memory holds the location (-1: not shared),
  // and whether the event is an mbarrier.init.
  litmus::FenceRestrict restrict = litmus::FenceRestrict::None;
  int ownerCta = -1;
  bool mbarrierInit = false;

  bool isMem() const { return kind == EventKind::Init || kind == EventKind::Read ||
                              kind == EventKind::Write; }
  bool isWrite() const { return kind == EventKind::Init || kind == EventKind::Write; }
  bool isRead() const { return kind == EventKind::Read; }
  bool isFence() const { return kind == EventKind::Fence; }
  bool isAsync() const { return async >= 0; }
  bool isBarrier() const { return kind == EventKind::Arrive || kind == EventKind::Wait; }
  bool isCollectiveResult() const { return kind == EventKind::Wait && warpInstr != nullptr; }
  bool strong() const { return kind == EventKind::Init || kind == EventKind::Fence ||
                               sem != litmus::Sem::Weak; }
};

// How a trace ends: the thread exits, or it never does (docs/model.md, liveness).
enum class Stuck : uint8_t {
  No,        // the thread runs to its end
  AtWait,    // its last event is a Wait whose barrier phase never completes
  Spinning,  // it loops forever in a spin loop whose last iteration is the end of the trace
};

// One thread's execution along one control-flow path. Its values are lazy (model/value.h): a
// read's value is a variable, unless the path needed it (then it is fixed); what the thread
// computes is an expression over the reads.
struct Trace {
  std::vector<Event> events;                 // in program order
  // Per event, its value: events[i].value holds it when it is known. A lazy read's value is
  // readValue(i), to be settled by reads-from; a read whose value the path fixed is known.
  std::vector<Val> vals;
  // The path's decisions on values it could not know: (v != 0) == truth must hold.
  struct Guard {
    Val v;
    bool truth = true;
  };
  std::vector<Guard> guards;
  std::vector<Val> regVals;                  // final register values (regs: the known ones)
  std::vector<std::pair<int, int>> rmw;      // (read, write) halves of one atom/red
  std::vector<std::pair<int, int>> dep;      // read -> dependent event (data, address, control)
  std::vector<int64_t> regs;                 // final register values, by register id, 0 if lazy
  Stuck stuck = Stuck::No;
  // Spinning: the events of the loop's last iteration start here (its reads must keep reading
  // the final values of their locations for the loop to spin forever).
  int spinFrom = 0;
  int stuckAt = -1;  // AtWait / Spinning: the instruction (the wait, or the loop's back edge)

  // Event i is a read whose value the path left to reads-from.
  bool lazyRead(size_t i) const {
    return (events[i].isRead() || events[i].isCollectiveResult()) && !vals[i].known();
  }
};

}  // namespace model
