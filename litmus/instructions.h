// The instruction table: every instruction the tool knows is listed once (litmus/instructions.cpp)
// with its syntax names, the validation facts the parser and the printer share, the kind of model
// event it lowers to, its name in explanations and whether the GPU runner generates it. Code that
// only asks "what kind of instruction is this?" asks here, never by comparing enum values, so
// adding an enumerator in any position changes nothing else.
#pragma once

#include <span>
#include <string_view>

#include "litmus/test.h"

namespace litmus {

// What an instruction lowers to in the model (semantics/, model/event.h).
enum class EventClass {
  None,         // registers, control flow, labels, hints: no event
  Read,         // ld: a Read
  Write,        // st: a Write
  Rmw,          // atom, red: a Read and a Write
  Fence,        // fence, membar: a Fence
  ProxyFence,   // fence.proxy.*: a ProxyFence
  Barrier,      // bar, barrier.cluster: an Arrive and a Wait
  Mbarrier,     // mbarrier.*: accesses of the mbarrier object
  Async,        // cp.async{.bulk}, st.async, red.async, tensormap, wgmma (AsyncFamily says which)
  Collective,   // elect.sync, vote, match, activemask, redux: an Arrive and a Wait of the warp
  GridWait,     // griddepcontrol: a GridWait
  Cancel,       // clusterlaunchcontrol.try_cancel: a write of the response
};

struct OpcodeInfo {
  Opcode op;
  // The name of the opcode in explanations and messages, and the mnemonic of the instructions
  // whose mnemonic carries no qualifiers (mov, selp, elect.sync).
  std::string_view name;
  // The first words of the syntax the parser reads into this opcode, space-separated
  // (empty: made by the parser from other syntax, e.g. Arith from add, sub, ...).
  std::string_view syntax;
  EventClass event;
  // Immediate operands are plain numbers whatever type the instruction names (barrier ids and
  // counts, mbarrier counts, ranks, masks); AsyncOpInfo refines this for Async.
  bool untypedImmediates;
  // A warp collective: its lanes act together (elect.sync, Warp).
  bool warpCollective;
  // Why the GPU runner refuses every instance of the opcode; empty: it generates code for it
  // (the plan's per-instance rules may still refuse one).
  std::string_view runnerRefusal;
  // The PTX ISA version every instance needs, as 10 * major + minor (80: PTX 8.0); 0: none beyond
  // the runner's base, 7.8. AsyncOpInfo refines it for Async; qualifiers may need more
  // (gpu-runner/plan_rules.cpp).
  int ptx;
};

const OpcodeInfo& opcodeInfo(Opcode);
// Every row, one per opcode (for code that walks the table, rather than the enum's range).
std::span<const OpcodeInfo> opcodeTable();

// The families of asynchronous operations (Opcode::Async).
enum class AsyncFamily {
  None,
  Bulk,       // cp.async.bulk{.commit_group,.wait_group}, st.async, red.async (§9.7.9.25)
  Tensor,     // cp.async.bulk.tensor, tensormap.cp_fenceproxy, tensormap.replace
  CpAsync,    // non-bulk cp.async and its groups (§9.7.9.25.3, D43)
  Wgmma,      // wgmma.* (§9.7.15, D45): .sync.aligned over a warpgroup
};

struct AsyncOpInfo {
  AsyncOp op;
  AsyncFamily family;
  bool untypedImmediates;  // sizes, counts and masks; st.async and red.async store typed values
  int ptx;                 // as OpcodeInfo::ptx
};

const AsyncOpInfo& asyncOpInfo(AsyncOp);
// The PTX ISA version the instruction's opcode (and asynchronous operation) needs, from the
// table: OpcodeInfo::ptx, AsyncOpInfo::ptx.
int ptxVersion(const Instr&);
// The instruction's immediates are plain numbers, not values of its type (OpcodeInfo and
// AsyncOpInfo::untypedImmediates).
bool untypedImmediates(const Instr&);
// Non-bulk cp.async and wgmma: the forms of issue 14, stepped and generated apart from the bulk
// ones (semantics_cpasync.cpp, ptx_body_cpasync.cpp).
bool isCpAsyncOrWgmma(const Instr&);
// The .sync.aligned warpgroup instructions: wgmma and setmaxnreg (§9.7.15, §9.7.19.6).
bool isWarpgroupAligned(const Instr&);

// Warp collectives (Opcode::Warp) by the shape of their operands.
enum class WarpShape {
  None,
  Vote,        // vote{.sync}.{all,any,uni}.pred d, {!}a[, mask]: predicate in, predicate out
  Ballot,      // vote{.sync}.ballot.b32 d, {!}a[, mask]: predicate in, bits out
  Match,       // match.{any,all}.sync
  Activemask,  // activemask.b32 d
  Redux,       // redux.sync.op
};

struct WarpOpInfo {
  WarpOp op;
  WarpShape shape;
  std::string_view name;  // the operation qualifier: "all", "ballot", "any" (match), "add" (redux)
};

const WarpOpInfo& warpOpInfo(WarpOp);
// vote: the source operand is a predicate, which may be negated.
bool takesPredicate(WarpOp);

// Classifications by the model event an instruction makes (OpcodeInfo::event).
bool isAccess(const Instr&);     // ld, st, atom, red
bool readsMemory(const Instr&);  // ld, atom, red
bool isRmw(const Instr&);        // atom, red
bool isFence(const Instr&);      // fence, membar, fence.proxy

// The uni-directional proxy fences come in .release and .acquire halves (§9.7.13.4, D31).
bool isUniDirectional(FenceProxyKind);

}  // namespace litmus
