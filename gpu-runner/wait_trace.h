// Where a hung launch is stuck (`litmus run --trace-waits`, docs/wait-trace.md). With the option
// on, every testing hardware thread stores a word into its slot of a host-mapped region when it
// enters a wait (a loop of the test, a blocking barrier, one of the harness's own waits) and when
// it finishes. The region is shared memory the runner maps before it forks the worker, so it
// survives the worker's kill at the watchdog: the parent reads the last launch's slots and says,
// per litmus thread, how many of its warps and lanes were at each site.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "litmus/test.h"

namespace gpu {

// A slot: launch number (bits 32..63) | litmus thread (16..31, 0xffff: none) | site (0..15).
// 0: no thread wrote it since the region was cleared.
constexpr size_t kTraceSlots = size_t{1} << 20;  // hardware threads traced per launch (8 MiB)
constexpr uint32_t kTraceNoThread = 0xffff;

// The sites: the harness's, then the test's own, numbered in the order of the threads' code.
enum TraceSite : uint32_t {
  kSiteFinished = 1,  // past the thread's last instruction, results and joins written
  kSiteStart,         // decoded, before the start barrier (bar.sync 0 / barrier.cluster)
  kSiteAlign,         // pre-stress, the spin barrier (bounded), the delay
  kSiteBody,          // in the test's code, before any of its waits
  kSiteDrain,         // the harness's end-of-thread waits: mbarrier phases, bulk groups, late copies
  kSiteJoin,          // the join that keeps an owner CTA alive for the shared results
  kFirstTestSite,
};

struct WaitSites {
  std::vector<std::string> names;                   // by site id (0: unused)
  std::map<std::pair<int, size_t>, uint32_t> ids;  // (thread, instruction index) -> site id
};
// The sites of a test: each label a later branch of its thread jumps back to (a loop, entered
// when control falls into the label) and each blocking barrier (bar.sync, bar.red,
// barrier.cluster.wait), named "F2: mbarrier.try_wait... (line 27)".
WaitSites waitSites(const litmus::Test& test);

// What the slots of the last launch say.
struct WaitTrace {
  struct Row {
    std::string thread;  // "P0", or "(no thread)" for a lane a fixed-mode warp leaves empty
    std::string site;
    uint64_t warps = 0, lanes = 0;
  };
  bool taken = false;   // the run traced its waits
  uint32_t launch = 0;  // the last launch that wrote a slot (0: none did)
  std::vector<Row> rows;  // by thread in the test's order, then site id
};
WaitTrace summarizeTrace(const uint64_t* slots, size_t n, const std::vector<std::string>& threads,
                         const WaitSites& sites);
// "Waits at the watchdog (launch 12): P0: 128 warps (4096 lanes) at F2: ...; ..." lines, or "".
std::string formatTrace(const WaitTrace& t);

// The region: anonymous shared memory mapped before the worker is forked, so that parent and
// worker see the same pages and the parent still has them after the worker is killed.
class TraceRegion {
 public:
  TraceRegion();  // slots() is null when the system refuses the mapping
  ~TraceRegion();
  TraceRegion(const TraceRegion&) = delete;
  TraceRegion& operator=(const TraceRegion&) = delete;
  uint64_t* slots() const { return slots_; }
  static constexpr size_t bytes() { return kTraceSlots * sizeof(uint64_t); }

 private:
  uint64_t* slots_ = nullptr;
};

}  // namespace gpu
