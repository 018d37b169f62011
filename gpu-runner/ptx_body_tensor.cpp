// Tensor-map TMA and multicast on the GPU: the plan of tensor maps and the buffers tensor copies
// touch, the PTX of cp.async.bulk.tensor, tensormap.replace and .multicast::cluster copies, and
// the tally's per-instance copy of each map (docs/gpu-runner.md, "Tensor maps").
//
// Design: the harness encodes one template per tensor map of the test with
// cuTensorMapEncodeTiled (the test's dims and box, 32-bit elements, dense row-major strides) and
// stores it in the module's global `lt_tmap`. Each instance has its own 128-byte slot for each
// map, like any global location; the tally kernel, which writes the next launch's initial values,
// copies the template into it and points its global_address at that instance's slot of the
// tensor with tensormap.replace, then releases it for the tensormap proxy. A thread that copies
// through a map acquires it (fence.proxy.tensormap::generic.acquire) before its first
// instruction, so the test's own fences are the only ones between its instructions.
#include <algorithm>

#include "gpu-runner/ptx_body.h"
#include "litmus/ptx_format.h"

namespace gpu {

using litmus::AsyncOp;
using litmus::Error;
using litmus::Opcode;
using litmus::Space;

namespace {

constexpr int kMapBytes = 128;

int indexOf(const Plan& plan, const std::string& name) {
  for (size_t v = 0; v < plan.locs.size(); ++v)
    if (plan.locs[v].name == name) return static_cast<int>(v);
  return -1;
}

void addWords(LocPlan& l, int64_t from, int64_t bytes) {
  for (int64_t k = from; k < from + bytes; k += 4) {
    auto e = std::find_if(l.elements.begin(), l.elements.end(), [k](const Element& x) { return x.offset == k; });
    if (e == l.elements.end()) l.elements.push_back({k, 4, false, 0});
    else e->bytes = std::max(e->bytes, 4);
  }
  std::sort(l.elements.begin(), l.elements.end(),
            [](const Element& a, const Element& b) { return a.offset < b.offset; });
}

int64_t elementsOf(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t x : v) n *= x;
  return n;
}

void grow(LocPlan& l, int span, int align) {
  l.align = std::max(l.align, align);
  l.span = std::max(l.span, span);
  l.span = (l.span + l.align - 1) / l.align * l.align;
}

// The buffers a tensor instruction touches: the shared box (128-byte aligned, every word an
// element with its initial value), a shared map (128 bytes).
void planInstr(const litmus::Test& test, const litmus::Thread& t, const Instr& in, Plan& plan) {
  auto loc = [&](const Operand& o) -> LocPlan* {
    const int v = indexOf(plan, litmus::addressLocation(t, o));
    return v < 0 ? nullptr : &plan.locs[static_cast<size_t>(v)];
  };
  if (in.asyncOp == AsyncOp::TensormapReplace && in.space != Space::Global)
    if (LocPlan* l = loc(in.args[0])) grow(*l, kMapBytes, kMapBytes);
  if (in.asyncOp == AsyncOp::TensormapCp)
    if (LocPlan* l = loc(in.args[1])) grow(*l, kMapBytes, kMapBytes);
  if (in.asyncOp != AsyncOp::TensorLoad && in.asyncOp != AsyncOp::TensorStore) return;
  const Operand& box = in.args[in.asyncOp == AsyncOp::TensorLoad ? 0 : 1 + static_cast<size_t>(in.tensorDims)];
  LocPlan* l = loc(box);
  if (!l) return;
  const int64_t bytes = tensorCopyBytes(test, in);
  addWords(*l, box.imm, bytes);
  grow(*l, static_cast<int>(box.imm + bytes), 128);
  if (box.imm % 128 != 0)
    throw Error(in.loc, "the GPU runner cannot run '" + in.text + "': a tensor copy's shared box must be "
                        "128-byte aligned, and " + litmus::formatOperand(box, litmus::Type::None) + " is not");
}

}  // namespace

int64_t tensorCopyBytes(const litmus::Test& test, const Instr& in) {
  const Operand& m = in.args[in.asyncOp == AsyncOp::TensorLoad ? 1 : 0];
  for (const litmus::Location& l : test.locations)
    if (l.name == m.name) return elementsOf(l.tensorBox) * 4;
  return 0;
}

void planTensors(const litmus::Test& test, Plan& plan) {
  int maps = 0;
  for (size_t v = 0; v < test.locations.size(); ++v) {
    const litmus::Location& d = test.locations[v];
    LocPlan& l = plan.locs[v];
    if (!d.tensorOf.empty()) {
      l.tensorMap = maps++;
      l.tensor = indexOf(plan, d.tensorOf);
      l.elements.clear();  // the tally writes the map itself
      grow(l, kMapBytes, kMapBytes);
      LocPlan& tensor = plan.locs[static_cast<size_t>(l.tensor)];
      addWords(tensor, 0, elementsOf(d.tensorDims) * 4);
      for (Element& e : tensor.elements) e.init = litmus::initialValue(test.locations[static_cast<size_t>(l.tensor)], e.offset);
      grow(tensor, static_cast<int>(elementsOf(d.tensorDims) * 4), 16);
      for (const litmus::Term& term : test.observed)
        if (term.kind == litmus::Term::Kind::Mem && litmus::splitElementName(term.name)->first == d.name)
          throw Error(term.loc, "the GPU runner cannot observe tensor map '" + d.name +
                                    "': the hardware's map is an opaque 128-byte object");
    }
  }
  int64_t extent = 0;  // the largest tensor a map describes: what a replaced address must hold
  for (const litmus::Location& d : test.locations)
    if (!d.tensorOf.empty()) extent = std::max(extent, elementsOf(d.tensorDims) * 4);
  for (const litmus::Thread& t : test.threads)
    for (const Instr& in : t.code) {
      if (in.op == Opcode::Async) planInstr(test, t, in, plan);
      if (in.op == Opcode::Async && in.asyncOp == AsyncOp::TensormapReplace) {
        // the new address: a location named bare, or a register that cvta/mov filled with one
        // (that location must be laid out as a tensor too: its extent and 16-byte alignment)
        litmus::Operand at = in.args[1];
        if (at.kind == Operand::Kind::Reg) at.kind = Operand::Kind::RegAddr;
        const std::string name = litmus::addressLocation(t, at);
        if (name.empty())
          throw Error(in.args[1].loc, "the GPU runner needs the new global_address to be a location's "
                                      "address (a location, or a register that cvta or mov gave one)");
        LocPlan& to = plan.locs[static_cast<size_t>(indexOf(plan, name))];
        addWords(to, 0, extent);
        grow(to, static_cast<int>(extent), 16);
      }
    }
  for (auto& l : plan.locs)
    for (Element& e : l.elements)
      if (e.init == 0) e.init = litmus::initialValue(test.locations[static_cast<size_t>(&l - plan.locs.data())], e.offset);
  for (size_t v = 0; v < test.locations.size(); ++v) {
    if (test.locations[v].copyOf.empty()) continue;
    const int root = indexOf(plan, test.locations[v].copyOf);
    if (root > static_cast<int>(v))
      throw Error(test.locations[v].loc, "the GPU runner needs '" + test.locations[v].copyOf +
                                              "' declared before its copy '" + test.locations[v].name + "'");
    LocPlan &l = plan.locs[v], &r = plan.locs[static_cast<size_t>(root)];
    l.copyOf = root;
    grow(r, l.span, l.align);
    grow(l, r.span, r.align);
  }
}

// ---- the instructions ---------------------------------------------------------------------

// A coordinate or a ctaMask as the PTX wants it: .b32 (coordinates) or .b16 (mask).
std::string BodyEmitter::tensorValue(const Operand& o, int bits) {
  if (o.kind == Operand::Kind::Imm) {
    if (bits == 32) return imm(static_cast<int32_t>(o.imm));
    const std::string r = h();
    out_.op("mov.b16 " + r + ", " + imm(o.imm & 0xffff));
    return r;
  }
  const std::string r = bits == 32 ? w() : h();
  out_.op("cvt.u" + std::to_string(bits) + ".u64 " + r + ", " + value64(o));
  return r;
}

void BodyEmitter::tensorInstr(const Instr& in) {
  const std::string g = memGuard(in);
  if (in.asyncOp == AsyncOp::TensormapReplace) {
    const Operand& v = in.args[1];
    const std::string value = v.kind == Operand::Kind::Addr ? "%a" + std::to_string(indexOf(plan_, v.name)) : value64(v);
    const std::string map = in.space == Space::Global ? address(in, in.args[0], Space::Global)
                                                      : address(in, in.args[0], Space::SharedCta);
    // With a warp-wide tensormap.cp_fenceproxy after it, every lane writes the same value, so
    // that each lane's copy follows its own write in program order.
    const auto& code = test_.threads[static_cast<size_t>(t_)].code;
    const bool warpCopy = std::any_of(code.begin(), code.end(), [](const Instr& x) {
      return x.op == Opcode::Async && x.asyncOp == AsyncOp::TensormapCp;
    });
    return out_.op((warpCopy ? laneGuard(in) : g) + "tensormap.replace.tile.global_address." + litmus::toString(in.space) +
                   ".b1024.b64 " + map + ", " + value);
  }
  if (in.asyncOp == AsyncOp::TensormapCp) {
    // .sync.aligned: the whole warp executes it, with the same operands. On the H100 it copies
    // once per warp: run in lane mode (32 instances, 32 maps) only 1 in 32 instances got its new
    // map (results/h100/new-instructions/tma.txt), so the plan runs such tests in warp mode, where every
    // lane holds the one instance's addresses, and every lane executes it, unguarded.
    if (!warpMode_ || !in.guard.empty())
      refuse(in, "'.sync.aligned' needs the whole warp to execute it with one instance's operands "
                 "(warp mode, no guard)");
    return out_.op(std::string("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.") +
                   litmus::toString(in.scope) + ".sync.aligned " + address(in, in.args[0], Space::Global) +
                   ", " + address(in, in.args[1], Space::SharedCta) + ", 128");
  }
  if (in.asyncOp == AsyncOp::Copy) {  // cp.async.bulk ... .multicast::cluster
    checkMulticast(in);
    const std::string mask = tensorValue(in.args[4], 16);
    return out_.op(g + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster " +
                   asyncAddress(in, in.args[0], Space::SharedCluster, true) + ", " +
                   asyncAddress(in, in.args[1], Space::Global, true) + ", " + imm(in.args[2].imm) + ", " +
                   asyncAddress(in, in.args[3], Space::SharedCluster, false) + ", " + mask);
  }
  const bool load = in.asyncOp == AsyncOp::TensorLoad;
  const size_t m = load ? 1 : 0;
  std::string coords;
  for (int i = 0; i < in.tensorDims; ++i)
    coords += (i ? ", " : "") + tensorValue(in.args[m + 1 + static_cast<size_t>(i)], 32);
  const std::string tensor = "[%g" + std::to_string(indexOf(plan_, in.args[m].name)) + ", {" + coords + "}]";
  const std::string mn = "cp.async.bulk.tensor." + std::to_string(in.tensorDims) + "d.";
  if (!load)
    return out_.op(g + mn + "global.shared::cta.tile.bulk_group " + tensor + ", " +
                   asyncAddress(in, in.args[m + 1 + static_cast<size_t>(in.tensorDims)], Space::SharedCta, true));
  const size_t mb = m + 1 + static_cast<size_t>(in.tensorDims);
  checkMbarrierCta(in, in.args[0], in.args[mb]);
  std::string text = g + mn + "shared::cluster.global.tile.mbarrier::complete_tx::bytes" +
                     (in.multicast ? ".multicast::cluster " : " ") +
                     asyncAddress(in, in.args[0], Space::SharedCluster, true) + ", " + tensor + ", " +
                     asyncAddress(in, in.args[mb], Space::SharedCluster, false);
  if (in.multicast) {
    checkMulticast(in);
    text += ", " + tensorValue(in.args.back(), 16);
  }
  out_.op(text);
}

// A multicast copy lands in other CTAs, which must outlive it: the runner waits for it only
// where the test itself expects its bytes on each destination CTA's copy of the mbarrier.
void BodyEmitter::checkMulticast(const Instr& in) const {
  const Operand& mask = in.args.back();
  if (mask.kind != Operand::Kind::Imm) refuse(in, "the runner needs the ctaMask as an immediate");
  const int64_t bytes = in.asyncOp == AsyncOp::Copy ? in.args[2].imm : tensorCopyBytes(test_, in);
  const LocPlan& mbar = target(in, in.args[in.asyncOp == AsyncOp::Copy ? 3 : 2 + static_cast<size_t>(in.tensorDims)]);
  const int root = mbar.copyOf >= 0 ? mbar.copyOf : static_cast<int>(&mbar - plan_.locs.data());
  for (const ThreadPlan& tp : plan_.threads) {
    if (!((mask.imm >> tp.rank) & 1) || tp.cta == test_.threads[static_cast<size_t>(t_)].cta) continue;
    bool expected = false;
    for (const Instr& x : test_.threads[static_cast<size_t>(&tp - plan_.threads.data())].code)
      if (x.op == Opcode::Mbarrier && x.expectTx && x.args.size() > 2 && x.args[2].kind == Operand::Kind::Imm &&
          x.args[2].imm == bytes) {
        const int v = indexOf(plan_, x.args[1].name);
        expected = expected || (v >= 0 && (v == root || plan_.locs[static_cast<size_t>(v)].copyOf == root));
      }
    // or the runner drains that copy at its end (ptx_body_async.cpp, drainOf)
    for (const ThreadPlan& drainer : plan_.threads)
      for (const Drain& d : drainer.drains) {
        const LocPlan& l = plan_.locs[static_cast<size_t>(d.loc)];
        expected = expected || (l.ownerCta == tp.cta && (d.loc == root || l.copyOf == root));
      }
    if (!expected)
      refuse(in, "CTA " + std::to_string(tp.cta) + " of the mask must outlive the copy, and the runner relies "
                 "on its thread expecting the " + std::to_string(bytes) + " bytes on its copy of the mbarrier");
  }
}

// Before the first instruction: acquire every map the thread copies through, which the tally
// wrote and released in the previous kernel; and make the shared initial values visible to the
// async proxy (as asyncPrologue does for cp.async.bulk).
void BodyEmitter::tensorPrologue() {
  const auto& code = test_.threads[static_cast<size_t>(t_)].code;
  std::vector<int> maps;
  bool copies = false;
  for (const Instr& in : code) {
    if (in.op != Opcode::Async) continue;
    copies = copies || in.asyncOp == AsyncOp::TensorLoad || in.asyncOp == AsyncOp::TensorStore;
    for (const Operand& o : in.args) {
      const int v = o.kind == Operand::Kind::Addr ? indexOf(plan_, o.name) : -1;
      if (v >= 0 && plan_.locs[static_cast<size_t>(v)].tensorMap >= 0 &&
          std::find(maps.begin(), maps.end(), v) == maps.end())
        maps.push_back(v);
    }
  }
  if (maps.empty() && !copies) return;
  const std::string lane0 = warpMode_ ? "@%h_lane0 " : "";
  out_.comment("the start: the tensor maps the tally wrote, acquired for the tensormap proxy");
  if (copies) out_.op(lane0 + "fence.proxy.async");
  for (int v : maps) out_.op(lane0 + "fence.proxy.tensormap::generic.acquire.gpu [%g" + std::to_string(v) + "], 128");
}

// ---- the module and the tally -------------------------------------------------------------

std::string tensorMapDeclaration(const Plan& plan) {
  int maps = 0;
  for (const LocPlan& l : plan.locs) maps += l.tensorMap >= 0;
  return maps ? ".global .align 128 .b8 lt_tmap[" + std::to_string(kMapBytes * maps) + "];\n\n" : "";
}

bool alignsShared128(const Plan& plan) {
  return std::any_of(plan.locs.begin(), plan.locs.end(), [](const LocPlan& l) { return l.shared && l.align >= 128; });
}

// In the tally, for the next launch (%h_A: the map's slot): the template, then its
// global_address pointed at the instance's slot of the tensor, released for the tensormap proxy.
void emitTensorMapInit(PtxText& out, const Plan& plan, const LocPlan& l) {
  out.comment("tensor map " + l.name + ": the template, pointed at this instance's " +
              plan.locs[static_cast<size_t>(l.tensor)].name);
  out.op("mov.u64 %h_B, lt_tmap");
  out.op("add.u64 %h_B, %h_B, " + std::to_string(kMapBytes * l.tensorMap));
  for (int k = 0; k < kMapBytes; k += 8) {
    out.op("@%h_init ld.global.u64 %h_C, [%h_B+" + std::to_string(k) + "]");
    out.op("@%h_init st.global.u64 [%h_A+" + std::to_string(k) + "], %h_C");
  }
  out.op("mov.u64 %h_B, %h_A");
  const LocPlan& t = plan.locs[static_cast<size_t>(l.tensor)];
  emitSlotAddress(out, "p_nlp", t.index, plan.shape.globalLocations, "%h_n32", "%h_next", "%h_C");
  out.op("@%h_init tensormap.replace.tile.global_address.global.b1024.b64 [%h_B], %h_C");
  out.op("@%h_init fence.proxy.tensormap::generic.release.gpu");
}

}  // namespace gpu
