// Addresses in registers, as kernels write them (issue 31 item 3): `cvta.global.u64 %t, tm;
// fence.proxy.tensormap::generic.acquire.gpu [%t], 128;`, `mov.u64 %a, x; add.u64 %b, %a, 8;
// ld.u32 %r, [%b];`. The address such a register holds is fixed by the text (cvta, `mov d,
// LOCATION`, mov of a register, add or sub of an immediate), so validation resolves it here to the
// direct form `[x+8]` that every engine and the runner's planner read. An address from mapa keeps
// its register (its CTA rank is a value the interpreter computes, D32), with the offsets of the
// adds folded in. Any other register in an address is refused with its location: never a
// register read as a location name.
#include <map>
#include <set>

#include "litmus/parse.h"
#include "litmus/test_index.h"

namespace litmus {
namespace {

struct Resolved {
  std::string location;  // the location the address names
  std::string mapaReg;   // the register mapa wrote, when the chain starts at mapa
  int64_t offset = 0;    // bytes the adds and subs of the chain contribute
  Space space = Space::Generic;  // the space of the address (as validate_cluster.cpp gives it)
  bool operator==(const Resolved&) const = default;
};

// A thread and the instructions that write each of its registers, found once: a search of the
// code for every operand was quadratic in a long thread (issue 30).
struct ThreadRegs {
  const Thread& t;
  std::map<std::string, std::vector<const Instr*>> writers;

  explicit ThreadRegs(const Thread& th) : t(th) {
    for (const Instr& in : t.code)
      for (int i = 0; i < destCount(in); ++i)
        if (in.args[static_cast<size_t>(i)].kind == Operand::Kind::Reg)
          writers[in.args[static_cast<size_t>(i)].name].push_back(&in);
  }
  std::vector<const Instr*> of(const std::string& reg) const {
    auto it = writers.find(reg);
    return it == writers.end() ? std::vector<const Instr*>{} : it->second;
  }
};

// The offsets of a chain of adds are summed with a check: an address names bytes 0 to 2^63 - 1
// (docs/model.md D52), and a sum past them would wrap.
[[noreturn]] void pastLastByte(const Operand& o, const std::string& reg) {
  throw Error(o.loc, "%" + reg + " in '[%" + o.name + "]' moves the address past byte 9223372036854775807, "
                         "the last an address can name");
}

[[noreturn]] void refuse(const Operand& o, const std::string& reg, const std::string& why) {
  throw Error(o.loc, "%" + reg + " in '" + (o.kind == Operand::Kind::RegAddr ? "[%" : "[") + o.name +
                         "]' " + why + "; an address register is written by cvta, 'mov d, "
                         "LOCATION', mov of an address register, mapa, or add/sub of an integer");
}

Resolved follow(const ThreadRegs& t, const Operand& o, const std::string& reg, int depth);

// What one writer of `reg` leaves in it.
Resolved followWriter(const ThreadRegs& t, const Operand& o, const std::string& reg, const Instr& w, int depth) {
  const Operand& src = w.args.size() > 1 ? w.args[1] : w.args[0];
  if (w.op == Opcode::Mapa) {
    Operand base = o;
    base.kind = Operand::Kind::RegAddr;
    base.name = reg;
    Resolved r{addressLocation(t.t, base), reg, 0,
               w.space == Space::SharedCluster ? Space::SharedCluster : Space::Generic};
    if (r.location.empty()) refuse(o, reg, "comes from mapa of a register that holds no address");
    return r;
  }
  if (w.op == Opcode::Cvta && src.kind == Operand::Kind::Addr)
    return {src.name, "", src.imm, w.addrSpace == Space::Shared ? Space::SharedCta : w.addrSpace};
  if ((w.op == Opcode::Cvta || w.op == Opcode::Mov) && src.kind == Operand::Kind::Reg) {
    Resolved r = follow(t, o, src.name, depth + 1);
    if (w.op == Opcode::Cvta) r.space = w.addrSpace == Space::Shared ? Space::SharedCta : w.addrSpace;
    return r;
  }
  const bool add = w.op == Opcode::Arith && (w.arith == ArithOp::Add || w.arith == ArithOp::Sub) && w.args.size() == 3;
  const Operand* base = nullptr;
  int64_t delta = 0;
  bool subtract = false;  // not -imm: INT64_MIN has no negation
  if (add && w.args[1].kind == Operand::Kind::Reg && w.args[2].kind == Operand::Kind::Imm)
    base = &w.args[1], delta = w.args[2].imm, subtract = w.arith == ArithOp::Sub;
  else if (add && w.arith == ArithOp::Add && w.args[1].kind == Operand::Kind::Imm && w.args[2].kind == Operand::Kind::Reg)
    base = &w.args[2], delta = w.args[1].imm;
  if (!base) refuse(o, reg, "is written by '" + w.text + "', which the model does not follow as an address");
  Resolved r = follow(t, o, base->name, depth + 1);
  int64_t sum = 0;
  if (subtract ? __builtin_sub_overflow(r.offset, delta, &sum) : __builtin_add_overflow(r.offset, delta, &sum))
    pastLastByte(o, reg);
  r.offset = sum;
  return r;
}

// Follows the instructions that wrote `reg` back to a location; several writers must agree.
Resolved follow(const ThreadRegs& t, const Operand& o, const std::string& reg, int depth) {
  if (depth > 16) refuse(o, o.name, "comes through more than 16 register moves");
  const std::vector<const Instr*> ws = t.of(reg);
  if (ws.empty())
    refuse(o, reg, t.t.initRegs.count(reg) ? "holds a number given in init, not an address"
                                         : "is never written, so it holds no address");
  const Resolved first = followWriter(t, o, reg, *ws.front(), depth);
  for (const Instr* w : ws)
    if (!(followWriter(t, o, reg, *w, depth) == first))
      refuse(o, reg, "is written with two different addresses ('" + ws.front()->text + "', '" + w->text + "')");
  return first;
}

// An address of space s (from cvta or mov) used by `in`: the rule of validate_cluster.cpp.
void checkSpace(const Instr& in, const Operand& o, Space s) {
  if (in.op == Opcode::Async || in.op == Opcode::Clc) return;  // they name their spaces
  const bool shared = in.space == Space::Shared || in.space == Space::SharedCta || in.space == Space::SharedCluster;
  const bool ok = s == Space::SharedCluster ? in.space == Space::SharedCluster
                  : s == Space::SharedCta   ? shared
                                            : in.space == s;
  if (!ok)
    throw Error(o.loc, "%" + o.name + " holds " +
                           (s == Space::SharedCluster ? "a .shared::cluster address: access it with .shared::cluster"
                            : s == Space::SharedCta   ? "a .shared::cta address: access it with .shared{::cta,::cluster}"
                            : s == Space::Global      ? "a .global address: access it with .global"
                                                      : "a generic address: access it without a state space"));
}

// The operands of `in` that are memory addresses: all but the sources of the instructions that
// compute an address (mapa, getctarank, cvta) and tensormap.replace's new value.
bool isMemoryOperand(const Instr& in, size_t i) {
  if (in.op == Opcode::Mapa || in.op == Opcode::GetCtaRank || in.op == Opcode::Cvta) return false;
  if (in.op == Opcode::Async && in.asyncOp == AsyncOp::TensormapReplace && i == 1) return false;
  return true;
}

void resolveOperand(const TestIndex& names, const ThreadRegs& t, const Instr& in, Operand& o) {
  // `[tmap]` with tmap a register written without '%' (the PTX ISA's own examples)
  if (o.kind == Operand::Kind::Addr && !names.location(o.name) && !t.of(o.name).empty())
    o.kind = Operand::Kind::RegAddr;
  if (o.kind != Operand::Kind::RegAddr) return;
  if (t.t.initRegs.count(o.name)) return;  // validate_cluster.cpp says why not
  const Resolved r = follow(t, o, o.name, 0);
  if (!r.mapaReg.empty() && r.mapaReg == o.name) return;  // mapa's own register: as before
  if (r.mapaReg.empty()) checkSpace(in, o, r.space);
  if (__builtin_add_overflow(o.imm, r.offset, &o.imm)) pastLastByte(o, o.name);
  o.name = r.mapaReg.empty() ? r.location : r.mapaReg;
  if (r.mapaReg.empty()) o.kind = Operand::Kind::Addr;
}

}  // namespace

void resolveRegisterAddresses(Test& test, const TestIndex& names, const Deadline& deadline) {
  for (Thread& t : test.threads) {
    deadline.check();
    const Thread snapshot = t;  // the writers, as written (operands below change in place)
    const ThreadRegs regs(snapshot);
    for (Instr& in : t.code)
      for (size_t i = 0; i < in.args.size(); ++i)
        if (isMemoryOperand(in, i)) resolveOperand(names, regs, in, in.args[i]);
  }
}

}  // namespace litmus
