// Instruction semantics: a thread's PTX code, run along every control-flow path with reads
// returning values from a given domain, lowered to events (model/event.h).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/deadline.h"
#include "litmus/test.h"
#include "model/event.h"
#include "semantics/arith.h"

namespace model {

// Static facts about a test that the semantics and the model need, with names turned into ids.
//
// Element addresses (docs/model.md D21): `[x+K]` names the element of declared location x at byte
// offset K, and every (root location, offset) the test uses is a physical location of its own.
// The address table therefore lists first the declared locations, at offset 0 (address id ==
// index in test->locations), then every other `x+K` the code, condition or observe list uses,
// in first-use order. Physical locations are numbered likewise: each root declaration at offset 0,
// then the other elements in first-use order, so tests without offsets number them as before.
//
// Event::va is always a declared location (vaDecl of the address used); (va, locOffset[loc]) is
// the virtual address, since an alias maps offset K of its root to its own offset K. Two accesses
// use the same virtual address exactly when they have the same va and the same loc.
struct Program {
  const litmus::Test* test = nullptr;
  // D42's reading `converged` (model/readings.h): activemask returns every lane of the warp.
  bool activemaskConverged = false;
  // Some barrier has no thread count: threads then end with an exit event (D25).
  bool countlessBarriers = false;
  std::vector<std::string> vaNames;       // address -> "x" or "x+4" (litmus::elementName)
  std::vector<int> vaDecl;                // address -> declared location (index in test->locations)
  std::vector<int64_t> vaOffset;          // address -> byte offset
  std::vector<int> vaLoc;                 // address -> physical location
  std::vector<litmus::Proxy> vaProxy;     // proxy of the alias declaration (Generic if none)
  std::vector<int> vaView;                // address -> declared location whose generic address
                                          // it views (itself, unless a non-generic alias)
  std::vector<std::string> locNames;      // physical location -> name of its root declaration
  std::vector<int64_t> locOffset;         // physical location -> byte offset in that root
  std::vector<int64_t> locInit;
  std::vector<litmus::Space> locSpace;
  std::vector<int> locOwnerCta;           // physical location -> owner CTA (`cta:`), -1 if none
  // Per declared location: the cluster rank of the CTA whose shared memory holds it (D32), -1
  // when it has no owner CTA.
  std::vector<int> ownerRank;
  struct ThreadInfo {
    std::vector<std::string> regNames;    // register id -> name
    std::map<std::string, int> regId;
    std::map<std::string, int> labels;    // label -> instruction index
    std::vector<int64_t> initRegs;        // by register id
    int lanes = 1;                        // threads in this thread's warp (Thread::warp)
    int lane = 0;
    int rank = 0;                         // %cluster_ctarank
    // The thread's grid: its position in the launch order, and how many grids before it have
    // completed when it starts (litmus::LaunchOrder; semantics/launch.h).
    int gridPos = 0, gridStart = 0;
    bool beforeProgrammatic = false;  // a programmatic launch follows its grid (its end may gate it, D38)
  };
  std::vector<ThreadInfo> threads;

  // Address of "x" / "x+4" (a declared name, a condition term's name); -1 if unknown. For K > 0
  // the id is no index into test->locations: take vaDecl of it for that.
  int vaOf(const std::string& name) const;
  int addressOf(int decl, int64_t offset) const;  // -1 if the test never uses it
  std::string locName(int loc) const;             // "x", "x+4"

  std::map<std::pair<int, int64_t>, int> addressIds;  // (declared location, offset) -> address
  std::map<std::string, int> declIndex;               // declared name -> index in test->locations
};

// Throws litmus::Error for instructions the model does not cover yet.
Program buildProgram(const litmus::Test& test);

using Domain = std::vector<std::set<int64_t>>;  // per physical location: values a read may return

struct TraceSet {
  std::vector<Trace> traces;
  bool bounded = false;  // some path exceeded the loop bound and was dropped
  // The dropped paths, up to where they were dropped. They give no final state, but the value
  // domain needs their writes: a loop may exit only on a value that it writes itself.
  std::vector<Trace> dropped;
};

// The threads that take part in a barrier without a thread count (docs/model.md D25): a cluster's
// barrier, every thread of the cluster; a CTA's named barrier, every thread of the CTA, or, with
// Dat3M operands, those of its threads whose code names the barrier.
std::vector<int> barrierParticipants(const Program& prog, int64_t barrierKey);

// Every path of `thread` whose loops take at most `unroll` backward jumps per branch.
// Gives up with litmus::Deadline::Expired once `deadline` has passed.
TraceSet enumerateTraces(const Program& prog, int thread, const Domain& domain, int unroll,
                         const litmus::Deadline& deadline = {});

// The smallest domain closed under the writes of all threads (a fixed point; see semantics.cpp).
// Gives up with litmus::Deadline::Expired once `deadline` has passed.
Domain valueDomain(const Program& prog, int unroll, const litmus::Deadline& deadline = {});

// The lazy reads of `reads` (trace indices) that v uses. Calls f once per assignment of values
// of their locations' domains to them, with a lookup of every read's value under it (a read the
// path fixed keeps its value). The assignments are few: a value uses the reads of one thread.
std::vector<int> lazyReadsOf(const Trace& tr, const Val& v);
void forEachAssignment(const Trace& tr, const std::vector<int>& lazy, const Domain& dom,
                       const std::function<void(const ReadLookup&)>& f);

// The values of one execution, once reads-from is chosen: per event of the execution (the
// initial writes, then thread t's trace from offset[t]) and per thread its final registers.
struct Settled {
  std::vector<int64_t> values;
  std::vector<std::vector<int64_t>> regs;
};
// rfSource: per event, the write a read reads from (-1 for other events). nullopt when the values
// are circular (rf and the dependencies form a cycle, which No-Thin-Air forbids anyway), when a
// read whose value its path fixed reads another value, or when a path's decision fails.
std::optional<Settled> settleValues(const std::vector<Event>& events,
                                    const std::vector<const Trace*>& traces,
                                    const std::vector<int>& offset, const std::vector<int>& rfSource);
// For a part of reads-from (rfSource -1: not chosen yet): false when what is chosen already
// contradicts a path's decision or a value it fixed.
bool valuesMayHold(const std::vector<Event>& events, const std::vector<const Trace*>& traces,
                   const std::vector<int>& offset, const std::vector<int>& rfSource);
// For a part of reads-from: per thread, each final register's value where what is chosen
// decides it (nullopt where it depends on a read not chosen yet).
std::vector<std::vector<std::optional<int64_t>>> partialRegisters(
    const std::vector<Event>& events, const std::vector<const Trace*>& traces,
    const std::vector<int>& offset, const std::vector<int>& rfSource);


}  // namespace model
