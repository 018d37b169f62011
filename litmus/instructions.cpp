// The instruction table (litmus/instructions.h). Rows are in enum order so that a look-up is an
// index; the static_asserts below keep them there.
#include "litmus/instructions.h"

#include <algorithm>
#include <array>

namespace litmus {
namespace {

using E = EventClass;

constexpr std::array<OpcodeInfo, 27> kOpcodes = {{
    // op, name, syntax, event, untyped immediates, warp collective, runner refusal, PTX ISA
    {Opcode::Ld, "ld", "ld tld suld cold", E::Read, false, false, "", 0},
    {Opcode::St, "st", "st sust", E::Write, false, false, "", 0},
    {Opcode::Atom, "atom", "atom", E::Rmw, false, false, "", 0},
    {Opcode::Red, "red", "red", E::Rmw, false, false, "", 0},
    {Opcode::Fence, "fence", "fence membar", E::Fence, false, false, "", 0},
    {Opcode::FenceProxy, "fence.proxy", "fence", E::ProxyFence, false, false, "", 0},
    {Opcode::Bar, "bar", "bar barrier", E::Barrier, true, false, "", 0},
    {Opcode::Mbarrier, "mbarrier", "mbarrier", E::Mbarrier, true, false, "", 0},
    {Opcode::Async, "async", "cp st red tensormap wgmma", E::Async, true, false, "", 80},
    {Opcode::Mapa, "mapa", "mapa", E::None, true, false, "", 0},
    {Opcode::GetCtaRank, "getctarank", "getctarank", E::None, false, false, "", 0},
    {Opcode::Elect, "elect.sync", "elect", E::Collective, true, true, "", 80},
    {Opcode::Mov, "mov", "mov ld", E::None, false, false, "", 0},
    {Opcode::Arith, "arith", "", E::None, false, false, "", 0},
    {Opcode::Setp, "setp", "setp", E::None, false, false, "", 0},
    {Opcode::Selp, "selp", "selp", E::None, false, false, "", 0},
    {Opcode::Bra, "bra", "bra goto", E::None, false, false, "", 0},
    {Opcode::Label, "label", "", E::None, false, false, "", 0},
    {Opcode::Nop, "nop", "", E::None, false, false, "", 0},
    {Opcode::SetMaxNReg, "setmaxnreg", "setmaxnreg", E::None, false, false, "", 80},
    {Opcode::Cvta, "cvta", "cvta mov", E::None, false, false, "", 0},
    {Opcode::Exit, "exit", "exit ret", E::None, false, false, "", 0},
    {Opcode::Nanosleep, "nanosleep", "nanosleep", E::None, false, false, "", 0},
    {Opcode::CreatePolicy, "createpolicy", "createpolicy", E::None, false, false, "", 0},
    {Opcode::Clc, "clusterlaunchcontrol", "clusterlaunchcontrol", E::Cancel, false, false, "", 0},
    {Opcode::Warp, "warp", "vote match activemask redux", E::Collective, false, true, "", 0},
    {Opcode::GridDep, "griddepcontrol", "griddepcontrol", E::GridWait, false, false, "", 0},
}};

using F = AsyncFamily;

constexpr std::array<AsyncOpInfo, 21> kAsyncOps = {{
    {AsyncOp::None, F::None, true, 0},
    {AsyncOp::Copy, F::Bulk, true, 80},
    {AsyncOp::Commit, F::Bulk, true, 80},
    {AsyncOp::Wait, F::Bulk, true, 80},
    {AsyncOp::Store, F::Bulk, false, 81},
    {AsyncOp::Reduce, F::Bulk, false, 81},
    {AsyncOp::TensormapCp, F::Tensor, true, 83},
    {AsyncOp::TensorLoad, F::Tensor, true, 80},
    {AsyncOp::TensorStore, F::Tensor, true, 80},
    {AsyncOp::TensormapReplace, F::Tensor, true, 83},
    {AsyncOp::CpCopyCa, F::CpAsync, true, 80},
    {AsyncOp::CpCopyCg, F::CpAsync, true, 80},
    {AsyncOp::CpCommit, F::CpAsync, true, 80},
    {AsyncOp::CpWait, F::CpAsync, true, 80},
    {AsyncOp::CpWaitAll, F::CpAsync, true, 80},
    {AsyncOp::CpArrive, F::CpAsync, true, 80},
    {AsyncOp::CpArriveNoinc, F::CpAsync, true, 80},
    {AsyncOp::WgmmaFence, F::Wgmma, true, 80},
    {AsyncOp::WgmmaMma, F::Wgmma, true, 80},
    {AsyncOp::WgmmaCommit, F::Wgmma, true, 80},
    {AsyncOp::WgmmaWait, F::Wgmma, true, 80},
}};

using S = WarpShape;

constexpr std::array<WarpOpInfo, 14> kWarpOps = {{
    {WarpOp::None, S::None, ""},
    {WarpOp::All, S::Vote, "all"},
    {WarpOp::Any, S::Vote, "any"},
    {WarpOp::Uni, S::Vote, "uni"},
    {WarpOp::Ballot, S::Ballot, "ballot"},
    {WarpOp::MatchAny, S::Match, "any"},
    {WarpOp::MatchAll, S::Match, "all"},
    {WarpOp::Activemask, S::Activemask, ""},
    {WarpOp::Add, S::Redux, "add"},
    {WarpOp::Min, S::Redux, "min"},
    {WarpOp::Max, S::Redux, "max"},
    {WarpOp::And, S::Redux, "and"},
    {WarpOp::Or, S::Redux, "or"},
    {WarpOp::Xor, S::Redux, "xor"},
}};

// Each row sits at its enumerator's index (and the arrays have one row per enumerator: the
// last enumerator is the last row).
template <typename Row, size_t N>
constexpr bool inOrder(const std::array<Row, N>& rows) {
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(rows[i].op) != i) return false;
  return true;
}
static_assert(inOrder(kOpcodes) && kOpcodes.back().op == Opcode::GridDep);
static_assert(inOrder(kAsyncOps) && kAsyncOps.back().op == AsyncOp::WgmmaWait);
static_assert(inOrder(kWarpOps) && kWarpOps.back().op == WarpOp::Xor);

}  // namespace

const OpcodeInfo& opcodeInfo(Opcode op) { return kOpcodes[static_cast<size_t>(op)]; }
std::span<const OpcodeInfo> opcodeTable() { return kOpcodes; }
const AsyncOpInfo& asyncOpInfo(AsyncOp op) { return kAsyncOps[static_cast<size_t>(op)]; }
const WarpOpInfo& warpOpInfo(WarpOp op) { return kWarpOps[static_cast<size_t>(op)]; }

int ptxVersion(const Instr& in) {
  const int op = opcodeInfo(in.op).ptx;
  return in.op == Opcode::Async ? std::max(op, asyncOpInfo(in.asyncOp).ptx) : op;
}

bool untypedImmediates(const Instr& in) {
  return opcodeInfo(in.op).untypedImmediates &&
         (in.op != Opcode::Async || asyncOpInfo(in.asyncOp).untypedImmediates);
}

bool isCpAsyncOrWgmma(const Instr& in) {
  const AsyncFamily f = asyncOpInfo(in.asyncOp).family;
  return in.op == Opcode::Async && (f == AsyncFamily::CpAsync || f == AsyncFamily::Wgmma);
}

bool isWarpgroupAligned(const Instr& in) {
  return (in.op == Opcode::Async && asyncOpInfo(in.asyncOp).family == AsyncFamily::Wgmma) ||
         in.op == Opcode::SetMaxNReg;
}

bool isAccess(const Instr& in) {
  const EventClass e = opcodeInfo(in.op).event;
  return e == EventClass::Read || e == EventClass::Write || e == EventClass::Rmw;
}

bool readsMemory(const Instr& in) {
  const EventClass e = opcodeInfo(in.op).event;
  return e == EventClass::Read || e == EventClass::Rmw;
}

bool isRmw(const Instr& in) { return opcodeInfo(in.op).event == EventClass::Rmw; }

bool isFence(const Instr& in) {
  const EventClass e = opcodeInfo(in.op).event;
  return e == EventClass::Fence || e == EventClass::ProxyFence;
}

bool takesPredicate(WarpOp op) {
  const WarpShape s = warpOpInfo(op).shape;
  return s == WarpShape::Vote || s == WarpShape::Ballot;
}

bool isUniDirectional(FenceProxyKind k) {
  switch (k) {
    case FenceProxyKind::AsyncGenericRelease:
    case FenceProxyKind::AsyncGenericAcquire:
    case FenceProxyKind::TensormapRelease:
    case FenceProxyKind::TensormapAcquire: return true;
    case FenceProxyKind::None:
    case FenceProxyKind::Alias:
    case FenceProxyKind::Texture:
    case FenceProxyKind::Surface:
    case FenceProxyKind::Constant:
    case FenceProxyKind::Async:
    case FenceProxyKind::AsyncGlobal:
    case FenceProxyKind::AsyncSharedCta:
    case FenceProxyKind::AsyncSharedCluster: break;
  }
  return false;
}

}  // namespace litmus
