// Tensor-map TMA and multicast (PTX ISA §9.7.9.25.5.2 cp.async.bulk.tensor, §9.7.9.26
// tensormap.replace, §9.7.9.25.4 cp.async.bulk .multicast::cluster): the parser's handlers, the
// checks of tensor-map locations (`tensormap:`, `dims:`, `box:`, `copy-of:`) and of the operands
// that need the test's locations. The model reads them in semantics/semantics_tensor.cpp (docs/model.md
// D46-D48).
// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <algorithm>

#include "litmus/instr_parser.h"
#include "litmus/parse.h"
#include "litmus/test_index.h"

namespace litmus {
namespace instr_detail {

namespace {
constexpr std::string_view kCompleteTx = "mbarrier::complete_tx::bytes";

const std::vector<std::string_view> kGeometryFields{
    "rank", "box_dim", "global_dim", "global_stride", "element_stride", "elemtype",
    "interleave_layout", "swizzle_mode", "swizzle_atomicity", "fill_mode"};
}  // namespace

// `[tm, {c0, .., cN-1}]`: the map (a global location) and N coordinates (registers or
// immediates); appended to args as the map's address, then the coordinates.
void InstrParser::takeTensorOperand(const Piece& p) {
  const std::string msg = "expected '[tensorMap, {c0, ..}]' with " + std::to_string(in_.tensorDims) +
                          " coordinate(s) for ." + std::to_string(in_.tensorDims) + "d";
  std::string_view s = p.s;
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') fail(p.off, msg);
  const size_t comma = s.find(',');
  const size_t open = s.find('{');
  const size_t close = s.rfind('}');
  if (comma == std::string_view::npos || open == std::string_view::npos ||
      close == std::string_view::npos || open < comma || close < open)
    fail(p.off, msg);
  std::string_view map = lex::trim(s.substr(1, comma - 1));
  Operand m;
  m.kind = Operand::Kind::Addr;
  if (!map.empty() && map[0] == '%') {  // a register holding the map's address (cvta, mov)
    m.kind = Operand::Kind::RegAddr;
    map.remove_prefix(1);
  }
  if (!isIdentifier(map))
    fail(p.off + 1, "the tensor map is a location or a register holding its address ('[tm, {..}]', '[%rd, {..}]')");
  m.name = std::string(map);
  m.loc = at(p.off + 1);
  in_.args.push_back(m);
  if (!lex::trim(s.substr(close + 1, s.size() - close - 2)).empty()) fail(p.off, msg);
  std::vector<Piece> coords;
  for (size_t b = open + 1, i = open + 1; i <= close; ++i) {
    if (i < close && s[i] != ',') continue;
    const std::string_view raw = s.substr(b, i - b), t = lex::trim(raw);
    const int off = p.off + static_cast<int>(b + (t.empty() ? 0 : raw.find(t[0])));
    if (t.empty()) fail(off, "missing coordinate");
    coords.push_back({t, off});
    b = i + 1;
  }
  if (static_cast<int>(coords.size()) != in_.tensorDims)
    fail(coords.empty() ? p.off : coords.back().off,
         "." + std::to_string(in_.tensorDims) + "d takes " + std::to_string(in_.tensorDims) +
             " coordinate(s), not " + std::to_string(coords.size()));
  for (const Piece& c : coords) {
    std::optional<Operand> o = convert(c, Slot::Val);
    if (!o) fail(c.off, "a coordinate is a register or an integer");
    if (o->kind == Operand::Kind::Imm && (o->imm < -(int64_t{1} << 31) || o->imm >= (int64_t{1} << 31)))
      fail(c.off, "a coordinate is a signed 32-bit integer");
    in_.args.push_back(*o);
  }
}

// cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes
//   {.multicast::cluster}{.L2::cache_hint} [dst], [tm, {c..}], [mbar]{, ctaMask}{, policy}
// cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group{.L2::cache_hint} [tm, {c..}],
//   [src]{, policy}
void InstrParser::parseCpAsyncTensor() {
  in_.op = Opcode::Async;
  const std::string who = "'cp.async.bulk.tensor'";
  if (parts_.size() < 5 || parts_[4].s.size() != 2 || parts_[4].s[1] != 'd' || parts_[4].s[0] < '1' ||
      parts_[4].s[0] > '5')
    fail(parts_.size() < 5 ? parts_[0].off : parts_[4].off, who + " needs a dimension .1d to .5d");
  in_.tensorDims = parts_[4].s[0] - '0';
  std::vector<Piece> spaces;
  std::optional<Piece> completion;
  bool hint = false;
  for (size_t i = 5; i < parts_.size(); ++i) {
    const Piece& p = parts_[i];
    if (spaceFromString(p.s) && spaces.size() < 2) spaces.push_back(p);
    else if ((p.s == kCompleteTx || p.s == "bulk_group") && !completion) completion = p;
    else if (p.s == "L2::cache_hint" && !hint) hint = true;
    else if (p.s == "tile") continue;
    else if (p.s == "multicast::cluster" && !in_.multicast) in_.multicast = true;
    else if (p.s.substr(0, 6) == "im2col")
      fail(p.off, "'." + std::string(p.s) + "' is not supported: the model has tile-mode tensor maps "
                  "only (im2col needs the convolution geometry of the map; docs/model.md D46)");
    else if (p.s == "cta_group::1" || p.s == "cta_group::2" || p.s.substr(0, 5) == "tile:")
      fail(p.off, "'." + std::string(p.s) + "' needs sm_100a; it is not supported");
    else fail(p.off, "unknown qualifier " + dotted(p.s) + " on " + who);
  }
  if (spaces.size() != 2)
    fail(parts_[0].off, who + " needs a destination and a source state space");
  in_.space = *spaceFromString(spaces[0].s);
  in_.srcSpace = *spaceFromString(spaces[1].s);
  const bool intoShared = in_.space == Space::SharedCluster || in_.space == Space::SharedCta;
  // The PTX ISA's own examples (§9.7.13.4, §9.7.13.15) write a load with its mbarrier operand but
  // no completion qualifier: the mbarrier is then how it completes.
  if (!completion && !(intoShared && in_.srcSpace == Space::Global))
    fail(parts_[0].off, who + " needs a completion mechanism (.mbarrier::complete_tx::bytes or .bulk_group)");
  in_.bulkGroup = completion && completion->s == "bulk_group";
  in_.asyncOp = in_.bulkGroup ? AsyncOp::TensorStore : AsyncOp::TensorLoad;
  // global -> .shared::cluster, and global -> .shared::cta (PTX ISA 8.6)
  const bool load = intoShared && in_.srcSpace == Space::Global && !in_.bulkGroup;
  const bool store = in_.space == Space::Global && in_.srcSpace == Space::SharedCta && in_.bulkGroup;
  if (!load && !store)
    fail(spaces[0].off, who + " loads .global into .shared::cluster or .shared::cta with "
                        ".mbarrier::complete_tx::bytes, or stores .shared::cta into .global with .bulk_group");
  if (in_.multicast && !(load && in_.space == Space::SharedCluster))
    fail(parts_[0].off, "'.multicast::cluster' is only for loads into .shared::cluster");
  const size_t want = (load ? 3 : 2) + (in_.multicast ? 1 : 0) + (hint ? 1 : 0);
  const std::string msg = load ? who + " expects [dst], [tensorMap, {c..}], [mbar]" +
                                     (in_.multicast ? ", ctaMask" : "") + (hint ? ", policy" : "")
                               : who + " expects [tensorMap, {c..}], [src]" + (hint ? ", policy" : "");
  if (ops_.size() != want) fail(ops_.size() > want ? ops_[want].off : parts_[0].off, msg);
  auto take = [&](size_t i, Slot slot) {
    std::optional<Operand> o = convert(ops_[i], slot);
    if (!o) fail(ops_[i].off, msg);
    in_.args.push_back(*o);
  };
  if (load) take(0, Slot::Addr);
  takeTensorOperand(ops_[load ? 1 : 0]);
  take(load ? 2 : 1, Slot::Addr);
  if (in_.multicast) take(3, Slot::Val);
  if (hint) take(want - 1, Slot::Reg), in_.args.pop_back();
  if (in_.multicast) checkCtaMask(ops_[3]);
}

// The ctaMask of .multicast::cluster: 16 bits, one per CTA rank of the cluster (§9.7.9.25.4).
void InstrParser::checkCtaMask(const Piece& p) {
  const Operand& m = in_.args.back();
  if (m.kind == Operand::Kind::Imm && (m.imm <= 0 || m.imm > 0xffff))
    fail(p.off, "ctaMask is a 16-bit mask of CTA ranks with at least one bit set");
}

// tensormap.replace.tile.field.{global,shared::cta}.b1024.{b32,b64} [tm], {ord,} value (§9.7.9.26).
// Only .global_address is modelled: the other fields change the map's geometry, which a test
// declares (docs/model.md D47). `.shared` is read as `.shared::cta`, as everywhere here.
void InstrParser::parseTensormapReplace() {
  in_.op = Opcode::Async;
  in_.asyncOp = AsyncOp::TensormapReplace;
  const std::string want = "'tensormap.replace.tile.FIELD.{global,shared::cta}.b1024.{b32,b64}'";
  if (parts_.size() != 7 || parts_[2].s != "tile") fail(parts_[0].off, "expected " + want);
  const Piece& field = parts_[3];
  const auto space = spaceFromString(parts_[4].s);
  if (!space || (*space != Space::Global && *space != Space::Shared && *space != Space::SharedCta))
    fail(parts_[4].off, "'tensormap.replace' takes .global or .shared::cta");
  in_.space = *space == Space::Global ? Space::Global : Space::SharedCta;
  if (parts_[5].s != "b1024") fail(parts_[5].off, "'tensormap.replace' requires .b1024");
  if (parts_[6].s != "b32" && parts_[6].s != "b64") fail(parts_[6].off, "expected .b32 or .b64");
  const bool b64 = parts_[6].s == "b64";
  if (field.s == "global_address") {
    if (!b64) fail(parts_[6].off, "'.global_address' is replaced with .b64");
    const std::string msg = "'tensormap.replace' expects [tensorMap] and the new global address "
                            "(a global location named bare, or a register)";
    if (ops_.size() != 2) fail(ops_.empty() ? parts_[0].off : ops_.back().off, msg);
    std::optional<Operand> map = convert(ops_[0], Slot::Addr), value = convert(ops_[1], Slot::Sym);
    if (!map) fail(ops_[0].off, msg);  // [tm], or [%r] holding its address (validation resolves it)
    if (!value) fail(ops_[1].off, msg);
    in_.args = {*map, *value};
    return;
  }
  if (std::find(kGeometryFields.begin(), kGeometryFields.end(), field.s) != kGeometryFields.end())
    fail(field.off, "'tensormap.replace." + std::string(parts_[2].s) + "." + std::string(field.s) +
                        "' is not supported: it changes the map's geometry, which a test declares "
                        "(only .global_address is modelled; docs/model.md D47)");
  fail(field.off, "unknown tensor-map field " + dotted(field.s));
}

}  // namespace instr_detail

// ---- locations and operands ------------------------------------------------------------------

namespace {

const Location* findLocation(const Test& test, const std::string& name) {
  for (const Location& l : test.locations)
    if (l.name == name) return &l;
  return nullptr;
}

void checkTensorMap(const Test& test, Location& l) {
  const Location* t = findLocation(test, l.tensorOf);
  if (!t) throw Error(l.loc, "tensor map '" + l.name + "' describes unknown location '" + l.tensorOf + "'");
  if (t->space != Space::Global || !t->aliasOf.empty() || !t->tensorOf.empty())
    throw Error(l.loc, "tensor map '" + l.name + "' must describe a global location that is no "
                       "alias or map; '" + t->name + "' is not one");
  if (l.space != Space::Global || !l.aliasOf.empty())
    throw Error(l.loc, "tensor map '" + l.name + "' lives in global memory (a copy in shared memory "
                       "is a plain shared location)");
  if (l.tensorDims.empty()) throw Error(l.loc, "tensor map '" + l.name + "' needs 'dims'");
  if (l.tensorBox.empty()) l.tensorBox = l.tensorDims;
  if (l.tensorBox.size() != l.tensorDims.size())
    throw Error(l.loc, "tensor map '" + l.name + "': 'box' and 'dims' have different lengths");
  int64_t elements = 1, box = 1;
  for (size_t i = 0; i < l.tensorDims.size(); ++i) {
    if (l.tensorBox[i] > l.tensorDims[i])
      throw Error(l.loc, "tensor map '" + l.name + "': box size " + std::to_string(l.tensorBox[i]) +
                             " is larger than dimension " + std::to_string(l.tensorDims[i]));
    elements *= l.tensorDims[i];
    box *= l.tensorBox[i];
  }
  // the driver wants 16-byte rows (cuTensorMapEncodeTiled: global strides and the inner box)
  if (l.tensorDims[0] % 4 != 0 || l.tensorBox[0] % 4 != 0)
    throw Error(l.loc, "tensor map '" + l.name + "': the innermost dimension and box must be "
                       "multiples of 4 elements (16 bytes)");
  if (elements > 256 || box * 4 > 1024)
    throw Error(l.loc, "tensor map '" + l.name + "' is too large: at most 256 elements and a box "
                       "of 1024 bytes");
  l.init = tensorAddress(static_cast<int>(t - test.locations.data()));
  l.initAt.clear();
}

}  // namespace

void finishTensorMaps(Test& test) {
  for (Location& l : test.locations) {
    const bool geometry = !l.tensorDims.empty() || !l.tensorBox.empty();
    if (l.tensorOf.empty() && geometry)
      throw Error(l.loc, "'dims' and 'box' belong to a tensor map; add 'tensormap' to '" + l.name + "'");
    if (!l.tensorOf.empty()) {
      if (l.init != 0 || !l.initAt.empty())
        throw Error(l.loc, "tensor map '" + l.name + "' takes its value from 'tensormap'; drop 'init'");
      checkTensorMap(test, l);
    }
    if (l.copyOf.empty()) continue;
    const Location* root = findLocation(test, l.copyOf);
    if (!root) throw Error(l.loc, "'" + l.name + "' is a copy of unknown location '" + l.copyOf + "'");
    if (l.space == Space::Global || root->space == Space::Global || l.ownerCta < 0 ||
        root->ownerCta < 0 || !root->copyOf.empty())
      throw Error(l.loc, "'copy-of' relates shared locations placed in CTAs ('cta:'), and names "
                         "the first copy; '" + l.name + "' or '" + l.copyOf + "' is not one");
  }
}

// A location named directly must be in the state space the operand addresses (a mapa register
// is checked where mapa is).
void checkSpace(const TestIndex& names, const Instr& in, const Operand& o, bool shared) {
  const Location* l = o.kind == Operand::Kind::Addr ? names.location(o.name) : nullptr;
  if (l && (l->space != Space::Global) != shared)
    throw Error(o.loc, "'" + o.name + "' is in " + (shared ? "global" : "shared") + " memory, but '" + in.text +
                           "' addresses it in " + (shared ? "shared" : "global") + " memory");
}

void validateTensorInstr(const TestIndex& names, const Thread& thread, const Instr& in) {
  if (in.op != Opcode::Async) return;
  const Test& test = names.test();
  if (in.asyncOp == AsyncOp::TensorLoad) {
    checkSpace(names, in, in.args[0], true);
    checkSpace(names, in, in.args[2 + static_cast<size_t>(in.tensorDims)], true);
  }
  if (in.asyncOp == AsyncOp::TensorStore) checkSpace(names, in, in.args[1 + static_cast<size_t>(in.tensorDims)], true);
  if (in.asyncOp == AsyncOp::TensormapReplace) checkSpace(names, in, in.args[0], in.space != Space::Global);
  const bool tensor = in.asyncOp == AsyncOp::TensorLoad || in.asyncOp == AsyncOp::TensorStore;
  if (tensor) {
    const Operand& m = in.args[in.asyncOp == AsyncOp::TensorLoad ? 1 : 0];
    const Location* l = names.location(m.name);
    if (l && l->tensorOf.empty())
      throw Error(m.loc, "'" + m.name + "' is no tensor map (declare it with 'tensormap:')");
    if (l && static_cast<int>(l->tensorDims.size()) != in.tensorDims)
      throw Error(m.loc, "tensor map '" + m.name + "' has " + std::to_string(l->tensorDims.size()) +
                             " dimension(s), but the copy is ." + std::to_string(in.tensorDims) + "d");
  }
  if (in.asyncOp == AsyncOp::TensormapReplace) {
    const Operand& v = in.args[1];
    const Location* target = v.kind == Operand::Kind::Addr ? names.location(v.name) : nullptr;
    if (target && target->space != Space::Global)
      throw Error(v.loc, "the new global address must be a global location; '" + v.name + "' is shared");
  }
  const bool mask = in.multicast;
  if (mask && in.args.back().kind == Operand::Kind::Imm) {
    const Placement place = placementOf(test);
    int ctas = 0;
    for (size_t i = 0; i < test.threads.size(); ++i)
      if (test.threads[i].name == thread.name) ctas = place.ctas[i];
    if (in.args.back().imm >> ctas)
      throw Error(in.args.back().loc, "ctaMask names CTA ranks that the cluster (" +
                                          std::to_string(ctas) + " CTA(s)) does not have");
  }
}

}  // namespace litmus

namespace litmus {

std::string formatTensorInstr(const Instr& in) {
  if (in.op != Opcode::Async) return "";
  std::string out = in.guard.empty() ? "" : (in.guardNegated ? "@!%" : "@%") + in.guard + " ";
  auto op = [](const Operand& o) { return formatOperand(o, Type::None); };
  if (in.asyncOp == AsyncOp::TensormapReplace)
    return out + "tensormap.replace.tile.global_address." + toString(in.space) + ".b1024.b64 " +
           op(in.args[0]) + ", " + (in.args[1].kind == Operand::Kind::Addr ? in.args[1].name : op(in.args[1]));
  if (in.asyncOp != AsyncOp::TensorLoad && in.asyncOp != AsyncOp::TensorStore) return "";
  const bool load = in.asyncOp == AsyncOp::TensorLoad;
  out += "cp.async.bulk.tensor." + std::to_string(in.tensorDims) + "d." + toString(in.space) + "." +
         toString(in.srcSpace) + ".tile" +
         (load ? ".mbarrier::complete_tx::bytes" : ".bulk_group") + (in.multicast ? ".multicast::cluster" : "");
  const size_t m = load ? 1 : 0;
  std::string coords;
  for (int i = 0; i < in.tensorDims; ++i) coords += (i ? ", " : "") + op(in.args[m + 1 + static_cast<size_t>(i)]);
  const std::string tensor = "[" + in.args[m].name + ", {" + coords + "}]";
  const size_t rest = m + 1 + static_cast<size_t>(in.tensorDims);
  out += load ? " " + op(in.args[0]) + ", " + tensor : " " + tensor;
  for (size_t i = rest; i < in.args.size(); ++i) out += ", " + op(in.args[i]);
  return out;
}

}  // namespace litmus
