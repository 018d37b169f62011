#include "model/barriers.h"

#include <algorithm>
#include <map>

#include "model/grids.h"

namespace model {

namespace {

using Phase = std::vector<int>;  // arrival events
struct Filling {
  std::vector<Phase> phases;
  std::vector<bool> complete;
};

// The arrivals at one barrier, per thread, in program order.
using Arrivals = std::map<int, std::vector<int>>;

bool sameCount(const std::vector<Event>& ev, const Phase& p, int count) {
  return std::all_of(p.begin(), p.end(), [&](int a) { return ev[a].count == count; });
}

// Without a count, phase k holds the k-th arrival of every thread that makes k arrivals, and the
// exit of every participant that exited before making it (D25); it completes unless some
// participant that is still running (blocked elsewhere, or spinning) has not arrived.
Filling fillAll(const Arrivals& arr, std::vector<int> participants, const std::vector<Stuck>& stuck,
                const std::map<int, int>& exitOf) {
  for (const auto& [t, list] : arr) participants.push_back(t);
  std::sort(participants.begin(), participants.end());
  participants.erase(std::unique(participants.begin(), participants.end()), participants.end());
  size_t most = 0;
  for (const auto& [t, list] : arr) most = std::max(most, list.size());
  Filling f;
  for (size_t k = 0; k < most; ++k) {
    Phase p;
    bool done = true;
    for (int t : participants) {
      const auto it = arr.find(t);
      const size_t made = it == arr.end() ? 0 : it->second.size();
      if (k < made) p.push_back(it->second[k]);
      else if (stuck[t] != Stuck::No) done = false;  // alive, and never arrives
      else if (exitOf.count(t)) p.push_back(exitOf.at(t));
    }
    f.phases.push_back(std::move(p));
    f.complete.push_back(done);
  }
  return f;
}

// With a count c, the first c arrivals (one per thread) complete a phase; which threads come
// first is a choice. Arrivals left over when fewer than c threads still arrive form a last phase
// that never completes.
void fillCounted(const std::vector<Event>& ev, const Arrivals& arr, int count,
                 std::map<int, size_t>& next, Filling& cur, std::vector<Filling>& out) {
  std::vector<int> ready;
  for (const auto& [t, list] : arr)
    if (next[t] < list.size()) ready.push_back(t);
  if (ready.empty()) return out.push_back(cur);
  if (static_cast<int>(ready.size()) < count) {
    Phase last;
    for (int t : ready) last.push_back(arr.at(t)[next[t]++]);
    for (int t : ready)
      if (next[t] < arr.at(t).size()) return;  // a second arrival in an unfinished phase
    cur.phases.push_back(last);
    cur.complete.push_back(false);
    out.push_back(cur);
    return;
  }
  // every subset of `count` ready threads, in increasing order of thread
  std::vector<bool> pick(ready.size(), false);
  std::fill(pick.begin(), pick.begin() + count, true);
  do {
    Phase p;
    for (size_t i = 0; i < ready.size(); ++i)
      if (pick[i]) p.push_back(arr.at(ready[i])[next[ready[i]]]);
    Filling f = cur;
    f.phases.push_back(p);
    f.complete.push_back(sameCount(ev, p, count));  // mixed counts: undefined; never completes
    std::map<int, size_t> n = next;
    for (size_t i = 0; i < ready.size(); ++i) n[ready[i]] += pick[i];
    fillCounted(ev, arr, count, n, f, out);
  } while (std::prev_permutation(pick.begin(), pick.end()));
}

// A wait completes after every arrival of its phase, and a thread goes on only after its wait:
// program order and `bar` together must not loop (two threads each waiting, at a different
// barrier, for the other's arrival deadlock instead).
bool ordered(const std::vector<Event>& ev, const BitRel& bar) {
  const int n = static_cast<int>(ev.size());
  BitRel r = bar;
  for (int a = 0; a < n; ++a)
    if (ev[a].isBarrier())
      for (int b = a + 1; b < n && ev[b].thread == ev[a].thread; ++b)
        if (ev[b].isBarrier()) r.set(a, b);
  return acyclic(r);
}

// Layout of a warp key: tag (4 bits) | signature (12) | warp (16) | mask (32). The tag says the
// kind, whatever BarrierKind's order: a nonzero top nibble, which barrierKey's keys never have.
constexpr int kTagShift = 60, kSigShift = 48, kWarpShift = 32;
constexpr int64_t kWarpTag = 2, kCollectiveTag = 3;

}  // namespace

int64_t barrierKey(const BarrierName& b) {
  return (((int64_t{static_cast<uint8_t>(b.kind)} << 8 | b.gpu) << 16 | b.group) << 16 | b.id) << 16 |
         b.instance;
}

BarrierName barrierName(int64_t key) {
  BarrierName b;
  b.instance = key & 0xffff;
  b.id = key >> 16 & 0xffff;
  b.group = static_cast<int>(key >> 32 & 0xffff);
  b.gpu = static_cast<int>(key >> 48 & 0xff);
  b.kind = static_cast<BarrierKind>(key >> 56);
  return b;
}

int64_t warpKey(BarrierKind kind, int signature, int warp, uint32_t mask) {
  const int64_t tag = kind == BarrierKind::Collective ? kCollectiveTag : kWarpTag;
  return tag << kTagShift | int64_t{signature} << kSigShift |
         int64_t{warp} << kWarpShift | mask;
}
bool isWarpKey(int64_t key) { return key > 0 && ((key >> kTagShift) == kWarpTag || (key >> kTagShift) == kCollectiveTag); }
bool isCollectiveKey(int64_t key) { return key > 0 && (key >> kTagShift) == kCollectiveTag; }
uint32_t warpKeyMask(int64_t key) { return static_cast<uint32_t>(key); }
int warpKeyWarp(int64_t key) { return static_cast<int>(key >> kWarpShift & 0xffff); }

bool isReduction(litmus::BarOp op) {
  return op == litmus::BarOp::RedPopc || op == litmus::BarOp::RedAnd || op == litmus::BarOp::RedOr;
}

int64_t reduce(litmus::BarOp op, const std::vector<int64_t>& predicates) {
  const auto trues = std::count_if(predicates.begin(), predicates.end(), [](int64_t v) { return v != 0; });
  switch (op) {
    case litmus::BarOp::RedPopc: return trues;
    case litmus::BarOp::RedAnd: return trues == static_cast<long>(predicates.size());
    case litmus::BarOp::RedOr: return trues > 0;
    default: return 0;
  }
}

std::vector<BitRel> barrierPhases(const std::vector<Event>& ev, const std::vector<Stuck>& stuck,
                                  const Participants& participants, bool checkValues,
                                  const Readings& readings) {
  // launches and grid waits (model/grids.h)
  if (!gridsConsistent(ev, stuck, readings.is(Decision::D38, "gates"))) return {};
  const int n = static_cast<int>(ev.size());
  std::map<int64_t, Arrivals> arrivals;
  std::map<int, int> exitOf;  // thread -> its exit event
  for (int i = 0; i < n; ++i) {
    if (ev[i].kind != EventKind::Arrive) continue;
    if (ev[i].barrier == kExitBarrier) exitOf[ev[i].thread] = i;
    else arrivals[ev[i].barrier][ev[i].thread].push_back(i);
  }
  // The arrival each wait waits on: its thread's last arrival at that barrier before it.
  std::vector<int> arrivalOf(n, -1);
  for (int i = 0; i < n; ++i)
    if (ev[i].kind == EventKind::Wait)
      for (int j = i - 1; j >= 0 && ev[j].thread == ev[i].thread; --j)
        if (ev[j].kind == EventKind::Arrive && ev[j].barrier == ev[i].barrier) {
          arrivalOf[i] = j;
          break;
        }
  // Alternatives per barrier, then every combination of them.
  std::vector<std::vector<Filling>> perBarrier;
  for (const auto& [key, arr] : arrivals) {
    const int count = ev[arr.begin()->second.front()].count;
    std::vector<Filling> alts;
    if (count == 0) {
      alts.push_back(fillAll(arr, participants(key), stuck, exitOf));
    } else {
      std::map<int, size_t> next;
      Filling cur;
      fillCounted(ev, arr, count, next, cur, alts);
    }
    perBarrier.push_back(std::move(alts));
  }
  std::vector<BitRel> out;
  std::vector<size_t> pick(perBarrier.size(), 0);
  if (std::any_of(perBarrier.begin(), perBarrier.end(), [](const auto& a) { return a.empty(); }))
    return out;
  while (true) {
    std::vector<int> phaseOf(n, -1);
    std::vector<const Phase*> phases;
    std::vector<bool> complete;
    for (size_t b = 0; b < perBarrier.size(); ++b) {
      const Filling& f = perBarrier[b][pick[b]];
      for (size_t k = 0; k < f.phases.size(); ++k) {
        for (int a : f.phases[k]) phaseOf[a] = static_cast<int>(phases.size());
        phases.push_back(&f.phases[k]);
        complete.push_back(f.complete[k]);
      }
    }
    BitRel bar(n), waits(n);  // waits: bar and the collectives' phases, which order no memory (D40)
    bool ok = true;
    for (int w = 0; w < n && ok; ++w) {
      if (ev[w].kind != EventKind::Wait) continue;
      const bool hangs = stuck[ev[w].thread] == Stuck::AtWait &&
                        (w + 1 == n || ev[w + 1].thread != ev[w].thread);
      const int ph = arrivalOf[w] < 0 ? -1 : phaseOf[arrivalOf[w]];
      const bool done = ph >= 0 && complete[ph];
      if (done == hangs) ok = false;  // a blocked wait must hang, every other one complete
      if (!ok || !done) continue;
      std::vector<int64_t> preds;
      for (int a : *phases[ph]) {
        waits.set(a, w);
        if (!isCollectiveKey(ev[w].barrier)) bar.set(a, w);
        if (ev[a].barrier != kExitBarrier) preds.push_back(ev[a].value);  // exits vote nothing
      }
      if (checkValues && isReduction(ev[w].barOp) && reduce(ev[w].barOp, preds) != ev[w].value)
        ok = false;
    }
    if (ok && ordered(ev, waits)) out.push_back(std::move(bar));
    size_t b = 0;
    for (; b < pick.size(); ++b) {
      if (++pick[b] < perBarrier[b].size()) break;
      pick[b] = 0;
    }
    if (b == pick.size()) break;
  }
  return out;
}

}  // namespace model
