// One thread of a launch, evaluated concretely: its identity fixes the role branches, its loops
// run their given number of iterations, its addresses fold to objects and offsets. What is left
// is the thread's litmus code: the synchronization and the memory accesses, with the branches
// that depend on what the accesses return (spin loops) kept as branches.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "extract/kernel.h"
#include "litmus/test.h"

namespace extract {

// One line of emitted code: a label, or an instruction with the PTX line it comes from.
struct Line {
  std::string label;
  std::string text;
  litmus::SourceLoc origin;
  std::string defines;  // a computing line: the register it writes (dropped when nothing reads it)
};

// What the launch knows that is the same for every thread.
struct LaunchContext {
  const Kernel* kernel = nullptr;
  Launch launch;
  std::vector<MemObject> objects;
  // Kernel parameters by name and byte offset (a pointer parameter holds its buffer's address).
  std::map<std::string, std::map<int64_t, Value>> params;
  // Objects nobody writes: their loads fold to initial values (see initialValue).
  std::set<int> readOnly;
  std::map<std::pair<std::string, int>, int> sharedIds;  // (variable, CTA) -> object
  std::map<std::string, int> namedIds;                   // buffers, global and local variables
  int sharedObject(const std::string& ptxName, int cta) const;  // -1 if none
  int objectNamed(const std::string& ptxName) const;            // a buffer or global variable
};

// The initial value the extracted test gives the 4-byte word at byte `offset` of an object that
// the kernel reads but never writes (input data): offset/4 + 1, so that words differ from each
// other and from the 0 that fresh shared memory holds in the model.
int64_t initialValue(int64_t offset);

// Values of other lanes of the warp, for shfl.sync (extract/extract.cpp runs the lane).
struct LaneOracle {
  virtual ~LaneOracle() = default;
  // The value register `reg` holds in thread `thread` (launch index) when it executes the
  // `occurrence`-th visit of the instruction at `pc`; Unknown if it never gets there.
  virtual Value laneValue(int thread, int pc, int occurrence, int reg) = 0;
};

struct Access {
  int obj = -1;
  int64_t offset = 0;
  int bytes = 0;
  bool write = false;
};

struct ThreadCode {
  std::vector<Line> lines;
  // Per error check: the condition under which the thread reaches the kernel's error path
  // (trap, brkpt, assert); terms name the thread's registers with thread "" (filled in later).
  std::vector<litmus::Cond> errors;
  std::vector<std::string> notes;  // "file:line: note: ..."
  std::vector<Access> accesses;    // every memory access the code makes (for read-only analysis)
  bool empty() const;
};

struct ThreadOptions {
  int maxLines = 20000;   // emitted lines per thread
  int maxVisits = 4096;   // evaluations of one instruction per thread (a loop that does not end)
  // Stop at the `stopOccurrence`-th visit of `stopPc` (a lane run for shfl.sync), recording the
  // value of `stopReg` there.
  int stopPc = -1, stopOccurrence = 0, stopReg = -1;
};

// Evaluates thread `index` of the launch (with identity `id`). Throws litmus::Error at the PTX
// line for what the extraction cannot do: an address it cannot compute for synchronization, a
// branch on an abstracted value, a loop that does not end. With a stop point in `opt`, the run
// ends there and `*stopValue` gets the value (Unknown if the thread never gets there).
ThreadCode evaluateThread(const LaunchContext& ctx, const ThreadId& id, int index, LaneOracle& oracle,
                          const ThreadOptions& opt = {}, Value* stopValue = nullptr);

}  // namespace extract
