#include "model/readings.h"

#include "base/error.h"
#include "base/suggest.h"

#include <algorithm>
#include <set>

namespace model {

using litmus::AsyncOp;
using litmus::FenceProxyKind;
using litmus::Instr;
using litmus::Opcode;

const std::vector<DecisionInfo>& decisions() {
  static const std::vector<DecisionInfo> kAll = {
      {Decision::D30, "D30",
       {{"issuer-cta",
         "the complete-tx of a multicast or remote copy belongs to the issuing thread's CTA, so a "
         ".cta-scoped wait in the receiving CTA does not synchronize with it",
         ""},
        {"receiver-cta",
         "the complete-tx belongs to the CTA whose mbarrier it signals, so a .cta-scoped wait there "
         "synchronizes with it",
         "CUTLASS multicast TMA consumers, which wait with the default .cta-scoped try_wait", 1}}},
      {Decision::D31, "D31",
       {{"halves",
         "fence.proxy.tensormap::generic halves are proxy fences only: a flag hand-off between them "
         "needs its own release and acquire",
         ""},
        {"memory-fences",
         "a fence.proxy.tensormap::generic.release is also a release fence and the .acquire an "
         "acquire fence at their scope, so the pair carries a relaxed flag hand-off",
         "tensor-map updates published through a relaxed flag between the two fences", 1}}},
      {Decision::D36, "D36",
       {{"proxy-fence",
         "a generic read needs fence.proxy.async before an async-proxy write that release/acquire "
         "orders after it (§8.9.5)",
         ""},
        {"release-orders",
         "release/acquire (the mbarrier chain, §9.7.13.15.16 item 4) orders a generic read before "
         "a later async-proxy write of the location without a proxy fence",
         "CUTLASS consumer_release, the FlashAttention-3 TMA pipeline", 1}}},
      {Decision::D38, "D38",
       {{"no-gate",
         "griddepcontrol.launch_dependents orders nothing: a programmatic dependent may start with the "
         "grid before it, whether or not that grid's CTAs triggered",
         ""},
        {"gates",
         "a programmatic dependent starts only once every CTA of the grid before it has executed "
         "griddepcontrol.launch_dependents or ended; it still sees nothing of that grid without "
         "griddepcontrol.wait",
         "", 1}}},
      {Decision::D39, "D39",
       {{"all-proxies",
         "the grid boundary orders the accesses of one location whatever their proxies",
         "kernels that TMA-load the previous kernel's output without a proxy fence"},
        {"generic-only",
         "the grid boundary orders only accesses that are proxy-preserved without it: an "
         "async-proxy access after it needs a proxy fence",
         "", -1}}},
      {Decision::D42, "D42",
       {{"any-subset",
         "activemask returns the executing lane and any subset of the warp's other lanes (divergence "
         "is not modelled)",
         ""},
        {"converged", "activemask returns every lane of the warp, as if the warp were converged there",
         "code that takes __activemask() for the whole warp", 1}}},
      {Decision::D44, "D44",
       {{"release",
         "the arrive-on of cp.async.mbarrier.arrive is a release at .cta scope (mbarrier.arrive's "
         "default)",
         "cp.async pipelines that publish their copies through the arrive-on alone"},
        {"relaxed", "the arrive-on of cp.async.mbarrier.arrive has no memory order (the text gives it none)",
         "", -1}}},
      {Decision::D53, "D53",
       {{"overtaken",
         "the complete-tx of a bulk copy is not ordered after the issuing thread's earlier arrivals "
         "without expect-tx on the same mbarrier (an arrival still in flight may reach it later)",
         "",},
        {"ordered",
         "the complete-tx of a bulk copy comes after every earlier event of the issuing thread, its "
         "earlier arrivals on the same mbarrier included",
         "a producer that arrives without expect_tx just before its copy", 1}}},
  };
  return kAll;
}

const DecisionInfo& info(Decision d) { return decisions()[static_cast<size_t>(d)]; }

bool Readings::is(Decision d, std::string_view name) const { return nameOf(d) == name; }

std::string_view Readings::nameOf(Decision d) const { return info(d).readings[of(d)].name; }

std::string choose(Readings& r, std::string_view decision, std::string_view name) {
  std::vector<std::string> ids;
  for (const auto& d : decisions()) {
    ids.emplace_back(d.id);
    if (d.id != decision) continue;
    std::vector<std::string> names;
    for (size_t k = 0; k < d.readings.size(); ++k) {
      names.emplace_back(d.readings[k].name);
      if (d.readings[k].name != name) continue;
      r.pick[static_cast<int>(d.decision)] = static_cast<uint8_t>(k);
      r.chosen[static_cast<int>(d.decision)] = true;
      return "";
    }
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    return "unknown reading '" + std::string(name) + "' of " + std::string(decision) + " (" + all + ")" +
           litmus::didYouMean(std::string(name), names);
  }
  std::string all;
  for (const auto& i : ids) all += (all.empty() ? "" : ", ") + i;
  return "no readings for decision '" + std::string(decision) + "' (decisions with readings: " + all + ")" +
         litmus::didYouMean(std::string(decision), ids);
}

std::string choose(Readings& r, std::string_view spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string_view::npos)
    return "expected DECISION=READING (e.g. D36=release-orders), got '" + std::string(spec) + "'";
  return choose(r, spec.substr(0, eq), spec.substr(eq + 1));
}

bool pins(const litmus::Test& test, std::string_view decision, std::string_view name) {
  for (const auto& pin : test.readings)
    if (pin.decision == decision) return pin.name == name;
  return false;
}

Readings withTestReadings(Readings base, const litmus::Test& test) {
  for (const auto& pin : test.readings) {
    const std::string why = choose(base, pin.decision, pin.name);
    if (!why.empty()) throw litmus::Error(pin.loc, why);
  }
  return base;
}

namespace {

bool asyncOp(const Instr& in, std::initializer_list<AsyncOp> ops) {
  if (in.op != Opcode::Async) return false;
  for (AsyncOp o : ops)
    if (in.asyncOp == o) return true;
  return false;
}

}  // namespace

std::vector<Decision> touched(const litmus::Test& test) {
  bool remoteTx = false, wait = false, tensormapHalf = false, asyncWrite = false, genericRead = false;
  bool asyncAccess = false, arriveOn = false, copy = false, activemask = false, overtakable = false;
  std::set<int> ctas;
  for (const auto& t : test.threads) {
    ctas.insert(t.cta);
    bool plainArrive = false, txOp = false;  // D53, per thread: its own arrivals and copies
    for (const Instr& in : t.code) {
      // D30: a complete-tx that may land in another CTA than the issuer's (multicast, st.async,
      // red.async; a copy, where there are several CTAs), and a wait on an mbarrier
      remoteTx = remoteTx || (in.op == Opcode::Async && in.multicast) ||
                 asyncOp(in, {AsyncOp::Store, AsyncOp::Reduce});
      copy = copy || asyncOp(in, {AsyncOp::Copy, AsyncOp::TensorLoad});
      wait = wait || (in.op == Opcode::Mbarrier &&
                      (in.mbarOp == litmus::MbarOp::TryWait || in.mbarOp == litmus::MbarOp::TestWait));
      // D31: a tensormap proxy fence half (tensormap.cp_fenceproxy ends with the release half)
      tensormapHalf = tensormapHalf || asyncOp(in, {AsyncOp::TensormapCp}) ||
                      (in.op == Opcode::FenceProxy && (in.proxyKind == FenceProxyKind::TensormapRelease ||
                                                       in.proxyKind == FenceProxyKind::TensormapAcquire));
      // D36: an async-proxy write into memory that a generic load may read
      asyncWrite = asyncWrite || asyncOp(in, {AsyncOp::Copy, AsyncOp::TensorLoad});
      genericRead = genericRead || in.op == Opcode::Ld || in.op == Opcode::Atom;
      // D39: an access through the async proxy
      asyncAccess = asyncAccess || asyncOp(in, {AsyncOp::Copy, AsyncOp::TensorLoad, AsyncOp::TensorStore,
                                                AsyncOp::WgmmaMma});
      // D42
      activemask = activemask || (in.op == Opcode::Warp && in.warpOp == litmus::WarpOp::Activemask);
      // D44
      arriveOn = arriveOn || asyncOp(in, {AsyncOp::CpArrive, AsyncOp::CpArriveNoinc});
      // D53: an arrival without expect-tx, which a later complete-tx may overtake
      plainArrive = plainArrive || (in.op == Opcode::Mbarrier && !in.expectTx &&
                                    (in.mbarOp == litmus::MbarOp::Arrive || in.mbarOp == litmus::MbarOp::ArriveDrop));
      txOp = txOp || asyncOp(in, {AsyncOp::Copy, AsyncOp::TensorLoad, AsyncOp::Store, AsyncOp::Reduce});
    }
    overtakable = overtakable || (plainArrive && txOp);
  }
  remoteTx = remoteTx || (copy && ctas.size() > 1);
  std::vector<Decision> out;
  if (remoteTx && wait) out.push_back(Decision::D30);
  if (tensormapHalf) out.push_back(Decision::D31);
  if (asyncWrite && genericRead) out.push_back(Decision::D36);
  // D38: a programmatic launch (with or without a trigger: under gates its absence gates too)
  if (std::any_of(test.grids.begin(), test.grids.end(), [](const auto& g) { return g.programmatic; }))
    out.push_back(Decision::D38);
  if (!test.grids.empty() && asyncAccess) out.push_back(Decision::D39);
  if (activemask) out.push_back(Decision::D42);
  if (arriveOn) out.push_back(Decision::D44);
  if (overtakable) out.push_back(Decision::D53);
  return out;
}

}  // namespace model
