// Register numbering and liveness. The evaluator keys the points of the emitted code on the live
// registers only: a spin loop's predicate is dead at the loop head, so the second visit of the
// head finds the first and the loop closes instead of unrolling forever.
#include "extract/kernel.h"

#include <algorithm>
#include <set>

#include "extract/alu.h"

namespace extract {

namespace {

const std::set<std::string> kWriters = {"ld", "ldu", "atom", "shfl", "elect", "activemask", "vote", "match",
                                        "redux", "mapa", "getctarank", "createpolicy", "ldmatrix", "tex",
                                        "suld", "tld4", "txq", "suq", "istypep"};

void collectRegs(const Arg& a, std::vector<const Arg*>& out) {
  if (a.kind == Arg::Kind::Reg && !a.special) out.push_back(&a);
  if (a.kind == Arg::Kind::Addr && a.baseIsReg) out.push_back(&a);
  for (const Arg& e : a.elems) collectRegs(e, out);
}

int idOf(Kernel& k, const std::string& name) {
  auto [it, added] = k.regIds.emplace(name, static_cast<int>(k.regs.size()));
  if (added) k.regs.push_back(name);
  return it->second;
}

OpRegs regsOf(Kernel& k, const Op& op) {
  OpRegs r;
  if (!op.guard.empty()) r.uses.push_back(idOf(k, op.guard));
  const bool writes = writesFirstOperand(op);
  for (size_t i = 0; i < op.args.size(); ++i) {
    std::vector<const Arg*> regs;
    collectRegs(op.args[i], regs);
    for (const Arg* a : regs) {
      const bool def = i == 0 && writes && a->kind == Arg::Kind::Reg;
      (def ? r.defs : r.uses).push_back(idOf(k, a->name));
    }
  }
  r.kills = op.guard.empty();
  return r;
}

std::vector<int> successors(const Kernel& k, int pc) {
  const Op& op = k.body.ops[pc];
  std::vector<int> out;
  if (op.is("bra")) {
    for (const Arg& a : op.args)
      if (a.kind == Arg::Kind::Label) out.push_back(k.body.labels.at(a.name));
  }
  if (!endsPath(op) && pc + 1 < static_cast<int>(k.body.ops.size())) out.push_back(pc + 1);
  return out;
}

void computeLiveness(Kernel& k) {
  const int n = static_cast<int>(k.body.ops.size());
  const size_t words = (k.regs.size() + 63) / 64;
  std::vector<std::vector<uint64_t>> in(n, std::vector<uint64_t>(words, 0));
  std::vector<std::vector<int>> succ(n);
  for (int pc = 0; pc < n; ++pc) succ[pc] = successors(k, pc);
  for (bool changed = true; changed;) {
    changed = false;
    for (int pc = n - 1; pc >= 0; --pc) {
      std::vector<uint64_t> live(words, 0);
      for (int s : succ[pc])
        for (size_t w = 0; w < words; ++w) live[w] |= in[s][w];
      const OpRegs& r = k.opRegs[pc];
      if (r.kills)
        for (int d : r.defs) live[d / 64] &= ~(uint64_t{1} << (d % 64));
      for (int u : r.uses) live[u / 64] |= uint64_t{1} << (u % 64);
      if (live != in[pc]) {
        in[pc] = std::move(live);
        changed = true;
      }
    }
  }
  k.liveIn.assign(n, {});
  for (int pc = 0; pc < n; ++pc)
    for (size_t w = 0; w < words; ++w)
      for (int b = 0; b < 64; ++b)
        if ((in[pc][w] >> b) & 1) k.liveIn[pc].push_back(static_cast<int>(w * 64 + b));
}

}  // namespace

bool writesFirstOperand(const Op& op) {
  if (op.parts.empty() || op.args.empty()) return false;
  const std::string& h = op.parts[0];
  if (h == "mbarrier")
    return op.parts.size() > 1 && (op.parts[1] == "arrive" || op.parts[1] == "arrive_drop" ||
                                   op.parts[1] == "try_wait" || op.parts[1] == "test_wait" ||
                                   op.parts[1] == "pending_count");
  if (h == "wgmma") return op.parts.size() > 1 && op.parts[1] == "mma_async";
  if (h == "clusterlaunchcontrol") return op.has("query_cancel");
  if (h == "ld" || h == "ldu") return true;
  return kWriters.count(h) > 0 || isPure(op);
}

bool endsPath(const Op& op) {
  if (op.is("bra")) return op.guard.empty();
  return op.is("ret") || op.is("exit") || op.is("trap") || op.is("brkpt");
}

std::vector<ThreadId> threadsOf(const Launch& l) {
  std::vector<ThreadId> out;
  const int perCluster = l.ctasPerCluster();
  std::array<int, 3> clusters;
  for (int d = 0; d < 3; ++d) clusters[d] = l.grid[d] / l.cluster[d];
  int cluster = 0;
  for (int cz = 0; cz < clusters[2]; ++cz)
    for (int cy = 0; cy < clusters[1]; ++cy)
      for (int cx = 0; cx < clusters[0]; ++cx, ++cluster)
        for (int rank = 0; rank < perCluster; ++rank) {
          ThreadId t;
          t.cluster = cluster;
          t.rank = rank;
          t.cta = cluster * perCluster + rank;
          t.clusterid = {cx, cy, cz};
          t.clusterCtaid = {rank % l.cluster[0], (rank / l.cluster[0]) % l.cluster[1],
                            rank / (l.cluster[0] * l.cluster[1])};
          for (int d = 0; d < 3; ++d) t.ctaid[d] = t.clusterid[d] * l.cluster[d] + t.clusterCtaid[d];
          for (int i = 0; i < l.threadsPerCta(); ++i) {
            t.linear = i;
            t.tid = {i % l.block[0], (i / l.block[0]) % l.block[1], i / (l.block[0] * l.block[1])};
            out.push_back(t);
          }
        }
  return out;
}

Kernel prepareKernel(const Module& module, const Function& fn) {
  Kernel k;
  k.module = &module;
  k.fn = &fn;
  k.body = flatten(module, fn);
  for (const Op& op : k.body.ops) k.opRegs.push_back(regsOf(k, op));
  k.target.assign(k.body.ops.size() + 1, false);
  for (const auto& [label, pc] : k.body.labels) k.target[pc] = true;
  computeLiveness(k);
  for (const Op& op : k.body.ops)
    for (const Arg& a : op.args)
      if (a.kind == Arg::Kind::Addr && !a.baseIsReg && !a.name.empty()) k.symIds.emplace(a.name, static_cast<int>(k.symIds.size()));
  return k;
}

int Kernel::sym(const std::string& name) {
  return symIds.emplace(name, static_cast<int>(symIds.size())).first->second;
}

}  // namespace extract
