// How a test maps onto the GPU: roles (test clusters) onto hardware clusters, CTAs onto blocks,
// litmus threads onto warps, locations onto per-instance slots, and observed values onto result
// words. Both the PTX generator and the host harness read the plan, so they cannot disagree.
// Structural limits of the runner (placement, aliases, shared-memory reach) are refused here;
// instructions are refused by the generator (ptx_gen.h), one place per opcode.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpu-runner/params.h"
#include "litmus/test.h"

namespace gpu {

// Lane: the 32 lanes of a warp run 32 instances of one litmus thread. Warp: the warp runs one
// instance; lane 0 performs its memory operations and the other lanes follow its control flow so
// that barriers see whole warps (docs/gpu-runner.md, "Lanes and warps").
// Fixed: the test puts several threads at lanes of one warp (`warp:`, for bar.warp.sync and
// elect.sync): the warp runs one instance, and each lane the litmus thread the test puts there.
enum class Mode { Lane, Warp, Fixed };

// One element [x+K] of a location that the test accesses or observes.
struct Element {
  int64_t offset = 0;
  int bytes = 0;          // 0: observed but never accessed; its final value is its initial one
  bool isSigned = false;  // a final value read back is sign-extended (some access is .sN)
  int64_t init = 0;
};

struct LocPlan {
  std::string name;
  bool shared = false;
  int index = 0;            // global: the location's region; shared: its index among shared ones
  int ownerCta = -1;        // shared: the test CTA whose shared memory holds it
  bool placed = false;      // shared: the test says which CTA holds it (`cta:`)
  int ownerRank = 0;        // shared: that CTA's rank in its cluster
  int span = 4, align = 4;  // bytes of one instance's slot, and its alignment (16 for bulk copies)
  int sharedOffset = 0;     // shared: byte offset of its slots in a block's shared memory
  bool mbarrier = false;    // an mbarrier instruction or an asynchronous operation's completion
                            // names it: its value is the hardware's
  bool wgmmaTile = false;   // a wgmma.mma_async tile: the harness fills the words the test does
                            // not use (ptx_body_wgmma.cpp)
  int aliasOf = -1;  // a generic alias: the location whose memory it is (the elements are there)
  // With aliasOf: a texture alias, read with tex.1d through a texture object over the location
  // buffer (the kernel's p_tex) at the element of aliasOf's address; no second mapping.
  bool texture = false;
  // With aliasOf: a surface alias, read and written with suld/sust through a surface object over
  // a CUDA array that shadows the location buffer element for element (the kernel's p_surf).
  bool surface = false;
  // A location the test names only through surface and texture aliases: its memory is the
  // array's element (docs/gpu-runner.md, "Surfaces"); its word in the location buffer is unused.
  bool inArray = false;
  // With aliasOf: a constant alias, read with ld.const from the module's constant bank (lt_cbank).
  bool constant = false;
  // A location with a constant alias lives in the constant bank: instance n's copy is word
  // n * Plan::bankWords + bankWord (the kernel's p_cbank is the bank's global address); -1: not.
  int bankWord = -1;
  // A tensor map (`tensormap:`): the harness encodes it (cuTensorMapEncodeTiled) as the
  // map template `tensorMap` of the module, and the tally copies it into every instance's slot,
  // pointed at the instance's slot of location `tensor` (ptx_body_tensor.cpp). -1: no map.
  int tensorMap = -1, tensor = -1;
  int copyOf = -1;  // shared, `copy-of`: the location at whose CTA-relative offset it lives
  std::vector<Element> elements;
  std::vector<int> accessors;  // threads that name it
};

struct RegPlan {
  std::string ptx;  // PTX register name
  bool pred = false;
};

// A CTA that holds shared locations, seen from one thread of its cluster at the end of the test.
// When only the owner's own threads name its locations, the last of them to arrive copies the
// final values out (Last), and nobody waits. When other CTAs reach them through DSMEM, they
// Arrive, and the owner's first thread Waits for them: the block must outlive remote accesses.
struct Join {
  enum class Kind { Last, Arrive, Wait };
  int ownerCta = 0, ownerRank = 0;
  Kind kind = Kind::Last;
  int expected = 0;   // Last: arrivals in all; Wait: arrivals of the others
  bool init = false;  // this thread writes the owner's initial values (its first thread)
};

// The final state is the one after every asynchronous operation has completed (docs/model.md D30),
// and a CTA must outlive the operations that write its shared memory. The hardware tells only
// through the operation's mbarrier, so the thread that initialises it waits at the end of its code
// for phase 0, which completes once every operation on it has landed:
//   Phase:  the test itself arrives `count` times and expects exactly the bytes the operations
//           complete, so phase 0 completes when, and only when, they have all landed;
//   Arrive: nothing else arrives on it, expects bytes or waits on it, so the runner arrives
//           `count` times expecting `bytes`, which it may do without changing what the test sees;
//           or only the initialising thread arrives and expects bytes, a whole number of phases:
//           after its code the runner waits for the test's last phase (`first`, unless the thread
//           just did) and adds phase `phase` of `count` arrivals expecting the bytes the test did
//           not expect, which completes when they have landed (a multicast whose destination
//           arrives without expect_tx, a last fill without expect_tx: the bytes land late);
//           when the test expects every byte, it waits for the test's last phase only.
struct Drain {
  enum class Kind { Phase, Arrive };
  Kind kind = Kind::Phase;
  int loc = 0;
  int64_t offset = 0;
  int64_t bytes = 0, count = 1;  // Arrive: bytes the runner expects with its arrivals; the init count
  int64_t phase = 0;             // the phase whose completion the runner waits for
  int64_t first = -1;            // Arrive: the test's last phase, waited for first (-1: no need)
};

struct ThreadPlan {
  int role = 0, rank = 0, warp = 0;  // test cluster, CTA rank in the cluster, warp in the CTA
  int lane = 0;                      // its lane in the warp (Fixed mode; else 0)
  // A warpgroup (wgmma): four warps from `warp`, a multiple of 4, execute the thread's code; the
  // first lane of the first one performs its memory operations (docs/gpu-runner.md, "Warpgroups").
  bool warpgroup = false;
  int cta = 0;
  std::map<std::string, RegPlan> regs;
  std::vector<int> locs;      // locations it names
  std::vector<Join> joins;    // owner CTAs it arrives at (or copies out of)
  std::vector<Drain> drains;  // mbarriers it waits on at its end
  bool bulkDrain = false;     // it issues .bulk_group copies: at its end it waits for them all
  // A register-result slot that only says the thread reached its end, for a thread none of whose
  // registers is observed (-1: it has observed registers, whose slots say so already).
  int doneSlot = -1;
};

struct RolePlan {
  int cluster = 0;
  std::vector<int> ctas;                     // per rank: the test CTA number
  std::vector<std::vector<int>> ctaThreads;  // per rank: its threads, in warp order
  std::vector<int> ctaWarps;                 // per rank: warps per instance group
};

struct ObsPlan {
  enum class Kind { Reg, Global, Shared, Constant };
  Kind kind = Kind::Constant;
  int thread = -1;
  std::string reg;
  int loc = -1, elem = -1;
  int slot = 0;       // Reg: index among register results; Shared: among shared results
  int64_t value = 0;  // Constant
};

struct Plan {
  Mode mode = Mode::Lane;
  Shape shape;  // maxTestClusters is the harness's to fill
  std::vector<RolePlan> roles;
  std::vector<ThreadPlan> threads;
  std::vector<LocPlan> locs;
  bool hasTexture() const {  // a texture alias of a buffer location: the kernel takes p_tex
    return std::any_of(locs.begin(), locs.end(), [&](const LocPlan& l) { return l.texture && !aliased(l).inArray; });
  }
  bool hasSurface() const {  // a surface alias: the kernel takes p_surf, the tally p_surf and p_nsurf
    return std::any_of(locs.begin(), locs.end(), [](const LocPlan& l) { return l.surface; });
  }
  bool hasArrayTexture() const {  // a texture alias of a location in the array: the kernel takes p_atex
    return std::any_of(locs.begin(), locs.end(), [&](const LocPlan& l) { return l.texture && aliased(l).inArray; });
  }
  int bankWords = 0;  // locations in the constant bank: words per instance (ptx_gen.h kBankWords)
  const LocPlan& aliased(const LocPlan& l) const {  // an alias's target, else l
    return l.aliasOf >= 0 ? locs[static_cast<size_t>(l.aliasOf)] : l;
  }
  std::vector<ObsPlan> observed;
  // Result slots per instance (kResultSlotBytes each, ptx_gen.h): observed registers and done
  // slots in the register results, observed shared elements in the shared results.
  int regResults = 0, sharedResults = 0;
  int warpsPerInstance = 1;  // warps of one instance (the spin barrier waits for them)
  int slotsPerBlock = 1;  // shared slots per block (instances per block)
  int sharedBytes = 0;    // static shared memory per block
  int joinOffset = 0;     // byte offset of the join counters (a u32 per slot)
  std::string ptxVersion = "7.8";
  // The .target of the generated PTX: "sm_90", or "sm_90a" where an instruction needs the
  // architecture-specific features of Hopper (wgmma, setmaxnreg, ...). See minimumTarget.
  std::string target = "sm_90";
  // Dat3M barrier operands (Test::dat3mBarriers): barrier (ID, INSTANCE) -> a PTX barrier id, and
  // per (CTA, ID, INSTANCE) the threads whose code names it (the participants of a count-less one).
  std::map<std::pair<int64_t, int64_t>, int> dat3mIds;
  std::map<std::tuple<int, int64_t, int64_t>, int> dat3mParticipants;
  // Tests with several grids (docs/gpu-runner.md, "Grids"): per launch position, whether it is
  // launched programmatically; per role, the position of its grid. One grid: {false}, all 0.
  std::vector<bool> gridProgrammatic{false};
  std::vector<int> roleGrid;
  // Tests across GPUs (docs/gpu-runner.md, "Several GPUs"): the GPUs the test needs, and per role
  // its test GPU (0..gpus-1: the test's `gpu:` numbers in order). One GPU: 1, all 0.
  int gpus = 1;
  std::vector<int> roleGpu;
  bool warpgroups = false;  // some thread is a warpgroup: warp mode, one instance group per block
  // The test kernel's `.maxnreg` (0: none): with setmaxnreg, the register count at entry
  // (planRegisterCount, plan_rules.cpp), without which ptxas ignores setmaxnreg.
  int maxnreg = 0;
  // --trace-waits (gpu-runner/wait_trace.h): the kernel takes p_trace and records its threads'
  // waits there; set by the runner, not by makePlan. Tests across GPUs are not traced.
  bool traceWaits = false;
  bool tracing() const { return traceWaits && gpus == 1; }
};

// Throws litmus::Error at the offending thread, location or term when the test cannot run.
Plan makePlan(const litmus::Test& test);

// plan_rules.cpp: the PTX version a test's instructions need ("8.0"), the target they need
// ("sm_90" or "sm_90a"), the refusal of instructions that need a newer architecture than the
// runner's (sm_100 forms: the runner generates sm_90 code and runs on Hopper), and the refusal of
// programs whose hardware behaviour the ISA leaves undefined.
std::string minimumVersion(const litmus::Test& test);
std::string minimumTarget(const litmus::Test& test);
void refuseNewerArchitecture(const litmus::Test& test);
void refuseUndefined(const litmus::Test& test);
// Herd's fences of Dat3M's model with no PTX instruction (fence.proxy.texture, .surface,
// .constant): why, or "" for any other instruction; refuseModelOnly throws it for the first.
std::string noPtxForm(const litmus::Instr& in);
void refuseModelOnly(const litmus::Test& test);
// Aliases (plan_rules.cpp): a generic alias is its target's memory at the buffer's second
// mapping; texture and surface aliases read images (ptx_body_image.cpp); the constant proxy is
// refused when the test writes the location.
void planAliases(const litmus::Test& test, Plan& plan, const std::map<std::string, int>& byName);
// setmaxnreg (§9.7.19.6): the register count every warp starts with, so that each instance's
// `.dec`s release what its `.inc`s take; refused when no count does.
void planRegisterCount(const litmus::Test& test, Plan& plan);
// A thread that executes wgmma or setmaxnreg runs as a warpgroup of four warps (ThreadPlan).
bool isWarpgroupThread(const litmus::Thread& t);
// ptx_body_wgmma.cpp: the tiles of wgmma.mma_async (LocPlan::wgmmaTile, their padded spans),
// after collectLocations; refuses what the runner cannot extract the read words from.
void planWgmma(const litmus::Test& test, Plan& plan);
// The operand positions of a warp collective that hold predicates (ptx_body_warp.cpp).
std::vector<size_t> warpPredicatePositions(const litmus::Instr& in);

// Can the test run in serial roles (Shape::serial, kFlagSerial)? Lane mode, one GPU, one grid, no
// clusters, global locations only, and instructions that do not care which lane runs them.
bool serialCapable(const litmus::Test& test, const Plan& plan);

// Is `name` a predicate register of thread `t`? (setp and wait destinations, guards, ...)
bool isPredicate(const ThreadPlan& t, const std::string& name);

// The operand of an asynchronous operation that names the mbarrier it completes on; -1: none
// (.bulk_group copies complete through wait_group).
int asyncMbarrier(const litmus::Instr& in);

// ptx_body_tensor.cpp: tensor maps, tensors, tensor-copy buffers and multicast copies in the
// plan (spans, alignment, elements), after collectLocations; the bytes a tensor copy completes.
void planTensors(const litmus::Test& test, Plan& plan);
int64_t tensorCopyBytes(const litmus::Test& test, const litmus::Instr& in);

// Gives the threads their drains (Drain) and refuses an asynchronous operation the runner cannot
// wait for where it must (ptx_body_async.cpp). Returns, per CTA, the threads that must join it
// besides the threads that name its shared locations (Join).
std::map<int, std::set<int>> planDrains(const litmus::Test& test, Plan& plan);

// plan_grid.cpp: the launch order of the grids and the grid of each role.
void planGrids(const litmus::Test& test, Plan& plan);

}  // namespace gpu
