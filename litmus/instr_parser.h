// Internal to litmus/: the instruction parser's class, shared by the .cpp files that implement
// its per-opcode handlers (ptx_instr.cpp, ptx_instr_sync.cpp). Not part of the public API.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

namespace litmus::instr_detail {

using lex::isIdentifier;
using lex::Piece;

// Cache qualifiers only steer caching, so they are accepted and dropped; which ones an access may
// carry depends on its memory order (the ISA gives strong accesses no .cop, volatile only a
// prefetch size, mmio nothing).
enum class Cache { Cop, Evict, Hint, Prefetch };
inline std::optional<Cache> cacheKind(std::string_view s) {
  auto in = [s](std::initializer_list<std::string_view> l) {
    return std::find(l.begin(), l.end(), s) != l.end();
  };
  if (in({"ca", "cg", "cs", "lu", "cv", "wb", "wt"})) return Cache::Cop;
  if (in({"L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
          "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last"}))
    return Cache::Evict;
  if (s == "L2::cache_hint") return Cache::Hint;
  if (in({"L2::64B", "L2::128B", "L2::256B"})) return Cache::Prefetch;
  return std::nullopt;
}

// Which qualifier families an opcode accepts (bit set for InstrParser::collect).
constexpr unsigned kSem = 1, kScope = 2, kSpace = 4, kType = 8, kCacheQ = 16, kOp = 32, kMmio = 64,
                   kNc = 128, kNoftz = 256, kVec = 512;

struct Quals {
  std::optional<Piece> sem, scope, space, type, op, mmio, nc, noftz, vec;
  Sem semV = Sem::Weak;
  Scope scopeV = Scope::None;
  Space spaceV = Space::Generic;
  Type typeV = Type::None;
  AtomOp opV = AtomOp::None;
  std::vector<std::pair<Piece, Cache>> cache;
  bool hint = false;  // .L2::cache_hint: one extra cache-policy operand follows
};

// Qualifiers that are only present or absent.
inline std::optional<Piece>* flagSlot(Quals& q, unsigned allowed, std::string_view s) {
  struct Flag {
    unsigned kind;
    std::string_view word;
    std::optional<Piece> Quals::*slot;
  };
  static constexpr Flag kFlags[] = {{kMmio, "mmio", &Quals::mmio},    {kNc, "nc", &Quals::nc},
                                    {kNoftz, "noftz", &Quals::noftz}, {kVec, "v2", &Quals::vec},
                                    {kVec, "v4", &Quals::vec},        {kVec, "v8", &Quals::vec}};
  for (const Flag& f : kFlags)
    if ((allowed & f.kind) && f.word == s) return &(q.*f.slot);
  return nullptr;
}

enum class Slot { Reg, Addr, Val, Pred, Label, Sym };

inline std::string dotted(std::string_view s) {
  std::string out = "'.";
  out.append(s);
  out += '\'';
  return out;
}

class InstrParser {
 public:
  InstrParser(std::string_view text, const SourceLoc& loc, Dialect d)
      : text_(text), loc_(loc), dialect_(d) {}
  Instr parse();
  // The first words the parser dispatches on (the instruction table's syntax column lists each
  // under its opcode; tests/litmus/instructions_test.cpp checks the two lists are the same).
  static std::vector<std::string_view> mnemonics();

 private:
  [[noreturn]] void fail(int off, const std::string& msg) const { throw Error(at(off), msg); }
  SourceLoc at(int off) const { return {loc_.file, loc_.line, loc_.col ? loc_.col + off : 0}; }
  std::string name() const { return std::string(parts_[0].s); }
  bool split();
  void checkUnsupported() const;

  Quals collect(unsigned allowed, std::initializer_list<std::string_view> ignored = {});
  template <class E>
  bool setOnce(std::optional<Piece>& slot, E& value, std::optional<E> v, const Piece& p,
               const char* what);
  void setFlag(std::optional<Piece>& slot, const Piece& p);
  void applyAccessOrder(const Quals& q, bool isLoad);
  void checkRmwTypes(const Quals& q);
  void checkVectorRmw(const Quals& q);
  void takeVectorRmwOperands(const Quals& q, bool red);
  void takeBraceList(const Piece& p, Slot slot, const std::string& msg);

  void checkArriveSink();
  void takeOperands(std::vector<Slot> required, std::vector<Slot> optional, const std::string& msg);
  void takeMemOperands(const Quals& q, const std::string& who, std::vector<Slot> slots,
                       std::vector<std::string> what);
  std::optional<Operand> convert(const Piece& p, Slot slot);

  void parseLoad();
  void parseStore();
  void parseRmw();
  void parseFence();
  void parseMembar();
  void parseBar();
  void parseClusterBarrier();
  void parseMbarrier();
  void parseUniProxyFence();
  void parseCpAsync();
  void parseStAsync();
  void parseRedAsync();
  void parseTensormapCp();
  void parseMapa();
  void parseGetCtaRank();
  void parseElect();
  void parseWarpSync();
  void parseGriddep();
  void parseWarp();
  void parseVote(std::string_view mode, const Piece& type);
  void parseMatch(std::string_view mode, const Piece& type);
  void parseRedux(const Piece& op, const Piece& type, const std::optional<Piece>& abs,
                  const std::optional<Piece>& nan);
  void takeMaskedOperands(std::vector<Slot> slots, bool mask, const std::string& msg);
  void parseCpAsyncNonBulk();  // ptx_instr_cpasync.cpp
  void parseCpAsyncCopy();
  void checkCpSizes(bool cg);
  void parseCpAsyncArrive();
  void parseWgmma();  // ptx_instr_wgmma.cpp
  void parseWgmmaMma();
  void takeWgmmaOperands(bool integer);
  void parseSetMaxNReg();
  void takeSize(const Piece& p);
  void parseCpAsyncTensor();  // ptx_instr_tensor.cpp
  void parseTensormapReplace();
  void takeTensorOperand(const Piece& p);
  void checkCtaMask(const Piece& p);
  void parseMov();
  void parseArith();
  void parseSetp();
  void parseSelp();
  void parseBranch();
  // ptx_instr_clc.cpp
  void parseClc();
  void parseQueryCancel();
  void takeClcVector();
  void parseCvta();
  void parseNanosleep();
  void parseCreatePolicy();
  void parseExit();
  void parseMembarProxy();
  void parseAsyncRelease();

  std::string_view text_;
  SourceLoc loc_;
  Dialect dialect_;
  Instr in_;
  std::vector<Piece> parts_;  // mnemonic split at '.', qualifiers without their dot
  std::vector<Piece> ops_;    // operands, trimmed

  struct Handler {
    std::string_view mnemonic;
    void (InstrParser::*fn)();
  };
  static const Handler kHandlers[];
};

}  // namespace litmus::instr_detail
