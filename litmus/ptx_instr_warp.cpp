// The warp collectives (PTX ISA §9.7.13.8-12): vote (deprecated), vote.sync, match.sync,
// activemask and redux.sync. Each computes its destination from the operands of every lane of its
// member mask (docs/model.md D40-D42); here they are parsed, checked and printed back.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "litmus/instr_parser.h"
#include "litmus/instructions.h"

namespace litmus {
namespace instr_detail {

namespace {

std::optional<WarpOp> voteMode(std::string_view s) {
  if (s == "all") return WarpOp::All;
  if (s == "any") return WarpOp::Any;
  if (s == "uni") return WarpOp::Uni;
  if (s == "ballot") return WarpOp::Ballot;
  return std::nullopt;
}

std::optional<WarpOp> reduxOp(std::string_view s) {
  static constexpr std::pair<std::string_view, WarpOp> kOps[] = {
      {"add", WarpOp::Add}, {"min", WarpOp::Min}, {"max", WarpOp::Max},
      {"and", WarpOp::And}, {"or", WarpOp::Or},   {"xor", WarpOp::Xor}};
  for (const auto& [w, op] : kOps)
    if (w == s) return op;
  return std::nullopt;
}

// The qualifiers of one collective, as written: which are there and where.
struct WarpQuals {
  std::optional<Piece> sync, mode, type, abs, nan;
};

}  // namespace

// vote / match / activemask / redux: qualifiers in any order, then the checks of §9.7.13.8-12.
void InstrParser::parseWarp() {
  in_.op = Opcode::Warp;
  const std::string m = name();
  WarpQuals q;
  for (size_t i = 1; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    std::optional<Piece>* slot = nullptr;
    if (p.s == "sync" && m != "activemask") slot = &q.sync;
    else if (m == "vote" && voteMode(p.s)) slot = &q.mode;
    else if (m == "match" && (p.s == "any" || p.s == "all")) slot = &q.mode;
    else if (m == "redux" && reduxOp(p.s)) slot = &q.mode;
    else if (m == "redux" && p.s == "abs") slot = &q.abs;
    else if (m == "redux" && p.s == "NaN") slot = &q.nan;
    else if (typeFromString(p.s)) slot = &q.type;
    if (!slot) fail(p.off, "unknown qualifier " + dotted(p.s) + " on '" + m + "'");
    if (*slot) fail(p.off, "second qualifier " + dotted(p.s) + " (already " + dotted((*slot)->s) + ")");
    *slot = p;
  }
  if (q.type) in_.type = *typeFromString(q.type->s);
  in_.warpSync = q.sync.has_value();
  if (m == "activemask") {
    in_.warpOp = WarpOp::Activemask;
    if (in_.type != Type::B32) fail(q.type ? q.type->off : parts_[0].off, "'activemask' requires .b32");
    return takeOperands({Slot::Reg}, {}, "'activemask.b32' expects a destination register");
  }
  if (m != "vote" && !q.sync) fail(parts_[0].off, "'" + m + "' requires .sync");
  if (!q.mode) fail(parts_[0].off, m == "vote"    ? "'vote' requires .all, .any, .uni or .ballot"
                                   : m == "match" ? "'match' requires .any or .all"
                                                  : "'redux.sync' requires an operation");
  if (!q.type) fail(parts_[0].off, "'" + m + "' requires a type");
  if (m == "vote") return parseVote(q.mode->s, *q.type);
  if (m == "match") return parseMatch(q.mode->s, *q.type);
  parseRedux(*q.mode, *q.type, q.abs, q.nan);
}

// vote{.sync}.{all,any,uni}.pred d, {!}a{, membermask}; vote{.sync}.ballot.b32 d, {!}a{, mask}.
void InstrParser::parseVote(std::string_view mode, const Piece& type) {
  in_.warpOp = *voteMode(mode);
  const bool ballot = in_.warpOp == WarpOp::Ballot;
  if (in_.type != (ballot ? Type::B32 : Type::Pred))
    fail(type.off, std::string("'vote.") + std::string(mode) + "' requires " + (ballot ? ".b32" : ".pred"));
  const std::string msg = std::string("'") + (in_.warpSync ? "vote.sync" : "vote") +
                          "' expects a destination, a predicate (or !predicate)" +
                          (in_.warpSync ? " and a member mask" : "");
  takeMaskedOperands({ballot ? Slot::Reg : Slot::Pred, Slot::Pred}, in_.warpSync, msg);
}

// match.any.sync.type d, a, membermask; match.all.sync.type d{|p}, a, membermask (.b32, .b64).
void InstrParser::parseMatch(std::string_view mode, const Piece& type) {
  in_.warpOp = mode == "any" ? WarpOp::MatchAny : WarpOp::MatchAll;
  if (in_.type != Type::B32 && in_.type != Type::B64) fail(type.off, "'match.sync' requires .b32 or .b64");
  const std::string msg = "'match." + std::string(mode) + ".sync' expects a destination" +
                          (in_.warpOp == WarpOp::MatchAll ? " (or d|p)" : "") +
                          ", a source register and a member mask";
  std::optional<Operand> pred;
  if (!ops_.empty()) {
    const Piece dp = ops_[0];
    const size_t bar = dp.s.find('|');
    if (bar != std::string_view::npos) {
      const int off = dp.off + static_cast<int>(bar) + 1;
      if (in_.warpOp == WarpOp::MatchAny)
        fail(off, "'match.any.sync' has no predicate destination (only match.all has d|p)");
      pred = lex::readRegister(lex::trim(dp.s.substr(bar + 1)), at(off), false);
      if (!pred) fail(off, msg);
      ops_[0].s = lex::trim(dp.s.substr(0, bar));
    }
  }
  takeMaskedOperands({Slot::Reg, Slot::Reg}, true, msg);
  if (pred) in_.args.insert(in_.args.begin() + 1, *pred);
}

// redux.sync.op{.abs}{.NaN}.type d, a, membermask: .add/.min/.max on .u32/.s32, .and/.or/.xor on
// .b32, .min/.max on .f32 (with .abs and .NaN, which only .f32 takes).
void InstrParser::parseRedux(const Piece& op, const Piece& type, const std::optional<Piece>& abs,
                             const std::optional<Piece>& nan) {
  in_.warpOp = *reduxOp(op.s);
  const bool bitwise = in_.warpOp == WarpOp::And || in_.warpOp == WarpOp::Or || in_.warpOp == WarpOp::Xor;
  const bool minmax = in_.warpOp == WarpOp::Min || in_.warpOp == WarpOp::Max;
  const bool f32 = in_.type == Type::F32;
  const bool ok = bitwise ? in_.type == Type::B32
                          : in_.type == Type::U32 || in_.type == Type::S32 || (minmax && f32);
  if (!ok)
    fail(type.off, "'redux.sync." + std::string(op.s) + "' requires " +
                       (bitwise ? ".b32" : minmax ? ".u32, .s32 or .f32" : ".u32 or .s32"));
  for (const auto& flag : {abs, nan})
    if (flag && !f32) fail(flag->off, dotted(flag->s) + " requires .f32 (redux.sync.min/max.f32)");
  in_.absVal = abs.has_value();
  in_.nanVal = nan.has_value();
  takeMaskedOperands({Slot::Reg, Slot::Reg}, true, "'redux.sync' expects a destination, a source "
                                                   "register and a member mask");
}

// The operands `slots`, then (when `mask`) a member mask: an immediate, read untyped, or a
// register.
void InstrParser::takeMaskedOperands(std::vector<Slot> slots, bool mask, const std::string& msg) {
  const Type type = in_.type;
  if (mask) slots.push_back(Slot::Val);
  in_.type = Type::None;  // the mask is a plain number whatever the instruction's type
  takeOperands(slots, {}, msg);
  in_.type = type;
  for (size_t i = 0; i + 1 < in_.args.size(); ++i)
    if (in_.args[i].negated && !(takesPredicate(in_.warpOp) && i == 1))
      throw Error(in_.args[i].loc, msg);  // only vote's source predicate may be negated
}

}  // namespace instr_detail

int warpMaskIndex(const Instr& in) {
  if (in.op != Opcode::Warp || in.warpOp == WarpOp::Activemask || (takesPredicate(in.warpOp) && !in.warpSync))
    return -1;
  return static_cast<int>(in.args.size()) - 1;  // the mask comes last
}

std::string warpMnemonic(const Instr& in) {
  switch (in.warpOp) {
    case WarpOp::All: return in.warpSync ? "vote.sync.all" : "vote.all";
    case WarpOp::Any: return in.warpSync ? "vote.sync.any" : "vote.any";
    case WarpOp::Uni: return in.warpSync ? "vote.sync.uni" : "vote.uni";
    case WarpOp::Ballot: return in.warpSync ? "vote.sync.ballot" : "vote.ballot";
    case WarpOp::MatchAny: return "match.any.sync";
    case WarpOp::MatchAll: return "match.all.sync";
    case WarpOp::Activemask: return "activemask";
    default: break;
  }
  std::string out = "redux.sync." + std::string(warpOpInfo(in.warpOp).name);
  if (in.absVal) out += ".abs";
  if (in.nanVal) out += ".NaN";
  return out;
}

}  // namespace litmus
