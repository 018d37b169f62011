// Candidate well-formedness that both engines build in rather than check: the pairs of events
// that the Fence-SC order and coherence relate in some candidate. The explicit engine enumerates
// orders over these pairs and the SMT engine gives each pair a Boolean; writing the domains once
// keeps the two engines' candidates the same.
#pragma once

#include <utility>
#include <vector>

#include "model/event.h"

namespace model {

// Fence-SC order (§8.10.5, docs/model.md): the pairs (a, b), a < b, of fence.sc events that are
// morally strong. Every candidate orders each such pair, one way or the other, and no other pair.
std::vector<std::pair<int, int>> fenceScPairs(const std::vector<Event>& events);

// Coherence (§8.9.6): the edges every candidate has, each location's initial write (initOf) before
// its other writes (writesByLoc).
std::vector<std::pair<int, int>> initialWritesFirst(const std::vector<std::vector<int>>& writesByLoc,
                                                    const std::vector<int>& initOf);

// Coherence between two writes of one location (in the order of `writes`): co may order them
// either way or leave them unordered, except that it orders a morally strong pair (`forced`).
struct WritePair {
  int a, b;
  bool forced;
};

// The pairs of `writes`; `morallyStrong(a, b)` says which are forced.
template <typename MorallyStrong>
std::vector<WritePair> writePairs(const std::vector<int>& writes, MorallyStrong&& morallyStrong) {
  std::vector<WritePair> out;
  for (size_t i = 0; i < writes.size(); ++i)
    for (size_t j = i + 1; j < writes.size(); ++j)
      out.push_back({writes[i], writes[j], static_cast<bool>(morallyStrong(writes[i], writes[j]))});
  return out;
}

}  // namespace model
