// Merging identical threads (docs/extract.md, "Identical threads"): the threads of one CTA whose
// litmus code is the same and only reads, waits, fences and arrives become one representative
// whose arrivals count for all of them.
#pragma once

#include <string>
#include <vector>

#include "extract/kernel.h"
#include "extract/thread.h"

namespace extract {

struct Group {
  int cta = 0, cluster = 0;
  std::vector<int> members;  // launch indices; the first is the representative
  ThreadCode code;
};

// Groups the threads with code (empty code: the thread takes no part). With `merge` false every
// thread is its own group; with `lockstep`, a group that only waits and takes part in barriers
// joins the group whose code is the same plus arrivals and writes. Counted bar.sync/bar.arrive operands are rescaled to the groups that
// remain. Throws litmus::Error when a group that cannot be merged is too large to keep whole.
std::vector<Group> groupThreads(const Launch& launch, const std::vector<ThreadId>& ids, std::vector<ThreadCode> codes,
                                bool merge, bool lockstep, std::vector<std::string>& notes);

}  // namespace extract
