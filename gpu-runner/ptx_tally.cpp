// The tally kernel, run after each test launch on the same stream: one thread per instance reads
// the instance's observed registers and final memory, counts the outcome in the GPU hash table
// (lanes with equal outcomes add once, through match.any), resets the instance group's spin
// counter, and writes the next launch's initial values into the other location buffer. So the
// host never copies or clears anything between launches.
#include <algorithm>

#include "gpu-runner/ptx_gen.h"

namespace gpu {

void emitTestKernel(PtxText& out, const litmus::Test& test, const Plan& plan);  // ptx_kernel.cpp

namespace {

std::string num(int64_t v) { return std::to_string(v); }
std::string k(size_t i) { return "%k" + std::to_string(i); }

void signExtend(PtxText& out, const std::string& r, const Element& e) {
  if (!e.isSigned || e.bytes >= 8) return;
  out.op("shl.b64 " + r + ", " + r + ", " + num(64 - 8 * e.bytes));
  out.op("shr.s64 " + r + ", " + r + ", " + num(64 - 8 * e.bytes));
}

// Reads one tagged result slot at %h_A into k(i) (ptx_gen.h): when the tag is not this launch's,
// the value is unknown: k(i) becomes 0 and `bit` is set in the mask key `mask`. The slot's tag is
// then overwritten with the sentinel, so the next launch must write it again.
void readSlot(PtxText& out, const std::string& value, const std::string& mask, int bit) {
  out.op("mov.b64 %h_Y, 0");
  if (value.empty())
    out.op("@%h_valid ld.global.u64 %h_Y, [%h_A+8]");
  else
    out.op("@%h_valid ld.global.v2.u64 {" + value + ", %h_Y}, [%h_A]");
  out.op("setp.ne.and.u64 %h_p, %h_Y, %h_tag, %h_valid");
  out.op("@%h_p or.b64 " + mask + ", " + mask + ", " + hex(uint64_t{1} << std::min(bit, 63)));
  if (!value.empty()) out.op("@%h_p mov.b64 " + value + ", 0");
  out.op("@%h_valid st.global.u64 [%h_A+8], 0");
}

// A location in the surface array (ptx_body_image.cpp): the element of %h_A + offset in the buffer
// at `base`, as the array's (x in bytes, y) in %h_c and %h_d.
void arrayElement(PtxText& out, const std::string& base, int offset) {
  out.op("sub.u64 %h_W, %h_A, " + base);
  if (offset) out.op("add.u64 %h_W, %h_W, " + num(offset));
  out.op("shr.u64 %h_W, %h_W, 2");
  out.op("cvt.u32.u64 %h_d, %h_W");
  emitArrayCoordinates(out, "", "%h_d", "%h_c", "%h_d", true);
}

// A location in the constant bank (ptx_kernel.cpp): instance %h_n32's word, its global address in %h_A.
void bankWord(PtxText& out, const Plan& plan, const LocPlan& l) {
  out.op("mad.lo.u32 %h_x, %h_n32, " + num(plan.bankWords) + ", " + num(l.bankWord));
  out.op("mul.wide.u32 %h_A, %h_x, 4");
  out.op("add.u64 %h_A, %h_A, %h_cbank");
}

void emitKeys(PtxText& out, const Plan& plan) {
  const size_t m = plan.observed.size();
  const std::string terms = k(m), threads = k(m + 1);
  out.op("mov.b64 " + terms + ", 0");
  out.op("mov.b64 " + threads + ", 0");
  for (size_t i = 0; i < m; ++i) {
    const ObsPlan& o = plan.observed[i];
    out.op("mov.b64 " + k(i) + ", " + num(o.kind == ObsPlan::Kind::Constant ? o.value : 0));
    if (o.kind == ObsPlan::Kind::Constant) continue;
    if (o.kind == ObsPlan::Kind::Global) {
      const LocPlan& l = plan.locs[static_cast<size_t>(o.loc)];
      const Element& e = l.elements[static_cast<size_t>(o.elem)];
      if (l.bankWord >= 0) {  // one 32-bit word (plan.cpp)
        bankWord(out, plan, l);
        out.op("@%h_valid ld.global.u32 %h_x, [%h_A]");
        out.op("cvt.u64.u32 " + k(i) + ", %h_x");
        signExtend(out, k(i), e);
        continue;
      }
      emitSlotAddress(out, "p_lp", l.index, plan.shape.globalLocations, "%h_n32", "%h_loc", "%h_A");
      if (l.inArray) {  // 32-bit elements only (plan_rules.cpp)
        arrayElement(out, "%h_loc", e.offset);
        out.op("@%h_valid suld.b.2d.b32.trap {%h_x}, [%h_surf, {%h_c, %h_d}]");
        out.op("cvt.u64.u32 " + k(i) + ", %h_x");
        signExtend(out, k(i), e);
        continue;
      }
      out.op("@%h_valid ld.global.u" + num(std::min(e.bytes, 8) * 8) + " " + k(i) + ", [%h_A+" +
             num(e.offset) + "]");
      signExtend(out, k(i), e);
      continue;
    }
    const bool reg = o.kind == ObsPlan::Kind::Reg;
    out.op("mad.lo.u32 %h_a, %h_n32, " + num(reg ? plan.regResults : plan.sharedResults) + ", " +
           num(o.slot));
    out.op("mul.wide.u32 %h_A, %h_a, " + num(kResultSlotBytes));
    out.op(std::string("add.u64 %h_A, %h_A, ") + (reg ? "%h_res" : "%h_shout"));
    readSlot(out, k(i), terms, static_cast<int>(i));
    if (!reg)
      signExtend(out, k(i), plan.locs[static_cast<size_t>(o.loc)].elements[static_cast<size_t>(o.elem)]);
  }
  for (size_t t = 0; t < plan.threads.size(); ++t) {
    if (plan.threads[t].doneSlot < 0) continue;
    out.op("mad.lo.u32 %h_a, %h_n32, " + num(plan.regResults) + ", " + num(plan.threads[t].doneSlot));
    out.op("mul.wide.u32 %h_A, %h_a, " + num(kResultSlotBytes));
    out.op("add.u64 %h_A, %h_A, %h_res");
    readSlot(out, "", threads, static_cast<int>(t));
  }
}

void emitInitNext(PtxText& out, const Plan& plan) {
  for (const LocPlan& l : plan.locs) {
    if (l.shared || l.aliasOf >= 0) continue;  // an alias's elements are its target's
    if (l.bankWord >= 0) {  // the next launch's instance %h_n32 (the bank is not double-buffered:
      bankWord(out, plan, l);  // this thread read this launch's word above, in emitKeys)
      out.op("@%h_init st.global.u32 [%h_A], " + hex(static_cast<uint64_t>(l.elements[0].init) & 0xffffffff));
      continue;
    }
    emitSlotAddress(out, "p_nlp", l.index, plan.shape.globalLocations, "%h_n32", "%h_next", "%h_A");
    if (l.tensorMap >= 0) emitTensorMapInit(out, plan, l);  // ptx_body_tensor.cpp
    for (const Element& e : l.elements) {
      if (e.bytes == 0) continue;
      if (l.inArray) {  // the array's element, which the test's surface and texture aliases see
        arrayElement(out, "%h_next", e.offset);
        out.op("mov.b32 %h_x, " + hex(static_cast<uint64_t>(e.init) & 0xffffffff));
        out.op("@%h_init sust.b.2d.b32.trap [%h_nsurf, {%h_c, %h_d}], {%h_x}");
        continue;
      }
      const std::string at = "[%h_A+" + num(e.offset) + "]";
      const uint64_t v = static_cast<uint64_t>(e.init);
      if (e.bytes == 16) {
        out.op("@%h_init st.global.u64 " + at + ", " + hex(v));
        out.op("@%h_init st.global.u64 [%h_A+" + num(e.offset + 8) + "], 0");
      } else {
        const uint64_t mask = e.bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * e.bytes)) - 1;
        out.op("@%h_init st.global.u" + num(e.bytes * 8) + " " + at + ", " + hex(v & mask));
      }
    }
  }
}

void emitProbe(PtxText& out, const Plan& plan);

// Insert (keys, count) with open addressing; the lane that claims an empty entry writes the keys
// and then publishes the entry (state 2) with a release store.
void emitInsert(PtxText& out, const Plan& plan) {
  const size_t m = static_cast<size_t>(tableKeys(plan));
  out.comment("warp aggregation: lanes with the same outcome add once");
  out.op("selp.u64 %h_B, 1, 0, %h_valid");
  out.op("match.any.sync.b64 %h_m, %h_B, 0xffffffff");
  for (size_t i = 0; i < m; ++i) {
    out.op("match.any.sync.b64 %h_b, " + k(i) + ", 0xffffffff");
    out.op("and.b32 %h_m, %h_m, %h_b");
  }
  out.op("@!%h_valid bra H_DONE");
  out.op("mov.u32 %h_b, %lanemask_lt");
  out.op("and.b32 %h_b, %h_b, %h_m");
  out.op("setp.ne.u32 %h_p, %h_b, 0");
  out.op("@%h_p bra H_DONE");
  out.op("popc.b32 %h_b, %h_m");
  out.op("cvt.u64.u32 %h_C, %h_b");
  out.op("mov.b64 %h_B, 0x9e3779b97f4a7c15");
  for (size_t i = 0; i < m; ++i) {
    out.op("xor.b64 %h_B, %h_B, " + k(i));
    out.op("mul.lo.u64 %h_B, %h_B, 0xbf58476d1ce4e5b9");
    out.op("shr.u64 %h_Y, %h_B, 29");
    out.op("xor.b64 %h_B, %h_B, %h_Y");
  }
  out.op("cvt.u32.u64 %h_b, %h_B");
  out.op("and.b32 %h_b, %h_b, " + num(kTableEntries - 1));
  emitProbe(out, plan);
}

// Linear probing from entry %h_b for the keys, adding the count %h_C.
void emitProbe(PtxText& out, const Plan& plan) {
  const size_t m = static_cast<size_t>(tableKeys(plan));
  const int entry = tableEntryBytes(plan);
  out.op("mov.u32 %h_c, 0");
  out.label("H_PROBE");
  out.op("setp.ge.u32 %h_p, %h_c, " + num(kTableEntries));
  out.op("@%h_p bra H_OVERFLOW");
  out.op("mul.wide.u32 %h_A, %h_b, " + num(entry));
  out.op("add.u64 %h_A, %h_A, %h_table");
  out.op("ld.acquire.gpu.global.u32 %h_d, [%h_A]");
  out.op("setp.ne.u32 %h_p, %h_d, 0");
  out.op("@%h_p bra H_WAIT");
  out.op("atom.relaxed.gpu.global.cas.b32 %h_d, [%h_A], 0, 1");
  out.op("setp.ne.u32 %h_p, %h_d, 0");
  out.op("@%h_p bra H_WAIT");
  for (size_t i = 0; i < m; ++i)
    out.op("st.global.u64 [%h_A+" + num(16 + 8 * static_cast<int64_t>(i)) + "], " + k(i));
  out.op("st.release.gpu.global.u32 [%h_A], 2");
  out.op("bra H_ADD");
  out.label("H_WAIT");  // (re)read with acquire, so the keys another lane wrote are visible
  out.op("ld.acquire.gpu.global.u32 %h_d, [%h_A]");
  out.op("setp.eq.u32 %h_p, %h_d, 1");
  out.op("@%h_p bra H_WAIT");
  for (size_t i = 0; i < m; ++i) {
    out.op("ld.global.u64 %h_Y, [%h_A+" + num(16 + 8 * static_cast<int64_t>(i)) + "]");
    out.op("setp.ne.u64 %h_p, %h_Y, " + k(i));
    out.op("@%h_p bra H_NEXT");
  }
  out.label("H_ADD");
  out.op("red.relaxed.gpu.global.add.u64 [%h_A+8], %h_C");
  out.op("bra H_DONE");
  out.label("H_NEXT");
  out.op("add.u32 %h_b, %h_b, 1");
  out.op("and.b32 %h_b, %h_b, " + num(kTableEntries - 1));
  out.op("add.u32 %h_c, %h_c, 1");
  out.op("bra H_PROBE");
  out.label("H_OVERFLOW");
  out.op("red.relaxed.gpu.global.add.u64 [%h_table+" + num(int64_t{kTableEntries} * entry) + "], %h_C");
  out.label("H_DONE");
  out.op("ret");
}

void emitTallyKernel(PtxText& out, const Plan& plan) {
  out.raw(
      ".visible .entry litmus_tally(\n\t.param .u64 p_loc,\n\t.param .u64 p_next,\n\t.param .u64 p_res,\n"
      "\t.param .u64 p_shout,\n\t.param .u64 p_spin,\n\t.param .u64 p_table,\n\t.param .u32 p_mode,\n"
      "\t.param .align 4 .b8 p_lp[" +
      num(4 * kLaunchWords) + "],\n\t.param .align 4 .b8 p_nlp[" + num(4 * kLaunchWords) + "]" +
      (plan.hasSurface() ? ",\n\t.param .u64 p_surf,\n\t.param .u64 p_nsurf" : "") +
      (plan.bankWords > 0 ? ",\n\t.param .u64 p_cbank" : "") + "\n)\n{\n");
  out.op(".reg .b32 %h_n32, %h_mode, %h_m, %h_a, %h_b, %h_c, %h_d, %h_x");
  out.op(
      ".reg .b64 %h_loc, %h_next, %h_res, %h_shout, %h_spin, %h_table, %h_A, %h_B, %h_C, %h_X, %h_Y, %h_Z, "
      "%h_W");
  out.op(".reg .b64 %h_tag");
  out.op(".reg .pred %h_p, %h_pp, %h_valid, %h_init");
  out.op(".reg .b64 %k<" + num(tableKeys(plan)) + ">");
  for (const char* p : {"loc", "next", "res", "shout", "spin", "table"}) {
    out.op(std::string("ld.param.u64 %h_A, [p_") + p + "]");
    out.op(std::string("cvta.to.global.u64 %h_") + p + ", %h_A");
  }
  if (plan.hasSurface()) {  // the surface objects over this launch's array and the next one's
    out.op(".reg .b64 %h_surf, %h_nsurf");
    out.op("ld.param.u64 %h_surf, [p_surf]");
    out.op("ld.param.u64 %h_nsurf, [p_nsurf]");
  }
  if (plan.bankWords > 0) {  // the constant bank's global address (harness.cpp)
    out.op(".reg .b64 %h_cbank");
    out.op("ld.param.u64 %h_A, [p_cbank]");
    out.op("cvta.to.global.u64 %h_cbank, %h_A");
  }
  out.op("mov.u32 %h_a, %ctaid.x");
  out.op("mov.u32 %h_b, %ntid.x");
  out.op("mov.u32 %h_c, %tid.x");
  out.op("mad.lo.u32 %h_n32, %h_a, %h_b, %h_c");
  out.op("ld.param.u32 %h_mode, [p_mode]");
  out.comment("this launch: instances n < N are read, their group's spin counter reset");
  out.op("and.b32 %h_a, %h_mode, " + num(kTallyRead));
  out.op("setp.ne.u32 %h_valid, %h_a, 0");
  out.op("ld.param.u32 %h_a, " + word("p_lp", kN));
  out.op("setp.lt.u32 %h_p, %h_n32, %h_a");
  out.op("and.pred %h_valid, %h_valid, %h_p");
  out.op("ld.param.u32 %h_a, " + word("p_lp", kU));
  out.op("ld.param.u32 %h_b, " + word("p_lp", kK));
  out.op("mul.lo.u32 %h_a, %h_a, %h_b");
  out.op("setp.lt.u32 %h_p, %h_n32, %h_a");
  out.op("and.pred %h_p, %h_p, %h_valid");
  out.op("mul.wide.u32 %h_A, %h_n32, 4");
  out.op("add.u64 %h_A, %h_A, %h_spin");
  out.op("@%h_p st.global.u32 [%h_A], 0");
  out.comment("and the launch-wide counter, the word after N (ptx_kernel.cpp, H_GSPIN)");
  out.op("setp.eq.u32 %h_p, %h_n32, 0");
  out.op("and.pred %h_p, %h_p, %h_valid");
  out.op("ld.param.u32 %h_a, " + word("p_lp", kN));
  out.op("mul.wide.u32 %h_A, %h_a, 4");
  out.op("add.u64 %h_A, %h_A, %h_spin");
  out.op("@%h_p st.global.u32 [%h_A], 0");
  out.op("ld.param.u32 %h_a, " + word("p_lp", kEpoch));
  out.op("cvt.u64.u32 %h_tag, %h_a");
  out.op("or.b64 %h_tag, %h_tag, " + hex(kTagMark));
  emitKeys(out, plan);
  out.comment("the next launch's initial values (the other buffer, its layout)");
  out.op("and.b32 %h_a, %h_mode, " + num(kTallyInit));
  out.op("setp.ne.u32 %h_init, %h_a, 0");
  out.op("ld.param.u32 %h_a, " + word("p_nlp", kN));
  out.op("setp.lt.u32 %h_p, %h_n32, %h_a");
  out.op("and.pred %h_init, %h_init, %h_p");
  emitInitNext(out, plan);
  emitInsert(out, plan);
  out.raw("}\n");
}

}  // namespace

std::string generateModule(const litmus::Test& test, const Plan& plan) {
  PtxText out;
  out.raw("// Generated by `litmus run` (ptx-litmus) from " + test.file + ", test " + test.name + ".\n");
  out.raw("// Regenerate with: litmus run --emit-ptx DIR " + test.file + "\n");
  out.raw(std::string("// ") +
          (plan.mode == Mode::Lane   ? "lane mode: the 32 lanes of a warp run 32 instances"
           : plan.mode == Mode::Warp ? "warp mode: a warp runs one instance, lane 0 its memory operations"
                                     : "fixed mode: a warp runs one instance, each lane the thread placed there") +
          "; " + num(plan.shape.roles) + " role(s), clusters of " + num(plan.shape.clusterSize) +
          " CTA(s), " + num(plan.shape.warpsPerBlock) + " warp(s) per instance group and block.\n");
  out.raw(".version " + plan.ptxVersion + "\n.target " + plan.target + "\n.address_size 64\n\n");
  out.raw(std::string(".shared .align ") + (alignsShared128(plan) ? "128" : "16") + " .b8 lt_smem[" +
          num(plan.sharedBytes) + "];\n\n");
  out.raw(tensorMapDeclaration(plan));
  if (plan.bankWords > 0)  // locations with a constant alias (ptx_kernel.cpp), one word per instance
    out.raw(".const .align 4 .b32 lt_cbank[" + num(kBankWords) + "];\n\n");
  emitTestKernel(out, test, plan);
  out.raw("\n");
  emitTallyKernel(out, plan);
  return out.str();
}

}  // namespace gpu
