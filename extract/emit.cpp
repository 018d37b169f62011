// The litmus text of the instructions a test keeps: operands the extraction knows become
// immediates and locations (`[full+8]`, or a `mapa` register for another CTA's copy), values only
// the test computes become its registers. Every line is read back by litmus/'s instruction parser
// before it is kept, so that an extraction never writes a test the checker refuses.
#include <algorithm>

#include "extract/alu.h"
#include "extract/thread_impl.h"
#include "litmus/parse.h"

namespace extract {

int64_t initialValue(int64_t offset) { return offset / 4 + 1; }

namespace detail {

namespace {

using K = Value::Kind;

litmus::Term termOf(const Value& v, const std::string& name, bool isSigned, int bytes) {
  litmus::Term t;
  if (v.kind == K::Dyn) {
    t.kind = litmus::Term::Kind::Reg;
    t.name = name;
  } else {
    t.kind = litmus::Term::Kind::Const;
    t.value = normalize(v.i, bytes, isSigned);
  }
  return t;
}

std::optional<litmus::CmpOp> cmpOf(const std::string& s) {
  if (s == "eq") return litmus::CmpOp::Eq;
  if (s == "ne") return litmus::CmpOp::Ne;
  if (s == "lt" || s == "lo") return litmus::CmpOp::Lt;
  if (s == "le" || s == "ls") return litmus::CmpOp::Le;
  if (s == "gt" || s == "hi") return litmus::CmpOp::Gt;
  if (s == "ge" || s == "hs") return litmus::CmpOp::Ge;
  return std::nullopt;
}

litmus::Cond constant(bool b) {
  litmus::Cond c;
  c.kind = b ? litmus::Cond::Kind::True : litmus::Cond::Kind::False;
  return c;
}

std::string sanitize(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "r" + s;
  return s;
}

}  // namespace

int Evaluator::newDyn(const std::string& ptxReg, bool pred) {
  const std::string base = sanitize(regText(ptxReg));
  const int n = ++dynCount_[base];
  dyns_.push_back({base + "_" + std::to_string(n), pred});
  return static_cast<int>(dyns_.size()) - 1;
}

std::string Evaluator::guardText(const Op& op, const State& st, Guard g) const {
  if (g != Guard::Dynamic) return "";
  const Value& v = st.regs[k.reg(op.guard)];
  if (v.kind != K::Dyn || virtual_.count(v.dyn))
    fail(op, "this instruction's guard depends on a value the extraction abstracts");
  return std::string(op.guardNegated ? "@!%" : "@%") + dyns_[v.dyn].name + " ";
}

std::string Evaluator::renderSource(const Op& op, const State& st, const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::Imm:
      return std::to_string(a.imm);
    case Arg::Kind::Sink:
      return "_";
    case Arg::Kind::Vec: {
      std::string list;
      for (const Arg& e : a.elems) list += (list.empty() ? "" : ", ") + renderSource(op, st, e);
      return "{" + list + "}";
    }
    case Arg::Kind::Reg: {
      const Value v = value(st, a);
      if (v.kind == K::Int) return std::to_string(v.i);
      if (v.kind == K::Dyn && virtual_.count(v.dyn))
        fail(op, "operand '" + a.name + "' comes from an instruction the litmus test cannot express");
      if (v.kind == K::Dyn) return (a.negated ? "!%" : "%") + dyns_[v.dyn].name;
      if (v.kind == K::Addr) fail(op, "operand '" + a.name + "' holds an address where the test needs a value");
      fail(op, "operand '" + a.name + "' depends on values the extraction does not keep");
    }
    default:
      fail(op, "operand '" + formatArg(a) + "' cannot be expressed in a litmus test");
  }
}

std::string Evaluator::renderAddress(const Op& op, const Value& v, std::vector<std::string>& before) {
  if (v.kind != K::Addr || v.obj >= kParamSlots)
    fail(op, "the extraction cannot compute the address this instruction uses");
  const MemObject& o = ctx.objects[v.obj];
  if (v.i < 0) fail(op, "an address before the start of '" + o.ptxName + "'");
  const std::string off = v.i ? "+" + std::to_string(v.i) : "";
  if (o.kind != MemObject::Kind::Shared || o.cta == id.cta) return "[" + o.name + off + "]";
  const int per = ctx.launch.ctasPerCluster();
  if (o.cta / per != id.cluster) fail(op, "an address in a CTA of another cluster");
  const std::string reg = "%ma" + std::to_string(nextMapa());
  before.push_back("mapa.shared::cluster.u32 " + reg + ", " + o.name + ", " + std::to_string(o.cta % per));
  return "[" + reg + off + "]";
}

void Evaluator::recordAccess(const Value& addr, int bytes, bool write) {
  if (addr.kind == K::Addr && addr.obj < kParamSlots) out.accesses.push_back({addr.obj, addr.i, bytes, write});
}

void Evaluator::emitChecked(const Op& op, const std::string& text, const std::vector<std::string>& before) {
  for (const std::string& line : before) emit(line, op.loc);
  try {
    litmus::parseInstruction(text, op.loc, litmus::Dialect::Ptx);
  } catch (const litmus::Error& e) {
    fail(op, "the litmus test cannot express '" + text + "': " + e.message());
  }
  emit(text, op.loc);
}

void Evaluator::emitKept(const Op& op, State& st, Guard g) {
  // fence.mbarrier_init orders the thread's own earlier mbarrier.init (§9.7.13.4): without one it
  // orders nothing, and every thread of a CUTLASS cluster sync executes it
  if (op.is("fence") && op.has("mbarrier_init") && !initsEmitted_) return;
  if (op.is("mbarrier") && op.has("init")) initsEmitted_ = true;
  std::vector<Arg> args = op.args;
  // try_wait's suspend-time hint only bounds how long one try waits
  if (op.is("mbarrier") && op.has("try_wait") && args.size() == 4) args.pop_back();
  const bool dest = writesFirstOperand(op);
  std::vector<std::string> before, parts(args.size());
  int addrIndex = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i == 0 && dest) continue;
    if (args[i].kind != Arg::Kind::Addr) {
      parts[i] = renderSource(op, st, args[i]);
      continue;
    }
    const Value a = addressOf(st, args[i]);
    parts[i] = renderAddress(op, a, before);
    const bool copy = op.is("cp");
    int bytes = 8;
    if (copy && args.size() > 2 && args[2].kind != Arg::Kind::Addr) {
      const Value size = value(st, args[2]);
      bytes = size.isInt() ? static_cast<int>(size.i) : 16;
    }
    recordAccess(a, bytes, !(copy && addrIndex == 1));
    ++addrIndex;
  }
  std::string text = guardText(op, st, g);
  if (dest) {
    const Arg& d = args[0];
    if (d.kind == Arg::Kind::Reg) {
      const int dyn = newDyn(d.name, op.has("try_wait") || op.has("test_wait"));
      parts[0] = "%" + dyns_[dyn].name;
      st.regs[k.reg(d.name)] = Value::dynamic(dyn);
    } else {
      parts[0] = "_";
    }
  }
  text += op.mnemonic;
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : " ") + parts[i];
  emitChecked(op, text, before);
}

// ld, st, atom and red on shared or global memory. Loads of objects nobody writes fold to their
// initial values; a vector access becomes one access per element.
void Evaluator::memoryAccess(const Op& op, State& st) {
  const bool load = op.is("ld") || op.is("ldu"), rmw = op.is("atom");
  const int ai = load || rmw ? 1 : 0;
  const Value addr = addressOf(st, op.args[ai]);
  const int bytes = op.typeBytes();
  if (addr.kind != K::Addr) {
    note(op, "an access whose address depends on data the test does not keep is left out");
    if (load || rmw) setDests(op, st, std::vector<Value>(destCount(op), Value::unknown()));
    return;
  }
  const Arg& data = op.args[load || rmw ? 0 : 1];
  std::vector<Arg> elems = data.kind == Arg::Kind::Vec ? data.elems : std::vector<Arg>{data};
  if (load && ctx.readOnly.count(addr.obj)) {
    for (size_t e = 0; e < elems.size(); ++e) {
      recordAccess(Value::addr(addr.obj, addr.i + static_cast<int64_t>(e) * bytes, addr.window), bytes, false);
      if (elems[e].kind == Arg::Kind::Reg)
        st.regs[k.reg(elems[e].name)] = Value::num(normalize(initialValue(addr.i + static_cast<int64_t>(e) * bytes), bytes, false));
    }
    return;
  }
  if (rmw || op.is("red") || elems.size() == 1) {  // scalar (or a vector atom/red, kept whole)
    std::vector<std::string> before;
    std::string text = guardText(op, st, guardOf(op, st)) + op.mnemonic + " ";
    std::string d;
    if (load || rmw) {
      const int dyn = newDyn(data.kind == Arg::Kind::Reg ? data.name : "%v", false);
      d = "%" + dyns_[dyn].name + ", ";
      if (data.kind == Arg::Kind::Reg) st.regs[k.reg(data.name)] = Value::dynamic(dyn);
    }
    const std::string a = renderAddress(op, addr, before);
    recordAccess(addr, bytes, !load);
    if (load) {
      text += d + a;
    } else {
      text += d + a;
      for (size_t i = ai + 1; i < op.args.size(); ++i) text += ", " + renderSource(op, st, op.args[i]);
    }
    emitChecked(op, text, before);
    return;
  }
  std::string mnemonic;
  for (const std::string& p : op.parts)
    if (p != "v2" && p != "v4" && p != "v8") mnemonic += (mnemonic.empty() ? "" : ".") + p;
  for (size_t e = 0; e < elems.size(); ++e) {
    const Value at = Value::addr(addr.obj, addr.i + static_cast<int64_t>(e) * bytes, addr.window);
    std::vector<std::string> before;
    const std::string a = renderAddress(op, at, before);
    recordAccess(at, bytes, !load);
    std::string text = guardText(op, st, guardOf(op, st)) + mnemonic + " ";
    if (load) {
      const int dyn = newDyn(elems[e].kind == Arg::Kind::Reg ? elems[e].name : "%v", false);
      if (elems[e].kind == Arg::Kind::Reg) st.regs[k.reg(elems[e].name)] = Value::dynamic(dyn);
      text += "%" + dyns_[dyn].name + ", " + a;
    } else {
      text += a + ", " + renderSource(op, st, elems[e]);
    }
    emitChecked(op, text, before);
  }
}

// The condition a comparison's result holds, for a check's error path (E5): setp on test
// registers and numbers, and and/or/not of such predicates.
void Evaluator::recordCondition(const Op& op, const State& st, const std::vector<int>& dyns, Guard g) {
  if (op.is("setp") && op.args.size() >= 3 && !dyns.empty() && dyns[0] >= 0) {
    const Value a = value(st, op.args[1]), b = value(st, op.args[2]);
    const std::optional<litmus::CmpOp> cmp = cmpOf(op.parts[1]);
    const bool simple = op.parts.size() == 3;  // setp.cmp.type
    if (cmp && simple && (a.kind == K::Dyn || a.isInt()) && (b.kind == K::Dyn || b.isInt())) {
      litmus::Cond c;
      c.kind = litmus::Cond::Kind::Cmp;
      c.cmp = *cmp;
      c.lhs = termOf(a, a.kind == K::Dyn ? dyns_[a.dyn].name : "", op.typeSigned(), op.typeBytes());
      c.rhs = termOf(b, b.kind == K::Dyn ? dyns_[b.dyn].name : "", op.typeSigned(), op.typeBytes());
      predConds_[dyns[0]] = c;
      if (dyns.size() > 1 && dyns[1] >= 0) {
        litmus::Cond n;
        n.kind = litmus::Cond::Kind::Not;
        n.kids.push_back(c);
        predConds_[dyns[1]] = n;
      }
    }
  } else if (op.has("pred") && !dyns.empty() && dyns[0] >= 0 && g == Guard::Run) {  // and/or/not.pred
    std::vector<litmus::Cond> kids;
    for (size_t i = 1; i < op.args.size(); ++i) {
      const Value v = value(st, op.args[i]);
      if (v.isInt()) kids.push_back(constant((v.i != 0) != op.args[i].negated));
      else if (v.kind == K::Dyn && predConds_.count(v.dyn)) {
        litmus::Cond c = predConds_[v.dyn];
        if (op.args[i].negated) {
          litmus::Cond n;
          n.kind = litmus::Cond::Kind::Not;
          n.kids.push_back(std::move(c));
          c = std::move(n);
        }
        kids.push_back(std::move(c));
      }
    }
    if (kids.size() == op.args.size() - 1) {
      litmus::Cond c;
      c.kind = op.is("and") ? litmus::Cond::Kind::And : op.is("or") ? litmus::Cond::Kind::Or : litmus::Cond::Kind::Not;
      c.kids = std::move(kids);
      if (c.kind != litmus::Cond::Kind::Not || c.kids.size() == 1) predConds_[dyns[0]] = std::move(c);
    }
  }
}

// A pure instruction with an operand only the test computes: the test computes it too. A
// comparison's result also records the condition it holds, for the kernel's checks.
bool Evaluator::emitDynamicPure(const Op& op, State& st) {
  const std::vector<int> d = destRegs(op);
  const Guard g = guardOf(op, st);
  std::string text = guardText(op, st, g) + op.mnemonic;
  std::vector<int> dyns;
  for (size_t i = 0; i < d.size(); ++i) {
    const bool pred = op.is("setp") || op.has("pred");
    dyns.push_back(d[i] >= 0 ? newDyn(k.regs[d[i]], pred) : -1);
  }
  std::string operands;
  for (int dyn : dyns) operands += (operands.empty() ? "" : "|") + (dyn >= 0 ? "%" + dyns_[dyn].name : "_");
  bool expressible = true;
  for (size_t i = 1; i < op.args.size(); ++i) {
    try {
      operands += ", " + renderSource(op, st, op.args[i]);
    } catch (const litmus::Error&) {
      expressible = false;
    }
  }
  recordCondition(op, st, dyns, g);
  text += " " + operands;
  if (expressible) {
    try {
      litmus::parseInstruction(text, op.loc, litmus::Dialect::Ptx);
    } catch (const litmus::Error&) {
      expressible = false;
    }
  }
  if (expressible && g == Guard::Dynamic)
    for (size_t i = 0; i < d.size(); ++i) {  // the guard may leave the old value in place
      const Value old = st.regs[d[i]];
      if (dyns[i] < 0) continue;
      const std::string to = "%" + dyns_[dyns[i]].name;
      if (old.isInt()) emit(std::string(dyns_[dyns[i]].pred ? "setp.ne.s32 " : "mov.b64 ") + to + ", " + std::to_string(old.i) + (dyns_[dyns[i]].pred ? ", 0" : ""), op.loc);
      if (old.kind == K::Dyn) emit(std::string(dyns_[dyns[i]].pred ? "mov.pred " : "mov.b64 ") + to + ", %" + dyns_[old.dyn].name, op.loc);
    }
  if (expressible) {
    emit(text, op.loc);
    if (d.size() == 1 && dyns[0] >= 0) out.lines.back().defines = dyns_[dyns[0]].name;
  }
  for (size_t i = 0; i < d.size(); ++i)
    if (d[i] >= 0) st.regs[d[i]] = expressible || predConds_.count(dyns[i]) ? Value::dynamic(dyns[i]) : Value::unknown();
  if (!expressible) {
    for (int dyn : dyns)
      if (dyn >= 0) virtual_.insert(dyn);
  }
  return true;
}

}  // namespace detail
}  // namespace extract
