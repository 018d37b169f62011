// Bulk and asynchronous operations and the cluster instructions: cp.async.bulk (with commit_group
// and wait_group), st.async, red.async, tensormap.cp_fenceproxy, the uni-directional proxy fences,
// mapa, getctarank, elect.sync, bar.warp.sync (PTX ISA §9.7.9.25, §9.7.13).
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "litmus/instr_parser.h"

namespace litmus::instr_detail {

namespace {
constexpr std::string_view kCompleteTx = "mbarrier::complete_tx::bytes";
}

// The size operand of a bulk copy: an immediate, a positive multiple of 16 bytes (§9.7.9.25.4).
// Litmus tests copy a few words; 1024 bytes keeps the events of one copy within the engines' bound.
void InstrParser::takeSize(const Piece& p) {
  const Operand& size = in_.args[2];
  if (size.kind != Operand::Kind::Imm)
    fail(p.off, "the size of 'cp.async.bulk' must be an immediate number of bytes");
  if (size.imm <= 0 || size.imm % 16 != 0 || size.imm > 1024)
    fail(p.off, "size " + std::to_string(size.imm) +
                    " is not a positive multiple of 16 bytes up to 1024");
}

// cp.async.bulk.dst.src.completion{.L2::cache_hint} [dst], [src], size{, [mbar]}{, policy},
// cp.async.bulk.commit_group, cp.async.bulk.wait_group{.read} N.
void InstrParser::parseCpAsync() {
  in_.op = Opcode::Async;
  if (parts_.size() > 2 && parts_[1].s == "async" && parts_[2].s != "bulk") return parseCpAsyncNonBulk();
  std::string full(parts_[0].s);
  for (size_t i = 1; i < parts_.size() && i < 4; ++i) full += "." + std::string(parts_[i].s);
  if (parts_.size() < 3 || parts_[1].s != "async" || parts_[2].s != "bulk")
    fail(parts_[0].off, "'" + full + "' is not supported yet (of the cp family, only cp.async.bulk)");
  if (parts_.size() > 3 && parts_[3].s == "tensor") return parseCpAsyncTensor();
  if (parts_.size() > 3 && parts_[3].s == "prefetch")
    fail(parts_[3].off, "'" + full + "' is not supported yet: prefetches are outside the model");
  if (parts_.size() > 3 && parts_[3].s == "commit_group") {
    in_.asyncOp = AsyncOp::Commit;
    for (size_t i = 4; i < parts_.size(); ++i)
      fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on '" + full + "'");
    return takeOperands({}, {}, "'" + full + "' takes no operands");
  }
  if (parts_.size() > 3 && parts_[3].s == "wait_group") {
    in_.asyncOp = AsyncOp::Wait;
    for (size_t i = 4; i < parts_.size(); ++i) {
      if (parts_[i].s != "read" || in_.readOnly)
        fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on '" + full + "'");
      in_.readOnly = true;
    }
    takeOperands({Slot::Val}, {}, "'" + full + "' expects the number of groups that may stay pending");
    if (in_.args[0].kind != Operand::Kind::Imm || in_.args[0].imm < 0 || in_.args[0].imm > 63)
      fail(ops_[0].off, "'" + full + "' takes an immediate count 0-63");
    return;
  }
  in_.asyncOp = AsyncOp::Copy;
  std::vector<Piece> spaces;
  std::optional<Piece> completion;
  bool hint = false;
  for (size_t i = 3; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (spaceFromString(p.s) && spaces.size() < 2) spaces.push_back(p);
    else if ((p.s == kCompleteTx || p.s == "bulk_group") && !completion) completion = p;
    else if (p.s == "L2::cache_hint" && !hint) hint = true;
    else if (p.s == "multicast::cluster" && !in_.multicast) in_.multicast = true;
    else fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'cp.async.bulk'");
  }
  if (spaces.size() != 2 || !completion)
    fail(parts_[0].off, "'cp.async.bulk' needs a destination and a source state space and a "
                        "completion mechanism (.mbarrier::complete_tx::bytes or .bulk_group)");
  in_.space = *spaceFromString(spaces[0].s);
  in_.srcSpace = *spaceFromString(spaces[1].s);
  in_.bulkGroup = completion->s == "bulk_group";
  const bool toShared = in_.space == Space::SharedCluster || in_.space == Space::SharedCta;
  const bool ok = in_.bulkGroup ? in_.space == Space::Global && in_.srcSpace == Space::SharedCta
                                : toShared && (in_.srcSpace == Space::Global ||
                                               (in_.space == Space::SharedCluster &&
                                                in_.srcSpace == Space::SharedCta));
  if (!ok)
    fail(spaces[0].off, "'cp.async.bulk' copies global to .shared::cluster or .shared::cta, or "
                        ".shared::cta to .shared::cluster (both with .mbarrier::complete_tx::bytes), "
                        "or .shared::cta to global (with .bulk_group)");
  std::vector<Slot> slots{Slot::Addr, Slot::Addr, Slot::Val};
  if (!in_.bulkGroup) slots.push_back(Slot::Addr);
  if (in_.multicast && (in_.space != Space::SharedCluster || in_.srcSpace != Space::Global))
    fail(parts_[0].off, "'.multicast::cluster' copies .global into .shared::cluster");
  if (in_.multicast) slots.push_back(Slot::Val);  // ctaMask
  if (hint) slots.push_back(Slot::Reg);
  takeOperands(slots, {}, std::string("'cp.async.bulk' expects a destination, a source, a size") +
                              (in_.bulkGroup ? "" : " and an mbarrier") +
                              (in_.multicast ? ", then a ctaMask" : "") +
                              (hint ? ", then a cache policy" : ""));
  if (hint) in_.args.pop_back();
  takeSize(ops_[2]);
  if (in_.multicast) checkCtaMask(ops_[4]);
}

// st.async{.weak}{.shared::cluster}{.mbarrier::complete_tx::bytes}.type [a], b, [mbar]: a weak
// store into the shared memory of another CTA of the cluster, then complete-tx on its mbarrier.
void InstrParser::parseStAsync() {
  in_.op = Opcode::Async;
  in_.asyncOp = AsyncOp::Store;
  in_.space = Space::SharedCluster;
  for (size_t i = 2; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "weak") in_.semExplicit = true;
    else if (p.s == "shared::cluster" || p.s == kCompleteTx) continue;
    else if (p.s == "release" || p.s == "mmio")
      return parseAsyncRelease();  // the global forms (sm_100): ptx_instr_clc.cpp
    else if (p.s == "v2" || p.s == "v4") fail(p.off, "vector st.async is not supported yet");
    else if (auto t = typeFromString(p.s); t && in_.type == Type::None &&
             (*t == Type::B32 || *t == Type::B64 || *t == Type::U32 || *t == Type::S32 ||
              *t == Type::F32 || *t == Type::F64))
      in_.type = *t;
    else fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'st.async'");
  }
  if (in_.type == Type::None)
    fail(parts_[0].off, "'st.async' requires a type (.b32, .b64, .u32, .s32, .f32 or .f64)");
  takeOperands({Slot::Addr, Slot::Val, Slot::Addr}, {},
               "'st.async' expects an address, a value and an mbarrier");
}

// red.async.relaxed.cluster{.shared::cluster}{.mbarrier::complete_tx::bytes}.op.type [a], b,
// [mbar] (§9.7.13.7): a relaxed RMW on another CTA's shared memory, then complete-tx.
void InstrParser::parseRedAsync() {
  in_.op = Opcode::Async;
  in_.asyncOp = AsyncOp::Reduce;
  in_.space = Space::SharedCluster;
  in_.sem = Sem::Relaxed;
  in_.scope = Scope::Cluster;
  in_.semExplicit = in_.scopeExplicit = true;
  bool sem = false, scope = false;
  for (size_t i = 2; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (p.s == "relaxed" && !sem) sem = true;
    else if (p.s == "cluster" && !scope) scope = true;
    else if (p.s == "shared::cluster" || p.s == kCompleteTx) continue;
    else if (p.s == "release" || p.s == "mmio" || p.s == "global")
      return parseAsyncRelease();  // the global forms (sm_100): ptx_instr_clc.cpp
    else if (auto op = atomOpFromString(p.s); op && in_.atomOp == AtomOp::None) in_.atomOp = *op;
    else if (auto t = typeFromString(p.s); t && in_.type == Type::None) in_.type = *t;
    else fail(p.off, "unknown qualifier " + dotted(p.s) + " on 'red.async'");
  }
  if (!sem || !scope) fail(parts_[0].off, "'red.async' requires .relaxed.cluster");
  const AtomOp op = in_.atomOp;
  const Type t = in_.type;
  const bool ok = ((op == AtomOp::Inc || op == AtomOp::Dec) && t == Type::U32) ||
                  ((op == AtomOp::Min || op == AtomOp::Max) && (t == Type::U32 || t == Type::S32)) ||
                  ((op == AtomOp::And || op == AtomOp::Or || op == AtomOp::Xor) && t == Type::B32) ||
                  (op == AtomOp::Add && (t == Type::U32 || t == Type::S32 || t == Type::U64));
  if (!ok)
    fail(parts_[0].off, "'red.async' takes .inc/.dec .u32, .min/.max .u32/.s32, .and/.or/.xor "
                        ".b32 or .add .u32/.s32/.u64");
  takeOperands({Slot::Addr, Slot::Val, Slot::Addr}, {},
               "'red.async' expects an address, a value and an mbarrier");
}

// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
// [dst], [src], 128 (§9.7.13.16): a generic-proxy copy, then a release proxy fence half.
void InstrParser::parseTensormapCp() {
  if (parts_.size() > 1 && parts_[1].s == "replace") return parseTensormapReplace();
  in_.op = Opcode::Async;
  in_.asyncOp = AsyncOp::TensormapCp;
  const std::vector<std::string_view> fixed{"cp_fenceproxy", "global", "shared::cta",
                                            "tensormap::generic", "release"};
  const std::string want =
      "'tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.SCOPE.sync.aligned'";
  if (parts_.size() != 9) fail(parts_[0].off, "expected " + want);
  for (size_t i = 0; i < fixed.size(); ++i)
    if (parts_[i + 1].s != fixed[i]) fail(parts_[i + 1].off, "expected " + want);
  const auto scope = scopeFromString(parts_[6].s);
  if (!scope || parts_[7].s != "sync" || parts_[8].s != "aligned")
    fail(parts_[6].off, "expected " + want);
  in_.space = Space::Global;
  in_.srcSpace = Space::SharedCta;
  in_.sem = Sem::Release;
  in_.scope = *scope;
  takeOperands({Slot::Addr, Slot::Addr, Slot::Val}, {},
               "'tensormap.cp_fenceproxy' expects a destination, a source and the size 128");
  if (in_.args[2].kind != Operand::Kind::Imm || in_.args[2].imm != 128)
    fail(ops_[2].off, "the size of 'tensormap.cp_fenceproxy' must be 128");
}

// fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster,
// fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster,
// fence.proxy.tensormap::generic.release.scope, fence.proxy.tensormap::generic.acquire.scope
// [addr], 128.
void InstrParser::parseUniProxyFence() {
  const bool async = parts_[2].s == "async::generic";
  const std::string full = "fence.proxy." + std::string(parts_[2].s);
  if (parts_.size() < 5) fail(parts_[2].off, "'" + full + "' requires .release or .acquire and a scope");
  const bool release = parts_[3].s == "release";
  if (!release && parts_[3].s != "acquire")
    fail(parts_[3].off, "'" + full + "' requires .release or .acquire");
  size_t next = 4;
  if (async) {
    const std::string_view restrict = release ? "sync_restrict::shared::cta" : "sync_restrict::shared::cluster";
    if (parts_[4].s != restrict)
      fail(parts_[4].off, "'" + full + "." + std::string(parts_[3].s) + "' requires ." +
                              std::string(restrict) + ".cluster");
    ++next;
  }
  if (next + 1 != parts_.size() || !scopeFromString(parts_[next].s) ||
      (async && parts_[next].s != "cluster"))
    fail(parts_[std::min(next, parts_.size() - 1)].off,
         "'" + full + "' ends with a scope" + (async ? " (.cluster)" : ""));
  in_.op = Opcode::FenceProxy;
  in_.proxyKind = async ? (release ? FenceProxyKind::AsyncGenericRelease : FenceProxyKind::AsyncGenericAcquire)
                        : (release ? FenceProxyKind::TensormapRelease : FenceProxyKind::TensormapAcquire);
  in_.sem = release ? Sem::Release : Sem::Acquire;
  in_.scope = *scopeFromString(parts_[next].s);
  if (in_.proxyKind != FenceProxyKind::TensormapAcquire)
    return takeOperands({}, {}, "'" + full + "' takes no operands");
  takeOperands({Slot::Addr, Slot::Val}, {}, "'" + full + ".acquire' expects an address and the size 128");
  if (in_.args[1].kind != Operand::Kind::Imm || in_.args[1].imm != 128)
    fail(ops_[1].off, "the size of '" + full + ".acquire' must be 128");
}

// mapa{.shared::cluster}.u32|.u64 d, x, rank (§9.7.9.22): the address of x in the shared memory
// of the CTA of that rank in the cluster.
void InstrParser::parseMapa() {
  in_.op = Opcode::Mapa;
  Quals q = collect(kSpace | kType);
  if (q.space && in_.space != Space::SharedCluster)
    fail(q.space->off, "'mapa' takes only .shared::cluster (or no space: generic addresses)");
  if (in_.type != Type::U32 && in_.type != Type::U64) fail(parts_[0].off, "'mapa' requires .u32 or .u64");
  takeOperands({Slot::Reg, Slot::Sym, Slot::Val}, {},
               "'mapa' expects a destination, a shared location (or %register) and a CTA rank");
}

// getctarank{.shared::cluster}.u32|.u64 d, a: the rank of the CTA whose shared memory holds a.
void InstrParser::parseGetCtaRank() {
  in_.op = Opcode::GetCtaRank;
  Quals q = collect(kSpace | kType);
  if (q.space && in_.space != Space::SharedCluster)
    fail(q.space->off, "'getctarank' takes only .shared::cluster (or no space: generic addresses)");
  if (in_.type != Type::U32 && in_.type != Type::U64)
    fail(parts_[0].off, "'getctarank' requires .u32 or .u64");
  takeOperands({Slot::Reg, Slot::Sym}, {},
               "'getctarank' expects a destination and a shared location (or %register)");
}

// elect.sync d|p, membermask (§9.7.13.12); `_` is the sink for d.
void InstrParser::parseElect() {
  in_.op = Opcode::Elect;
  if (parts_.size() != 2 || parts_[1].s != "sync")
    fail(parts_[0].off, "expected 'elect.sync d|p, membermask'");
  const std::string msg = "'elect.sync' expects d|p (d may be _) and a member mask";
  if (ops_.size() != 2) fail(ops_.empty() ? parts_[0].off : ops_.back().off, msg);
  const Piece dp = ops_[0];
  const size_t bar = dp.s.find('|');
  if (bar == std::string_view::npos) fail(dp.off, msg);
  const std::string_view d = lex::trim(dp.s.substr(0, bar)), p = lex::trim(dp.s.substr(bar + 1));
  Operand sink;
  sink.name = "_";
  sink.loc = at(dp.off);
  std::optional<Operand> dst = d == "_" ? sink : lex::readRegister(d, at(dp.off), false);
  std::optional<Operand> pred = lex::readRegister(p, at(dp.off + static_cast<int>(bar) + 1), false);
  if (!dst || !pred) fail(dp.off, msg);
  in_.args = {*dst, *pred};
  std::optional<Operand> mask = convert(ops_[1], Slot::Val);
  if (!mask) fail(ops_[1].off, msg);
  in_.args.push_back(*mask);
}

// bar.warp.sync membermask (§9.7.13.2).
void InstrParser::parseWarpSync() {
  in_.op = Opcode::Bar;
  in_.barOp = BarOp::WarpSync;
  for (size_t i = 3; i < parts_.size(); ++i)
    fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on 'bar.warp.sync'");
  if (parts_.size() < 3 || parts_[2].s != "sync") fail(parts_[0].off, "expected 'bar.warp.sync membermask'");
  takeOperands({Slot::Val}, {}, "'bar.warp.sync' expects a member mask");
}

// griddepcontrol.launch_dependents / griddepcontrol.wait (§9.7.13.13): no operands.
void InstrParser::parseGriddep() {
  in_.op = Opcode::GridDep;
  if (parts_.size() < 2) fail(parts_[0].off, "expected 'griddepcontrol.launch_dependents' or 'griddepcontrol.wait'");
  if (parts_[1].s == "launch_dependents") in_.gridOp = GridOp::LaunchDependents;
  else if (parts_[1].s == "wait") in_.gridOp = GridOp::Wait;
  else fail(parts_[1].off, "unknown action " + dotted(parts_[1].s) + " (expected .launch_dependents or .wait)");
  for (size_t i = 2; i < parts_.size(); ++i)
    fail(parts_[i].off, "unknown qualifier " + dotted(parts_[i].s) + " on 'griddepcontrol'");
  takeOperands({}, {}, "'griddepcontrol' takes no operands");
}

}  // namespace litmus::instr_detail
