// The one in-memory form of a litmus test. Both front ends (YAML and herd `.litmus`) produce a
// `Test`; the model, the checker and the GPU runner consume it. Every node carries the source
// position it came from so that later stages can report errors against the user's file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"

namespace litmus {

// ---- PTX vocabulary -------------------------------------------------------------------------

enum class Sem { Weak, Relaxed, Acquire, Release, AcqRel, Sc, Volatile, Mmio };
enum class Scope { None, Cta, Cluster, Gpu, Sys };
// State space as written on the instruction (Generic = no space qualifier).
enum class Space { Generic, Global, Shared, SharedCta, SharedCluster, Local, Const };
// The proxy through which an access is made (§8.6). Aliases are generic accesses through a second
// virtual address; they are told apart by the virtual address, not by the proxy.
enum class Proxy { Generic, Texture, Surface, Constant, Async, Tensormap };
enum class Type { None, B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2,
                  BF16, BF16x2, F32, F64, Pred };

enum class Opcode {
  Ld,          // ld / ld.volatile / herd tld, suld, cold (proxy set accordingly)
  St,          // st / herd sust
  Atom,        // atom.op
  Red,         // red.op
  Fence,       // fence.{sc,acq_rel,acquire,release}.scope, membar.level (sem = Sc)
  FenceProxy,  // fence.proxy.<kind> (proxyKind says which)
  Bar,         // bar{.cta}.{sync,arrive,red}, barrier{.cta}..., barrier.cluster.{arrive,wait}
  Mbarrier,    // mbarrier.* (mbarOp says which)
  Async,       // cp.async.bulk{.commit_group,.wait_group}, st.async, red.async,
               // tensormap.cp_fenceproxy (asyncOp says which)
  Mapa,        // mapa{.shared::cluster}.type d, x, rank
  GetCtaRank,  // getctarank{.shared::cluster}.type d, a
  Elect,       // elect.sync d|p, membermask
  Mov,         // mov / herd `ld r, imm`
  Arith,       // add, sub, mul, and, or, xor, shl, shr, min, max, neg, not (arith says which)
  Setp,        // setp.cmp.type p, a, b
  Selp,        // selp.type d, a, b, p
  Bra,         // bra / herd goto; conditional through `guard` or `cmp` (herd beq/bne/...)
  Label,       // a label definition `L:`; no semantics of its own
  Nop,         // no instruction (a default-constructed Instr)
  SetMaxNReg,  // setmaxnreg.{inc,dec}.sync.aligned.u32 N: atomOp Inc/Dec says which, args {N}
  Cvta,        // cvta{.to}.space.size d, a and `mov d, LOCATION`: the address of a location (addrSpace)
  Exit,        // exit, ret: the thread ends
  Nanosleep,   // nanosleep.u32 t: no memory effect
  CreatePolicy,  // createpolicy.fractional...b64 d{, f}: a cache policy, no memory effect
  Clc,         // clusterlaunchcontrol.try_cancel / .query_cancel (clcOp says which)
  Warp,        // vote{.sync}, match.sync, activemask, redux.sync (warpOp says which; D40-D42)
  GridDep,     // griddepcontrol.launch_dependents / .wait (gridOp says which)
};

enum class AtomOp { None, And, Or, Xor, Cas, Exch, Add, Sub, Inc, Dec, Min, Max };
enum class ArithOp { None, Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, Neg, Not };
enum class CmpOp { None, Eq, Ne, Lt, Le, Gt, Ge };
enum class BarOp { None, Sync, Arrive, RedPopc, RedAnd, RedOr, ClusterArrive, ClusterWait,
                   WarpSync };
// fence.op_restrict / .sync_restrict: the operations a fence orders (§9.7.13.4).
enum class FenceRestrict { None, MbarrierInit, SharedCta, SharedCluster };
enum class MbarOp { None, Init, Inval, Arrive, ArriveDrop, ExpectTx, CompleteTx, TestWait, TryWait,
                    PendingCount };
// The uni-directional proxy fences (§9.7.13.4) come in halves: a .release half in the thread that
// wrote through the generic proxy, an .acquire half in the thread that then accesses through the
// async or tensormap proxy (docs/model.md D31).
enum class FenceProxyKind { None, Alias, Texture, Surface, Constant, Async, AsyncGlobal,
                            AsyncSharedCta, AsyncSharedCluster, AsyncGenericRelease,
                            AsyncGenericAcquire, TensormapRelease, TensormapAcquire };
// Asynchronous operations (§8.9.1.1, §9.7.9.25, §9.7.13.7): the bulk copy, its group bookkeeping,
// the remote store and reduction into a CTA of the cluster, and the tensor-map copy with fence.
enum class AsyncOp { None, Copy, Commit, Wait, Store, Reduce, TensormapCp,
                     // cp.async.bulk.tensor load (global -> shared) and store (shared -> global),
                     // tensormap.replace (litmus/ptx_instr_tensor.cpp, docs/model.md D46-D48)
                     TensorLoad, TensorStore, TensormapReplace,
                     // non-bulk cp.async (§9.7.9.25.3) and its completion: the copy (.ca/.cg)
                     // {dst, src, cp-size[, src-size]}, commit_group {}, wait_group {N},
                     // wait_all {}, cp.async.mbarrier.arrive{.noinc} {mbar} (§9.7.13.15.15)
                     CpCopyCa, CpCopyCg, CpCommit, CpWait, CpWaitAll, CpArrive, CpArriveNoinc,
                     // wgmma (§9.7.15): fence {}, mma_async {d0..d(vec-1), [a], [b], scale-d,
                     // imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b} with its shape and
                     // types in `target`, commit_group {}, wait_group {N}
                     WgmmaFence, WgmmaMma, WgmmaCommit, WgmmaWait };
// clusterlaunchcontrol (§9.7.13.17-18): the asynchronous cancel request, and the decoding of its
// 16-byte response (docs/model.md D49).
enum class ClcOp { None, TryCancel, IsCanceled, FirstCtaid };
// Warp collectives (§9.7.13.8-12): vote modes, match, activemask, redux operations.
enum class WarpOp { None, All, Any, Uni, Ballot, MatchAny, MatchAll, Activemask, Add, Min, Max,
                    And, Or, Xor };
// griddepcontrol (§9.7.13.13): let dependent grids launch early; wait for the prerequisite grids.
enum class GridOp { None, LaunchDependents, Wait };

struct Operand {
  // RegAddr: an address held in a register (`[%r]`, `[%r+4]`), which mapa wrote (docs/format.md).
  // None with name "_": the sink of elect.sync.
  enum class Kind { None, Reg, Imm, Addr, RegAddr };
  Kind kind = Kind::None;
  std::string name;    // register (without '%'); location name for Addr
  int64_t imm = 0;     // value for Imm; byte offset for Addr and RegAddr (`[x+4]`)
  bool negated = false;  // `!p`: the predicate operand of bar.red is used negated
  SourceLoc loc;
};

struct Instr {
  Opcode op = Opcode::Nop;
  std::string text;  // the instruction as written, for error messages and graphs
  SourceLoc loc;
  // For a test that `litmus extract` wrote: the kernel's PTX line the instruction comes from
  // (YAML: a `//@ FILE:LINE` comment on its line); line 0 otherwise. See shownText.
  SourceLoc origin;

  // memory qualifiers (Ld, St, Atom, Red, Fence)
  Sem sem = Sem::Weak;
  Scope scope = Scope::None;
  Space space = Space::Generic;
  Space srcSpace = Space::Generic;  // cp.async.bulk, tensormap.cp_fenceproxy: the source's space
  Proxy proxy = Proxy::Generic;
  Type type = Type::None;
  bool semExplicit = false;    // .sem written (vs defaulted)
  bool scopeExplicit = false;  // .scope written (vs defaulted)

  AtomOp atomOp = AtomOp::None;
  ArithOp arith = ArithOp::None;
  CmpOp cmp = CmpOp::None;           // Setp, and conditional Bra in herd form (beq a, b, L)
  BarOp barOp = BarOp::None;
  MbarOp mbarOp = MbarOp::None;
  FenceRestrict restrict = FenceRestrict::None;
  // mbarrier: arrive.expect_tx / arrive_drop.expect_tx, .noComplete, test_wait/try_wait.parity
  bool expectTx = false, noComplete = false, parity = false;
  FenceProxyKind proxyKind = FenceProxyKind::None;
  AsyncOp asyncOp = AsyncOp::None;
  // cp.async.bulk: completes through a bulk async-group (.bulk_group) rather than an mbarrier;
  // cp.async.bulk.wait_group.read: waits only until the sources have been read.
  bool bulkGroup = false, readOnly = false;
  // Warp collectives: the operation; vote.sync (vs the deprecated vote); redux .abs and .NaN.
  // Operands: vote {d, a[, membermask]}; match {d[, p], a, membermask}; redux {d, a, membermask};
  // activemask {d}.
  WarpOp warpOp = WarpOp::None;
  bool warpSync = false, absVal = false, nanVal = false;
  // cp.async.bulk.tensor: the tensor's dimensions (.1d .. .5d); args then hold the coordinates.
  // cp.async.bulk{.tensor} .multicast::cluster sets `multicast` (below): the CTA mask is then the
  // last operand.
  int tensorDims = 0;

  // Vector width of atom/red: 1 (scalar), or 2, 4, 8 for .v2, .v4, .v8 (§9.7.13.5: the vector
  // forms of .f32, .f16, .bf16, .f16x2 and .bf16x2).
  int vec = 1;

  // Operands in PTX order, e.g. ld: {dst, addr}; st: {addr, src}; atom: {dst, addr, b[, c]};
  // red: {addr, b}; Arith: {dst, a[, b]}; Setp: {p, a, b}; Selp: {d, a, b, p};
  // herd Bra: {a, b} compared with `cmp`; Bar: {id[, count]}.
  // Async: copy {dst, src, size[, mbar]}; commit {}; wait {n}; store, reduce {addr, value, mbar};
  // tensormap.cp_fenceproxy {dst, src, size}. Mapa {d, x, rank}; GetCtaRank {d, a}; Elect
  // {d or sink, p, membermask}; bar.warp.sync {membermask}.
  // Mbarrier: init {addr, count}; inval {addr}; arrive, arrive_drop {state, addr[, count]}
  // (.expect_tx: {state, addr, txCount}); expect_tx, complete_tx {addr, txCount}; test_wait,
  // try_wait {pred, addr, state or parity}; pending_count {dst, state}.
  // A vector atom/red of width n keeps the elements of its brace lists in order:
  // atom: {d0, .., d(n-1), addr, b0, .., b(n-1)}; red: {addr, b0, .., b(n-1)}.
  // See destCount / addressIndex below.
  std::vector<Operand> args;
  std::string target;  // Bra target label; Label name for Label; wgmma.mma_async: shape and types

  // `@p` / `@!p` guard
  std::string guard;
  bool guardNegated = false;

  // Cvta: the state space of the address d receives (Generic: a generic address). `cvta.space`
  // gives a generic address, `cvta.to.space` and `mov d, LOCATION` (space Generic) one of the space.
  Space addrSpace = Space::Generic;
  // Clc: which operation; get_first_ctaid's dimension (0..2 for ::x, ::y, ::z; -1 for .v4, whose
  // args are {x, y, z, w}); try_cancel's .multicast::cluster::all, and the .multicast::cluster
  // of cp.async.bulk{.tensor} (docs/model.md D48).
  ClcOp clcOp = ClcOp::None;
  int clcDim = -1;
  bool multicast = false;
  GridOp gridOp = GridOp::None;  // GridDep
};

struct Thread {
  std::string name;  // "P0"
  int cta = 0;
  int cluster = 0;
  int gpu = 0;
  // Threads of one CTA with the same warp number are lanes of one warp, lane numbers in the order
  // of the test (bar.warp.sync, elect.sync). -1: a warp of its own, lane 0.
  int warp = -1;
  std::vector<Instr> code;
  SourceLoc loc;
  std::map<std::string, int64_t> initRegs;  // registers given an initial value
  // The grid (kernel launch) the thread belongs to (YAML `grid:`); Test::grids orders the grids.
  int grid = 0;
};

struct Location {
  std::string name;
  Space space = Space::Global;
  // The initial value of every element `[x+K]` of the location, unless initAt is set.
  int64_t init = 0;
  // Per-element initial values by byte offset (YAML `init: [1, 2]` = {0: 1, 4: 2}, or
  // `init: {0: 1, 8: 2}`). When not empty, offsets missing from it start at 0 and `init` holds
  // the value at offset 0. See initialValue().
  std::map<int64_t, int64_t> initAt;
  // For an alias: the location it names a second address of, and the proxy the alias is
  // accessed through (herd: `y @ generic aliases x`, `s @ surface aliases x`). Empty = not an alias.
  std::string aliasOf;
  Proxy aliasProxy = Proxy::Generic;
  // For a non-generic alias: the generic address it views (`s @ surface aliases y`: y, even when
  // y is itself an alias of x). Set by validation; empty otherwise.
  std::string viewOf;
  // For .shared locations: the CTA whose shared memory holds it (YAML `cta:`). Threads of other
  // CTAs of its cluster reach it only through a .shared::cluster address from mapa (DSMEM). -1:
  // not given; then the location is shared by every thread that names it, as in herd tests.
  int ownerCta = -1;
  // A tensor map (YAML `tensormap: A`, docs/format.md 2.1): the global location whose elements
  // the map describes (32-bit elements), its dimensions and box, innermost first. Its value, at
  // offset 0, is the map's global_address: tensorAddress of the location it points to.
  std::string tensorOf;
  std::vector<int64_t> tensorDims, tensorBox;
  // A shared location that is another CTA's copy of `copyOf`: the same variable, at the same
  // CTA-relative offset (multicast delivers to each CTA's copy).
  std::string copyOf;
  SourceLoc loc;
};

// The value a tensor map's global_address holds when it points to global location `decl` (its
// index in Test::locations): the address `cvta.global`/`mov d, LOCATION` give it in the model
// (rank -1 above bit 32, decl + 1 below), so a register from cvta can be written into a map.
inline int64_t tensorAddress(int decl) {
  return static_cast<int64_t>(~uint64_t{0xffffffff} | static_cast<uint64_t>(decl + 1));
}

// ---- final condition ------------------------------------------------------------------------

struct Term {
  enum class Kind { Reg, Mem, Const };
  Kind kind = Kind::Const;
  std::string thread;  // Reg
  // Reg: the register (without '%'). Mem: the location, or for an element at byte offset K > 0
  // the canonical element name "x+4" (elementName); `[x]`, `x+0` and `x` are all "x".
  std::string name;
  int64_t value = 0;   // Const
  SourceLoc loc;
};

struct Cond {
  enum class Kind { True, False, And, Or, Not, Cmp };
  Kind kind = Kind::True;
  std::vector<Cond> kids;  // And/Or: 2+, Not: 1
  CmpOp cmp = CmpOp::Eq;   // Cmp: lhs cmp rhs
  Term lhs, rhs;
  SourceLoc loc;
};

enum class Quantifier { Exists, NotExists, Forall };

// Expected verdict, in the vocabulary of EXPECTED.tsv.
enum class Expect { None, Reachable, Unreachable, Always, NotAlways };

// One launch of a test with several grids (YAML `grids:`, docs/format.md): grid `grid` is
// launched in the same stream right after grid `after`, either serialized (it starts when `after`
// and everything before it have completed) or programmatically (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_
// STREAM_SERIALIZATION: it may overlap `after`, and griddepcontrol.wait waits for it).
struct GridLaunch {
  int grid = 0;
  int after = -1;  // -1: the first grid of the stream
  bool programmatic = false;
  SourceLoc loc;
};

// The launch order of a test's grids: by position in the stream, the grid number, whether it is
// launched programmatically, and how many grids before it have completed when it starts
// (`startAfter`: all before it for a serialized launch, those before the last serialized
// launch for a programmatic one). One-grid tests: {0}, {false}, {0}.
struct LaunchOrder {
  std::vector<int> grid;
  std::vector<bool> programmatic;
  std::vector<int> startAfter;
  int position(int gridNumber) const;  // -1 if the grid is not launched
};

struct Test {
  std::string name;
  // The family a generated test belongs to ("MP", "2+2W"): campaigns tune and summarise per
  // family. Empty: the test is its own family (familyOf).
  std::string family;
  std::string description;
  std::string file;  // path it was read from
  std::vector<Location> locations;
  std::vector<Thread> threads;
  Quantifier quantifier = Quantifier::Exists;
  Cond condition;
  SourceLoc conditionLoc;
  // The final values the outcome shows, in order; default: everything the condition names.
  std::vector<Term> observed;
  Expect expect = Expect::None;
  std::string reason;  // one line: why the expected verdict holds (catalogue)
  std::string liveness;  // expected: "terminates", "may-hang", or empty (no expectation)
  // YAML `races: none`: the test declares itself free of data races; a race fails its check.
  bool raceFree = false;
  // How `bar` operands read. PTX: `bar.sync ID{, COUNT}`, COUNT in threads (each litmus thread
  // stands for one warp of 32). Dat3M (herd files, YAML `barriers: dat3m`): `bar.sync ID{,
  // INSTANCE{, COUNT}}`, the barrier named by ID and INSTANCE, COUNT in litmus threads.
  bool dat3mBarriers = false;
  // Grids beyond grid 0 and their launches (empty: one grid); validation checks the chain.
  std::vector<GridLaunch> grids;
  // The readings of model decisions the test's expectation was written for (YAML `readings:
  // {D36: release-orders}`); the checker resolves the names (model/readings.h).
  struct ReadingPin {
    std::string decision, name;
    SourceLoc loc;
  };
  std::vector<ReadingPin> readings;
};

// ---- helpers shared by front ends, printers and the model -----------------------------------

// The launch order of the test's grids (validation has checked that `grids` forms one chain).
LaunchOrder launchOrder(const Test& test);
// test.family, or the test's name when it names none.
const std::string& familyOf(const Test& test);

const char* toString(Sem);
const char* toString(Scope);
const char* toString(Space);
const char* toString(Proxy);
const char* toString(Type);
const char* toString(Expect);
const char* toString(Quantifier);
const char* toString(MbarOp);
std::optional<Expect> parseExpect(const std::string&);

int typeBits(Type);  // 0 for None
bool isSignedType(Type);
bool isFloatType(Type);

// Element addresses: `x` at byte offset K is named "x+K" (just "x" when K is 0).
std::string elementName(const std::string& location, int64_t offset);
// "x+4" -> {"x", 4}; "x" -> {"x", 0}. nullopt unless the text is an identifier, optionally
// followed by '+' and a decimal or 0x number.
std::optional<std::pair<std::string, int64_t>> splitElementName(std::string_view);
// The byte `extra` (>= 0) bytes past `offset` (>= 0); nullopt past the last byte an address can
// name, 2^63 - 1. Offsets come from the file and may be that large: every sum is checked.
std::optional<int64_t> offsetPlus(int64_t offset, int64_t extra);
// The initial value of `loc` at byte offset `offset` (Location::init / initAt).
int64_t initialValue(const Location& loc, int64_t offset);

// Operand layout of memory instructions (see Instr::args).
// Leading destination registers: 1 for ld and other register writers, vec for atom, 0 otherwise.
int destCount(const Instr&);
// Warp collectives (litmus/ptx_instr_warp.cpp): the index of the member mask operand (-1: none,
// activemask and the deprecated vote), and the mnemonic with its qualifiers but the type.
int warpMaskIndex(const Instr&);
std::string warpMnemonic(const Instr&);
// Index in args of the address operand of ld, st, atom and red; -1 for other instructions.
int addressIndex(const Instr&);
// Bytes of one element accessed by a typed ld/st/atom/red (.f16x2 counts 4, .b128 16); 0 when
// untyped. A vector atom/red accesses `vec` such elements at consecutive offsets.
int elementBytes(const Instr&);
// Operand positions of bar/barrier{.cta} (-1: absent). PTX: {id[, count]}; with Dat3M operands
// (Test::dat3mBarriers) .sync and .arrive take {id[, instance[, count]]}; bar.red has its
// destination before them and its predicate after. All -1 for other instructions.
struct BarOperands {
  int id = -1, instance = -1, count = -1;
};
BarOperands barOperands(const Instr&, bool dat3m);

// The location an address operand names: `[x+4]` names x; `[%r+4]` names the location that the
// thread's mapa instructions map into %r (validation makes that one location). Empty if neither.
std::string addressLocation(const Thread&, const Operand&);

// The byte ranges a bulk operation accesses, as (operand index, bytes): cp.async.bulk its
// destination and source (size bytes each), tensormap.cp_fenceproxy likewise. Empty otherwise.
struct BulkRange {
  int operand;
  int64_t bytes;
};
std::vector<BulkRange> bulkRanges(const Instr&);

// Placement derived from the threads (docs/format.md): the CTAs of a cluster are ranked 0, 1, ..
// in increasing CTA number; a thread's lane is its position among the threads of its warp
// (Thread::warp), 0 for a thread that has a warp of its own.
struct Placement {
  std::vector<int> rank;      // per thread: %cluster_ctarank
  std::vector<int> ctas;      // per thread: %cluster_nctarank (CTAs in its cluster)
  std::vector<int> lane;      // per thread: %laneid
  std::vector<int> lanes;     // per thread: threads in its warp
};
Placement placementOf(const Test&);
// The thread index of some thread of `cta`, or -1.
int threadInCta(const Test&, int cta);

// Special registers a thread may read (`%cluster_ctarank`, ...): their values come from the
// placement (docs/format.md). Names without '%'.
bool isSpecialRegister(const std::string& name);
// The grid-position special registers %tid, %ntid, %ctaid, %nctaid (.x/.y/.z), whose values the
// test's placement gives (docs/format.md; litmus/special_registers.cpp), and their values.
bool isPlacementRegister(const std::string& name);
int64_t placementRegister(const Test&, size_t thread, const std::string& name);
// clusterlaunchcontrol.try_cancel.multicast::cluster::all (docs/model.md D50): the location of
// CTA toCta at the position of `loc` among the shared locations fromCta owns (declaration order:
// the layout of a CTA's shared memory); "" if toCta has none there.
std::string multicastCopy(const Test&, const std::string& loc, int fromCta, int toCta);

// Condition helpers.
std::string formatCondition(const Cond&);        // herd syntax, e.g. (P0:r0 == 1 /\ x == 2)
std::vector<Term> conditionTerms(const Cond&);   // registers and locations named, first-use order
std::string formatTerm(const Term&);             // "P0:r0", "x", "3"

// An instruction as outcomes, explanations and graphs show it: its text, and for an extracted
// test the PTX line it came from, "ld.shared.u32 %r7_1, [stage] (kernel.ptx:97)".
std::string shownText(const Instr&);

}  // namespace litmus
