// wgmma in a warpgroup (PTX ISA §9.7.15; docs/model.md D45; docs/gpu-runner.md, "Warpgroups").
// The model says what wgmma.mma_async reads, not what it computes: the first accumulator register
// gets the word read at A's address, the second the word read at B's. The runner asks the
// hardware the same question. It keeps the tiles' memory footprint (64 x K of A, K x N of B, the
// same bytes for every dense type) but multiplies them as unsigned bytes (m64nNk32.s32.u8.u8),
// whose sums are exact, with the tiles laid out K-major without swizzling (8-row core matrices of
// 16 bytes). The harness puts a 1 in four bytes of each tile that the test does not use, so that
// D[0][n] (n = 1..4) is byte n-1 of A's first word and D[m][0] (m = 1..4) byte m-1 of B's: the
// bytes of A row 0 meet the ones in B rows 1..4 and vice versa, at offsets 16, 33, 50, 67, which
// are also where a tile read as the other operand has them ([a], [a] reads consistently).
// Everything else of a tile is zero, padded to 2048 bytes so that a core-matrix stride read either
// way stays inside it. Then a shuffle brings the eight products to the first lane.
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>
#include <set>

#include "gpu-runner/ptx_body.h"

namespace gpu {

using litmus::AsyncOp;
using litmus::Error;
using litmus::Opcode;

namespace {

constexpr int kTileBytes = 2048;                      // 64 x 32 bytes: A of every dense shape
constexpr int64_t kOnes[] = {16, 33, 50, 67};         // the harness's ones in every tile
constexpr uint64_t kStrides = (16ull << 32) | (8ull << 16);  // SBO 256 bytes, LBO 128 bytes, >> 4

bool isMma(const Instr& in) { return in.op == Opcode::Async && in.asyncOp == AsyncOp::WgmmaMma; }

// N of "m64nNkK.dtype.atype.btype".
int shapeN(const Instr& in) { return std::stoi(in.target.substr(4, in.target.find('k') - 4)); }

}  // namespace

void planWgmma(const litmus::Test& test, Plan& plan) {
  for (const litmus::Thread& t : test.threads) {
    std::set<std::string> accumulators;
    for (const Instr& in : t.code) {
      if (!isMma(in)) continue;
      for (int i = 0; i < in.vec; ++i) accumulators.insert(in.args[static_cast<size_t>(i)].name);
      for (int i = in.vec; i < in.vec + 2; ++i) {
        const Operand& a = in.args[static_cast<size_t>(i)];
        auto l = std::find_if(plan.locs.begin(), plan.locs.end(), [&](const LocPlan& p) { return p.name == a.name; });
        if (a.kind != Operand::Kind::Addr || a.imm != 0 || l == plan.locs.end() || !l->shared)
          throw Error(a.loc, "the GPU runner cannot run '" + in.text + "': it needs each tile as a shared [location]");
        for (const Element& e : l->elements)
          for (int64_t one : kOnes)
            if (e.bytes > 0 && e.offset <= one && one < e.offset + std::max(e.bytes, 4))
              throw Error(a.loc, "the GPU runner cannot run '" + in.text + "': the test uses byte " +
                                     std::to_string(one) + " of tile '" + l->name + "', which the runner needs");
        // the word the model reads there (its accumulator), initialised even when nothing else
        // accesses it (an element of 0 bytes is only observed, and the harness writes none)
        auto first = std::find_if(l->elements.begin(), l->elements.end(), [](const Element& e) { return e.offset == 0; });
        if (first == l->elements.end()) {
          l->elements.insert(l->elements.begin(), Element{0, 4, false, 0});
          first = l->elements.begin();
        }
        first->bytes = std::max(first->bytes, 4);
        first->init = litmus::initialValue(test.locations[static_cast<size_t>(l - plan.locs.begin())], 0);
        l->wgmmaTile = true;
        l->span = std::max(l->span, kTileBytes);
        l->align = std::max(l->align, 16);
      }
    }
    for (const Instr& in : t.code)
      if (!isMma(in))
        for (const Operand& o : in.args)
          if (o.kind == Operand::Kind::Reg && accumulators.count(o.name))
            throw Error(o.loc, "the GPU runner cannot run '" + in.text + "': the hardware's accumulator %" + o.name +
                                   " holds a product, not the word the model gives it; it can only be observed");
  }
}

void emitTileFill(PtxText& out, const LocPlan& l, int v, const std::string& tag) {
  const std::string s = "%s" + std::to_string(v), loop = "H_TILE" + tag;
  out.op("mov.u32 %h_b, 0");
  out.label(loop);
  out.op("add.u32 %h_c, " + s + ", %h_b");
  out.op("st.shared.u64 [%h_c], 0");
  out.op("st.shared.u64 [%h_c+8], 0");
  out.op("add.u32 %h_b, %h_b, 16");
  out.op("setp.lt.u32 %h_p, %h_b, " + std::to_string(l.span));
  out.op("@%h_p bra " + loop);
  for (int64_t one : kOnes) out.op("st.shared.u8 [" + s + "+" + std::to_string(one) + "], 1");
}

void BodyEmitter::wgmmaInstr(const Instr& in) {
  switch (in.asyncOp) {
    case AsyncOp::WgmmaFence: return out_.op("wgmma.fence.sync.aligned");
    case AsyncOp::WgmmaCommit:
      wgGroups_.push_back(wgOpen_);
      wgOpen_.clear();
      return out_.op("wgmma.commit_group.sync.aligned");
    case AsyncOp::WgmmaWait:
      out_.op("wgmma.wait_group.sync.aligned " + imm(in.args[0].imm));
      while (wgGroups_.size() > static_cast<size_t>(in.args[0].imm)) {
        for (size_t j : wgGroups_.front()) wgmmaExtract(j);
        wgGroups_.erase(wgGroups_.begin());
      }
      return;
    case AsyncOp::WgmmaMma: return wgmmaMma(in);
    default: refuse(in, "the runner has no PTX for this instruction yet");
  }
}

// A no-swizzle K-major descriptor of the tile at [a] in this CTA's shared memory (§9.7.15.5.1).
std::string BodyEmitter::wgmmaDescriptor(const Operand& a) {
  const std::string d = x();
  out_.op("cvt.u64.u32 " + d + ", " + sharedAddress(a, false));
  out_.op("shr.u64 " + d + ", " + d + ", 4");
  out_.op("and.b64 " + d + ", " + d + ", 16383");
  out_.op("or.b64 " + d + ", " + d + ", " + std::to_string(kStrides));
  return d;
}

void BodyEmitter::wgmmaMma(const Instr& in) {
  const size_t j = wgMmas_.size();
  const int n = shapeN(in);
  const std::string acc = "%wg" + std::to_string(t_) + "_" + std::to_string(j) + "_";
  std::string list;
  for (int i = 0; i < n / 2; ++i) list += (i ? ", " : "") + acc + std::to_string(i);
  const std::string a = wgmmaDescriptor(in.args[static_cast<size_t>(in.vec)]);
  const std::string b = wgmmaDescriptor(in.args[static_cast<size_t>(in.vec) + 1]);
  const std::string p = c();
  out_.op("setp.ne.u32 " + p + ", %h_one, %h_one");  // scale-d false: D = A x B
  out_.op("wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k32.s32.u8.u8 {" + list + "}, " + a + ", " + b +
          ", " + p);
  std::vector<std::string> dst;
  for (int i = 0; i < std::min(in.vec, 2); ++i) dst.push_back(reg(in.args[static_cast<size_t>(i)].name));
  wgMmas_.push_back({acc, dst});
  wgOpen_.push_back(j);
}

// The accumulator fragment (§9.7.15.5.1.1): lane l of warp 0 holds D[l/4][2(l%4)] and
// D[l/4][2(l%4)+1] in its first two registers. A's word: D[0][1..4]; B's: D[1..4][0].
void BodyEmitter::wgmmaExtract(size_t j) {
  const WgMma& m = wgMmas_[j];
  w_ = 0;  // its temporaries end with it
  static const std::pair<int, int> kFrom[2][4] = {{{0, 1}, {1, 0}, {1, 1}, {2, 0}}, {{4, 0}, {8, 0}, {12, 0}, {16, 0}}};
  out_.comment("the words wgmma.mma_async #" + std::to_string(j) + " read, from its products");
  for (size_t d = 0; d < m.dst.size(); ++d) {
    const std::string word = w(), byte = w();
    for (int k = 0; k < 4; ++k) {
      const auto [lane, r] = kFrom[d][k];
      out_.op("shfl.sync.idx.b32 " + (k ? byte : word) + ", " + m.acc + std::to_string(r) + ", " + imm(lane) +
              ", 31, 0xffffffff");
      if (k == 0) continue;
      out_.op("and.b32 " + byte + ", " + byte + ", 255");
      out_.op("shl.b32 " + byte + ", " + byte + ", " + imm(8 * k));
      out_.op("or.b32 " + word + ", " + word + ", " + byte);
    }
    out_.op("cvt.u64.u32 " + m.dst[d] + ", " + word);
  }
}

// The end: the model's final registers have every product's read, so the runner waits for the
// groups the test left pending (all four warps: .sync.aligned).
void BodyEmitter::wgmmaDrain() {
  if (wgOpen_.empty() && wgGroups_.empty()) return;
  out_.comment("the end: the thread's pending wgmma groups complete");
  if (!wgOpen_.empty()) {
    out_.op("wgmma.commit_group.sync.aligned");
    wgGroups_.push_back(wgOpen_);
    wgOpen_.clear();
  }
  out_.op("wgmma.wait_group.sync.aligned 0");
  for (const std::vector<size_t>& g : wgGroups_)
    for (size_t j : g) wgmmaExtract(j);
  wgGroups_.clear();
}

void declareWgmmaRegisters(PtxText& out, const litmus::Test& test) {
  for (size_t t = 0; t < test.threads.size(); ++t) {
    size_t j = 0;
    for (const Instr& in : test.threads[t].code)
      if (isMma(in))
        out.op(".reg .b32 %wg" + std::to_string(t) + "_" + std::to_string(j++) + "_<" + std::to_string(shapeN(in) / 2) + ">");
  }
}

}  // namespace gpu
