#include "model/wellformed.h"

#include "model/relations.h"

namespace model {

std::vector<std::pair<int, int>> fenceScPairs(const std::vector<Event>& ev) {
  std::vector<std::pair<int, int>> out;
  for (size_t a = 0; a < ev.size(); ++a)
    for (size_t b = a + 1; b < ev.size(); ++b)
      if (ev[a].isFence() && ev[b].isFence() && ev[a].sem == litmus::Sem::Sc &&
          ev[b].sem == litmus::Sem::Sc && morallyStrong(ev[a], ev[b]))
        out.emplace_back(static_cast<int>(a), static_cast<int>(b));
  return out;
}

std::vector<std::pair<int, int>> initialWritesFirst(const std::vector<std::vector<int>>& writesByLoc,
                                                    const std::vector<int>& initOf) {
  std::vector<std::pair<int, int>> out;
  for (size_t l = 0; l < writesByLoc.size(); ++l)
    for (int w : writesByLoc[l]) out.emplace_back(initOf[l], w);
  return out;
}

}  // namespace model
