// Operand reading and printing for flattened instructions.
#include <algorithm>
#include <cctype>

#include "extract/flatten.h"
#include "extract/op.h"
#include "litmus/ptx_format.h"

namespace extract {

namespace {

using litmus::Error;
using litmus::SourceLoc;
using litmus::lex::trim;

std::vector<std::string_view> splitTop(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : sep;
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
    if (c == sep && depth <= 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

std::optional<int64_t> literal(std::string_view t) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F' || t[1] == 'd' || t[1] == 'D'))
    return litmus::lex::encodeFloat(t, t[1] == 'f' || t[1] == 'F' ? litmus::Type::F32 : litmus::Type::F64);
  std::string s(t);
  if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();  // 5U
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'X')) s[1] = 'x';
  return litmus::lex::parseInteger(s);
}

Arg name(std::string_view t, const SourceLoc& loc, const Resolver& r) {
  Arg a;
  const std::string s(t);
  if (isSpecialRegister(s)) {
    a.kind = Arg::Kind::Reg;
    a.special = true;
    a.name = s;
    return a;
  }
  if (std::string reg = r.reg(s); !reg.empty()) {
    a.kind = Arg::Kind::Reg;
    a.name = reg;
    return a;
  }
  if (s[0] == '%') throw Error(loc, "register '" + s + "' is not declared");
  if (std::string label = r.label(s); !label.empty()) {
    a.kind = Arg::Kind::Label;
    a.name = label;
    return a;
  }
  a.kind = Arg::Kind::Sym;
  a.name = r.sym(s);
  return a;
}

Arg address(std::string_view inner, const SourceLoc& loc, const Resolver& r) {
  Arg a;
  a.kind = Arg::Kind::Addr;
  inner = trim(inner);
  size_t op = std::string_view::npos;
  for (size_t i = 1; i < inner.size(); ++i)
    if (inner[i] == '+' || inner[i] == '-') {
      op = i;
      break;
    }
  std::string_view base = trim(inner.substr(0, op));
  if (std::optional<int64_t> v = literal(base); v && op == std::string_view::npos) {
    a.imm = *v;  // an absolute address
    return a;
  }
  const Arg b = name(base, loc, r);
  a.name = b.name;
  a.baseIsReg = b.kind == Arg::Kind::Reg;
  if (op != std::string_view::npos) {
    std::string_view off = trim(inner.substr(op + 1));
    const bool minus = inner[op] == '-';
    if (!off.empty() && off[0] == '-') {  // [%rd1+-8]
      off.remove_prefix(1);
      a.imm = -literal(off).value_or(0);
    } else {
      std::optional<int64_t> v = literal(off);
      if (!v) throw Error(loc, "address offset '" + std::string(off) + "' is not a number");
      a.imm = minus ? -*v : *v;
    }
  }
  return a;
}

Arg parseArg(std::string_view t, const SourceLoc& loc, const Resolver& r) {
  Arg a;
  if (t == "_") {
    a.kind = Arg::Kind::Sink;
    return a;
  }
  if (t.front() == '[') return address(t.substr(1, t.size() - 2), loc, r);
  if (t.front() == '{') {
    a.kind = Arg::Kind::Vec;
    for (std::string_view e : splitTop(t.substr(1, t.size() - 2), ',')) a.elems.push_back(parseArg(e, loc, r));
    return a;
  }
  if (std::vector<std::string_view> pair = splitTop(t, '|'); pair.size() == 2) {
    a.kind = Arg::Kind::Pair;
    for (std::string_view e : pair) a.elems.push_back(parseArg(e, loc, r));
    return a;
  }
  if (t.front() == '!') {
    a = parseArg(trim(t.substr(1)), loc, r);
    a.negated = true;
    return a;
  }
  if (std::optional<int64_t> v = literal(t)) {
    a.imm = *v;
    return a;
  }
  if (t.front() == '-' || std::isdigit(static_cast<unsigned char>(t.front())))
    throw Error(loc, "malformed number '" + std::string(t) + "'");
  return name(t, loc, r);
}

// call{.uni} (ret, ..), func, (arg, ..): the lists are optional.
void parseCall(Op& op, std::string_view rest, const SourceLoc& loc, const Resolver& r) {
  std::vector<std::string_view> items = splitTop(rest, ',');
  auto list = [&](std::string_view s) {
    std::vector<std::string> out;
    for (std::string_view e : splitTop(s.substr(1, s.size() - 2), ','))
      if (!e.empty()) out.push_back(r.sym(std::string(e)));
    return out;
  };
  size_t i = 0;
  if (i < items.size() && !items[i].empty() && items[i].front() == '(') op.callRets = list(items[i++]);
  if (i >= items.size() || items[i].empty()) throw Error(loc, "call without a function");
  op.callee = std::string(items[i++]);
  if (op.callee[0] == '%') throw Error(loc, "indirect call through '" + op.callee + "' is not supported");
  if (i < items.size() && !items[i].empty() && items[i].front() == '(') op.callArgs = list(items[i++]);
}

}  // namespace

bool isSpecialRegister(const std::string& n) {
  static const char* kNames[] = {
      "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock64",
      "%clock_hi", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%lanemask_eq",
      "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%cluster_ctarank",
      "%cluster_nctarank", "%is_explicit_cluster", "%dynamic_smem_size", "%total_smem_size",
      "%aggr_smem_size", "%reserved_smem_offset_begin", "%reserved_smem_offset_end",
      "%reserved_smem_offset_cap", "%current_graph_exec"};
  if (std::find_if(std::begin(kNames), std::end(kNames), [&](const char* k) { return n == k; }) != std::end(kNames))
    return true;
  for (const char* base : {"%tid.", "%ntid.", "%ctaid.", "%nctaid.", "%clusterid.", "%nclusterid.",
                           "%cluster_ctaid.", "%cluster_nctaid."})
    for (const char* dim : {"x", "y", "z"})
      if (n == std::string(base) + dim) return true;
  return n.rfind("%envreg", 0) == 0 || n.rfind("%pm", 0) == 0;
}

Op parseOp(const std::string& text, const SourceLoc& loc, const Resolver& r) {
  const litmus::lex::InstrPieces p = litmus::lex::splitInstruction(text, loc);
  Op op;
  op.loc = loc;
  if (!p.guard.empty()) {
    op.guard = r.reg(std::string(p.guard));
    if (op.guard.empty()) op.guard = r.reg("%" + std::string(p.guard));
    if (op.guard.empty()) throw Error(loc, "guard '" + std::string(p.guard) + "' is not a declared predicate");
    op.guardNegated = p.guardNegated;
  }
  for (const auto& part : p.parts) {
    op.parts.emplace_back(part.s);
    op.mnemonic += (op.mnemonic.empty() ? "" : ".") + std::string(part.s);
  }
  if (op.is("call")) {
    const size_t m = p.parts.back().off + p.parts.back().s.size();
    parseCall(op, trim(p.text.substr(m - p.off)), loc, r);
    return op;
  }
  for (const auto& o : p.operands) {
    SourceLoc at = loc;
    if (at.col) at.col += o.off;
    op.args.push_back(parseArg(o.s, at, r));
  }
  return op;
}

bool Op::has(const char* part) const { return std::find(parts.begin(), parts.end(), part) != parts.end(); }

int Op::typeBytes() const {
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (int b = extract::typeBytes(*it)) return *it == "pred" ? 1 : b;
  return 0;
}

bool Op::typeSigned() const {
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (extract::typeBytes(*it)) return (*it)[0] == 's';
  return false;
}

std::string formatArg(const Arg& a) {
  std::string out = a.negated ? "!" : "";
  switch (a.kind) {
    case Arg::Kind::Reg:
    case Arg::Kind::Sym:
    case Arg::Kind::Label:
      return out + a.name;
    case Arg::Kind::Imm:
      return out + std::to_string(a.imm);
    case Arg::Kind::Sink:
      return "_";
    case Arg::Kind::Addr:
      if (a.name.empty()) return "[" + std::to_string(a.imm) + "]";
      return "[" + a.name + (a.imm ? (a.imm > 0 ? "+" : "") + std::to_string(a.imm) : "") + "]";
    case Arg::Kind::Vec:
    case Arg::Kind::Pair: {
      std::string list;
      for (const Arg& e : a.elems) list += (list.empty() ? "" : a.kind == Arg::Kind::Vec ? ", " : "|") + formatArg(e);
      return a.kind == Arg::Kind::Vec ? "{" + list + "}" : list;
    }
  }
  return out;
}

}  // namespace extract
