// Control flow of one thread. The evaluator walks the kernel with concrete values; a branch on a
// value it knows is followed, a branch on a value only the test computes (a try_wait predicate)
// becomes a branch of the emitted code. Each point of the emitted code is keyed by the
// instruction and the live registers' values: reaching a key again closes a loop with a branch
// back, so a spin loop stays a loop while a counted loop unrolls.
#include <algorithm>

#include "extract/alu.h"
#include "extract/thread_impl.h"

namespace extract {

namespace detail {

using litmus::Error;
using K = Value::Kind;

litmus::Cond negate(const litmus::Cond& c) {
  using CK = litmus::Cond::Kind;
  using litmus::CmpOp;
  litmus::Cond n = c;
  switch (c.kind) {
    case CK::True: n.kind = CK::False; return n;
    case CK::False: n.kind = CK::True; return n;
    case CK::Not: return c.kids[0];
    case CK::Cmp: {
      static const std::map<CmpOp, CmpOp> kOpposite = {{CmpOp::Eq, CmpOp::Ne}, {CmpOp::Ne, CmpOp::Eq},
                                                       {CmpOp::Lt, CmpOp::Ge}, {CmpOp::Ge, CmpOp::Lt},
                                                       {CmpOp::Le, CmpOp::Gt}, {CmpOp::Gt, CmpOp::Le}};
      n.cmp = kOpposite.at(c.cmp);
      return n;
    }
    case CK::And:
    case CK::Or:  // De Morgan
      n.kind = c.kind == CK::And ? CK::Or : CK::And;
      for (litmus::Cond& k : n.kids) k = negate(k);
      return n;
  }
  return n;
}

std::string regText(const std::string& renamed) { return renamed[0] == '%' ? renamed.substr(1) : renamed; }

Evaluator::Evaluator(const LaunchContext& c, const ThreadId& i, int idx, LaneOracle& o, const ThreadOptions& op)
    : ctx(c), k(*c.kernel), id(i), index(idx), oracle(o), opt(op), visits_(c.kernel->body.ops.size(), 0) {}

ThreadCode Evaluator::run() {
  State init;
  init.regs.assign(k.regs.size(), Value());
  pending_.push_back({0, std::move(init), "", false});
  while (!pending_.empty()) {
    Pending p = std::move(pending_.back());
    pending_.pop_back();
    if (!p.label.empty()) emitLabel(p.label);
    walk(p.pc, std::move(p.st), p.skipMemo);
  }
  // A path that ends before the last line jumps to the end; the last one falls off it.
  if (!out.lines.empty() && out.lines.back().text == "bra END") out.lines.pop_back();
  std::set<std::string> used;
  for (const Line& l : out.lines) {
    const size_t b = l.text.find("bra ");
    if (b != std::string::npos) used.insert(l.text.substr(b + 4));
  }
  if (used.count("END")) out.lines.push_back({"END", "", {}, ""});
  dropDeadComputations();
  std::erase_if(out.lines, [&](const Line& l) { return !l.label.empty() && !used.count(l.label); });
  renumberLabels();
  return std::move(out);
}

// Labels L1, L2, .. in the order they appear, so that threads with the same code have the same text
// whatever points the evaluator numbered on paths the code does not keep.
void Evaluator::renumberLabels() {
  std::map<std::string, std::string> to;
  for (const Line& l : out.lines)
    if (!l.label.empty() && l.label != "END") {
      std::string n = "L";
      n += std::to_string(to.size() + 1);
      to[l.label] = n;
    }
  for (Line& l : out.lines) {
    if (auto it = to.find(l.label); it != to.end()) l.label = it->second;
    const size_t b = l.text.find("bra ");
    if (b == std::string::npos) continue;
    if (auto it = to.find(l.text.substr(b + 4)); it != to.end()) l.text = l.text.substr(0, b + 4) + it->second;
  }
}

void Evaluator::emit(const std::string& text, const litmus::SourceLoc& origin) {
  if (static_cast<int>(out.lines.size()) >= opt.maxLines)
    throw Error(origin, "the thread's litmus code exceeds " + std::to_string(opt.maxLines) +
                            " lines (fewer iterations with --param, or a smaller launch)");
  out.lines.push_back({"", text, origin, ""});
}

void Evaluator::emitLabel(const std::string& label) { out.lines.push_back({label, "", {}, ""}); }

namespace {

void termRegs(const litmus::Cond& c, std::map<std::string, int>& uses) {
  for (const litmus::Term* t : {&c.lhs, &c.rhs})
    if (t->kind == litmus::Term::Kind::Reg) ++uses[t->name];
  for (const litmus::Cond& k : c.kids) termRegs(k, uses);
}

}  // namespace

// Comparisons kept only for the condition, and other computing lines whose register no line
// reads, are left out of the code.
void Evaluator::dropDeadComputations() {
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::string, int> uses;
    for (const litmus::Cond& e : out.errors) termRegs(e, uses);
    for (const Line& l : out.lines)
      for (size_t p = l.text.find('%'); p != std::string::npos; p = l.text.find('%', p + 1)) {
        size_t e = p + 1;
        while (e < l.text.size() && (std::isalnum(static_cast<unsigned char>(l.text[e])) || l.text[e] == '_')) ++e;
        const std::string name = l.text.substr(p + 1, e - p - 1);
        if (name != l.defines) ++uses[name];
      }
    const size_t before = out.lines.size();
    std::erase_if(out.lines, [&](const Line& l) { return !l.defines.empty() && !uses.count(l.defines); });
    changed = out.lines.size() != before;
  }
}

void Evaluator::note(const Op& op, const std::string& text) {
  const std::string n = op.loc.file + ":" + std::to_string(op.loc.line) + ": note: " + text;
  if (notes_.insert(n).second) out.notes.push_back(n);
}

void Evaluator::fail(const Op& op, const std::string& text) const { throw Error(op.loc, text); }

std::vector<int64_t> Evaluator::key(int pc, const State& st) const {
  std::vector<int64_t> out;
  for (int r : k.liveIn[pc]) {
    const Value& v = st.regs[r];
    out.push_back(static_cast<int64_t>(v.kind));
    if (v.kind == K::Int) out.push_back(v.i);
    if (v.kind == K::Addr) out.insert(out.end(), {v.obj, v.i, static_cast<int64_t>(v.window)});
  }
  for (const auto& [where, v] : st.mem)
    out.insert(out.end(), {where.first, where.second, static_cast<int64_t>(v.kind), v.i, v.obj, v.dyn});
  return out;
}

// Moves the test's registers into the names the point was first emitted with, then branches.
void Evaluator::jumpTo(const Memo& m, const State& st) {
  std::vector<std::pair<int, int>> moves;  // (to, from)
  for (int r : k.liveIn[m.pc]) {
    const Value &want = m.st.regs[r], &have = st.regs[r];
    if (want.kind == K::Dyn && have.kind == K::Dyn && want.dyn != have.dyn) moves.push_back({want.dyn, have.dyn});
  }
  bool clash = false;
  for (const auto& [to, from] : moves)
    for (const auto& [to2, from2] : moves) clash = clash || to == from2;
  const litmus::SourceLoc at = k.body.ops[m.pc].loc;
  auto mov = [&](int to, int from) {
    emit(std::string(dyns_[to].pred ? "mov.pred %" : "mov.b64 %") + dyns_[to].name + ", %" + dyns_[from].name, at);
  };
  if (clash) {  // through fresh registers, so that no move overwrites another's source
    std::vector<std::pair<int, int>> staged;
    for (const auto& [to, from] : moves) {
      const int tmp = newDyn("%tmp", dyns_[from].pred);
      mov(tmp, from);
      staged.push_back({to, tmp});
    }
    moves = staged;
  }
  for (const auto& [to, from] : moves) mov(to, from);
  emit("bra " + m.label, at);
}

void Evaluator::walk(int pc, State st, bool skipMemo) {
  const int n = static_cast<int>(k.body.ops.size());
  for (;;) {
    if (pc >= n) {
      emit("bra END", {});
      return;
    }
    if (k.target[pc] && !skipMemo) {
      auto kk = std::make_pair(pc, key(pc, st));
      if (auto it = memo_.find(kk); it != memo_.end()) {
        jumpTo(it->second, st);
        return;
      }
      const std::string label = newLabel();
      memo_.emplace(std::move(kk), Memo{label, st, pc});
      emitLabel(label);
    }
    skipMemo = false;
    const Op& op = k.body.ops[pc];
    if (++visits_[pc] > opt.maxVisits)
      fail(op, "this instruction ran " + std::to_string(opt.maxVisits) +
                   " times in one thread: a loop that does not end on this launch (give its bound with --param)");
    const Guard g = guardOf(op, st);
    if (op.is("bra")) {
      if (g == Guard::Dynamic) {
        pc = dynamicBranch(pc, op, st);
        if (pc < 0) return;
      } else {
        pc = g == Guard::Run ? k.body.labels.at(op.args.back().name) : pc + 1;
      }
      continue;
    }
    if (g == Guard::Skip) {
      ++pc;
      continue;
    }
    if (op.is("ret") || op.is("exit")) {
      if (g == Guard::Dynamic) fail(op, "a thread's exit that depends on data the test computes is not supported");
      emit("bra END", op.loc);
      return;
    }
    if (op.is("trap") || op.is("brkpt") || (op.is("call") && op.callee == "__assertfail")) {
      if (g == Guard::Dynamic) {
        recordError(op, st.regs[k.reg(op.guard)].dyn, !op.guardNegated);
        ++pc;
        continue;
      }
      fail(op, "every run of this thread reaches '" + op.mnemonic + "' on this launch");
    }
    step(pc, op, st, false);
    ++pc;
  }
}

// The error path of a check: a trap, brkpt or failed assert reached from here by instructions
// that only compute (and printf), within a few dozen instructions.
bool Evaluator::errorSink(int pc, State st) const {
  auto* self = const_cast<Evaluator*>(this);  // quiet steps emit nothing and note nothing
  for (int steps = 0; steps < 64 && pc < static_cast<int>(k.body.ops.size()); ++steps) {
    const Op& op = k.body.ops[pc];
    const Guard g = guardOf(op, st);
    if (g == Guard::Dynamic) return false;
    if (g == Guard::Skip) {
      ++pc;
      continue;
    }
    if (op.is("trap") || op.is("brkpt") || (op.is("call") && op.callee == "__assertfail")) return true;
    if (op.is("bra")) {
      pc = k.body.labels.at(op.args.back().name);
      continue;
    }
    if (op.is("ret") || op.is("exit")) return false;
    if (op.is("call") && op.callee == "vprintf") {
      ++pc;
      continue;
    }
    if (!self->step(pc, op, st, true)) return false;
    ++pc;
  }
  return false;
}

void Evaluator::recordError(const Op& op, int pred, bool whenTrue) {
  auto it = predConds_.find(pred);
  if (pred < 0 || it == predConds_.end()) {
    note(op, "the kernel's check here compares values the test does not keep; it is left out of the condition");
    return;
  }
  out.errors.push_back(whenTrue ? it->second : negate(it->second));
}

int Evaluator::dynamicBranch(int pc, const Op& op, const State& st) {
  const int target = k.body.labels.at(op.args.back().name);
  const Value& g = st.regs[k.reg(op.guard)];
  const bool takenSink = errorSink(target, st), fallSink = errorSink(pc + 1, st);
  if (takenSink && fallSink) fail(op, "both ways of this branch lead to the kernel's error path");
  if (takenSink || fallSink) {  // a check: its failure is a term of the condition
    recordError(op, g.kind == K::Dyn ? g.dyn : -1, takenSink != op.guardNegated);
    return takenSink ? pc + 1 : target;
  }
  if (g.kind != K::Dyn || virtual_.count(g.dyn))
    fail(op, "this branch depends on a value the extraction abstracts (floating point, a clock, data it does not keep)");
  const std::string guard = std::string(op.guardNegated ? "@!%" : "@%") + dyns_[g.dyn].name + " bra ";
  auto kk = std::make_pair(target, key(target, st));
  auto it = memo_.find(kk);
  bool moves = false;
  if (it != memo_.end())
    for (int r : k.liveIn[target]) {
      const Value &want = it->second.st.regs[r], &have = st.regs[r];
      moves = moves || (want.kind == K::Dyn && want.dyn != have.dyn);
    }
  if (it != memo_.end() && !moves) {
    emit(guard + it->second.label, op.loc);
  } else if (it == memo_.end()) {
    const std::string label = newLabel();
    memo_.emplace(std::move(kk), Memo{label, st, target});
    pending_.push_back({target, st, label, true});
    emit(guard + label, op.loc);
  } else {  // a trampoline that renames, then joins the point
    const std::string label = newLabel();
    pending_.push_back({target, st, label, false});
    emit(guard + label, op.loc);
  }
  return pc + 1;
}

}  // namespace detail

bool ThreadCode::empty() const {
  return std::none_of(lines.begin(), lines.end(), [](const Line& l) { return !l.text.empty(); });
}

ThreadCode evaluateThread(const LaunchContext& ctx, const ThreadId& id, int index, LaneOracle& oracle,
                          const ThreadOptions& opt, Value* stopValue) {
  detail::Evaluator ev(ctx, id, index, oracle, opt);
  try {
    return ev.run();
  } catch (const detail::Stop&) {
    if (stopValue) *stopValue = ev.stopValue;
    return {};
  }
}

}  // namespace extract
