// Rules of the plan that look at instructions one by one: the PTX ISA version they need, and
// programs the runner refuses because the ISA leaves their hardware behaviour undefined.
#include <algorithm>
#include <map>
#include <set>

#include "gpu-runner/plan.h"
#include "litmus/instructions.h"
#include "litmus/ptx_format.h"

namespace gpu {

using litmus::Error;
using litmus::Instr;
using litmus::Opcode;
using litmus::Test;

namespace {

// The architecture-specific (sm_90a) instructions: wgmma and setmaxnreg (which refuseUndefined
// refuses for now), tensormap.replace ("requires sm_90a", PTX ISA 8.3 target notes; ptxas refuses
// it on sm_90) and .multicast::cluster ("should be used on sm_90a": ptxas advisory; the seeds'
// Hopper notes).
bool needsSm90a(const Instr& in) {
  return litmus::isWarpgroupAligned(in) ||
         (in.op == Opcode::Async && (in.asyncOp == litmus::AsyncOp::TensormapReplace || in.multicast));
}

// The architecture an instruction needs when it is newer than sm_90 ("sm_100a"), else empty.
// clusterlaunchcontrol (§9.7.13.17-18) and the .release forms of st.async/red.async (§9.7.13.7)
// require sm_100; .multicast::cluster::all requires sm_100a; redux.sync .f32 (and its .abs,
// .NaN) "requires sm_100a" (§9.7.13.12).
std::string newerArchitecture(const Instr& in) {
  if (in.op == Opcode::Clc) return in.multicast ? "sm_100a" : "sm_100";
  if (in.op == Opcode::Warp && in.type == litmus::Type::F32) return "sm_100a";
  const bool asyncRelease = in.op == Opcode::Async && in.sem == litmus::Sem::Release &&
                            (in.asyncOp == litmus::AsyncOp::Store || in.asyncOp == litmus::AsyncOp::Reduce);
  return asyncRelease ? "sm_100" : std::string();
}

}  // namespace

std::string minimumVersion(const Test& test) {
  int minor = 78;  // PTX 7.8: sm_90, clusters, barrier.cluster, mapa
  auto need = [&](int v) { minor = std::max(minor, v); };
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code) {
      if (in.op == Opcode::Mbarrier &&
          (in.expectTx || in.mbarOp == litmus::MbarOp::ExpectTx || in.mbarOp == litmus::MbarOp::CompleteTx ||
           in.semExplicit || in.scopeExplicit))
        need(80);
      if (in.op == Opcode::Mbarrier && in.semExplicit && in.sem == litmus::Sem::Relaxed) need(86);
      const bool clusterBarrier =
          in.op == Opcode::Bar && (in.barOp == litmus::BarOp::ClusterArrive || in.barOp == litmus::BarOp::ClusterWait);
      if (clusterBarrier && in.semExplicit) need(80);
      if (in.op == Opcode::Fence && in.restrict == litmus::FenceRestrict::MbarrierInit) need(80);
      if (in.op == Opcode::Fence && in.restrict != litmus::FenceRestrict::None &&
          in.restrict != litmus::FenceRestrict::MbarrierInit)
        need(86);
      if (in.op == Opcode::FenceProxy && in.proxyKind != litmus::FenceProxyKind::Alias) need(80);
      if (in.op == Opcode::FenceProxy && (in.proxyKind == litmus::FenceProxyKind::TensormapRelease ||
                                          in.proxyKind == litmus::FenceProxyKind::TensormapAcquire))
        need(83);  // the uni-directional halves; the async::generic ones take .sync_restrict, 8.6
      if (in.op == Opcode::FenceProxy && (in.proxyKind == litmus::FenceProxyKind::AsyncGenericRelease ||
                                          in.proxyKind == litmus::FenceProxyKind::AsyncGenericAcquire))
        need(86);
      need(litmus::ptxVersion(in));  // the instruction table: elect.sync, cp.async.bulk, st.async ...
      if (in.op == Opcode::Async && in.asyncOp == litmus::AsyncOp::Copy && in.space == litmus::Space::SharedCta)
        need(86);
      if (in.vec > 1) need(81);
      if (in.sem == litmus::Sem::Mmio) need(82);
      if (in.type == litmus::Type::B128) need(83);
    }
  for (const litmus::Location& l : test.locations)
    if (!l.tensorOf.empty()) need(83);  // the tally's tensormap.replace and tensormap fences
  return std::to_string(minor / 10) + "." + std::to_string(minor % 10);
}

// The target the instructions need: "sm_90a" for the architecture-specific Hopper features
// (PTX ISA: wgmma and setmaxnreg "require sm_90a"), "sm_90" otherwise. Code for sm_90a runs
// only on devices of compute capability 9.0 exactly.
std::string minimumTarget(const Test& test) {
  bool archSpecific = false;
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code) archSpecific = archSpecific || needsSm90a(in);
  for (const litmus::Location& l : test.locations)  // the tally points maps with tensormap.replace
    archSpecific = archSpecific || !l.tensorOf.empty();
  return archSpecific ? "sm_90a" : "sm_90";
}

// The runner generates sm_90 code: an instruction that needs sm_100 or later (its PTX ISA
// target requirement) is refused, naming the architecture it needs, rather than left for ptxas
// to reject.
void refuseNewerArchitecture(const Test& test) {
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code)
      if (std::string arch = newerArchitecture(in); !arch.empty())
        throw Error(in.loc, "'" + in.text + "' needs " + arch +
                                "; the runner generates sm_90 code for Hopper GPUs");
}

// Programs whose hardware behaviour the ISA leaves undefined say nothing about the model: an
// mbarrier operation other than init on an invalidated object (§9.7.13.15.11), or a warpgroup
// instruction (wgmma, setmaxnreg) that not all four warps of the warpgroup execute. The model gives
// such a program a meaning (D28, D45), the hardware need not, so the runner refuses it.
void refuseUndefined(const Test& test) {
  for (const litmus::Thread& t : test.threads) {
    std::set<std::string> invalid;
    for (const Instr& in : t.code) {
      // §9.7.15, §9.7.19.6: all threads of the warpgroup must execute the same instruction; the
      // runner's four warps follow one path only when nothing branches or is guarded
      if (litmus::isWarpgroupAligned(in) && !in.guard.empty())
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': a guarded .sync.aligned warpgroup "
                            "instruction may be executed by some warps of the warpgroup and not others");
      if (isWarpgroupThread(t) && in.op == Opcode::Bra)
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "' in a warpgroup: its four warps "
                            "would have to agree on every branch, which the runner does not arrange yet");
      if (std::string_view why = litmus::opcodeInfo(in.op).runnerRefusal; !why.empty())
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': " + std::string(why));
      if (in.op != Opcode::Mbarrier) continue;
      const int ai = litmus::addressIndex(in);
      if (ai < 0) continue;
      const std::string loc = litmus::addressLocation(t, in.args[static_cast<size_t>(ai)]);
      if (in.mbarOp == litmus::MbarOp::Init) invalid.erase(loc);
      else if (invalid.count(loc))
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': an mbarrier operation on an "
                            "invalidated object is undefined behaviour (§9.7.13.15.11), so the hardware's "
                            "answer would not test the model");
      if (in.mbarOp == litmus::MbarOp::Inval) invalid.insert(loc);
    }
  }
}

// Herd's proxy fences of Dat3M's model (docs/format.md 3.1): the model orders the texture,
// surface and constant views with them, PTX has no such instruction.
std::string noPtxForm(const Instr& in) {
  using K = litmus::FenceProxyKind;
  if (in.op != Opcode::FenceProxy) return "";
  if (in.proxyKind != K::Texture && in.proxyKind != K::Surface && in.proxyKind != K::Constant) return "";
  return "fence.proxy." + std::string(litmus::toString(in.proxyKind)) +
         " is the model's (Dat3M's) fence; PTX has no such instruction";
}

void refuseModelOnly(const Test& test) {
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code)
      if (std::string why = noPtxForm(in); !why.empty())
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': " + why);
}

}  // namespace gpu

namespace gpu {

namespace {

// An instruction whose meaning does not depend on which hardware thread runs it or on what the
// other lanes of its warp do: global (or generic) accesses through the generic proxy, fences,
// register arithmetic and branches. Everything else keeps a test out of serial roles.
bool serialInstruction(const Instr& in) {
  const bool global = in.space == litmus::Space::Generic || in.space == litmus::Space::Global;
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: return global && in.proxy == litmus::Proxy::Generic;
    case Opcode::Fence:
    case Opcode::Mov:
    case Opcode::Arith:
    case Opcode::Setp:
    case Opcode::Selp:
    case Opcode::Bra:
    case Opcode::Label:
    case Opcode::Nanosleep: break;
    default: return false;  // barriers, mbarriers, async copies, collectives, exit, cvta, ...
  }
  for (const litmus::Operand& o : in.args)
    if (o.kind == litmus::Operand::Kind::Reg && litmus::isSpecialRegister(o.name)) return false;
  return true;
}

// A branch back to a label at or before it: a loop, which may wait for another thread of the
// instance (a spin on a flag). In serial roles every lane runs the threads one after another, each
// for another instance, so thread 0 of one instance can spin for thread 1 of its instance while
// the lane that is to run that thread 1 is itself still in its thread 0, spinning for yet another
// lane's thread 1: every lane waits and none gets there (issue 30; a correct grid barrier hung).
bool hasLoop(const std::vector<Instr>& code) {
  std::vector<std::string> seen;
  for (const Instr& in : code) {
    if (in.op == Opcode::Label) seen.push_back(in.target);
    if (in.op == Opcode::Bra && std::find(seen.begin(), seen.end(), in.target) != seen.end()) return true;
  }
  return false;
}

}  // namespace

bool isWarpgroupThread(const litmus::Thread& t) {
  return std::any_of(t.code.begin(), t.code.end(), litmus::isWarpgroupAligned);
}

bool serialCapable(const Test& test, const Plan& plan) {
  if (plan.mode != Mode::Lane || plan.gpus != 1 || plan.gridProgrammatic.size() > 1 ||
      plan.shape.clusterLaunch || plan.shape.clusterSize != 1)
    return false;
  for (const RolePlan& r : plan.roles)
    if (r.ctas.size() != 1) return false;
  for (const LocPlan& l : plan.locs)
    if (l.shared || l.mbarrier || l.aliasOf >= 0 || l.tensorMap >= 0 || l.tensor >= 0) return false;
  for (const litmus::Thread& t : test.threads) {
    if (t.warp >= 0) return false;
    if (!std::all_of(t.code.begin(), t.code.end(), serialInstruction) || hasLoop(t.code)) return false;
  }
  return true;
}

namespace {

// Is one of `names` named by an instruction other than through its address operand's alias?
bool named(const Test& test, const std::set<std::string>& names) {
  for (const litmus::Thread& t : test.threads)
    for (const litmus::Instr& in : t.code)
      for (const litmus::Operand& a : in.args)
        if (a.kind != litmus::Operand::Kind::Reg && names.count(a.name)) return true;
  return false;
}

int root(const Test& test, const std::map<std::string, int>& byName, const std::string& name) {
  int target = byName.at(name);
  while (!test.locations[static_cast<size_t>(target)].aliasOf.empty())
    target = byName.at(test.locations[static_cast<size_t>(target)].aliasOf);
  return target;
}

// The targets of surface aliases go into the surface array (ptx_body_image.cpp) when the test
// names them only through surface and texture aliases: a CUDA array is all a surface reaches, and
// no global address reaches an array (the driver backs one only with tile-pool memory, which
// cuMemMap refuses to map at an address: CUDA_ERROR_INVALID_VALUE on an H200, docs/findings.md F14).
void planArrays(const Test& test, Plan& plan, const std::map<std::string, int>& byName) {
  for (const litmus::Location& loc : test.locations) {
    if (loc.aliasProxy != litmus::Proxy::Surface || loc.aliasOf.empty()) continue;
    const int target = root(test, byName, loc.aliasOf);
    const litmus::Location& x = test.locations[static_cast<size_t>(target)];
    const std::string what = "location '" + loc.name + "' is a surface alias of '" + x.name + "'";
    std::set<std::string> direct = {x.name};
    for (const litmus::Location& other : test.locations)
      if (!other.aliasOf.empty() && root(test, byName, other.aliasOf) == target &&
          other.aliasProxy != litmus::Proxy::Surface && other.aliasProxy != litmus::Proxy::Texture)
        direct.insert(other.name);
    if (named(test, direct))
      throw Error(loc.loc, what + ", which the test also names directly; a surface reads and writes a CUDA array, "
                               "and no global address reaches an array's memory (the driver backs arrays only "
                               "with tile-pool memory and will not map that at an address)");
    if (plan.locs[static_cast<size_t>(target)].shared)
      throw Error(loc.loc, what + "; a surface reads and writes a CUDA array in global memory, not shared memory");
    if (plan.gpus > 1)
      throw Error(loc.loc, what + "; the GPU runner makes surface objects for tests on one GPU only");
    plan.locs[static_cast<size_t>(target)].inArray = true;
  }
}

// A constant alias reads its target from the module's constant bank, which kernels may write with
// st.global at the address cuModuleGetGlobal gives (docs/findings.md F14): the target lives there,
// one word per instance, and its generic accesses use that address.
void planConstantAlias(const litmus::Location& loc, Plan& plan, size_t v, int target, const std::string& what) {
  LocPlan& x = plan.locs[static_cast<size_t>(target)];
  if (x.shared || plan.locs[v].shared)
    throw Error(loc.loc, what + " through the constant proxy; a constant bank aliases global memory only");
  if (x.inArray)
    throw Error(loc.loc, what + " through the constant proxy, and it lives in a surface array");
  if (plan.gpus > 1)
    throw Error(loc.loc, what + " through the constant proxy; the GPU runner uses a constant bank on one GPU only");
  if (x.bankWord < 0) x.bankWord = plan.bankWords++;
  plan.locs[v].aliasOf = target;
  plan.locs[v].constant = true;
}

}  // namespace

// A generic alias is the location's memory seen through the buffer's second mapping (harness.cpp),
// so one alias per global location. A texture alias is a texture object over the location buffer
// (harness.cpp, ptx_body_image.cpp), read at the location's element, or over the surface array
// when its target lives there; a surface alias is a surface object over that array (planArrays); a
// constant alias reads the constant bank its target lives in (planConstantAlias).
void planAliases(const Test& test, Plan& plan, const std::map<std::string, int>& byName) {
  planArrays(test, plan, byName);
  std::set<int> aliased;
  for (size_t v = 0; v < test.locations.size(); ++v) {
    const litmus::Location& loc = test.locations[v];
    if (loc.aliasOf.empty()) continue;
    const std::string what = "location '" + loc.name + "' is an alias of '" + loc.aliasOf + "'";
    const int target = root(test, byName, loc.aliasOf);
    if (loc.aliasProxy == litmus::Proxy::Surface) {
      plan.locs[v].aliasOf = target;
      plan.locs[v].surface = true;
      continue;
    }
    if (loc.aliasProxy == litmus::Proxy::Constant) {
      planConstantAlias(loc, plan, v, target, what);
      continue;
    }
    const bool texture = loc.aliasProxy == litmus::Proxy::Texture;
    if (loc.aliasProxy != litmus::Proxy::Generic && !texture)
      throw Error(loc.loc, what + " through the " + litmus::toString(loc.aliasProxy) +
                               " proxy; the GPU runner has no such alias (only generic, texture and surface ones)");
    if (plan.locs[v].shared || plan.locs[static_cast<size_t>(target)].shared)
      throw Error(loc.loc, what + (texture ? "; a texture object reads global memory only"
                                           : "; the GPU runner maps only global memory twice"));
    if (texture) {
      if (plan.gpus > 1)
        throw Error(loc.loc, what + " through the texture proxy; the GPU runner makes texture objects for tests on "
                                   "one GPU only");
      plan.locs[v].aliasOf = target;
      plan.locs[v].texture = true;
      continue;
    }
    if (!aliased.insert(target).second)
      throw Error(loc.loc, what + ", which has another alias; the GPU runner maps memory only twice");
    plan.locs[v].aliasOf = target;
  }
  // a location in the constant bank or the surface array has no second mapping or buffer texture
  for (size_t v = 0; v < test.locations.size(); ++v) {
    const LocPlan& l = plan.locs[v];
    if (l.aliasOf < 0 || l.constant || l.surface) continue;
    const LocPlan& x = plan.locs[static_cast<size_t>(l.aliasOf)];
    if (x.bankWord >= 0 || (x.inArray && !l.texture))
      throw Error(test.locations[v].loc, "location '" + l.name + "' is an alias of '" + x.name + "', which lives in " +
                                             (x.bankWord >= 0 ? "the constant bank" : "a surface array") +
                                             "; the GPU runner reaches it only through its " +
                                             (x.bankWord >= 0 ? "constant" : "surface and texture") + " aliases");
  }
}

// A warpgroup's registers come from its CTA's pool: `.dec` (the warp must hold at least the count)
// gives back, `.inc` waits until the pool has what it asks. Every warp starts with the kernel's
// count R (ptxas honours setmaxnreg only when `.maxnreg` fixes it: "setmaxnreg ignored; unable to
// determine register count at entry" otherwise), and an instance's warpgroups are one block
// (Plan::warpgroups), so the pool of an instance holds what its `.dec`s give back: R >= every
// `.dec`, R <= every `.inc`, and sum(R - dec) >= sum(inc - R), so that its `.inc`s never wait for
// registers only another instance's warps could release. One setmaxnreg per thread: after a
// second, the count it changes from is the first's, which a single R cannot serve.
void planRegisterCount(const Test& test, Plan& plan) {
  int decs = 0, incs = 0, sum = 0, maxDec = 24, minInc = 256;
  const Instr* last = nullptr;
  for (const litmus::Thread& t : test.threads) {
    int seen = 0;
    for (const Instr& in : t.code) {
      if (in.op != Opcode::SetMaxNReg) continue;
      last = &in;
      if (++seen > 1)
        throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': a thread's second setmaxnreg starts "
                            "from the count its first one set, and the runner fixes one count at entry");
      const int count = static_cast<int>(in.args[0].imm);  // 24 to 256 (the parser checks)
      const bool dec = in.atomOp == litmus::AtomOp::Dec;
      (dec ? decs : incs) += 1;
      sum += count;
      if (dec) maxDec = std::max(maxDec, count);
      else minInc = std::min(minInc, count);
    }
  }
  if (!last) return;
  const int mean = (sum + decs + incs - 1) / (decs + incs);
  const int r = (std::max(maxDec, mean) + 7) / 8 * 8;
  if (r > minInc)
    throw Error(last->loc, "the GPU runner cannot run '" + last->text + "': no register count at entry lets the "
                           "test's .dec give back what its .inc take (" + std::to_string(r) + " > " +
                           std::to_string(minInc) + ")");
  plan.maxnreg = r;
}

}  // namespace gpu
