// Validation of the forms of issue 14 items 6 and 7 that need to know the test's locations:
// `mov d, LOCATION` (the address of a location, turned into Opcode::Cvta here, since the parser
// cannot tell a location from a register written without '%'), cvta's and clusterlaunchcontrol's
// operands, and the multicast copies of a try_cancel response (docs/model.md D50).
#include <map>
#include <set>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "litmus/test_index.h"

namespace litmus {
namespace {

const Location* find(const Test& test, const std::string& name) {
  for (const Location& l : test.locations)
    if (l.name == name) return &l;
  return nullptr;
}

bool isShared(Space s) { return s == Space::Shared || s == Space::SharedCta || s == Space::SharedCluster; }

// `mov.type d, x` where x is a location and no register of the thread is called x.
void resolveMov(const TestIndex& names, const std::set<std::string>& regs, Instr& in) {
  if (in.op != Opcode::Mov || in.args.size() != 2 || in.args[1].kind != Operand::Kind::Reg) return;
  Operand& src = in.args[1];
  const Location* l = names.location(src.name);
  if (!l || regs.count(src.name) || isSpecialRegister(src.name)) return;
  const Location* root = l->aliasOf.empty() ? l : names.location(l->aliasOf);
  const bool shared = root && root->space != Space::Global;
  const Type ty = in.type;
  if (ty != Type::B32 && ty != Type::U32 && ty != Type::B64 && ty != Type::U64)
    throw Error(in.loc, "the address of '" + src.name + "' is moved with .b32, .u32, .b64 or .u64");
  if (!shared && typeBits(ty) != 64)
    throw Error(in.loc, "'" + src.name + "' is a global location, whose address has 64 bits: use .b64 or .u64");
  in.op = Opcode::Cvta;
  in.space = Space::Generic;  // marks the mov form (formatMiscInstr)
  in.addrSpace = shared ? Space::SharedCta : Space::Global;
  src.kind = Operand::Kind::Addr;
}

// cvta names a location of its space (or a register holding an address); cvta.to takes a
// generic address.
void checkCvta(const TestIndex& names, const Thread& t, const Instr& in) {
  if (in.op != Opcode::Cvta || in.space == Space::Generic) return;
  const Operand& src = in.args[1];
  std::string name = src.name;
  if (src.kind == Operand::Kind::Reg) {
    Operand o = src;
    o.kind = Operand::Kind::RegAddr;
    name = addressLocation(t, o);
    if (name.empty())
      throw Error(src.loc, "%" + src.name + " holds no address: 'cvta' converts the address of a "
                                            "location, from 'cvta', 'mov d, LOCATION' or mapa");
  }
  const Location* l = names.location(name);
  if (!l) throw Error(src.loc, "unknown location '" + name + "'");
  const Location* root = l->aliasOf.empty() ? l : names.location(l->aliasOf);
  const bool shared = root && root->space != Space::Global;
  if (shared != isShared(in.space))
    throw Error(src.loc, "'" + name + "' is a " + (shared ? "shared" : "global") + " location, and '" +
                             in.text + "' converts a " + (shared ? "global" : "shared") + " address");
}

// try_cancel writes its response into shared memory and completes on an mbarrier there.
void checkClc(const TestIndex& names, const Thread& t, const Instr& in) {
  const Test& test = names.test();
  if (in.op != Opcode::Clc || in.clcOp != ClcOp::TryCancel) return;
  for (const Operand& a : in.args) {
    const std::string name = addressLocation(t, a);
    const Location* l = names.location(name);
    if (!l) throw Error(a.loc, "unknown location '" + name + "'");
    const Location* root = l->aliasOf.empty() ? l : names.location(l->aliasOf);
    if (!root || root->space == Space::Global)
      throw Error(a.loc, "'" + name + "' is a global location; 'clusterlaunchcontrol.try_cancel' "
                                      "takes its response address and mbarrier in .shared::cta");
  }
  if (in.args[0].imm % 16 != 0)
    throw Error(in.args[0].loc, "the response of 'clusterlaunchcontrol.try_cancel' is 16 bytes, "
                                "naturally aligned: the offset must be a multiple of 16");
  if (in.multicast) {
    // every CTA of the cluster receives the response: each must have the copies (D50)
    for (const Thread& u : test.threads) {
      if (u.cluster != t.cluster || u.gpu != t.gpu) continue;
      for (const Operand& a : in.args)
        if (multicastCopy(test, addressLocation(t, a), t.cta, u.cta).empty())
          throw Error(a.loc, "with .multicast::cluster::all the response goes to every CTA of the "
                             "cluster, but CTA " + std::to_string(u.cta) + " has no copy of '" + addressLocation(t, a) +
                             "' (declare one with 'copy-of', docs/model.md D50)");
    }
  }
}

}  // namespace

// A shared variable's copy in another CTA of the cluster: the location declared `copy-of` it
// (or of the same first declaration) and placed in that CTA (docs/format.md, D48, D50).
std::string multicastCopy(const Test& test, const std::string& loc, int fromCta, int toCta) {
  if (fromCta == toCta) return loc;
  const Location* l = find(test, loc);
  if (!l) return "";
  const std::string& root = l->copyOf.empty() ? l->name : l->copyOf;
  for (const Location& c : test.locations)
    if ((c.name == root || c.copyOf == root) && c.ownerCta == toCta) return c.name;
  return "";
}

void resolveAddressMoves(Test& test, const TestIndex& names) {
  for (Thread& t : test.threads) {
    std::set<std::string> regs;
    for (const auto& [name, v] : t.initRegs) regs.insert(name);
    for (const Instr& in : t.code)
      for (int i = 0; i < destCount(in); ++i) regs.insert(in.args[static_cast<size_t>(i)].name);
    for (Instr& in : t.code) resolveMov(names, regs, in);
  }
}

void checkAddressForms(const TestIndex& names) {
  for (const Thread& t : names.test().threads)
    for (const Instr& in : t.code) {
      checkCvta(names, t, in);
      checkClc(names, t, in);
    }
}

}  // namespace litmus
