// Cycles of relations in the diy7 tradition: the edge vocabulary (Rfe, PodWR, Fence.sc.gpu.dWR,
// DpDatadW, Sync.bar.dWR ...), and the skeleton a cycle determines: threads, locations, the value
// each write stores and each read must return, and the final values that witness the cycle.
// docs/gen.md describes the vocabulary.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gen {

// Bad generator input (an unknown edge, a cycle that cannot be built, a bad config).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Dir { R, W };

enum class EdgeKind {
  Rf,     // write -> read that reads it
  Fr,     // read -> write co-after the write it read
  Co,     // write -> co-later write
  Po,     // program order (Pos: same location, Pod: different)
  Fence,  // program order with a fence between the two accesses
  Dp,     // program order with a dependency from the read (Addr, Data, Ctrl)
  Sync,   // between threads: a synchronisation primitive (bar.sync, barrier.cluster, mbarrier)
};

enum class DpKind { Addr, Data, Ctrl };

struct Edge {
  EdgeKind kind = EdgeKind::Po;
  bool ext = false;      // Rfe/Fre/Coe and Sync: the two events are in different threads
  bool sameLoc = false;  // Rf/Fr/Co always; Po/Fence/Dp/Sync: the `s` forms
  Dir src = Dir::W, dst = Dir::W;
  std::string fence;     // Fence: "sc.gpu", "acq_rel.cta"; Sync: "bar", "cluster", "mbar"
  DpKind dp = DpKind::Data;
  bool operator==(const Edge&) const = default;
};

// "Rfe", "PodWR", "Fence.sc.gpu.dWR", "DpCtrldW", "Sync.mbar.dWR". Throws Error naming the text.
Edge parseEdge(std::string_view text);
std::string toString(const Edge& e);
// Edges separated by spaces or commas.
std::vector<Edge> parseCycle(std::string_view text);
std::string toString(const std::vector<Edge>& cycle);  // edges joined by spaces

// One access of the skeleton: event i is the source of edge i.
struct Event {
  int thread = 0;
  int loc = 0;
  Dir dir = Dir::W;
  int value = -1;  // a write: the value it stores (1, 2, .. in coherence order); a read: the
                   // value the witnessing execution reads (0 = initial), or -1 when unconstrained
  int reg = -1;    // a read: its register number in its thread (r0, r1, ..)
};

struct Skeleton {
  std::vector<Edge> edges;    // rotated so that thread 0 starts at event 0
  std::vector<Event> events;
  int threads = 0;
  int locs = 0;
  std::vector<int> finalValue;  // per location: the value it must end with, or -1
};

// The skeleton of a cycle, rotated to start a thread at event 0 (the cycle as written when its
// last edge already ends a thread). Throws Error when the cycle cannot be built (directions that
// do not chain, one external edge, a read that must return two values, ...).
Skeleton buildSkeleton(const std::vector<Edge>& cycle);

// The smallest rotation (by edge text) among those that start a thread: rotations of one cycle
// have one canonical form.
std::vector<Edge> canonicalRotation(const std::vector<Edge>& cycle);

// The cycle with fences, dependencies and sync edges replaced by the plain program-order edge
// of the same locations and directions: what the family is recognised from.
std::vector<Edge> shapeOf(const std::vector<Edge>& cycle);

}  // namespace gen
