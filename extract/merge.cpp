// Merging identical threads. Soundness rests on three conditions (docs/extract.md):
// - the threads' litmus code is the same text, so they make the same accesses to the same
//   locations under the same synchronization;
// - the code only reads, waits, fences and arrives: two reads never race, so every race or stale
//   read of one thread is one of the representative's;
// - the mbarriers they arrive on are not over-subscribed (a phase needs every arrival of a round),
//   so no phase can complete on some of the group's arrivals and not others. Lanes of a warp are
//   independent threads in the PTX model, so an over-subscribed barrier keeps its arrivers apart
//   (up to 8; beyond that two representatives, n-1 and 1 arrivals, with a note).
// The representative's arrive then counts for the whole group (`mbarrier.arrive ..., [m], n`).
#include "extract/merge.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "litmus/instructions.h"
#include "litmus/parse.h"

namespace extract {

namespace {

using litmus::Instr;
using litmus::MbarOp;
using litmus::Opcode;

struct Parsed {
  std::vector<std::optional<Instr>> instrs;  // per line; nullopt for labels
};

Parsed parse(const ThreadCode& c) {
  Parsed p;
  for (const Line& l : c.lines)
    p.instrs.push_back(l.text.empty() ? std::nullopt
                                      : std::optional<Instr>(litmus::parseInstruction(l.text, l.origin, litmus::Dialect::Ptx)));
  return p;
}

// Setup: the mbarrier.init lines before the thread's first barrier (bar, barrier.cluster), and the
// fence.mbarrier_init that publishes them. The
// thread that initialises the barriers is otherwise like its neighbours, and stands for them.
std::vector<bool> setupLines(const Parsed& p) {
  std::vector<bool> out(p.instrs.size(), false);
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const auto& in = p.instrs[i];
    if (in && in->op == Opcode::Bar) break;
    out[i] = in && ((in->op == Opcode::Mbarrier && in->mbarOp == MbarOp::Init) ||
                    (in->op == Opcode::Fence && in->restrict == litmus::FenceRestrict::MbarrierInit));
  }
  return out;
}

std::string signature(const ThreadCode& c, int cta, const std::vector<bool>& skip, bool checks = true) {
  std::string s = std::to_string(cta) + "\n";
  for (size_t i = 0; i < c.lines.size(); ++i) {
    const Line& l = c.lines[i];
    if (!skip.empty() && skip[i]) continue;
    s += l.label + ":" + l.text + "@" + std::to_string(l.origin.line) + "\n";
  }
  if (checks)
    for (const litmus::Cond& e : c.errors) s += "?" + litmus::formatCondition(e) + "\n";
  return s;
}

bool hasSetup(const std::vector<bool>& setup) { return std::find(setup.begin(), setup.end(), true) != setup.end(); }

bool readsWaitsArrives(const Parsed& p) {
  const std::vector<bool> setup = setupLines(p);
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const auto& in = p.instrs[i];
    if (!in || setup[i]) continue;
    switch (in->op) {
      case Opcode::St: case Opcode::Atom: case Opcode::Red: case Opcode::Async: case Opcode::Clc:
      case Opcode::Cvta: case Opcode::CreatePolicy: case Opcode::Warp:
        return false;
      case Opcode::Mbarrier:
        if (!(in->mbarOp == MbarOp::TryWait || in->mbarOp == MbarOp::TestWait || in->mbarOp == MbarOp::PendingCount ||
              (in->mbarOp == MbarOp::Arrive && !in->expectTx)))
          return false;
        break;
      default:
        break;
    }
  }
  return true;
}

// Only writes (no transaction counts, drops or initialisation) keep the group from merging.
bool onlyWritesBlockMerge(const Parsed& p) {
  for (const auto& in : p.instrs)
    if (in && in->op == Opcode::Mbarrier && !(in->mbarOp == MbarOp::TryWait || in->mbarOp == MbarOp::TestWait ||
                                              (in->mbarOp == MbarOp::Arrive && !in->expectTx)))
      return false;
    else if (in && (in->op == Opcode::Async || in->op == Opcode::Clc))
      return false;
  return true;
}

// The mbarrier an instruction's address operand names: "full+8", through mapa registers.
std::string barrierKey(const Instr& in, const std::map<std::string, std::string>& mapas) {
  const int a = in.mbarOp == MbarOp::Init || in.mbarOp == MbarOp::Inval || in.mbarOp == MbarOp::ExpectTx ||
                        in.mbarOp == MbarOp::CompleteTx
                    ? 0
                    : 1;
  if (static_cast<int>(in.args.size()) <= a) return "";
  const litmus::Operand& o = in.args[a];
  std::string loc = o.name;
  if (o.kind == litmus::Operand::Kind::RegAddr) {
    auto it = mapas.find(o.name);
    loc = it == mapas.end() ? o.name : it->second;
  }
  return litmus::elementName(loc, o.imm);
}

struct Arrivals {
  std::map<std::string, int64_t> total, initCount;
  std::map<std::string, int> rounds;  // the most arrive instructions one thread has on it
};

void countArrivals(const Parsed& p, Arrivals& a) {
  std::map<std::string, std::string> mapas;
  std::map<std::string, int> lines;
  for (const auto& in : p.instrs) {
    if (!in) continue;
    if (in->op == Opcode::Mapa) mapas[in->args[0].name] = in->args[1].name;
    if (in->op != Opcode::Mbarrier) continue;
    const std::string key = barrierKey(*in, mapas);
    if (in->mbarOp == MbarOp::Init && in->args.size() > 1) a.initCount[key] = in->args[1].imm;
    if (in->mbarOp == MbarOp::Arrive || in->mbarOp == MbarOp::ArriveDrop) {
      const bool counted = !in->expectTx && in->args.size() > 2 && in->args[2].kind == litmus::Operand::Kind::Imm;
      a.total[key] += counted ? in->args[2].imm : 1;
      ++lines[key];
    }
  }
  for (const auto& [key, n] : lines) a.rounds[key] = std::max(a.rounds[key], n);
}

std::set<std::string> arrivesOn(const Parsed& p) {
  std::set<std::string> out;
  std::map<std::string, std::string> mapas;
  for (const auto& in : p.instrs) {
    if (in && in->op == Opcode::Mapa) mapas[in->args[0].name] = in->args[1].name;
    if (in && in->op == Opcode::Mbarrier && in->mbarOp == MbarOp::Arrive) out.insert(barrierKey(*in, mapas));
  }
  return out;
}

// The representative's arrivals count `n` times.
void scaleArrivals(ThreadCode& c, const Parsed& p, int64_t n) {
  for (size_t i = 0; i < c.lines.size(); ++i) {
    const auto& in = p.instrs[i];
    if (!in || in->op != Opcode::Mbarrier || in->mbarOp != MbarOp::Arrive) continue;
    std::string& t = c.lines[i].text;
    if (in->args.size() > 2) {
      const size_t comma = t.rfind(", ");
      t = t.substr(0, comma + 2) + std::to_string(in->args[2].imm * n);
    } else {
      t += ", " + std::to_string(n);
    }
  }
}

// bar.sync ID, COUNT counts threads; in the test each thread stands for a warp (docs/format.md), so
// the count becomes 32 per group of the CTA that uses barrier ID.
void rescaleBarriers(std::vector<Group>& groups) {
  std::map<std::pair<int, int64_t>, int> users;  // (cta, id) -> groups using it
  std::vector<Parsed> parsed;
  for (const Group& g : groups) {
    parsed.push_back(parse(g.code));
    std::set<int64_t> ids;
    for (const auto& in : parsed.back().instrs)
      if (in && in->op == Opcode::Bar && !in->args.empty() && in->args[0].kind == litmus::Operand::Kind::Imm)
        ids.insert(in->args[0].imm);
    for (int64_t id : ids) ++users[{g.cta, id}];
  }
  for (size_t gi = 0; gi < groups.size(); ++gi)
    for (size_t i = 0; i < groups[gi].code.lines.size(); ++i) {
      const auto& in = parsed[gi].instrs[i];
      if (!in || in->op != Opcode::Bar || in->args.size() < 2 || in->args[0].kind != litmus::Operand::Kind::Imm) continue;
      const litmus::BarOperands b = litmus::barOperands(*in, false);
      if (b.count < 0) continue;
      std::string& t = groups[gi].code.lines[i].text;
      const size_t comma = t.rfind(", ");
      t = t.substr(0, comma + 2) + std::to_string(32 * users[{groups[gi].cta, in->args[0].imm}]);
    }
}

// Instructions with an effect on others: arrivals, transactions, initialisation, copies, writes.
// A thread without any follows the thread whose code is its code plus such instructions.
bool effect(const Instr& in) {
  switch (in.op) {
    case Opcode::St: case Opcode::Atom: case Opcode::Red: case Opcode::Async: case Opcode::Mapa:
    case Opcode::Clc:
      return true;
    case Opcode::Mbarrier:
      return !(in.mbarOp == MbarOp::TryWait || in.mbarOp == MbarOp::TestWait || in.mbarOp == MbarOp::PendingCount);
    case Opcode::Fence:  // fence.mbarrier_init publishes the thread's own initialisations
      return in.restrict == litmus::FenceRestrict::MbarrierInit;
    default:
      return false;
  }
}

bool ownLine(const std::optional<Instr>& in);

// The code that lockstep compares: without each thread's own lines and checks.
std::string followSignature(const ThreadCode& c, const Parsed& p, int cta) {
  std::vector<bool> skip(c.lines.size());
  for (size_t i = 0; i < c.lines.size(); ++i) skip[i] = ownLine(p.instrs[i]);
  return signature(c, cta, skip, false);
}

// A thread's own lines, which lockstep does not compare: effects, loads, fences (which order the
// thread's own accesses).
bool ownLine(const std::optional<Instr>& in) {
  return in && (effect(*in) || in->op == Opcode::Ld || litmus::isFence(*in));
}

// The union of groups whose code is the same up to their effects and loads: the common lines in order, and
// before each of them every group's effects there, in group order. The `mapa` registers of the
// second group on are renamed apart (a test register holds the address of one location only).
ThreadCode unionOf(const std::vector<const Group*>& gs, const std::vector<const Parsed*>& ps) {
  ThreadCode u;
  std::vector<size_t> at(gs.size(), 0);
  for (;;) {
    for (size_t k = 0; k < gs.size(); ++k)
      for (; at[k] < gs[k]->code.lines.size() && ownLine(ps[k]->instrs[at[k]]); ++at[k]) {
        Line l = gs[k]->code.lines[at[k]];
        if (k > 0)
          for (size_t p = l.text.find("%ma"); p != std::string::npos; p = l.text.find("%ma", p + 1)) {
            size_t e = p + 3;
            while (e < l.text.size() && std::isdigit(static_cast<unsigned char>(l.text[e]))) ++e;
            l.text.insert(e, "_g" + std::to_string(k));
          }
        u.lines.push_back(std::move(l));
      }
    if (at[0] >= gs[0]->code.lines.size()) break;
    u.lines.push_back(gs[0]->code.lines[at[0]]);
    for (size_t& a : at) ++a;
  }
  for (const Group* g : gs) {
    u.errors.insert(u.errors.end(), g->code.errors.begin(), g->code.errors.end());
    u.accesses.insert(u.accesses.end(), g->code.accesses.begin(), g->code.accesses.end());
  }
  return u;
}

// Lockstep (docs/extract.md, E7): the groups of a CTA whose code is the same up to their effects
// (arrivals, transactions, writes) become one, which makes all their effects: a warpgroup whose
// threads wait on the same phases, whichever of them signals. Exact for groups that only take part
// in barriers; for the others it assumes they keep pace with each other. Arrivers on an
// over-subscribed mbarrier stay apart: their being out of step is the bug.
void runInLockstep(std::vector<Group>& groups, const std::set<std::string>& oversubscribed,
                   std::vector<std::string>& notes) {
  std::vector<Parsed> parsed;
  std::map<std::string, std::vector<size_t>> buckets;
  std::vector<std::string> order;
  for (size_t i = 0; i < groups.size(); ++i) {
    parsed.push_back(parse(groups[i].code));
    std::string sig = followSignature(groups[i].code, parsed[i], groups[i].cta);
    for (const std::string& b : arrivesOn(parsed[i]))  // kept apart (E6): not joined again
      if (oversubscribed.count(b)) sig = "apart " + std::to_string(i);
    if (!buckets.count(sig)) order.push_back(sig);
    buckets[sig].push_back(i);
  }
  std::vector<Group> out;
  for (const std::string& sig : order) {
    const std::vector<size_t>& b = buckets[sig];
    if (b.size() == 1) {
      out.push_back(std::move(groups[b[0]]));
      continue;
    }
    std::vector<const Group*> gs;
    std::vector<const Parsed*> ps;
    Group merged = groups[b[0]];
    merged.members.clear();
    int waiting = 0;
    for (size_t i : b) {
      gs.push_back(&groups[i]);
      ps.push_back(&parsed[i]);
      merged.members.insert(merged.members.end(), groups[i].members.begin(), groups[i].members.end());
      for (const auto& in : parsed[i].instrs)
        if (in && in->op == Opcode::Mbarrier && !effect(*in)) {
          waiting += static_cast<int>(groups[i].members.size());
          break;
        }
    }
    merged.code = unionOf(gs, ps);
    if (waiting)
      notes.push_back("note: " + std::to_string(merged.members.size()) + " threads of CTA " + std::to_string(merged.cta) +
                      " that wait on the same phases run in lockstep as one (" + std::to_string(b.size()) +
                      " kinds; --no-lockstep keeps them apart)");
    out.push_back(std::move(merged));
  }
  groups = std::move(out);
}

// A group that only takes part in barriers without a thread count (bar.sync 0, barrier.cluster)
// and fences nothing changes what the others can do: left out while its CTA keeps another group.
void dropIdle(std::vector<Group>& groups, std::vector<std::string>& notes) {
  std::map<int, int> busy;  // CTA -> groups that do more
  std::vector<bool> idle(groups.size(), true);
  for (size_t i = 0; i < groups.size(); ++i) {
    for (const auto& in : parse(groups[i].code).instrs)
      if (in && !(litmus::isFence(*in) || in->op == Opcode::Bra ||
                  (in->op == Opcode::Bar && litmus::barOperands(*in, false).count < 0)))
        idle[i] = false;
    busy[groups[i].cta] += !idle[i];
  }
  std::vector<Group> kept;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (idle[i] && busy[groups[i].cta] > 0) {
      notes.push_back("note: " + std::to_string(groups[i].members.size()) + " threads of CTA " + std::to_string(groups[i].cta) +
                      " only take part in barriers; left out");
      continue;
    }
    kept.push_back(std::move(groups[i]));
  }
  groups = std::move(kept);
}

}  // namespace

namespace {

// Threads are grouped by their code without its setup; a group keeps at most one thread with a
// setup, which becomes its representative.
std::vector<Group> bySignature(const std::vector<ThreadId>& ids, const std::vector<ThreadCode>& codes,
                               const std::vector<Parsed>& parsed, bool merge) {
  std::map<std::string, size_t> index;
  std::vector<Group> groups;
  std::vector<bool> groupHasSetup;
  for (size_t t = 0; t < codes.size(); ++t) {
    if (codes[t].empty()) continue;
    const std::vector<bool> setup = setupLines(parsed[t]);
    const bool withSetup = hasSetup(setup);
    std::string sig = merge ? signature(codes[t], ids[t].cta, setup) : std::to_string(t);
    auto it = index.find(sig);
    if (it != index.end() && withSetup && groupHasSetup[it->second]) {  // a second setup: its own group
      sig = signature(codes[t], ids[t].cta, {});
      it = index.find(sig);
    }
    if (it == index.end()) {
      it = index.emplace(sig, groups.size()).first;
      groups.push_back({ids[t].cta, ids[t].cluster, {}, codes[t]});
      groupHasSetup.push_back(false);
    }
    Group& g = groups[it->second];
    if (withSetup && !groupHasSetup[it->second]) {  // the thread that initialises represents the group
      g.code = codes[t];
      g.members.insert(g.members.begin(), static_cast<int>(t));
      groupHasSetup[it->second] = true;
    } else {
      g.members.push_back(static_cast<int>(t));
    }
  }
  return groups;
}

void keepEach(const Group& g, const std::vector<ThreadCode>& codes, std::vector<Group>& out) {
  for (int m : g.members) {
    Group one = g;
    one.members = {m};
    one.code = codes[m];
    out.push_back(std::move(one));
  }
}

// A group's representatives (E6): one whose arrivals count n, two (n-1 and 1) for identical
// writers, or every member.
void representatives(Group& g, const std::vector<ThreadCode>& codes, const std::set<std::string>& oversubscribed,
                     std::vector<Group>& out, std::vector<std::string>& notes) {
  const int64_t n = static_cast<int64_t>(g.members.size());
  const Parsed p = parse(g.code);
  bool apart = false;
  for (const std::string& b : arrivesOn(p)) apart = apart || oversubscribed.count(b);
  if (apart && n <= 8) return keepEach(g, codes, out);
  if (apart)
    notes.push_back("note: " + std::to_string(n) + " identical threads arriving on an over-subscribed mbarrier are kept as two (" +
                    std::to_string(n - 1) + " and 1 arrivals): an approximation");
  if (n == 1 || (readsWaitsArrives(p) && !apart)) {
    if (n > 1) scaleArrivals(g.code, p, n);
    out.push_back(std::move(g));
    return;
  }
  if (onlyWritesBlockMerge(p)) {  // two representatives keep the race between identical writers
    Group second = g;
    second.members = std::vector<int>(g.members.begin() + 1, g.members.end());
    second.code = codes[second.members.front()];
    g.members.resize(1);
    if (n > 2) scaleArrivals(second.code, parse(second.code), n - 1);
    out.push_back(std::move(g));
    out.push_back(std::move(second));
    return;
  }
  if (n > 8)
    throw litmus::Error(g.code.lines.front().origin,
                        std::to_string(n) + " identical threads of CTA " + std::to_string(g.cta) +
                            " complete transactions or copy; they cannot be merged and are too many to keep (a smaller --block?)");
  keepEach(g, codes, out);
}

}  // namespace

std::vector<Group> groupThreads(const Launch&, const std::vector<ThreadId>& ids, std::vector<ThreadCode> codes,
                                bool merge, bool lockstep, std::vector<std::string>& notes) {
  std::vector<Parsed> parsed(codes.size());
  Arrivals arrivals;
  for (size_t t = 0; t < codes.size(); ++t)
    if (!codes[t].empty()) {
      parsed[t] = parse(codes[t]);
      countArrivals(parsed[t], arrivals);
    }
  std::set<std::string> oversubscribed;
  for (const auto& [key, total] : arrivals.total) {
    auto c = arrivals.initCount.find(key);
    if (c != arrivals.initCount.end() && total > c->second * arrivals.rounds[key]) oversubscribed.insert(key);
  }
  for (const std::string& b : oversubscribed)
    notes.push_back("note: mbarrier " + b + " gets more arrivals per phase than its count; the threads arriving on it are not merged");
  std::vector<Group> out;
  for (Group& g : bySignature(ids, codes, parsed, merge)) representatives(g, codes, oversubscribed, out, notes);
  if (merge && lockstep) runInLockstep(out, oversubscribed, notes);
  if (merge) dropIdle(out, notes);
  rescaleBarriers(out);
  return out;
}

}  // namespace extract
