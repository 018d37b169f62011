// wgmma (PTX ISA §9.7.15, as far as memory is concerned: docs/model.md D45) and setmaxnreg
// (§9.7.19.6: no memory effect). A litmus test names an operand tile by its shared location,
// `[a]`, where a kernel passes a 64-bit matrix descriptor built from the tile's address
// (docs/format.md).
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <charconv>

#include "litmus/instr_parser.h"

namespace litmus::instr_detail {

namespace {

// K of the shape for the multiplicand type (§9.7.15.5.1); 0: a type we do not take.
int shapeK(std::string_view atype) {
  if (atype == "f16" || atype == "bf16") return 16;
  if (atype == "tf32") return 8;
  if (atype == "e4m3" || atype == "e5m2" || atype == "s8" || atype == "u8") return 32;
  return 0;
}

std::optional<int> number(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

// wgmma.{fence,commit_group,wait_group,mma_async}.sync.aligned...
void InstrParser::parseWgmma() {
  in_.op = Opcode::Async;
  if (parts_.size() < 2)
    fail(parts_[0].off, "'wgmma' needs .fence, .mma_async, .commit_group or .wait_group");
  const Piece& kind = parts_[1];
  const std::string full = "wgmma." + std::string(kind.s);
  if (kind.s == "mma_async" && parts_.size() > 2 && parts_[2].s == "sp")
    fail(parts_[2].off, "'wgmma.mma_async.sp' (sparse A) is not supported yet");
  if (parts_.size() < 4 || parts_[2].s != "sync" || parts_[3].s != "aligned")
    fail(kind.off,
         "'" + full + "' requires .sync.aligned (all threads of the warpgroup execute it)");
  if (kind.s == "mma_async") return parseWgmmaMma();
  for (size_t i = 4; i < parts_.size(); ++i)
    fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on '" + full + "'");
  if (kind.s == "fence" || kind.s == "commit_group") {
    in_.asyncOp = kind.s == "fence" ? AsyncOp::WgmmaFence : AsyncOp::WgmmaCommit;
    return takeOperands({}, {}, "'" + full + "' takes no operands");
  }
  if (kind.s != "wait_group")
    fail(kind.off, "unknown instruction '" + full +
                       "' (wgmma is .fence, .mma_async, .commit_group or .wait_group)");
  in_.asyncOp = AsyncOp::WgmmaWait;
  takeOperands({Slot::Val}, {},
               "'wgmma.wait_group' expects the number of groups that may stay pending");
  if (in_.args[0].kind != Operand::Kind::Imm || in_.args[0].imm < 0 || in_.args[0].imm > 63)
    fail(ops_[0].off, "'wgmma.wait_group' takes an immediate count 0-63 (an integer constant)");
}

// wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype {d..}, [a], [b], scale-d{, imm-scale-a,
// imm-scale-b{, imm-trans-a, imm-trans-b}}. The shape and types are kept as written in `target`.
void InstrParser::parseWgmmaMma() {
  in_.asyncOp = AsyncOp::WgmmaMma;
  if (parts_.size() != 8)
    fail(parts_[0].off, "expected 'wgmma.mma_async.sync.aligned.SHAPE.DTYPE.ATYPE.BTYPE'");
  const Piece& shape = parts_[4];
  const std::string_view atype = parts_[6].s, btype = parts_[7].s, dtype = parts_[5].s;
  const int k = shapeK(atype);
  if (k == 0)
    fail(parts_[6].off, "multiplicand type " + dotted(atype) +
                            " is not supported (f16, bf16, tf32, e4m3, e5m2, s8, u8)");
  const bool integer = atype == "s8" || atype == "u8";
  const bool fp8 = atype == "e4m3" || atype == "e5m2";
  const bool btypeOk = integer ? (btype == "s8" || btype == "u8")
                       : fp8   ? (btype == "e4m3" || btype == "e5m2")
                               : btype == atype;
  if (!btypeOk)
    fail(parts_[7].off,
         "multiplicand type " + dotted(btype) + " does not go with " + dotted(atype));
  const bool dtypeOk =
      integer ? dtype == "s32"
              : (dtype == "f32" || (dtype == "f16" && atype != "bf16" && atype != "tf32"));
  if (!dtypeOk)
    fail(parts_[5].off, "accumulator type " + dotted(dtype) + " does not go with " + dotted(atype));
  const std::string_view s = shape.s;
  const size_t kAt = s.find('k');
  const auto n = s.size() > 4 && s.substr(0, 4) == "m64n" && kAt != std::string_view::npos
                     ? number(s.substr(4, kAt - 4))
                     : std::nullopt;
  const auto kk = kAt != std::string_view::npos ? number(s.substr(kAt + 1)) : std::nullopt;
  if (!n || !kk || *n < 8 || *n > 256 || *n % 8 != 0 || *kk != k)
    fail(shape.off, "shape " + dotted(s) + ": expected m64nNk" + std::to_string(k) +
                        " with N a multiple of 8 "
                        "from 8 to 256 (§9.7.15.5.1)");
  in_.target = std::string(s) + "." + std::string(dtype) + "." + std::string(atype) + "." +
               std::string(btype);
  takeWgmmaOperands(integer);
}

// {d..}, [a], [b], then scale-d and the immediates: integer types take scale-d only, the others
// also imm-scale-a and imm-scale-b (1 or -1), f16/bf16 further imm-trans-a and imm-trans-b (0, 1).
void InstrParser::takeWgmmaOperands(bool integer) {
  const std::string msg =
      "'wgmma.mma_async' expects {accumulators}, [a], [b], scale-d" +
      std::string(integer ? "" : ", imm-scale-a, imm-scale-b{, imm-trans-a, imm-trans-b}");
  if (ops_.size() < 4) fail(parts_[0].off, msg);
  const Piece& d = ops_[0];
  if (d.s.empty() || d.s.front() != '{') fail(d.off, msg);
  in_.vec = 1 + static_cast<int>(std::count(d.s.begin(), d.s.end(), ','));
  takeBraceList(d, Slot::Reg, msg);
  for (size_t i = 1; i <= 2; ++i) {
    const Piece& tile = ops_[i];
    if (!tile.s.empty() && tile.s.front() == '{')
      fail(tile.off,
           "'wgmma.mma_async' with A in registers is not supported yet: name both tiles as "
           "[location]");
    if (tile.s.empty() || tile.s.front() != '[')
      fail(tile.off,
           "a matrix descriptor in a register is not supported: a litmus test names the tile "
           "by its shared location, [a] (docs/format.md)");
    in_.args.push_back(*convert(tile, Slot::Addr));
  }
  const size_t rest = ops_.size() - 3;
  if (rest != 1 && rest != 3 && rest != 5) fail(ops_.back().off, msg);
  if (integer && rest != 1) fail(ops_[4].off, msg);
  for (size_t i = 3; i < ops_.size(); ++i) {
    std::optional<Operand> o = convert(ops_[i], i == 3 ? Slot::Val : Slot::Val);
    if (!o) fail(ops_[i].off, msg);
    if (i > 3 && o->kind != Operand::Kind::Imm)
      fail(ops_[i].off, "'wgmma.mma_async': imm-scale and imm-trans are immediates");
    const bool scale = i == 4 || i == 5;
    if (i > 3 && (scale ? (o->imm != 1 && o->imm != -1) : (o->imm != 0 && o->imm != 1)))
      fail(ops_[i].off, std::string("'wgmma.mma_async': ") +
                            (scale ? "imm-scale-a/b is 1 or -1" : "imm-trans-a/b is 0 or 1"));
    in_.args.push_back(*o);
  }
}

// setmaxnreg.{inc,dec}.sync.aligned.u32 N: N from 24 to 256, a multiple of 8 (§9.7.19.6). It
// changes the warp's register budget only.
void InstrParser::parseSetMaxNReg() {
  in_.op = Opcode::SetMaxNReg;
  const std::string want = "expected 'setmaxnreg.{inc,dec}.sync.aligned.u32 N'";
  if (parts_.size() != 5) fail(parts_[0].off, want);
  if (parts_[1].s != "inc" && parts_[1].s != "dec") fail(parts_[1].off, want);
  if (parts_[2].s != "sync" || parts_[3].s != "aligned")
    fail(parts_[2].off, "'setmaxnreg' requires .sync.aligned");
  if (parts_[4].s != "u32") fail(parts_[4].off, "'setmaxnreg' requires .u32");
  in_.atomOp = parts_[1].s == "inc" ? AtomOp::Inc : AtomOp::Dec;
  in_.type = Type::U32;
  takeOperands({Slot::Val}, {}, "'setmaxnreg' expects the register count N");
  const Operand& nreg = in_.args[0];
  if (nreg.kind != Operand::Kind::Imm || nreg.imm < 24 || nreg.imm > 256 || nreg.imm % 8 != 0)
    fail(ops_[0].off,
         "'setmaxnreg' takes an immediate register count from 24 to 256, a multiple of 8");
}

}  // namespace litmus::instr_detail
