// The merge of a thread's code: the families' blocks interleaved (each family's in its order)
// with plain memory operations, and, with the Branch family, some blocks put under a forward
// branch or a guard whose condition depends on a value read.
#include <algorithm>

#include "gen.h"

namespace difftest::gen {

namespace {

bool plain(const Location& l) { return l.kind != Location::Kind::Mbarrier; }

// setp with a random comparison against a small constant (the unsigned spellings included).
std::string setp(Draft& d, const std::string& p, const std::string& r) {
  static const std::vector<std::string> cmps = {"eq", "ne", "lt", "gt", "le", "ge", "lo", "hs"};
  // the operands of + are unsequenced (GCC and clang draw in opposite orders): the draws are
  // made one by one, so that a seed names one test whatever the compiler
  const int k = d.g.pick(0, 2);
  return "setp." + d.g.of(cmps) + ".u32 " + p + ", " + r + ", " + std::to_string(k) + ";";
}

// A register holding a value read: one the thread already has, or a fresh load.
std::string condition(Draft& d, int t, std::vector<std::string>& lines) {
  const auto& values = d.threads[t].values;
  if (!values.empty() && d.g.coin(40)) return d.g.of(values);
  return load(d, t, d.g.of(d.reachable(t, plain)), lines);
}

bool guardable(const Block& b) {
  return b.lines.size() == 1 && b.lines[0][0] != '@' && b.lines[0].back() == ';';
}

Block underBranch(Draft& d, int t, const Block& b) {
  auto& g = d.g;
  Block out;
  const std::string r = condition(d, t, out.lines);
  const int kind = g.pick(0, 3);
  if (kind == 3) {  // herd's compare-and-branch
    static const std::vector<std::string> ops = {"beq", "bne", "blt", "bge"};
    const std::string l = d.label(t);
    const int k = g.pick(0, 2);  // one draw after the other
    out.lines.push_back(g.of(ops) + " " + r + ", " + std::to_string(k) + ", " + l + ";");
    out.lines.insert(out.lines.end(), b.lines.begin(), b.lines.end());
    out.lines.push_back(l + ":");
    return out;
  }
  const std::string p = d.pred(t);
  out.lines.push_back(setp(d, p, r));
  const std::string guard = std::string(g.coin(50) ? "@!" : "@") + p + " ";
  if (kind == 2 && guardable(b)) {
    out.lines.push_back(guard + b.lines[0]);
    return out;
  }
  const std::string l = d.label(t);
  out.lines.push_back(guard + "bra" + (g.coin(20) ? ".uni " : " ") + l + ";");
  out.lines.insert(out.lines.end(), b.lines.begin(), b.lines.end());
  out.lines.push_back(l + ":");
  return out;
}

}  // namespace

void merge(Draft& d) {
  auto& g = d.g;
  for (size_t t = 0; t < d.threads.size(); ++t) {
    const int ti = static_cast<int>(t);
    std::vector<std::vector<Block>> seqs = d.threads[t].sequences;
    int ops = g.pick(d.opt.minOps, d.opt.maxOps);
    const bool none = std::all_of(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); });
    if (none && ops == 0) ops = 1;  // a thread needs an instruction
    for (int i = 0; i < ops; ++i) seqs.push_back({memoryOp(d, ti)});
    std::vector<Block> order;
    for (;;) {
      std::vector<size_t> open;
      for (size_t i = 0; i < seqs.size(); ++i)
        if (!seqs[i].empty()) open.push_back(i);
      if (open.empty()) break;
      auto& s = seqs[g.of(open)];
      order.push_back(s.front());
      s.erase(s.begin());
    }
    if (d.has(Family::Branch) && g.coin(75)) {
      const int wraps = g.pick(1, 2);
      for (int w = 0; w < wraps; ++w) {
        const size_t i = static_cast<size_t>(g.pick(0, static_cast<int>(order.size()) - 1));
        if (order[i].branchable) order[i] = underBranch(d, ti, order[i]);
      }
    }
    for (const Block& b : order) d.threads[t].code.insert(d.threads[t].code.end(), b.lines.begin(), b.lines.end());
  }
}

}  // namespace difftest::gen
