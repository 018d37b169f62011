// The instructions of one thread that are not branches: computing, parameter and local memory,
// the thread's identity (special registers, elect.sync, shfl.sync, mapa), and the dispatch of
// what the test keeps to emit.cpp.
#include <set>

#include "extract/alu.h"
#include "extract/thread_impl.h"

namespace extract::detail {

namespace {

using K = Value::Kind;

// Instructions with no effect on the synchronization the test checks; each is named once in the
// notes of the thread.
const std::set<std::string> kIgnored = {"wgmma", "setmaxnreg", "nanosleep", "prefetch", "prefetchu", "pmevent",
                                        "discard", "applypriority", "ldmatrix", "stmatrix", "movmatrix", "mma",
                                        "trap", "brkpt", "bar.warp.sync", "tcgen05", "cp.async.bulk.prefetch"};
// Instructions the test keeps as they are (with operands resolved).
const std::set<std::string> kKept = {"mbarrier", "bar", "barrier", "fence", "membar", "cp", "st.async",
                                     "red.async", "griddepcontrol", "tensormap"};

bool startsWith(const Op& op, const std::string& prefix) {
  return op.mnemonic == prefix || op.mnemonic.rfind(prefix + ".", 0) == 0;
}

bool inSet(const Op& op, const std::set<std::string>& s) {
  for (const std::string& p : s)
    if (startsWith(op, p)) return true;
  return false;
}

void flatArgs(const Arg& a, std::vector<const Arg*>& out) {
  if (a.kind == Arg::Kind::Vec || a.kind == Arg::Kind::Pair) {
    for (const Arg& e : a.elems) flatArgs(e, out);
  } else {
    out.push_back(&a);
  }
}

}  // namespace

Evaluator::Guard Evaluator::guardOf(const Op& op, const State& st) const {
  if (op.guard.empty()) return Guard::Run;
  const Value& v = st.regs[k.reg(op.guard)];
  if (v.kind == K::Int) return (v.i != 0) != op.guardNegated ? Guard::Run : Guard::Skip;
  return Guard::Dynamic;
}

Value Evaluator::special(const std::string& n) const {
  const auto& l = ctx.launch;
  auto dim = [&](const char* base, const std::array<int, 3>& v) -> std::optional<int64_t> {
    for (int d = 0; d < 3; ++d)
      if (n == std::string(base) + "xyz"[d]) return v[d];
    return std::nullopt;
  };
  std::array<int, 3> clusters;
  for (int d = 0; d < 3; ++d) clusters[d] = l.grid[d] / l.cluster[d];
  for (auto [base, v] : {std::pair{"%tid.", id.tid}, {"%ntid.", l.block}, {"%ctaid.", id.ctaid},
                         {"%nctaid.", l.grid}, {"%cluster_ctaid.", id.clusterCtaid},
                         {"%cluster_nctaid.", l.cluster}, {"%clusterid.", id.clusterid},
                         {"%nclusterid.", clusters}})
    if (auto x = dim(base, v)) return Value::num(*x);
  if (n == "%laneid") return Value::num(id.lane());
  if (n == "%warpid") return Value::num(id.warp());
  if (n == "%nwarpid") return Value::num((l.threadsPerCta() + 31) / 32);
  if (n == "%cluster_ctarank") return Value::num(id.rank);
  if (n == "%cluster_nctarank") return Value::num(l.ctasPerCluster());
  if (n == "%is_explicit_cluster") return Value::num(l.ctasPerCluster() > 1);
  const int lane = id.lane();
  if (n == "%lanemask_eq") return Value::num(int64_t{1} << lane);
  if (n == "%lanemask_lt") return Value::num((int64_t{1} << lane) - 1);
  if (n == "%lanemask_le") return Value::num((int64_t{2} << lane) - 1);
  if (n == "%lanemask_gt") return Value::num(0xffffffffLL & ~((int64_t{2} << lane) - 1));
  if (n == "%lanemask_ge") return Value::num(0xffffffffLL & ~((int64_t{1} << lane) - 1));
  return Value::unknown();  // %clock, %smid, %globaltimer, %dynamic_smem_size...
}

Value Evaluator::symbolAddress(const std::string& sym) const {
  const int shared = ctx.sharedObject(sym, id.cta);
  if (shared >= 0) return Value::addr(shared, 0, Window::SharedCta);
  const int obj = ctx.objectNamed(sym);
  if (obj >= 0) {
    const MemObject& o = ctx.objects[obj];
    return Value::addr(obj, 0, o.kind == MemObject::Kind::Local ? Window::Local : Window::Global);
  }
  if (k.symIds.count(sym) || ctx.params.count(sym)) return Value::addr(kParamSlots + k.symIds.at(sym), 0, Window::Param);
  return Value::unknown();  // a function's address
}

Value Evaluator::value(const State& st, const Arg& a) const {
  switch (a.kind) {
    case Arg::Kind::Imm:
      return Value::num(a.imm);
    case Arg::Kind::Reg:
      return a.special ? special(a.name) : st.regs[k.reg(a.name)];
    case Arg::Kind::Sym:
      return symbolAddress(a.name);
    default:
      return Value::unknown();
  }
}

Value Evaluator::addressOf(const State& st, const Arg& a) const {
  if (a.name.empty()) return Value::unknown();  // an absolute address
  Value base = a.baseIsReg ? st.regs[k.reg(a.name)] : symbolAddress(a.name);
  if (!a.baseIsReg && !base.known() && (ctx.params.count(a.name) || k.symIds.count(a.name)))
    base = Value::addr(kParamSlots + k.symIds.at(a.name), 0, Window::Param);
  if (base.kind == K::Addr) base.i += a.imm;
  return base;
}

std::vector<int> Evaluator::destRegs(const Op& op) const {
  std::vector<int> out;
  if (op.args.empty()) return out;
  std::vector<const Arg*> flat;
  flatArgs(op.args[0], flat);
  for (const Arg* a : flat) out.push_back(a->kind == Arg::Kind::Reg ? k.reg(a->name) : -1);
  return out;
}

void Evaluator::setDests(const Op& op, State& st, const std::vector<Value>& v) const {
  const std::vector<int> d = destRegs(op);
  for (size_t i = 0; i < d.size() && i < v.size(); ++i)
    if (d[i] >= 0) st.regs[d[i]] = v[i];
}

bool Evaluator::pure(const Op& op, State& st, bool quiet) {
  std::vector<Value> src;
  for (size_t i = 1; i < op.args.size(); ++i) {
    std::vector<const Arg*> flat;
    flatArgs(op.args[i], flat);
    for (const Arg* a : flat) src.push_back(value(st, *a));
  }
  bool dynamic = false;
  for (const Value& v : src) dynamic = dynamic || v.kind == K::Dyn;
  if (op.is("selp") && src.size() == 3 && src[2].kind == K::Int) dynamic = false;
  if (dynamic && !quiet) return emitDynamicPure(op, st);
  std::vector<Value> result = dynamic ? std::vector<Value>(destCount(op), Value::unknown()) : evalPure(op, src);
  setDests(op, st, result);
  return true;
}

// ld.param / st.param, and local memory: the evaluator keeps their contents.
bool Evaluator::localMemory(const Op& op, State& st, bool, bool& handled) {
  handled = false;
  const bool load = op.is("ld") || op.is("ldu"), store = op.is("st");
  if (!load && !store) return true;
  const Arg& addrArg = op.args[load ? 1 : 0];
  if (addrArg.kind != Arg::Kind::Addr) return true;
  const Value addr = addressOf(st, addrArg);
  const bool param = op.has("param") || (addr.kind == K::Addr && addr.window == Window::Param);
  const bool local = op.has("local") || (addr.kind == K::Addr && addr.obj >= 0 && addr.obj < kParamSlots &&
                                          ctx.objects[addr.obj].kind == MemObject::Kind::Local);
  if (!param && !local) return true;
  handled = true;
  if (addr.kind != K::Addr) {
    if (load) setDests(op, st, std::vector<Value>(destCount(op), Value::unknown()));
    return true;
  }
  const int bytes = op.typeBytes();
  std::vector<const Arg*> flat;
  flatArgs(op.args[load ? 0 : 1], flat);
  for (size_t e = 0; e < flat.size(); ++e) {
    const auto where = std::make_pair(addr.obj, addr.i + static_cast<int64_t>(e) * bytes);
    if (store) {
      st.mem[where] = value(st, *flat[e]);
      continue;
    }
    Value v = Value::unknown();
    if (addr.obj >= kParamSlots) {  // a kernel parameter, or a call block's slot
      const std::string& sym = [&]() -> const std::string& {
        for (const auto& [name, sid] : k.symIds)
          if (sid == addr.obj - kParamSlots) return name;
        static const std::string none;
        return none;
      }();
      auto p = ctx.params.find(sym);
      if (p != ctx.params.end()) {
        auto f = p->second.find(where.second);
        if (f != p->second.end()) v = f->second;
      } else if (auto m = st.mem.find(where); m != st.mem.end()) {
        v = m->second;
      }
    } else if (auto m = st.mem.find(where); m != st.mem.end()) {
      v = m->second;
    }
    if (v.kind == K::Int) v.i = normalize(v.i, bytes, op.typeSigned());
    if (flat[e]->kind == Arg::Kind::Reg) st.regs[k.reg(flat[e]->name)] = v;
  }
  return true;
}

// The lane shfl.sync.mode.b32 d[|p], a, b, c, membermask reads (PTX ISA 9.7.9.6), and whether it
// is in range (else the lane reads its own a).
std::pair<int, bool> Evaluator::shflSource(const Op& op, const State& st, int lanes) const {
  const Value b = value(st, op.args[2]), c = value(st, op.args[3]);
  if (!b.isInt() || !c.isInt()) fail(op, "shfl.sync with a lane the extraction cannot compute");
  const int lane = id.lane(), seg = static_cast<int>((c.i >> 8) & 0x1f);
  const int maxLane = (lane & seg) | (static_cast<int>(c.i & 0x1f) & ~seg), minLane = lane & seg;
  const std::string& mode = op.parts[2];
  int j = lane;
  bool inRange = true;
  if (mode == "idx") j = minLane | (static_cast<int>(b.i & 0x1f) & ~seg), inRange = j <= maxLane;
  if (mode == "up") j = lane - static_cast<int>(b.i), inRange = j >= maxLane;
  if (mode == "down") j = lane + static_cast<int>(b.i), inRange = j <= maxLane;
  if (mode == "bfly") j = lane ^ static_cast<int>(b.i), inRange = j <= maxLane;
  if (!inRange || j >= lanes) j = lane;
  return {j, inRange};
}

// shfl.sync, elect.sync, activemask, vote.sync: lanes of one warp, all of which take part (the
// .sync forms require every lane of the mask to execute them together).
void Evaluator::warpQuery(int pc, const Op& op, State& st, bool quiet) {
  const int lanes = std::min(32, ctx.launch.threadsPerCta() - id.warp() * 32);
  const int64_t present = lanes >= 32 ? 0xffffffffLL : (int64_t{1} << lanes) - 1;
  const std::vector<int> d = destRegs(op);
  auto set = [&](size_t i, Value v) {
    if (i < d.size() && d[i] >= 0) st.regs[d[i]] = v;
  };
  if (op.is("activemask")) return set(0, Value::num(present));
  if (op.is("elect")) {
    const Value m = value(st, op.args.back());
    if (!m.isInt()) fail(op, "elect.sync with a member mask the extraction cannot compute");
    const int64_t members = m.i & present;
    const int leader = members ? __builtin_ctzll(static_cast<uint64_t>(members)) : -1;
    set(0, Value::num(leader));
    set(1, Value::num(leader == id.lane()));
    return;
  }
  if (quiet) {  // error-sink probing does not run other lanes
    for (size_t i = 0; i < d.size(); ++i) set(i, Value::unknown());
    return;
  }
  const int occurrence = occurrences_[pc]++;
  const Arg& a = op.args[1];
  if (opt.stopPc == pc && opt.stopOccurrence == occurrence) {
    stopValue = value(st, a);
    throw Stop{};
  }
  auto laneValue = [&](int lane) -> Value {
    if (lane == id.lane() || a.kind != Arg::Kind::Reg || a.special) return value(st, a);
    return oracle.laneValue(index - id.lane() + lane, pc, occurrence, k.reg(a.name));
  };
  if (op.is("shfl")) {
    const auto [j, inRange] = shflSource(op, st, lanes);
    Value v = laneValue(j);
    if (v.kind == K::Dyn && j != id.lane()) v = Value::unknown();
    set(0, v);
    set(1, Value::num(inRange));
    return;
  }
  if (op.is("vote")) {  // vote.sync.{all,any,uni,ballot}
    const Value m = value(st, op.args.back());
    const int64_t members = (m.isInt() ? m.i : present) & present;
    int64_t ballot = 0;
    for (int lane = 0; lane < lanes; ++lane) {
      if (!((members >> lane) & 1)) continue;
      Value v = laneValue(lane);
      if (!v.isInt()) return set(0, Value::unknown());
      if ((v.i != 0) != op.args[1].negated) ballot |= int64_t{1} << lane;
    }
    const std::string& mode = op.parts[op.has("sync") ? 2 : 1];
    set(0, Value::num(mode == "ballot" ? ballot
                      : mode == "all"  ? ballot == members
                      : mode == "any"  ? ballot != 0
                                       : (ballot == 0 || ballot == members)));
    return;
  }
  note(op, "'" + op.mnemonic + "' is not evaluated; its result is abstracted");
  for (size_t i = 0; i < d.size(); ++i) set(i, Value::unknown());
}

// mapa and getctarank: the addresses of a shared variable in the other CTAs of the cluster.
void Evaluator::clusterQuery(const Op& op, State& st) {
  const Value a = value(st, op.args[1]);
  if (op.is("getctarank")) {
    const bool ok = a.kind == K::Addr && a.obj < kParamSlots && ctx.objects[a.obj].kind == MemObject::Kind::Shared;
    setDests(op, st, {ok ? Value::num(ctx.objects[a.obj].cta % ctx.launch.ctasPerCluster()) : Value::unknown()});
    return;
  }
  const Value rank = value(st, op.args[2]);
  if (a.kind != K::Addr || !rank.isInt() || a.obj >= kParamSlots || ctx.objects[a.obj].kind != MemObject::Kind::Shared) {
    setDests(op, st, {Value::unknown()});
    return;
  }
  if (rank.i < 0 || rank.i >= ctx.launch.ctasPerCluster()) fail(op, "mapa to rank " + std::to_string(rank.i) + ", outside the cluster");
  const int cta = id.cluster * ctx.launch.ctasPerCluster() + static_cast<int>(rank.i);
  const int obj = ctx.sharedObject(ctx.objects[a.obj].ptxName, cta);
  const Window w = op.has("shared::cluster") ? Window::SharedCluster : Window::Generic;
  setDests(op, st, {Value::addr(obj, a.i, w)});
}

// Calls that stay after flattening: functions without a body.
void Evaluator::call(const Op& op, State&) {
  if (op.callee == "vprintf") return note(op, "printf is left out");
  fail(op, "call of '" + op.callee + "', which the module does not define");
}

bool Evaluator::step(int pc, const Op& op, State& st, bool quiet) {
  if (isPure(op)) return pure(op, st, quiet);
  bool handled = false;
  localMemory(op, st, quiet, handled);
  if (handled) return true;
  if (op.is("shfl") || op.is("elect") || op.is("activemask") || op.is("vote") || op.is("match") || op.is("redux")) {
    warpQuery(pc, op, st, quiet);
    return true;
  }
  if (op.is("mapa") || op.is("getctarank")) {
    clusterQuery(op, st);
    return true;
  }
  if (quiet) return false;
  if (op.is("call")) {
    call(op, st);
    return true;
  }
  const Guard g = guardOf(op, st);
  if (inSet(op, kIgnored) || op.is("createpolicy")) {
    if (!op.is("createpolicy")) note(op, "'" + op.mnemonic + "' has no effect on what the test checks; left out");
    if (writesFirstOperand(op)) setDests(op, st, std::vector<Value>(destCount(op), Value::unknown()));
    return true;
  }
  if (inSet(op, kKept)) {
    emitKept(op, st, g);
    return true;
  }
  if (op.is("ld") || op.is("ldu") || op.is("st") || op.is("atom") || op.is("red")) {
    memoryAccess(op, st);
    return true;
  }
  note(op, "'" + op.mnemonic + "' is not known to the extraction; its results are abstracted");
  if (writesFirstOperand(op) || (!op.args.empty() && op.args[0].kind == Arg::Kind::Reg))
    setDests(op, st, std::vector<Value>(destCount(op), Value::unknown()));
  return true;
}

}  // namespace extract::detail
