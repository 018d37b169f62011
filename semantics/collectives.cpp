#include "semantics/collectives.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <set>

#include "base/limit_error.h"

namespace model {

using litmus::Instr;
using litmus::Type;
using litmus::WarpOp;

namespace {

int typeCode(Type t) {
  switch (t) {
    case Type::B32: return 1;
    case Type::B64: return 2;
    case Type::U32: return 3;
    case Type::S32: return 4;
    case Type::F32: return 5;
    default: return 0;
  }
}

float asF32(int64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
constexpr int64_t kCanonicalNaN = 0x7fffffff;  // PTX's canonical f32 NaN

// redux.sync.{min,max}.f32 (§9.7.13.12): .abs takes absolute values; +0.0 > -0.0; NaN inputs
// make the result the canonical NaN with .NaN, and are left out without it (all NaN: NaN).
int64_t reduxF32(const Instr& in, const std::vector<int64_t>& vals) {
  std::vector<float> xs;
  bool nan = false;
  for (int64_t v : vals) {
    float x = asF32(v);
    if (in.absVal) x = std::fabs(x);
    if (std::isnan(x)) nan = true;
    else xs.push_back(x);
  }
  if (xs.empty() || (nan && in.nanVal)) return kCanonicalNaN;
  const bool min = in.warpOp == WarpOp::Min;
  auto less = [](float a, float b) {  // a total order on non-NaN values with -0.0 < +0.0
    if (a == b) return std::signbit(a) && !std::signbit(b);
    return a < b;
  };
  float best = xs.front();
  for (float x : xs)
    if (min ? less(x, best) : less(best, x)) best = x;
  return std::bit_cast<uint32_t>(best);
}

int64_t redux(const Instr& in, const std::vector<int64_t>& vals) {
  if (in.type == Type::F32) return reduxF32(in, vals);
  const bool s = in.type == Type::S32;
  auto key = [s](int64_t v) -> int64_t {
    return s ? int64_t{static_cast<int32_t>(v)} : int64_t{static_cast<uint32_t>(v)};
  };
  int64_t acc = in.warpOp == WarpOp::And ? 0xffffffff : 0;
  if (in.warpOp == WarpOp::Min || in.warpOp == WarpOp::Max) acc = key(vals.front());
  for (int64_t v : vals) {
    switch (in.warpOp) {
      case WarpOp::Add: acc = static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(v)); break;
      case WarpOp::Min: acc = std::min(acc, key(v)); break;
      case WarpOp::Max: acc = std::max(acc, key(v)); break;
      case WarpOp::And: acc &= v; break;
      case WarpOp::Or: acc |= v; break;
      case WarpOp::Xor: acc ^= v; break;
      default: break;
    }
  }
  return normalize(in.type, acc & 0xffffffff);  // .add truncated to 32 bits
}

}  // namespace

int collectiveSignature(const Instr& in) {
  return static_cast<int>(in.warpOp) | in.warpSync << 4 | in.absVal << 5 | in.nanVal << 6 |
         typeCode(in.type) << 7;
}

int warpOf(const litmus::Test& test, int thread) {
  const litmus::Thread& th = test.threads[thread];
  for (int t = 0; t < thread && th.warp >= 0; ++t) {
    const litmus::Thread& o = test.threads[t];
    if (o.warp == th.warp && o.cta == th.cta && o.gpu == th.gpu) return t;
  }
  return thread;
}

std::vector<int> collectiveParticipants(const Program& prog, int64_t key) {
  const int first = warpKeyWarp(key);
  const litmus::Test& test = *prog.test;
  std::vector<int> out;
  for (size_t t = 0; t < test.threads.size(); ++t) {
    if (warpOf(test, static_cast<int>(t)) == first && (warpKeyMask(key) >> prog.threads[t].lane & 1)) out.push_back(static_cast<int>(t));
  }
  return out;
}

std::vector<int> phaseArrivals(const std::vector<Event>& ev, int w) {
  const int n = static_cast<int>(ev.size());
  const int64_t key = ev[w].barrier;
  int k = -1;  // the wait's arrival is its thread's k-th at the key
  for (int j = w - 1; j >= 0 && ev[j].thread == ev[w].thread; --j)
    if (ev[j].kind == EventKind::Arrive && ev[j].barrier == key) ++k;
  std::map<int, int> seen;  // thread -> arrivals at the key so far
  std::vector<int> out;
  for (int a = 0; a < n; ++a)
    if (ev[a].kind == EventKind::Arrive && ev[a].barrier == key && seen[ev[a].thread]++ == k)
      out.push_back(a);
  return out;
}

int64_t collectiveResult(const Instr& in, int lane, const std::vector<std::pair<int, int64_t>>& ops) {
  int64_t lanes = 0, trues = 0, ballot = 0;
  std::vector<int64_t> vals;
  int64_t own = 0;
  for (const auto& [l, v] : ops) {
    lanes |= int64_t{1} << l;
    if (v != 0) ballot |= int64_t{1} << l;
    trues += v != 0;
    vals.push_back(v);
    if (l == lane) own = v;
  }
  const auto n = static_cast<int64_t>(ops.size());
  switch (in.warpOp) {
    case WarpOp::All: return trues == n;
    case WarpOp::Any: return trues > 0;
    case WarpOp::Uni: return trues == 0 || trues == n;
    case WarpOp::Ballot: return ballot;
    case WarpOp::MatchAny: {
      int64_t same = 0;
      for (const auto& [l, v] : ops)
        if (v == own) same |= int64_t{1} << l;
      return same;
    }
    case WarpOp::MatchAll:
      return std::all_of(vals.begin(), vals.end(), [own](int64_t v) { return v == own; }) ? lanes : 0;
    default: return redux(in, vals);
  }
}

size_t domainSize(const Program& prog) {
  size_t n = prog.locNames.size();
  for (const auto& th : prog.test->threads)
    for (const auto& in : th.code) n += in.op == litmus::Opcode::Warp;
  return n;
}

int collectiveSlot(const Program& prog, int thread, int pc) {
  int slot = static_cast<int>(prog.locNames.size());
  for (int t = 0; t <= thread; ++t) {
    const auto& code = prog.test->threads[t].code;
    const int end = t == thread ? pc : static_cast<int>(code.size());
    for (int i = 0; i < end; ++i) slot += code[i].op == litmus::Opcode::Warp;
  }
  return slot;
}

bool addCollectiveResults(const Program& prog, const std::vector<const TraceSet*>& traces, Domain& dom) {
  // per key, per lane: the operands its arrivals may carry, and whether some trace of the lane
  // makes fewer arrivals there than another (then the lane may be absent from a phase)
  struct Lane {
    std::set<int64_t> vals;
    size_t fewest = SIZE_MAX, most = 0;
  };
  std::map<int64_t, std::map<int, Lane>> keys;
  std::map<int64_t, std::set<std::pair<int, int>>> waits;  // key -> (thread, wait's instr)
  for (size_t t = 0; t < traces.size(); ++t) {
    std::set<int64_t> touched;
    for (const Trace& tr : traces[t]->traces) {
      std::map<int64_t, size_t> count;
      for (size_t i = 0; i < tr.events.size(); ++i) {
        const Event& e = tr.events[i];
        if (!e.warpInstr || !isCollectiveKey(e.barrier)) continue;
        if (e.kind == EventKind::Wait) {
          waits[e.barrier].insert({static_cast<int>(t), e.instr});
          continue;
        }
        ++count[e.barrier];
        touched.insert(e.barrier);
        Lane& l = keys[e.barrier][static_cast<int>(t)];
        forEachAssignment(tr, lazyReadsOf(tr, tr.vals[i]), dom,
                          [&](const ReadLookup& look) { l.vals.insert(*evaluate(tr.vals[i], look)); });
      }
      for (int64_t key : touched) {
        Lane& l = keys[key][static_cast<int>(t)];
        l.fewest = std::min(l.fewest, count[key]);
        l.most = std::max(l.most, count[key]);
      }
    }
  }
  bool changed = false;
  for (const auto& [key, lanes] : keys) {
    // every (lane, operand) tuple, absent lanes left out
    std::vector<std::vector<std::pair<int, int64_t>>> tuples{{}};
    for (const auto& [t, l] : lanes) {
      std::vector<std::vector<std::pair<int, int64_t>>> next;
      for (const auto& tup : tuples) {
        if (l.fewest < l.most || l.fewest == 0) next.push_back(tup);
        for (int64_t v : l.vals) {
          next.push_back(tup);
          next.back().emplace_back(prog.threads[t].lane, v);
        }
      }
      tuples = std::move(next);
      if (tuples.size() > (1u << 16))
        throw litmus::LimitError(prog.test->threads[t].loc, "a warp collective whose operands can take too many "
                                                       "combinations of values to model");
    }
    for (const auto& [t, pc] : waits[key]) {
      const Instr& in = prog.test->threads[t].code[pc];
      const int lane = prog.threads[t].lane;
      auto& slot = dom[collectiveSlot(prog, t, pc)];
      for (const auto& tup : tuples)
        if (std::any_of(tup.begin(), tup.end(), [lane](const auto& x) { return x.first == lane; }))
          changed = slot.insert(collectiveResult(in, lane, tup)).second || changed;
    }
  }
  return changed;
}

std::vector<WarpFate> warpFates(const Trace& tr) {
  std::vector<WarpFate> out;
  std::map<int64_t, int> count;
  const size_t n = tr.events.size();
  for (size_t i = 0; i < n; ++i) {
    const Event& a = tr.events[i];
    if (a.kind != EventKind::Arrive || !isWarpKey(a.barrier)) continue;
    // its wait follows at once; a trace stuck there ends with it
    const bool hangs = tr.stuck == Stuck::AtWait && i + 2 == n;
    out.push_back({a.barrier, count[a.barrier]++, !hangs});
  }
  return out;
}

bool fatesAgree(const std::vector<WarpFate>& a, const std::vector<WarpFate>& b) {
  for (const WarpFate& x : a)
    for (const WarpFate& y : b)
      if (x.key == y.key && x.k == y.k && x.done != y.done) return false;
  return true;
}

// Iterative, with the fates of the traces picked so far in a map: comparing each pick with the
// picks of every later thread was quadratic in the threads, and the recursion as deep as they are
// many (issue 30: 40,000 threads).
bool forEachAgreeingCombination(const std::vector<std::vector<std::vector<WarpFate>>>& fates,
                                const std::function<bool(const std::vector<int>&)>& f) {
  const int n = static_cast<int>(fates.size());
  if (n == 0) return f({});
  std::vector<int> pick(n, -1);
  std::map<std::pair<int64_t, int>, std::pair<bool, int>> picked;  // (key, k) -> (done, picks with it)
  auto agrees = [&](const std::vector<WarpFate>& v) {
    return std::all_of(v.begin(), v.end(), [&](const WarpFate& x) {
      const auto it = picked.find({x.key, x.k});
      return it == picked.end() || it->second.first == x.done;
    });
  };
  auto add = [&](const std::vector<WarpFate>& v, int by) {
    for (const WarpFate& x : v) {
      auto& [done, count] = picked.try_emplace({x.key, x.k}, x.done, 0).first->second;
      if ((count += by) == 0) picked.erase({x.key, x.k});
    }
  };
  // the last thread is chosen first, so that the first varies fastest (the engines' old order)
  for (int t = n - 1;;) {
    if (pick[t] >= 0) add(fates[t][pick[t]], -1);
    int i = pick[t] + 1;
    while (i < static_cast<int>(fates[t].size()) && !agrees(fates[t][i])) ++i;
    if (i == static_cast<int>(fates[t].size())) {  // no more choices here: back to the thread after
      pick[t] = -1;
      if (++t == n) return true;
      continue;
    }
    pick[t] = i;
    add(fates[t][i], 1);
    if (t > 0) --t;
    else if (!f(pick)) return false;
  }
}

}  // namespace model
