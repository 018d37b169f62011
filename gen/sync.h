// The code of a sync edge (Sync.PRIM): the release side at the end of the source thread, the
// acquire side at the start of the destination thread, the locations the primitive needs and the
// terms it adds to the condition. docs/gen.md lists the primitives.
#pragma once

#include <string>
#include <vector>

#include "gen/spec.h"

namespace gen {

struct SyncCode {
  std::vector<std::string> head, tail;  // per thread
  std::vector<std::string> locations;   // YAML location entries ("m: {space: shared, cta: 0}")
  std::vector<std::string> condition;   // terms ("P1:p == 1")
};

// The primitives' names, for the edge parser.
const std::vector<std::string>& syncPrimitives();

// Adds the code of sync edge `e` from thread `from` to thread `to`. Throws Error when the
// placement does not allow the primitive (bar.sync across CTAs, a cluster barrier with other
// threads in the cluster, ...).
void addSync(const Spec& spec, const Edge& e, int from, int to, SyncCode& out);

}  // namespace gen
