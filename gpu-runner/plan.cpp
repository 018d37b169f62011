#include "gpu-runner/plan.h"

#include <algorithm>
#include <set>

namespace gpu {

using litmus::Error;
using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;
using litmus::Test;

namespace {

// Static shared memory a block may declare without opting in to more.
constexpr int kSharedLimit = 48 * 1024;
constexpr int kMaxClusterSize = 8;  // portable cluster size

int roundUp(int v, int a) { return (v + a - 1) / a * a; }

bool isBarRed(const Instr& in) {
  return in.op == Opcode::Bar && (in.barOp == litmus::BarOp::RedPopc || in.barOp == litmus::BarOp::RedAnd ||
                                  in.barOp == litmus::BarOp::RedOr);
}

bool isCtaBarrier(const Instr& in) {
  return in.op == Opcode::Bar && in.barOp != litmus::BarOp::ClusterArrive &&
         in.barOp != litmus::BarOp::ClusterWait && in.barOp != litmus::BarOp::WarpSync;
}

// The state space operand `a` is accessed in: a bulk copy reads its source in its own space.
litmus::Space operandSpace(const Instr& in, size_t a) {
  return in.op == Opcode::Async && in.asyncOp == litmus::AsyncOp::Copy && a == 1 ? in.srcSpace : in.space;
}

// Operand positions that hold predicates; every other register operand holds a value.
std::vector<size_t> predicatePositions(const Instr& in) {
  if (in.args.empty()) return {};
  switch (in.op) {
    case Opcode::Setp: return {0};
    case Opcode::Elect: return {1};
    case Opcode::Warp: return warpPredicatePositions(in);
    case Opcode::Selp: return {3};
    case Opcode::Mbarrier:
      if (in.mbarOp == litmus::MbarOp::TestWait || in.mbarOp == litmus::MbarOp::TryWait) return {0};
      return {};
    case Opcode::Bar:
      if (in.barOp == litmus::BarOp::RedPopc) return {in.args.size() - 1};
      if (isBarRed(in)) return {0, in.args.size() - 1};
      return {};
    default: return {};
  }
}

// Test GPUs: the distinct `gpu:` numbers, in order, become 0..k-1 (docs/gpu-runner.md, "Several
// GPUs"); a role (test cluster) lies on one GPU (litmus/validate.cpp), so there are at most
// kMaxRoles of them.
void planGpus(const Test& test, Plan& plan) {
  std::set<int> numbers;
  for (const litmus::Thread& t : test.threads) numbers.insert(t.gpu);
  plan.gpus = static_cast<int>(numbers.size());
  plan.roleGpu.clear();
  for (const RolePlan& r : plan.roles) {
    const int gpu = test.threads[static_cast<size_t>(r.ctaThreads.front().front())].gpu;
    plan.roleGpu.push_back(static_cast<int>(std::distance(numbers.begin(), numbers.find(gpu))));
  }
}

// Warps of one CTA: threads the test puts in one warp (`warp:`) share it, at their lanes; every
// other thread has a warp of its own. Returns the CTA's warp count.
int placeWarps(const Test& test, const litmus::Placement& where, const std::vector<int>& threads,
               Plan& plan) {
  std::map<int, int> shared;  // the test's warp number -> warp index
  int warps = 0;
  for (int t : threads) {
    const litmus::Thread& th = test.threads[static_cast<size_t>(t)];
    ThreadPlan& tp = plan.threads[static_cast<size_t>(t)];
    if (isWarpgroupThread(th)) {  // four warps from a multiple of 4 (§9.7.15.2: a warpgroup)
      if (th.warp >= 0)
        throw Error(th.loc, "the GPU runner cannot place a warpgroup (wgmma, setmaxnreg) in a test's `warp:`");
      tp.warpgroup = plan.warpgroups = true;
      tp.warp = (warps + 3) / 4 * 4;
      warps = tp.warp + 4;
      continue;
    }
    if (th.warp < 0) {
      tp.warp = warps++;
      continue;
    }
    auto [it, fresh] = shared.emplace(th.warp, warps);
    if (fresh) ++warps;
    tp.warp = it->second;
    tp.lane = where.lane[static_cast<size_t>(t)];
  }
  return warps;
}

// Dat3M names a barrier by (ID, INSTANCE) and counts litmus threads (docs/model.md D24, D25): each
// pair gets a PTX barrier id of its own, and its count becomes threads (warps of 32).
void planDat3mBarriers(const Test& test, Plan& plan) {
  if (!test.dat3mBarriers) return;
  for (const litmus::Thread& t : test.threads) {
    std::set<std::pair<int64_t, int64_t>> named;
    for (const Instr& in : t.code) {
      if (!isCtaBarrier(in)) continue;
      const litmus::BarOperands bo = litmus::barOperands(in, true);
      for (int i : {bo.id, bo.instance, bo.count})
        if (i >= 0 && in.args[static_cast<size_t>(i)].kind != Operand::Kind::Imm)
          throw Error(in.args[static_cast<size_t>(i)].loc,
                      "the GPU runner cannot run '" + in.text + "': a Dat3M barrier operand in a register");
      const auto key = std::make_pair(in.args[static_cast<size_t>(bo.id)].imm,
                                      bo.instance >= 0 ? in.args[static_cast<size_t>(bo.instance)].imm : 0);
      if (!plan.dat3mIds.count(key)) {
        if (plan.dat3mIds.size() == 16)
          throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': more than 16 Dat3M barriers");
        const int id = static_cast<int>(plan.dat3mIds.size());
        plan.dat3mIds[key] = id;
      }
      if (named.insert(key).second) ++plan.dat3mParticipants[{t.cta, key.first, key.second}];
    }
  }
}

void buildRoles(const Test& test, Plan& plan) {
  std::map<int, std::map<int, std::vector<int>>> clusters;  // cluster -> cta -> threads
  for (size_t i = 0; i < test.threads.size(); ++i)
    clusters[test.threads[i].cluster][test.threads[i].cta].push_back(static_cast<int>(i));
  if (clusters.size() > static_cast<size_t>(kMaxRoles))
    throw Error(test.threads.front().loc, "the test has " + std::to_string(clusters.size()) +
                                              " clusters; the GPU runner handles at most " +
                                              std::to_string(kMaxRoles));
  plan.threads.resize(test.threads.size());
  plan.warpsPerInstance = 0;
  const litmus::Placement where = litmus::placementOf(test);
  for (const auto& [cluster, ctas] : clusters) {
    RolePlan role;
    role.cluster = cluster;
    if (ctas.size() > static_cast<size_t>(kMaxClusterSize))
      throw Error(test.threads[static_cast<size_t>(ctas.begin()->second.front())].loc,
                  "cluster " + std::to_string(cluster) + " has more than " + std::to_string(kMaxClusterSize) +
                      " CTAs");
    for (const auto& [cta, threads] : ctas) {
      if (threads.size() > 32)
        throw Error(test.threads[static_cast<size_t>(threads.front())].loc,
                    "CTA " + std::to_string(cta) + " has more than 32 threads (warps)");
      const int rank = static_cast<int>(role.ctas.size());
      for (int t : threads) {
        ThreadPlan& tp = plan.threads[static_cast<size_t>(t)];
        tp.role = static_cast<int>(plan.roles.size());
        tp.rank = rank;
        tp.cta = cta;
      }
      role.ctas.push_back(cta);
      role.ctaThreads.push_back(threads);
      role.ctaWarps.push_back(placeWarps(test, where, threads, plan));
      plan.warpsPerInstance += role.ctaWarps.back();
    }
    plan.roles.push_back(role);
  }
}

void addRegister(ThreadPlan& tp, int thread, const std::string& name, bool pred,
                 const litmus::SourceLoc& at) {
  auto [it, fresh] = tp.regs.emplace(name, RegPlan{"%t" + std::to_string(thread) + "_" + name, pred});
  if (!fresh && it->second.pred != pred)
    throw Error(at, "register %" + name +
                        " is used both as a predicate and as a value; the GPU "
                        "runner needs one PTX type per register");
}

// Registers holding mapa addresses appear as [%r] operands; they are values like any other.
void collectRegisters(const Test& test, Plan& plan) {
  for (size_t i = 0; i < test.threads.size(); ++i) {
    const litmus::Thread& t = test.threads[i];
    ThreadPlan& tp = plan.threads[i];
    const int ti = static_cast<int>(i);
    for (const Instr& in : t.code) {
      if (!in.guard.empty()) addRegister(tp, ti, in.guard, true, in.loc);
      const std::vector<size_t> preds = predicatePositions(in);
      for (size_t a = 0; a < in.args.size(); ++a) {
        const Operand& o = in.args[a];
        if (o.kind == Operand::Kind::RegAddr) addRegister(tp, ti, o.name, false, o.loc);
        if (o.kind != Operand::Kind::Reg || o.name == "_" || litmus::isSpecialRegister(o.name)) continue;
        addRegister(tp, ti, o.name, std::count(preds.begin(), preds.end(), a) > 0, o.loc);
      }
    }
    // Registers only initialised or observed are values unless the code says otherwise.
    for (const auto& [name, value] : t.initRegs)
      if (!tp.regs.count(name)) addRegister(tp, ti, name, false, t.loc);
  }
}

void addElement(LocPlan& l, int64_t offset, int bytes, bool isSigned) {
  for (Element& e : l.elements)
    if (e.offset == offset) {
      e.bytes = std::max(e.bytes, bytes);
      e.isSigned = e.isSigned || isSigned;
      return;
    }
  l.elements.push_back({offset, bytes, isSigned, 0});
}

// A bulk copy moves 4-byte words (D30), each an element, so that every word of the range gets its
// initial value; the hardware wants both addresses 16-byte aligned (cp.async.bulk).
void addBulkRange(const Instr& in, size_t a, int64_t offset, LocPlan& l) {
  for (const litmus::BulkRange& r : litmus::bulkRanges(in)) {
    if (r.operand != static_cast<int>(a)) continue;
    l.align = 16;
    for (int64_t k = 0; k < r.bytes; k += 4) addElement(l, offset + k, 4, false);
  }
}

// Elements come from memory accesses (through [x] or a mapa register [%r]), bulk copies and
// mbarriers (of mbarrier instructions and of asynchronous operations); mapa and getctarank only
// name a location, which makes the thread one of its accessors (it may reach the location through
// the address it computes).
void collectAccesses(const Test& test, Plan& plan, const std::map<std::string, int>& byName) {
  for (size_t i = 0; i < test.threads.size(); ++i)
    for (const Instr& in : test.threads[i].code) {
      const int ai = litmus::addressIndex(in);
      for (size_t a = 0; a < in.args.size(); ++a) {
        const Operand& o = in.args[a];
        auto it = byName.find(litmus::addressLocation(test.threads[i], o));
        if (it == byName.end()) continue;
        const int named = plan.locs[static_cast<size_t>(it->second)].aliasOf;  // an alias's elements
        LocPlan& l = plan.locs[static_cast<size_t>(named >= 0 ? named : it->second)];  // are its target's
        const bool memOp = static_cast<int>(a) == ai;
        const bool mbar = in.op == Opcode::Mbarrier || asyncMbarrier(in) == static_cast<int>(a);
        const int bytes = memOp && litmus::elementBytes(in) ? litmus::elementBytes(in) : 8;
        // The hardware wants a vector access aligned to its whole width, not to one element.
        if (memOp) l.align = std::max(l.align, std::min(bytes * in.vec, 16));
        if (memOp || mbar)
          for (int k = 0; k < (memOp ? in.vec : 1); ++k)
            addElement(l, o.imm + int64_t{k} * bytes, bytes, litmus::isSignedType(in.type));
        if (mbar) l.mbarrier = true;
        addBulkRange(in, a, o.imm, l);
        if (std::find(l.accessors.begin(), l.accessors.end(), static_cast<int>(i)) == l.accessors.end())
          l.accessors.push_back(static_cast<int>(i));
        auto& mine = plan.threads[i].locs;
        if (std::find(mine.begin(), mine.end(), it->second) == mine.end()) mine.push_back(it->second);
      }
    }
}

// An untyped access inside a copied range would cover two of its words, which the validator (it
// checks typed accesses) lets through and the model does not relate.
void checkBulkWords(const Test& test, const Plan& plan, const std::map<std::string, int>& byName) {
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code)
      for (const litmus::BulkRange& r : litmus::bulkRanges(in)) {
        const Operand& o = in.args[static_cast<size_t>(r.operand)];
        auto it = byName.find(litmus::addressLocation(t, o));
        if (it == byName.end()) continue;
        const LocPlan& l = plan.locs[static_cast<size_t>(it->second)];
        for (const Element& e : l.elements)
          if (e.offset < o.imm + r.bytes && e.offset + e.bytes > o.imm && e.bytes != 4)
            throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': it copies 4-byte words of '" +
                                    l.name + "', and another access covers " + std::to_string(e.bytes) +
                                    " bytes of it at once");
      }
}

void collectLocations(const Test& test, Plan& plan) {
  std::map<std::string, int> byName;
  int globals = 0, shareds = 0;
  for (const litmus::Location& loc : test.locations) {
    LocPlan l;
    l.name = loc.name;
    l.shared = loc.space != litmus::Space::Global;
    l.index = !loc.aliasOf.empty() ? -1 : l.shared ? shareds++ : globals++;
    l.ownerCta = loc.ownerCta;
    l.placed = loc.ownerCta >= 0;
    byName[loc.name] = static_cast<int>(plan.locs.size());
    plan.locs.push_back(l);
  }
  planAliases(test, plan, byName);
  collectAccesses(test, plan, byName);
  checkBulkWords(test, plan, byName);
  for (size_t v = 0; v < plan.locs.size(); ++v) {
    LocPlan& l = plan.locs[v];
    int end = 4;
    for (Element& e : l.elements) {
      e.init = litmus::initialValue(test.locations[v], e.offset);
      l.align = std::max(l.align, std::min(e.bytes, 16));
      end = std::max<int>(end, static_cast<int>(e.offset) + e.bytes);
    }
    l.span = roundUp(end, l.align);
    // the constant bank holds one 32-bit word of each instance's copy (ptx_kernel.cpp)
    if (l.bankWord >= 0 && (l.elements.size() != 1 || l.elements[0].offset != 0 || l.elements[0].bytes != 4))
      throw Error(test.locations[v].loc, "location '" + l.name + "' has a constant alias: the GPU runner keeps it "
                                         "in the constant bank as one 32-bit word, which the test must access whole");
  }
  plan.shape.globalLocations = globals;
}

const litmus::Thread& threadOf(const Test& test, int i) { return test.threads[static_cast<size_t>(i)]; }

// A shared location lives in one CTA's shared memory: the one the test names (`cta:`), else the
// CTA of its `.shared::cta` accessors, else the lowest CTA that names it. Other CTAs of the
// cluster reach it through DSMEM (mapa), which only .shared::cluster and generic accesses can use.
void placeOwner(const Test& test, const Plan& plan, LocPlan& l) {
  if (l.accessors.empty()) {
    l.ownerCta = l.ownerCta >= 0 ? l.ownerCta : test.threads.front().cta;
    return;
  }
  const litmus::Thread& first = threadOf(test, l.accessors.front());
  for (int a : l.accessors) {
    const litmus::Thread& t = threadOf(test, a);
    if (t.cluster != first.cluster)
      throw Error(t.loc, "shared location '" + l.name + "' is named by " + first.name + " and " + t.name +
                             ", which run in different clusters; shared memory reaches one cluster");
    for (const Instr& in : t.code)
      for (size_t a = 0; a < in.args.size(); ++a)
        if (const Operand& o = in.args[a]; o.kind == Operand::Kind::Addr && o.name == l.name &&
                                           (operandSpace(in, a) == litmus::Space::Shared ||
                                            operandSpace(in, a) == litmus::Space::SharedCta)) {
          if (l.ownerCta >= 0 && l.ownerCta != t.cta)
            throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': .shared::cta reaches only " +
                                    t.name + "'s own CTA, but '" + l.name + "' is held by CTA " +
                                    std::to_string(l.ownerCta) + " (use .shared::cluster)");
          l.ownerCta = t.cta;
        }
  }
  if (l.ownerCta < 0) {
    l.ownerCta = first.cta;
    for (int a : l.accessors) l.ownerCta = std::min(l.ownerCta, threadOf(test, a).cta);
  }
  (void)plan;
}

void placeShared(const Test& test, Plan& plan) {
  for (LocPlan& l : plan.locs) {
    if (!l.shared) continue;
    placeOwner(test, plan, l);
    bool found = false;
    for (const RolePlan& r : plan.roles)
      for (size_t k = 0; k < r.ctas.size(); ++k)
        if (r.ctas[k] == l.ownerCta) {
          l.ownerRank = static_cast<int>(k);
          found = true;
        }
    if (!found)
      throw Error(test.locations[static_cast<size_t>(&l - plan.locs.data())].loc,
                  "shared location '" + l.name + "' is held by CTA " + std::to_string(l.ownerCta) +
                      ", which runs no thread");
  }
}

// The end of the test for shared memory, per owner CTA (see Join in plan.h).
void planJoins(const Test& test, Plan& plan, const std::map<int, std::set<int>>& joiners) {
  std::map<int, std::set<int>> accessorsByOwner;
  for (const LocPlan& l : plan.locs)
    if (l.shared) {
      auto& set = accessorsByOwner[l.ownerCta];  // observed-only locations still need a copier
      set.insert(l.accessors.begin(), l.accessors.end());
      if (auto it = joiners.find(l.ownerCta); it != joiners.end())
        set.insert(it->second.begin(), it->second.end());
    }
  for (const auto& [owner, accessors] : accessorsByOwner) {
    int first = -1, rank = 0;
    for (const RolePlan& r : plan.roles)
      for (size_t k = 0; k < r.ctas.size(); ++k)
        if (r.ctas[k] == owner) {
          first = r.ctaThreads[k].front();
          rank = static_cast<int>(k);
        }
    std::set<int> all = accessors;
    all.insert(first);
    bool remote = false;
    for (int a : all) remote = remote || test.threads[static_cast<size_t>(a)].cta != owner;
    for (int a : all) {
      Join j{owner, rank, Join::Kind::Last, static_cast<int>(all.size()), a == first};
      if (remote) {
        j.kind = a == first ? Join::Kind::Wait : Join::Kind::Arrive;
        j.expected = static_cast<int>(all.size()) - 1;
      }
      plan.threads[static_cast<size_t>(a)].joins.push_back(j);
    }
  }
}

bool isPredicateOf(const ThreadPlan& t, const std::string& name) {
  auto it = t.regs.find(name);
  return it != t.regs.end() && it->second.pred;
}

// Registers whose values the hardware encodes differently from the model: mbarrier states and
// mapa addresses. They can be used, not observed.
std::map<std::string, std::string> encodedRegisters(const litmus::Thread& t) {
  std::map<std::string, std::string> out;
  for (const Instr& in : t.code) {
    if (in.args.empty() || in.args[0].kind != Operand::Kind::Reg) continue;
    if (in.op == Opcode::Mbarrier &&
        (in.mbarOp == litmus::MbarOp::Arrive || in.mbarOp == litmus::MbarOp::ArriveDrop))
      out[in.args[0].name] = "an mbarrier state";
    if (in.op == Opcode::Mapa) out[in.args[0].name] = "a mapa address";
    if (in.op == Opcode::Cvta) out[in.args[0].name] = "the address of a location";
    if (in.op == Opcode::CreatePolicy) out[in.args[0].name] = "a cache policy";
  }
  return out;
}

void mapObserved(const Test& test, Plan& plan) {
  for (const litmus::Term& term : test.observed) {
    ObsPlan o;
    if (term.kind == litmus::Term::Kind::Reg) {
      size_t ti = 0;
      while (ti < test.threads.size() && test.threads[ti].name != term.thread) ++ti;
      if (ti == test.threads.size()) throw Error(term.loc, "unknown thread '" + term.thread + "'");
      const auto encoded = encodedRegisters(test.threads[ti]);
      if (auto it = encoded.find(term.name); it != encoded.end())
        throw Error(term.loc, "the GPU runner cannot observe " + litmus::formatTerm(term) + ": " +
                                  it->second + " is encoded differently by the hardware and the model");
      o.kind = ObsPlan::Kind::Reg;
      o.thread = static_cast<int>(ti);
      o.reg = term.name;
      o.slot = plan.regResults++;
      plan.threads[ti].regs.emplace(term.name, RegPlan{"%t" + std::to_string(ti) + "_" + term.name, false});
    } else if (term.kind == litmus::Term::Kind::Mem) {
      const auto split = litmus::splitElementName(term.name);
      const std::string name = split ? split->first : term.name;
      const int64_t offset = split ? split->second : 0;
      for (size_t v = 0; v < plan.locs.size(); ++v)
        if (plan.locs[v].name == name) o.loc = static_cast<int>(v);
      if (o.loc < 0) throw Error(term.loc, "unknown location '" + name + "'");
      if (plan.locs[static_cast<size_t>(o.loc)].aliasOf >= 0) o.loc = plan.locs[static_cast<size_t>(o.loc)].aliasOf;
      LocPlan& l = plan.locs[static_cast<size_t>(o.loc)];
      if (l.mbarrier)
        throw Error(term.loc,
                    "the GPU runner cannot observe " + name +
                        ": an mbarrier object is encoded differently by the hardware and the model");
      for (size_t e = 0; e < l.elements.size(); ++e)
        if (l.elements[e].offset == offset && l.elements[e].bytes > 0) o.elem = static_cast<int>(e);
      if (o.elem < 0) {
        o.kind = ObsPlan::Kind::Constant;
        o.value = litmus::initialValue(test.locations[static_cast<size_t>(o.loc)], offset);
      } else if (l.shared) {
        o.kind = ObsPlan::Kind::Shared;
        o.slot = plan.sharedResults++;
      } else {
        o.kind = ObsPlan::Kind::Global;
      }
    } else {
      o.value = term.value;
    }
    plan.observed.push_back(o);
  }
  // Every thread leaves a tagged slot at its end, so that a thread that never ran is noticed.
  for (size_t t = 0; t < plan.threads.size(); ++t)
    if (std::none_of(plan.observed.begin(), plan.observed.end(), [&](const ObsPlan& o) {
          return o.kind == ObsPlan::Kind::Reg && o.thread == static_cast<int>(t);
        }))
      plan.threads[t].doneSlot = plan.regResults++;
}

// Special registers: the cluster ones need a launch with an explicit cluster (the model has
// %is_explicit_cluster = 1), and a cluster's size is the launch's, so a smaller cluster of the test
// cannot read it. %laneid is the litmus thread's lane, 0: one instance per warp.
void checkSpecialRegisters(const Test& test, Plan& plan, bool& laneid) {
  for (size_t i = 0; i < test.threads.size(); ++i)
    for (const Instr& in : test.threads[i].code)
      for (const Operand& o : in.args) {
        if (o.kind != Operand::Kind::Reg || !litmus::isSpecialRegister(o.name)) continue;
        if (litmus::isPlacementRegister(o.name)) continue;  // %tid, %ctaid: the placement's values
        if (o.name == "laneid") {
          laneid = true;
          continue;
        }
        plan.shape.clusterLaunch = true;
        const RolePlan& role = plan.roles[static_cast<size_t>(plan.threads[i].role)];
        const bool size = o.name == "cluster_nctarank" || o.name == "cluster_nctaid.x";
        if (size && static_cast<int>(role.ctas.size()) < plan.shape.clusterSize)
          throw Error(o.loc, "the GPU runner cannot run '" + in.text + "': its cluster has " +
                                 std::to_string(role.ctas.size()) + " CTAs, but the launch's clusters have " +
                                 std::to_string(plan.shape.clusterSize));
      }
}

// Lane mode unless barriers and divergence meet: a warp-wide barrier needs every lane of the warp
// at the same instruction, which 32 instances taking different branches cannot promise, and
// bar.red reduces over lanes, which would mix instances.
void chooseMode(const Test& test, Plan& plan) {
  bool barrier = false, branch = false, warpOnly = false, ctaBarrier = false;
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code) {
      if (in.op == Opcode::Bra) branch = true;
      // tensormap.cp_fenceproxy.sync.aligned acts once per warp on the H100 (ptx_body_tensor.cpp)
      warpOnly = warpOnly || (in.op == Opcode::Async && in.asyncOp == litmus::AsyncOp::TensormapCp);
      if (in.op != Opcode::Bar) continue;
      barrier = true;
      ctaBarrier = ctaBarrier || isCtaBarrier(in);
      warpOnly = warpOnly || isBarRed(in) || !in.guard.empty();
      for (const Operand& o : in.args)
        if (o.kind == Operand::Kind::Reg && !isBarRed(in)) warpOnly = true;
    }
  bool laneid = false;
  checkSpecialRegisters(test, plan, laneid);
  plan.mode = warpOnly || laneid || plan.warpgroups || (barrier && branch) ? Mode::Warp : Mode::Lane;
  if (std::any_of(plan.threads.begin(), plan.threads.end(), [](const ThreadPlan& t) { return t.lane > 0; })) {
    // Lanes of one warp run different litmus threads, so a CTA barrier (.aligned) would see the
    // warp's lanes at different instructions.
    if (ctaBarrier)
      throw Error(test.threads.front().loc, "the GPU runner cannot run CTA barriers in a test whose threads "
                                            "share a warp (bar.sync needs the whole warp at one instruction)");
    plan.mode = Mode::Fixed;
  }
  // A CTA barrier (with or without a count) must see exactly one instance group's warps.
  // A warpgroup must start at a multiple of 4 warps of its block: one group per block keeps it there.
  plan.shape.maxGroupsPerBlock = ctaBarrier || plan.warpgroups ? 1 : 32 / plan.shape.warpsPerBlock;
}

void sizeShape(const Test& test, Plan& plan) {
  Shape& s = plan.shape;
  s.roles = static_cast<int>(plan.roles.size());
  for (const RolePlan& r : plan.roles) {
    s.clusterSize = std::max(s.clusterSize, static_cast<int>(r.ctas.size()));
    for (int warps : r.ctaWarps) s.warpsPerBlock = std::max(s.warpsPerBlock, warps);
  }
  chooseMode(test, plan);
  s.clusterLaunch = s.clusterLaunch || s.clusterSize > 1;
  s.laneMode = plan.mode == Mode::Lane;
  int perSlot = 4;  // join counter
  for (LocPlan& l : plan.locs)
    if (l.shared)
      perSlot += roundUp(l.span, 16) + (l.align > 16 ? l.align : 0);  // and its alignment
    else {
      s.slotBytes = std::max(s.slotBytes, l.span);
      s.slotAlign = std::max(s.slotAlign, l.align);
    }
  const int lanes = s.laneMode ? 32 : 1;
  while (s.maxGroupsPerBlock > 1 && s.maxGroupsPerBlock * lanes * perSlot > kSharedLimit)
    --s.maxGroupsPerBlock;
  if (s.maxGroupsPerBlock * lanes * perSlot > kSharedLimit)
    throw Error(test.locations.front().loc, "the shared locations need more than 48 KB per block");
  plan.slotsPerBlock = s.maxGroupsPerBlock * lanes;
  int offset = 0;
  for (LocPlan& l : plan.locs)
    if (l.shared && l.copyOf >= 0) {  // another CTA's copy of a variable: the same offset
      l.sharedOffset = plan.locs[static_cast<size_t>(l.copyOf)].sharedOffset;
    } else if (l.shared) {
      offset = roundUp(offset, std::max(16, l.align));  // tensor copies want 128 bytes
      l.sharedOffset = offset;
      offset += roundUp(l.span, 16) * plan.slotsPerBlock;
    }
  plan.joinOffset = offset;
  plan.sharedBytes = offset + 4 * plan.slotsPerBlock;
}



}  // namespace

bool isPredicate(const ThreadPlan& t, const std::string& name) { return isPredicateOf(t, name); }

int asyncMbarrier(const Instr& in) {
  if (in.op != Opcode::Async) return -1;
  if (in.asyncOp == litmus::AsyncOp::Copy) return in.bulkGroup ? -1 : 3;
  if (in.asyncOp == litmus::AsyncOp::TensorLoad) return 2 + in.tensorDims;
  return in.asyncOp == litmus::AsyncOp::Store || in.asyncOp == litmus::AsyncOp::Reduce ? 2 : -1;
}

Plan makePlan(const Test& test) {
  if (test.threads.empty()) throw Error({test.file, 0, 0}, "the test has no threads");
  Plan plan;
  refuseNewerArchitecture(test);
  refuseUndefined(test);
  refuseModelOnly(test);
  buildRoles(test, plan);
  planGpus(test, plan);
  planGrids(test, plan);
  planDat3mBarriers(test, plan);
  collectRegisters(test, plan);
  collectLocations(test, plan);
  planTensors(test, plan);
  planWgmma(test, plan);
  planRegisterCount(test, plan);
  placeShared(test, plan);
  planJoins(test, plan, planDrains(test, plan));
  mapObserved(test, plan);
  sizeShape(test, plan);
  plan.shape.serial = serialCapable(test, plan);
  plan.ptxVersion = minimumVersion(test);
  plan.target = minimumTarget(test);
  return plan;
}

}  // namespace gpu
