// The interpreter's steps for tensor-map TMA and multicast (docs/model.md D46-D48):
// cp.async.bulk.tensor (load and store), tensormap.replace, and cp.async.bulk with
// .multicast::cluster.
//
// A tensor map is a global location whose value (at offset 0) is the map's global_address: the
// address of the tensor it points to (litmus::tensorAddress). Its dimensions and box are the
// test's declaration (`dims`, `box`), which no instruction changes. A copy first reads the map
// through the tensormap proxy; the tensor elements it then reads depend on the value read, an
// address dependency, so the path forks over the values the map may hold.
#include <bit>

#include "semantics/interpreter.h"
#include "semantics/mbarrier.h"

namespace model::detail {

namespace {

// Declared location `decl`'s copy in the CTA of cluster rank `rank` (docs/format.md `copy-of`):
// the same variable at the same CTA-relative offset. -1: the test declares no such copy.
int copyInRank(const Program& prog, int decl, int rank) {
  const auto& locs = prog.test->locations;
  const std::string& root = locs[decl].copyOf.empty() ? locs[decl].name : locs[decl].copyOf;
  for (size_t d = 0; d < locs.size(); ++d) {
    const bool member = locs[d].name == root || locs[d].copyOf == root;
    const int owner = prog.ownerRank[d];
    if (member && (owner == rank || (owner < 0 && rank == 0))) return static_cast<int>(d);
  }
  return -1;
}

}  // namespace

// The copy's destinations: per destination CTA, the declared locations of the data and of the
// mbarrier (-1 when the test declares none there). Without .multicast, the operands' own.
std::vector<Interpreter::Dest> Interpreter::destinations(const Path& p, const Instr& in, int dstOp,
                                                         int mbarOp) const {
  auto declOf = [&](const Operand& o) {
    return prog_.vaDecl[prog_.vaOf(litmus::addressLocation(th_, o))];
  };
  if (!in.multicast) return {Dest{-1, -1, true}};
  std::vector<Dest> out;
  const int64_t mask = num(p, in.args.back());
  for (int rank = 0; rank < 16; ++rank)
    if ((mask >> rank) & 1)
      out.push_back({copyInRank(prog_, declOf(in.args[dstOp]), rank),
                     copyInRank(prog_, declOf(in.args[mbarOp]), rank), false});
  return out;
}

// The address of byte `offset` past the destination operand in destination `d`; -1 when no
// access of the test uses it (nothing could observe the write).
int Interpreter::destAddress(const Path& p, const Instr& in, const Dest& d, const Operand& o,
                             int decl, int64_t offset) const {
  if (d.own) return operandAddress(p, in, o, offset);
  return decl < 0 ? -1 : prog_.addressOf(decl, offsetPast(in, o, decl, offset));
}

// One 4-byte element of a copy: read `src` (an address, or -1: an element no access uses, so it
// holds its initial value `init`; or out of bounds: zero fill) through the async proxy and write
// it to every destination address. `dep`: the reads the element's address depends on.
void Interpreter::copyElement(Path& p, const Instr& in, int op, int src, int64_t init,
                              const std::vector<int>& dsts, Taint dep, std::vector<int>* group) const {
  auto async = [&](Event e) {
    e.sem = litmus::Sem::Weak;
    e.scope = litmus::Scope::None;
    e.proxy = litmus::Proxy::Async;
    e.async = op;
    return e;
  };
  Val v(init);
  if (src >= 0) {
    const int rk = emitRead(p, async(memEvent(p, in, EventKind::Read, src)), dep);
    if (group) group->push_back(rk);
    v = p.trace.vals[rk];
    dep[rk] = true;
  }
  for (int dst : dsts) {
    const int wk = emit(p, async(memEvent(p, in, EventKind::Write, dst)), dep, v);
    if (group) group->push_back(wk);
  }
}

// After the data: the implicit generic-async proxy fence, then complete-tx on each destination
// CTA's mbarrier (D30; with .multicast, D48).
void Interpreter::completeCopy(Path p, const Instr& in, int op, const std::vector<Dest>& dests,
                               int mbarOp, int64_t bytes) {
  Event f = baseEvent(p, in, EventKind::ProxyFence);
  f.proxyFence = litmus::FenceProxyKind::Async;
  f.async = op;
  emit(p, f, {});
  for (const Dest& d : dests) {
    const int address = destAddress(p, in, d, in.args[mbarOp], d.mbar, 0);
    if (address >= 0) completeTxAt(p, in, op, address, bytes);
  }
  ++p.pc;
  explore(std::move(p));
}

// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// [dst], [src], size, [mbar], ctaMask: the words of src, written to dst in every CTA of the mask.
void Interpreter::multicastCopy(Path p, const Instr& in, int op) {
  const std::vector<Dest> dests = destinations(p, in, 0, 3);
  const int64_t size = in.args[2].imm;
  for (int64_t off = 0; off < size; off += 4) {
    std::vector<int> dsts;
    for (const Dest& d : dests)
      if (int a = destAddress(p, in, d, in.args[0], d.data, off); a >= 0) dsts.push_back(a);
    if (dsts.empty()) continue;
    const int src = operandAddress(p, in, in.args[1], off);
    const int decl = prog_.vaDecl[prog_.vaOf(litmus::addressLocation(th_, in.args[1]))];
    copyElement(p, in, op, src, litmus::initialValue(prog_.test->locations[decl], in.args[1].imm + off),
                dsts, {}, nullptr);
  }
  completeCopy(std::move(p), in, op, dests, 3, size);
}

// tensormap.replace.tile.global_address: a weak generic-proxy write of the map's global_address
// (D47); the new address is a location named bare or a register's value.
void Interpreter::stepTensormapReplace(Path& p, const Instr& in) const {
  const Operand& v = in.args[1];
  Event w = memEvent(p, in, EventKind::Write, operandAddress(p, in, in.args[0], 0));
  w.sem = litmus::Sem::Weak;
  w.scope = litmus::Scope::None;
  if (v.kind == Operand::Kind::Addr)
    emit(p, w, {}, Val(litmus::tensorAddress(prog_.vaDecl[prog_.vaOf(v.name)])));
  else
    emit(p, w, taintOf(p, v), value(p, v));
}

// cp.async.bulk.tensor: the map read through the tensormap proxy (D46), then, for each value it
// may return, the elements of the tensor it designates.
void Interpreter::tensorCopy(Path p, const Instr& in, int op) {
  const bool load = in.asyncOp == litmus::AsyncOp::TensorLoad;
  Event r = asyncEvent(p, in, EventKind::Read, operandAddress(p, in, in.args[load ? 1 : 0], 0), op);
  r.proxy = litmus::Proxy::Tensormap;
  r.sem = litmus::Sem::Weak;
  r.scope = litmus::Scope::None;
  const int rk = emitRead(p, r);
  if (!load) p.openGroup.push_back(rk);
  const std::set<int64_t>& values = domain_[p.trace.events[rk].loc];
  for (int64_t v : values) {
    Path c = p;
    c.trace.vals[rk] = Val(v);
    c.trace.events[rk].value = v;
    tensorElements(std::move(c), in, op, rk, v);
  }
}

// The tensor `address` points to, as a declared location; -1 when the value is no global
// location's address. The value domain over-approximates what a read returns (a map copied from
// a buffer not filled yet), and a copy through such a map is undefined: D46 drops that path.
int Interpreter::tensorOf(int64_t address) const {
  const auto& locs = prog_.test->locations;
  const int64_t d = (address & 0xffffffff) - 1;
  if (litmus::tensorAddress(static_cast<int>(d)) != address || d < 0 || d >= static_cast<int64_t>(locs.size()) || locs[d].space != litmus::Space::Global ||
      !locs[d].aliasOf.empty())
    return -1;
  return static_cast<int>(d);
}

// The box at the coordinates, element by element in row-major order of the box (the shared
// side is dense): elements inside the tensor are read, those outside are zero-filled on a load
// and not written on a store (tile mode, §9.7.9.25.5.2).
void Interpreter::tensorElements(Path p, const Instr& in, int op, int mapRead, int64_t address) {
  const bool load = in.asyncOp == litmus::AsyncOp::TensorLoad;
  const size_t m = load ? 1 : 0;
  const int tensor = tensorOf(address);
  if (tensor < 0) return;
  const auto& map = prog_.test->locations[prog_.vaDecl[prog_.vaOf(litmus::addressLocation(th_, in.args[m]))]];
  const size_t dims = map.tensorDims.size();
  std::vector<int64_t> at(dims);
  for (size_t j = 0; j < dims; ++j) at[j] = num(p, in.args[m + 1 + j]);
  const size_t shared = load ? 0 : m + 1 + dims;  // the shared operand
  const int mbarOp = static_cast<int>(m + 1 + dims);
  const std::vector<Dest> dests = load ? destinations(p, in, 0, mbarOp) : std::vector<Dest>{};
  Taint dep;
  dep[mapRead] = true;
  int64_t boxElems = 1;
  for (int64_t b : map.tensorBox) boxElems *= b;
  for (int64_t k = 0; k < boxElems; ++k) {
    int64_t rest = k, linear = 0, stride = 1;
    bool inside = true;
    for (size_t j = 0; j < dims; ++j) {
      // the coordinate comes from a register: its range is tested before anything is added
      const int64_t r = rest % map.tensorBox[j];
      rest /= map.tensorBox[j];
      const bool in = at[j] >= -r && at[j] < map.tensorDims[j] - r;
      inside = inside && in;
      if (in) linear += (at[j] + r) * stride;
      stride *= map.tensorDims[j];
    }
    const int element = inside ? prog_.addressOf(tensor, linear * 4) : -1;
    const int64_t init = inside ? litmus::initialValue(prog_.test->locations[tensor], linear * 4) : 0;
    if (load) {
      std::vector<int> dsts;
      for (const Dest& d : dests)
        if (int a = destAddress(p, in, d, in.args[0], d.data, k * 4); a >= 0) dsts.push_back(a);
      if (!dsts.empty()) copyElement(p, in, op, element, init, dsts, dep, nullptr);
    } else if (element >= 0) {
      const Operand& src = in.args[shared];
      const int decl = prog_.vaDecl[prog_.vaOf(litmus::addressLocation(th_, src))];
      copyElement(p, in, op, operandAddress(p, in, src, k * 4),
                  litmus::initialValue(prog_.test->locations[decl], src.imm + k * 4), {element}, dep,
                  &p.openGroup);
    }
  }
  if (load) return completeCopy(std::move(p), in, op, dests, mbarOp, boxElems * 4);
  ++p.pc;
  explore(std::move(p));
}

void Interpreter::stepTensor(Path p, const Instr& in, int op) {
  if (in.asyncOp == litmus::AsyncOp::TensormapReplace) {
    stepTensormapReplace(p, in);
    ++p.pc;
    return explore(std::move(p));
  }
  if (in.asyncOp == litmus::AsyncOp::Copy) return multicastCopy(std::move(p), in, op);
  tensorCopy(std::move(p), in, op);
}

}  // namespace model::detail
