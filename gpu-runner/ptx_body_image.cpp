// Texture, surface and constant aliases in the test body (docs/gpu-runner.md, section 5).
// A texture alias of a location in the buffer reads it with tex.1d through a texture object over
// the buffer (p_tex). A surface needs a CUDA array, which no global address reaches (the driver
// backs an array only with tile-pool memory, and will not map that at an address), so a location
// that the test names only through surface and texture aliases lives in an array that shadows the
// buffer element for element: sust/suld through p_surf, tex.2d through p_atex, both at the element
// its unused word in the buffer has. A location with a constant alias lives in the module's
// constant bank (ptx_kernel.cpp), which the alias reads with ld.const.
#include "gpu-runner/ptx_body.h"

namespace gpu {

using litmus::Opcode;

// The alias through `proxy` (texture, surface or constant) that `in` addresses, or null.
const LocPlan* BodyEmitter::aliasThrough(const Instr& in, litmus::Proxy proxy) const {
  for (const litmus::Operand& a : in.args) {
    if (a.kind != litmus::Operand::Kind::Addr) continue;
    const LocPlan& l = locOf(a);
    if ((proxy == litmus::Proxy::Texture && l.texture) || (proxy == litmus::Proxy::Surface && l.surface) ||
        (proxy == litmus::Proxy::Constant && l.constant))
      return &l;
  }
  return nullptr;
}

// A texture alias is read by tld, a surface alias read and written by suld/sust, a constant alias
// read by ld.const (herd's cold): 32-bit, weak; any other access through those proxies needs one.
void BodyEmitter::checkProxy(const Instr& in) const {
  using litmus::Proxy;
  const bool load = in.op == Opcode::Ld;
  const bool nc = in.proxy == Proxy::Texture && load && in.space == litmus::Space::Global;
  const bool viaAlias[] = {in.proxy == Proxy::Texture && load && !nc,
                           in.proxy == Proxy::Surface && (load || in.op == Opcode::St),
                           in.proxy == Proxy::Constant && load};
  const Proxy proxies[] = {Proxy::Texture, Proxy::Surface, Proxy::Constant};
  const char* forms[] = {"reads it with tld only", "reads and writes it with suld and sust only",
                         "reads it with ld.const (cold) only"};
  for (int k = 0; k < 3; ++k) {
    const LocPlan* l = aliasThrough(in, proxies[k]);
    if (l && !viaAlias[k])
      refuse(in, "'" + l->name + "' is a " + litmus::toString(proxies[k]) + " alias: the GPU runner " + forms[k]);
    if (!l || !viaAlias[k]) continue;
    if (in.type != Type::U32 && in.type != Type::S32 && in.type != Type::B32)
      refuse(in, "a texture, surface or constant alias is accessed as 32-bit integers (.u32, .s32 or .b32)");
    if (in.sem != litmus::Sem::Weak)  // tex, suld, sust and ld.const have no memory order
      refuse(in, "tex, suld, sust and ld.const are weak accesses: PTX gives them no memory order or scope");
    return;
  }
  if (in.proxy != Proxy::Generic && !nc)
    refuse(in, std::string("accesses through the ") + litmus::toString(in.proxy) + " proxy need a " +
                   litmus::toString(in.proxy) + " alias of a location for the GPU runner");
}

// The byte offset of this instance's address of `l` (an alias: its target's), plus `byte`, from the
// global address the kernel parameter `param` holds.
std::string BodyEmitter::offsetFrom(const std::string& param, const LocPlan& l, int64_t byte, const std::string& g) {
  const std::string base = x(), off = x();
  const size_t v = static_cast<size_t>(&l - plan_.locs.data());
  out_.op(g + "ld.param.u64 " + base + ", [" + param + "]");
  out_.op(g + "cvta.to.global.u64 " + base + ", " + base);
  out_.op(g + "sub.u64 " + off + ", %a" + std::to_string(v) + ", " + base);
  if (byte) out_.op(g + "add.u64 " + off + ", " + off + ", " + std::to_string(byte));
  return off;
}

// The 32-bit element of the buffer that `l` (an alias) names for this instance: (address - p_loc) / 4.
std::string BodyEmitter::element(const Instr& in, const LocPlan& l, const std::string& g) {
  const std::string off = offsetFrom("p_loc", l, in.args[in.op == Opcode::St ? 0 : 1].imm, g), idx = w();
  out_.op(g + "shr.u64 " + off + ", " + off + ", 2");
  out_.op(g + "cvt.u32.u64 " + idx + ", " + off);
  return idx;
}

void emitArrayCoordinates(PtxText& out, const std::string& g, const std::string& e, const std::string& cx,
                          const std::string& cy, bool bytes) {
  out.op(g + "and.b32 " + cx + ", " + e + ", " + std::to_string((1 << kArrayRowShift) - 1));
  if (bytes) out.op(g + "shl.b32 " + cx + ", " + cx + ", 2");
  out.op(g + "shr.u32 " + cy + ", " + e + ", " + std::to_string(kArrayRowShift));
}

std::pair<std::string, std::string> BodyEmitter::arrayCoordinates(const std::string& e, const std::string& g,
                                                                  bool bytes) {
  const std::string cx = w(), cy = w();
  emitArrayCoordinates(out_, g, e, cx, cy, bytes);
  return {cx, cy};
}

// tld: tex.1d over the buffer as tex1Dfetch does, or tex.2d over the array for a location in it.
void BodyEmitter::texLoad(const Instr& in, const LocPlan& l) {
  const std::string g = memGuard(in);
  const std::string e = element(in, l, g), tex = x();
  const std::string t = w(), y = w(), z = w(), u = w();  // x, then the unused y, z, w components
  const std::string fetched = "{" + t + ", " + y + ", " + z + ", " + u + "}";
  if (plan_.aliased(l).inArray) {
    const auto [cx, cy] = arrayCoordinates(e, g, false);
    out_.op(g + "ld.param.u64 " + tex + ", [p_atex]");
    out_.op(g + "tex.2d.v4.u32.s32 " + fetched + ", [" + tex + ", {" + cx + ", " + cy + "}]");
  } else {
    out_.op(g + "ld.param.u64 " + tex + ", [p_tex]");
    out_.op(g + "tex.1d.v4.u32.s32 " + fetched + ", [" + tex + ", {" + e + "}]");
  }
  widen(reg(in.args[0].name), t, 32, in.type, g);
}

// cold / ld.const: the word of the constant bank (lt_cbank) that the alias's target is at for this
// instance, its offset in the bank being that of its global address from p_cbank.
void BodyEmitter::constantLoad(const Instr& in, const LocPlan& l) {
  const std::string g = memGuard(in);
  const std::string off = offsetFrom("p_cbank", l, 0, g), c = x(), t = w();
  out_.op(g + "mov.u64 " + c + ", lt_cbank");
  out_.op(g + "add.u64 " + c + ", " + c + ", " + off);
  out_.op(g + "ld.const.u32 " + t + ", [" + c + "]");
  widen(reg(in.args[0].name), t, 32, in.type, g);
}

// suld/sust: .b (raw bits), .trap outside the array (never: the element is inside it).
void BodyEmitter::surfaceLoad(const Instr& in, const LocPlan& l) {
  const std::string g = memGuard(in);
  const auto [cx, cy] = arrayCoordinates(element(in, l, g), g, true);
  const std::string s = x(), t = w();
  out_.op(g + "ld.param.u64 " + s + ", [p_surf]");
  out_.op(g + "suld.b.2d.b32.trap {" + t + "}, [" + s + ", {" + cx + ", " + cy + "}]");
  widen(reg(in.args[0].name), t, 32, in.type, g);
}

void BodyEmitter::surfaceStore(const Instr& in, const LocPlan& l) {
  const std::string g = memGuard(in);
  const auto [cx, cy] = arrayCoordinates(element(in, l, g), g, true);
  const std::string v = narrow(in.args[1], 32, g), s = x();
  out_.op(g + "ld.param.u64 " + s + ", [p_surf]");
  out_.op(g + "sust.b.2d.b32.trap [" + s + ", {" + cx + ", " + cy + "}], {" + v + "}");
}

}  // namespace gpu
