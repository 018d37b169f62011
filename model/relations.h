// The base relations of the PTX model computed over concrete events: morally strong (§8.7),
// program order and its same-location part, proxy preservation (§8.9.5), and the event sets.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/bitrel.h"
#include "model/event.h"
#include "model/ptx_model.h"
#include "model/readings.h"

namespace model {

// All events of one candidate (initial writes first, then each thread's trace).
struct EventGraph {
  std::vector<Event> events;
  std::vector<std::pair<int, int>> rmw;
  std::vector<std::pair<int, int>> dep;
};

bool inScope(const Event& a, const Event& b);   // b's thread lies in a's (effective) scope
bool morallyStrong(const Event& a, const Event& b);
// Morally strong as the ends of a synchronization: the waits of an mbarrier keep their scope (D35).
bool synchronizesInScope(const Event& a, const Event& b);
// Why two conflicting accesses are not morally strong, in words (for race reports).
std::string whyNotMorallyStrong(const Event& a, const Event& b);

// Under `readings` (model/readings.h): the relations each decision's reading selects.
Static<BitRel> staticRelations(const EventGraph& g, const Readings& readings = {});

}  // namespace model
