// The grid-position special registers (%tid, %ntid, %ctaid, %nctaid), which the seed documents'
// examples read. Their values come from the test's placement, like the cluster registers
// (docs/format.md 3): the test is one grid whose CTAs are the test's CTA numbers along x, and a
// CTA's threads are its warps of 32 along x, numbered in the order of the test.
#include <algorithm>
#include <map>

#include "litmus/test.h"

namespace litmus {

namespace {

// Per thread of `cta`, in test order: its warp index in the CTA (threads sharing a `warp:` share
// one, at first appearance; every other thread is a warp of its own), as the GPU runner places them.
std::map<size_t, int> warpIndices(const Test& test, int cta, int& warps) {
  std::map<size_t, int> out;
  std::map<int, int> shared;
  warps = 0;
  for (size_t i = 0; i < test.threads.size(); ++i) {
    const Thread& th = test.threads[i];
    if (th.cta != cta) continue;
    if (th.warp < 0) {
      out[i] = warps++;
      continue;
    }
    auto it = shared.find(th.warp);
    if (it == shared.end()) it = shared.emplace(th.warp, warps++).first;
    out[i] = it->second;
  }
  return out;
}

}  // namespace

bool isPlacementRegister(const std::string& name) {
  for (const char* base : {"tid.", "ntid.", "ctaid.", "nctaid."})
    for (const char* dim : {"x", "y", "z"})
      if (name == std::string(base) + dim) return true;
  return false;
}

int64_t placementRegister(const Test& test, size_t thread, const std::string& name) {
  const bool x = name.back() == 'x';
  const std::string base = name.substr(0, name.size() - 2);
  if (!x) return base[0] == 'n' ? 1 : 0;  // .y and .z: a one-dimensional grid and CTA
  const Thread& th = test.threads[thread];
  if (base == "ctaid") return th.cta;
  if (base == "nctaid") {
    int top = 0;
    for (const Thread& t : test.threads) top = std::max(top, t.cta);
    return top + 1;
  }
  int warps = 0;
  const std::map<size_t, int> w = warpIndices(test, th.cta, warps);
  if (base == "ntid") return int64_t{32} * warps;
  // tid.x: 32 per warp, plus the lane (the thread's position among the threads of its warp)
  int lane = 0;
  for (size_t i = 0; i < thread; ++i)
    lane += test.threads[i].cta == th.cta && th.warp >= 0 && test.threads[i].warp == th.warp;
  return int64_t{32} * w.at(thread) + lane;
}

}  // namespace litmus
