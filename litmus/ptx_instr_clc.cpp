// clusterlaunchcontrol (PTX ISA §9.7.13.17-18) and the small forms the seed documents use around
// synchronization: cvta, nanosleep, createpolicy, exit/ret, and membar.proxy (a synonym of
// fence.proxy). `mov d, LOCATION` is told from a register move by validation, which knows the
// locations (litmus/validate_address.cpp).
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <bit>

#include "litmus/instr_parser.h"

namespace litmus::instr_detail {

namespace {
constexpr std::string_view kCompleteTx = "mbarrier::complete_tx::bytes";
}

// clusterlaunchcontrol.try_cancel.async{.shared::cta}.mbarrier::complete_tx::bytes
// {.multicast::cluster::all}.b128 [addr], [mbar];
// clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, response;
// clusterlaunchcontrol.query_cancel.get_first_ctaid{::x,::y,::z}.b32.b128 d, response;
// clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, w}, response.
void InstrParser::parseClc() {
  in_.op = Opcode::Clc;
  in_.type = Type::B128;
  if (parts_.size() < 2 || (parts_[1].s != "try_cancel" && parts_[1].s != "query_cancel"))
    fail(parts_[0].off, "expected 'clusterlaunchcontrol.try_cancel' or "
                        "'clusterlaunchcontrol.query_cancel'");
  if (parts_[1].s == "query_cancel") return parseQueryCancel();
  in_.clcOp = ClcOp::TryCancel;
  bool async = false, completion = false, type = false;
  for (size_t i = 2; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "async" && !async) async = true;
    else if (p.s == kCompleteTx && !completion) completion = true;
    else if (p.s == "shared::cta" && in_.space == Space::Generic) in_.space = Space::SharedCta;
    else if (p.s == "multicast::cluster::all" && !in_.multicast) in_.multicast = true;
    else if (p.s == "b128" && !type) type = true;
    else fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'clusterlaunchcontrol.try_cancel'");
  }
  if (!async || !completion || !type)
    fail(parts_[0].off, "'clusterlaunchcontrol.try_cancel' requires .async, "
                        ".mbarrier::complete_tx::bytes and .b128");
  takeOperands({Slot::Addr, Slot::Addr}, {},
               "'clusterlaunchcontrol.try_cancel' expects the response address and an mbarrier");
}

void InstrParser::parseQueryCancel() {
  const std::string msg = "expected 'clusterlaunchcontrol.query_cancel.is_canceled.pred.b128' or "
                          "'.get_first_ctaid{::x,::y,::z,.v4}.b32.b128'";
  if (parts_.size() < 3) fail(parts_[0].off, msg);
  const std::string_view what = parts_[2].s;
  std::vector<std::string_view> rest;
  for (size_t i = 3; i < parts_.size(); ++i) rest.push_back(parts_[i].s);
  const int last = static_cast<int>(parts_.size()) - 1;
  if (what == "is_canceled") {
    in_.clcOp = ClcOp::IsCanceled;
    if (rest != std::vector<std::string_view>{"pred", "b128"}) fail(parts_[std::min(3, last)].off, msg);
    return takeOperands({Slot::Reg, Slot::Reg}, {},
                        "'query_cancel.is_canceled' expects a predicate and the response register");
  }
  const std::string_view dims[] = {"get_first_ctaid::x", "get_first_ctaid::y", "get_first_ctaid::z"};
  for (int d = 0; d < 3; ++d)
    if (what == dims[d]) in_.clcDim = d;
  if (in_.clcDim < 0 && what != "get_first_ctaid") fail(parts_[2].off, msg);
  in_.clcOp = ClcOp::FirstCtaid;
  const bool v4 = in_.clcDim < 0;
  const std::vector<std::string_view> want =
      v4 ? std::vector<std::string_view>{"v4", "b32", "b128"} : std::vector<std::string_view>{"b32", "b128"};
  if (rest != want)
    fail(parts_[std::min(3, last)].off,
         v4 ? "'query_cancel.get_first_ctaid' without a dimension requires .v4.b32.b128" : msg);
  if (!v4)
    return takeOperands({Slot::Reg, Slot::Reg}, {},
                        "'query_cancel.get_first_ctaid' expects a destination and the response register");
  takeClcVector();
}

// {x, y, z, w}, response: registers, or the sink `_` for elements that are not wanted.
void InstrParser::takeClcVector() {
  const std::string msg = "'query_cancel.get_first_ctaid.v4' expects {x, y, z, w} (each a register "
                          "or _) and the response register";
  if (ops_.size() != 2 || ops_[0].s.size() < 2 || ops_[0].s.front() != '{' || ops_[0].s.back() != '}')
    fail(ops_.empty() ? parts_[0].off : ops_[0].off, msg);
  std::string_view inner = ops_[0].s.substr(1, ops_[0].s.size() - 2);
  int off = ops_[0].off + 1;
  for (int i = 0; i < 4; ++i) {
    const size_t comma = inner.find(',');
    if ((i < 3) == (comma == std::string_view::npos)) fail(ops_[0].off, msg);
    const std::string_view item = lex::trim(inner.substr(0, comma));
    const int at_ = off + static_cast<int>(inner.substr(0, comma).find(item));
    Operand o;
    o.loc = at(at_);
    if (item == "_") {
      o.name = "_";
    } else if (auto r = lex::readRegister(item, at(at_), false)) {
      o = *r;
    } else {
      fail(at_, msg);
    }
    in_.args.push_back(o);
    if (comma == std::string_view::npos) break;
    inner.remove_prefix(comma + 1);
    off += static_cast<int>(comma) + 1;
  }
  std::optional<Operand> resp = convert(ops_[1], Slot::Reg);
  if (!resp) fail(ops_[1].off, msg);
  in_.args.push_back(*resp);
}

// cvta.space.size d, a (a generic address of a) and cvta.to.space.size d, a (an address of the
// space from a generic one): a names a location, or a register holding an address (§9.7.9.21).
void InstrParser::parseCvta() {
  in_.op = Opcode::Cvta;
  bool to = false;
  std::optional<Piece> space;
  for (size_t i = 1; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "to" && !to && !space) {
      to = true;
    } else if (auto s = spaceFromString(p.s); s && !space &&
               (*s == Space::Global || *s == Space::Shared || *s == Space::SharedCta ||
                *s == Space::SharedCluster)) {
      space = p;
      in_.space = *s;
    } else if (auto t = typeFromString(p.s); t && in_.type == Type::None &&
               (*t == Type::U32 || *t == Type::U64)) {
      in_.type = *t;
    } else {
      fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'cvta' (it takes {.to}.global, "
                  ".shared{::cta,::cluster} and .u32 or .u64)");
    }
  }
  if (!space || in_.type == Type::None)
    fail(parts_[0].off, "'cvta' requires a state space and .u32 or .u64");
  if (in_.type == Type::U32 && (!to || in_.space == Space::Global))
    fail(parts_[0].off, "a 32-bit 'cvta' is only 'cvta.to.shared.u32': generic and global "
                        "addresses are 64 bits");
  in_.addrSpace = to ? in_.space : Space::Generic;
  takeOperands({Slot::Reg, Slot::Sym}, {}, "'cvta' expects a destination and a location (or %register)");
}

// nanosleep.u32 t: a hint to suspend the thread up to t ns; no memory effect (§9.7.19.2).
void InstrParser::parseNanosleep() {
  in_.op = Opcode::Nanosleep;
  if (parts_.size() != 2 || parts_[1].s != "u32") fail(parts_[0].off, "expected 'nanosleep.u32 t'");
  in_.type = Type::U32;
  takeOperands({Slot::Val}, {}, "'nanosleep.u32' expects a time in nanoseconds");
}

// createpolicy.fractional.L2::evict_last{.L2::evict_unchanged}.b64 d, fraction (§9.7.9.18): the
// cache policy that .L2::cache_hint operands take; no memory effect. The fraction is a literal
// in (0, 1]; the register form `d, f` is not in the seeds and is not taken.
void InstrParser::parseCreatePolicy() {
  in_.op = Opcode::CreatePolicy;
  const std::string msg = "expected 'createpolicy.fractional.L2::evict_last{.L2::evict_unchanged}.b64 "
                          "d, fraction' (evict_last, evict_normal, evict_first or evict_unchanged)";
  if (parts_.size() < 4 || parts_[1].s != "fractional") fail(parts_[0].off, msg);
  auto primary = [](std::string_view s) {
    return s == "L2::evict_last" || s == "L2::evict_normal" || s == "L2::evict_first" ||
           s == "L2::evict_unchanged";
  };
  if (!primary(parts_[2].s)) fail(parts_[2].off, msg);
  size_t i = 3;
  if (parts_[i].s == "L2::evict_unchanged" || parts_[i].s == "L2::evict_first") ++i;
  if (i + 1 != parts_.size() || parts_[i].s != "b64") fail(parts_[std::min(i, parts_.size() - 1)].off, msg);
  in_.type = Type::B64;
  if (ops_.size() != 2) fail(ops_.empty() ? parts_[0].off : ops_.back().off, msg);
  std::optional<Operand> d = convert(ops_[0], Slot::Reg);
  if (!d) fail(ops_[0].off, msg);
  in_.args.push_back(*d);
  // the fraction: kept as text-free bits of an f32 (read as .f32 so that 0.25 is accepted)
  const std::optional<Operand> f = lex::looksNumeric(ops_[1].s)
                                       ? std::optional<Operand>(lex::readImmediate(ops_[1].s, at(ops_[1].off), Type::F32))
                                       : std::nullopt;
  if (!f) fail(ops_[1].off, "the fraction of 'createpolicy' must be a literal such as 0.5");
  const float frac = std::bit_cast<float>(static_cast<uint32_t>(f->imm));
  if (!(frac > 0.0f && frac <= 1.0f)) fail(ops_[1].off, "the fraction of 'createpolicy' must be in (0, 1]");
  in_.args.push_back(*f);
}

// exit, ret: the thread ends (§9.7.8.x). `ret` in a kernel's body returns from the kernel.
void InstrParser::parseExit() {
  in_.op = Opcode::Exit;
  for (size_t i = 1; i < parts_.size(); ++i)
    if (parts_[i].s != "uni" || i > 1) fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on '" + name() + "'");
  takeOperands({}, {}, "'" + name() + "' takes no operands");
}

// membar.proxy.kind: a synonym of fence.proxy.kind (§9.7.13.4), for the kinds its syntax block
// gives: .alias, .async, .async.global, .async.shared::{cta,cluster}.
void InstrParser::parseMembarProxy() {
  in_.sem = Sem::Weak;  // parseMembar set fence.sc's fields
  in_.scope = Scope::None;
  in_.semExplicit = in_.scopeExplicit = false;
  std::string kind;
  for (size_t i = 2; i < parts_.size(); ++i) kind += (i > 2 ? "." : "") + std::string(parts_[i].s);
  const bool ok = kind == "alias" || kind == "async" || kind == "async.global" ||
                  kind == "async.shared::cta" || kind == "async.shared::cluster";
  if (!ok)
    fail(parts_.size() > 2 ? parts_[2].off : parts_[1].off,
         "'membar.proxy' takes .alias, .async, .async.global, .async.shared::cta or "
         ".async.shared::cluster");
  parseFence();
}

}  // namespace litmus::instr_detail

namespace litmus::instr_detail {

// st.async{.mmio}.release.scope{.global}.type [a], b (scope .gpu or .sys) and
// red.async{.mmio}.release.scope{.global}.add.type [a], b (scope .gpu or .cluster, and .sys as
// the section's example writes it): sm_100 forms, a release operation on global memory with no
// completion mechanism (§9.7.13.7; docs/model.md D51). `.mmio` requires `.sys`.
void InstrParser::parseAsyncRelease() {
  const bool store = parts_[0].s == "st";
  const std::string who = store ? "st.async" : "red.async";
  Instr fresh;  // the loop of parseStAsync/parseRedAsync may have set fields
  fresh.text = in_.text;
  fresh.loc = in_.loc;
  fresh.guard = in_.guard;
  fresh.guardNegated = in_.guardNegated;
  in_ = fresh;
  in_.op = Opcode::Async;
  in_.asyncOp = store ? AsyncOp::Store : AsyncOp::Reduce;
  in_.semExplicit = in_.scopeExplicit = true;
  std::optional<Piece> mmio, sem, scope, space;
  for (size_t i = 2; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "mmio" && !mmio) mmio = p;
    else if (p.s == "release" && !sem) sem = p;
    else if (auto sc = scopeFromString(p.s); sc && !scope && *sc != Scope::Cta) scope = p, in_.scope = *sc;
    else if (p.s == "global" && !space) space = p, in_.space = Space::Global;
    else if (!store && p.s == "add" && in_.atomOp == AtomOp::None) in_.atomOp = AtomOp::Add;
    else if (auto t = typeFromString(p.s); t && in_.type == Type::None) in_.type = *t;
    else fail(p.off, "unknown qualifier " + dotted(p.s) + " on '" + who + ".release'");
  }
  if (!sem || !scope)
    fail(parts_[0].off, "'" + who + "' on global memory requires .release and a scope");
  in_.sem = Sem::Release;
  if (mmio && in_.scope != Scope::Sys) fail(mmio->off, "'" + who + ".mmio' requires .sys");
  if (store && in_.scope == Scope::Cluster)
    fail(scope->off, "'st.async.release' takes .gpu or .sys");
  const Type t = in_.type;
  const bool storeType = t != Type::None && t != Type::B128 && t != Type::Pred &&
                         (!isFloatType(t) || t == Type::F32 || t == Type::F64);
  const bool typeOk =
      store ? storeType
            : in_.atomOp == AtomOp::Add && (t == Type::U32 || t == Type::S32 || t == Type::U64 || t == Type::S64);
  if (!typeOk)
    fail(parts_[0].off, store ? "'st.async.release' takes .b8-.b64, .u8-.u64, .s8-.s64, .f32 or .f64"
                              : "'red.async.release' takes .add with .u32, .s32, .u64 or .s64");
  takeOperands({Slot::Addr, Slot::Val}, {}, "'" + who + ".release' expects an address and a value");
}

}  // namespace litmus::instr_detail

namespace litmus {

namespace {
std::string dotted(Space s) { return std::string(".") + toString(s); }
std::string bareOrOperand(const Operand& o) {
  return o.kind == Operand::Kind::Addr ? o.name : formatOperand(o, Type::None);
}
}  // namespace

std::optional<std::string> formatMiscInstr(const Instr& in) {
  auto ops = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < in.args.size(); ++i) s += (i > from ? ", " : "") + formatOperand(in.args[i], Type::None);
    return s;
  };
  switch (in.op) {
    case Opcode::Cvta: {
      const std::string d = formatOperand(in.args[0], Type::None) + ", " + bareOrOperand(in.args[1]);
      if (in.space == Space::Generic) return std::string("mov.") + toString(in.type) + " " + d;
      const bool to = in.addrSpace != Space::Generic;
      return std::string("cvta") + (to ? ".to" : "") + dotted(in.space) + "." + toString(in.type) + " " + d;
    }
    case Opcode::Exit: return std::string("exit");
    case Opcode::Nanosleep: return "nanosleep.u32 " + ops(0);
    case Opcode::CreatePolicy:
      return "createpolicy.fractional.L2::evict_last.b64 " + formatOperand(in.args[0], Type::None) + ", " +
             formatOperand(in.args[1], Type::F32);
    case Opcode::Clc:
      if (in.clcOp == ClcOp::TryCancel)
        return std::string("clusterlaunchcontrol.try_cancel.async") +
               (in.space == Space::Generic ? "" : dotted(in.space)) + ".mbarrier::complete_tx::bytes" +
               (in.multicast ? ".multicast::cluster::all" : "") + ".b128 " + ops(0);
      if (in.clcOp == ClcOp::IsCanceled) return "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 " + ops(0);
      if (in.clcDim >= 0)
        return std::string("clusterlaunchcontrol.query_cancel.get_first_ctaid::") + "xyz"[in.clcDim] +
               ".b32.b128 " + ops(0);
      {
        std::string v;
        for (size_t i = 0; i < 4; ++i)
          v += (i ? ", " : "") + (in.args[i].name == "_" ? std::string("_") : formatOperand(in.args[i], Type::None));
        return "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {" + v + "}, " +
               formatOperand(in.args[4], Type::None);
      }
    case Opcode::Async:
      if ((in.asyncOp != AsyncOp::Store && in.asyncOp != AsyncOp::Reduce) || in.sem != Sem::Release) break;
      return std::string(in.asyncOp == AsyncOp::Store ? "st" : "red") + ".async.release" + "." +
             toString(in.scope) + (in.space == Space::Generic ? "" : dotted(in.space)) +
             (in.asyncOp == AsyncOp::Reduce ? ".add" : "") + "." + toString(in.type) + " " +
             formatOperand(in.args[0], Type::None) + ", " + formatOperand(in.args[1], in.type);
    default: break;
  }
  return std::nullopt;
}

}  // namespace litmus
