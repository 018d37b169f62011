#include "features.h"

#include <algorithm>
#include <map>

namespace difftest {

using litmus::Instr;
using litmus::Opcode;

const std::vector<std::string>& featureNames() {
  static const std::vector<std::string> names = {
      // control flow
      "forward branch", "guard", "spin loop", "writing loop",
      // execution barriers and warps
      "bar.sync", "bar.sync with count", "bar.arrive", "bar.red", "barrier.cluster.arrive",
      "barrier.cluster.wait", "bar.warp.sync", "elect.sync", "warp lanes",
      // mbarrier
      "mbarrier.init", "mbarrier.arrive", "mbarrier.arrive.expect_tx", "mbarrier.arrive_drop",
      "mbarrier.expect_tx", "mbarrier.complete_tx", "mbarrier.test_wait", "mbarrier.try_wait",
      "mbarrier wait in a loop", "mbarrier wait by parity", "mbarrier wait by state",
      "mbarrier.pending_count", "remote mbarrier", "mbarrier wait on parity 1", "mbarrier.inval",
      "mbarrier.arrive_drop.noComplete", "mbarrier arrival after arrive_drop",
      // proxies and aliases
      "generic alias", "texture/surface/constant proxy", "fence.proxy.alias",
      "fence.proxy texture/surface/constant", "fence.proxy.async", "async::generic proxy fence",
      "tensormap proxy",
      // asynchronous operations
      "cp.async.bulk mbarrier", "cp.async.bulk shared::cta to shared::cluster",
      "cp.async.bulk bulk_group", "cp.async.bulk.wait_group", "st.async", "red.async",
      "tensormap.cp_fenceproxy",
      // clusters and shared memory
      "shared memory", "mapa", "shared::cluster access", "special register", "several CTAs in a cluster",
      "several clusters", "several GPUs",
      // plain memory model
      "atom", "red", "fence", "release/acquire"};
  return names;
}

namespace {

void barrier(const Instr& in, std::set<std::string>& f) {
  using litmus::BarOp;
  switch (in.barOp) {
    case BarOp::Sync: f.insert(in.args.size() > 1 ? "bar.sync with count" : "bar.sync"); break;
    case BarOp::Arrive: f.insert("bar.arrive"); break;
    case BarOp::RedPopc:
    case BarOp::RedAnd:
    case BarOp::RedOr: f.insert("bar.red"); break;
    case BarOp::ClusterArrive: f.insert("barrier.cluster.arrive"); break;
    case BarOp::ClusterWait: f.insert("barrier.cluster.wait"); break;
    case BarOp::WarpSync: f.insert("bar.warp.sync"); break;
    case BarOp::None: break;
  }
}

void mbarrier(const Instr& in, std::set<std::string>& f) {
  using litmus::MbarOp;
  const bool remote = in.args.size() > 1 && std::any_of(in.args.begin(), in.args.end(), [](const auto& a) {
    return a.kind == litmus::Operand::Kind::RegAddr;
  });
  if (remote) f.insert("remote mbarrier");
  switch (in.mbarOp) {
    case MbarOp::Init: f.insert("mbarrier.init"); break;
    case MbarOp::Arrive: f.insert(in.expectTx ? "mbarrier.arrive.expect_tx" : "mbarrier.arrive"); break;
    case MbarOp::ArriveDrop:
      f.insert(in.noComplete ? "mbarrier.arrive_drop.noComplete" : "mbarrier.arrive_drop");
      break;
    case MbarOp::ExpectTx: f.insert("mbarrier.expect_tx"); break;
    case MbarOp::CompleteTx: f.insert("mbarrier.complete_tx"); break;
    case MbarOp::TestWait:
    case MbarOp::TryWait:
      f.insert(in.mbarOp == MbarOp::TestWait ? "mbarrier.test_wait" : "mbarrier.try_wait");
      f.insert(in.parity ? "mbarrier wait by parity" : "mbarrier wait by state");
      if (in.parity && in.args.back().kind == litmus::Operand::Kind::Imm && in.args.back().imm == 1)
        f.insert("mbarrier wait on parity 1");
      break;
    case MbarOp::Inval: f.insert("mbarrier.inval"); break;
    case MbarOp::PendingCount: f.insert("mbarrier.pending_count"); break;
    default: break;
  }
}

void async(const Instr& in, std::set<std::string>& f) {
  using litmus::AsyncOp;
  using litmus::Space;
  switch (in.asyncOp) {
    case AsyncOp::Copy:
      if (in.bulkGroup) f.insert("cp.async.bulk bulk_group");
      else if (in.srcSpace == Space::SharedCta) f.insert("cp.async.bulk shared::cta to shared::cluster");
      else f.insert("cp.async.bulk mbarrier");
      break;
    case AsyncOp::Wait: f.insert("cp.async.bulk.wait_group"); break;
    case AsyncOp::Store: f.insert("st.async"); break;
    case AsyncOp::Reduce: f.insert("red.async"); break;
    case AsyncOp::TensormapCp: f.insert("tensormap.cp_fenceproxy"); break;
    default: break;
  }
}

void proxyFence(const Instr& in, std::set<std::string>& f) {
  using K = litmus::FenceProxyKind;
  switch (in.proxyKind) {
    case K::Alias: f.insert("fence.proxy.alias"); break;
    case K::Texture:
    case K::Surface:
    case K::Constant: f.insert("fence.proxy texture/surface/constant"); break;
    case K::Async:
    case K::AsyncGlobal:
    case K::AsyncSharedCta:
    case K::AsyncSharedCluster: f.insert("fence.proxy.async"); break;
    case K::AsyncGenericRelease:
    case K::AsyncGenericAcquire: f.insert("async::generic proxy fence"); break;
    case K::TensormapRelease:
    case K::TensormapAcquire: f.insert("tensormap proxy"); break;
    case K::None: break;
  }
}

// Backward branches: a loop that only reads and computes (a spin loop), or one that writes.
void loops(const litmus::Thread& th, std::set<std::string>& f) {
  std::map<std::string, size_t> labels;
  for (size_t i = 0; i < th.code.size(); ++i)
    if (th.code[i].op == Opcode::Label) labels[th.code[i].target] = i;
  for (size_t i = 0; i < th.code.size(); ++i) {
    const Instr& in = th.code[i];
    if (in.op != Opcode::Bra) continue;
    const auto it = labels.find(in.target);
    if (it == labels.end()) continue;
    if (it->second > i) {
      if (!in.guard.empty() || in.cmp != litmus::CmpOp::None) f.insert("forward branch");
      continue;
    }
    bool writes = false;
    for (size_t k = it->second; k < i; ++k) {
      const Opcode op = th.code[k].op;
      writes |= op == Opcode::St || op == Opcode::Atom || op == Opcode::Red;
      if (op == Opcode::Mbarrier && th.code[k].mbarOp == litmus::MbarOp::TryWait)
        f.insert("mbarrier wait in a loop");
      if (op == Opcode::Mbarrier && th.code[k].mbarOp == litmus::MbarOp::TestWait)
        f.insert("mbarrier wait in a loop");
    }
    f.insert(writes ? "writing loop" : "spin loop");
  }
}

void memory(const Instr& in, std::set<std::string>& f) {
  using litmus::Sem;
  if (in.op == Opcode::Atom) f.insert("atom");
  if (in.op == Opcode::Red) f.insert("red");
  if (in.op == Opcode::Fence) f.insert("fence");
  if ((in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Atom) &&
      (in.sem == Sem::Acquire || in.sem == Sem::Release || in.sem == Sem::AcqRel))
    f.insert("release/acquire");
  if (in.op == Opcode::Ld && in.proxy != litmus::Proxy::Generic && in.proxy != litmus::Proxy::Tensormap)
    f.insert("texture/surface/constant proxy");
  if (in.op == Opcode::St && in.proxy == litmus::Proxy::Surface) f.insert("texture/surface/constant proxy");
  if (in.space == litmus::Space::SharedCluster && (in.op == Opcode::Ld || in.op == Opcode::St ||
                                                   in.op == Opcode::Atom || in.op == Opcode::Red))
    f.insert("shared::cluster access");
  for (const auto& a : in.args)
    if (a.kind == litmus::Operand::Kind::Reg && litmus::isSpecialRegister(a.name)) f.insert("special register");
}

void placement(const litmus::Test& test, std::set<std::string>& f) {
  std::map<int, std::set<int>> ctasOf;
  std::set<int> clusters, gpus;
  for (const auto& th : test.threads) {
    ctasOf[th.cluster].insert(th.cta);
    clusters.insert(th.cluster);
    gpus.insert(th.gpu);
    if (th.warp >= 0) f.insert("warp lanes");
  }
  for (const auto& [c, ctas] : ctasOf)
    if (ctas.size() > 1) f.insert("several CTAs in a cluster");
  if (clusters.size() > 1) f.insert("several clusters");
  if (gpus.size() > 1) f.insert("several GPUs");
}

void locations(const litmus::Test& test, std::set<std::string>& f) {
  for (const auto& l : test.locations) {
    if (l.space != litmus::Space::Global) f.insert("shared memory");
    if (!l.aliasOf.empty() && l.aliasProxy == litmus::Proxy::Generic) f.insert("generic alias");
    if (l.aliasProxy == litmus::Proxy::Tensormap) f.insert("tensormap proxy");
  }
}

}  // namespace

std::set<std::string> features(const litmus::Test& test) {
  std::set<std::string> f;
  placement(test, f);
  locations(test, f);
  for (const auto& th : test.threads) {
    loops(th, f);
    bool dropped = false;  // issue 18: an arrival in a later phase by a thread that dropped out
    for (const Instr& in : th.code) {
      const bool arrive = in.op == Opcode::Mbarrier && (in.mbarOp == litmus::MbarOp::Arrive || in.mbarOp == litmus::MbarOp::ArriveDrop);
      if (arrive && dropped) f.insert("mbarrier arrival after arrive_drop");
      dropped |= arrive && in.mbarOp == litmus::MbarOp::ArriveDrop;
    }
    for (const Instr& in : th.code) {
      if (!in.guard.empty() && in.op != Opcode::Bra) f.insert("guard");
      if (in.op == Opcode::Bar) barrier(in, f);
      if (in.op == Opcode::Mbarrier) mbarrier(in, f);
      if (in.op == Opcode::Async) async(in, f);
      if (in.op == Opcode::FenceProxy) proxyFence(in, f);
      if (in.op == Opcode::Mapa) f.insert("mapa");
      if (in.op == Opcode::Elect) f.insert("elect.sync");
      if (in.op == Opcode::GetCtaRank) f.insert("special register");
      memory(in, f);
    }
  }
  return f;
}

}  // namespace difftest
