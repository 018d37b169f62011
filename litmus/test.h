// The one in-memory form of a litmus test. Both front ends (YAML and herd `.litmus`) produce a
// `Test`; the model, the checker and the GPU runner consume it. Every node carries the source
// position it came from so that later stages can report errors against the user's file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace litmus {

struct SourceLoc {
  std::string file;
  int line = 0;  // 1-based; 0 = unknown
  int col = 0;   // 1-based; 0 = unknown
};

// Bad input. `what()` is the full "file:line:col: error: message" line.
class Error : public std::runtime_error {
 public:
  Error(SourceLoc loc, const std::string& message);
  const SourceLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string message_;
};

// ---- PTX vocabulary -------------------------------------------------------------------------

enum class Sem { Weak, Relaxed, Acquire, Release, AcqRel, Sc, Volatile, Mmio };
enum class Scope { None, Cta, Cluster, Gpu, Sys };
// State space as written on the instruction (Generic = no space qualifier).
enum class Space { Generic, Global, Shared, SharedCta, SharedCluster, Local, Const };
// The proxy through which an access is made (§8.6). Aliases are generic accesses through a second
// virtual address; they are told apart by the virtual address, not by the proxy.
enum class Proxy { Generic, Texture, Surface, Constant, Async, Tensormap };
enum class Type { None, B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2,
                  BF16, BF16x2, F32, F64, Pred };

enum class Opcode {
  Ld,          // ld / ld.volatile / herd tld, suld, cold (proxy set accordingly)
  St,          // st / herd sust
  Atom,        // atom.op
  Red,         // red.op
  Fence,       // fence.{sc,acq_rel,acquire,release}.scope, membar.level (sem = Sc)
  FenceProxy,  // fence.proxy.<kind> (proxyKind says which)
  Bar,         // bar{.cta}.{sync,arrive,red} / barrier{.cta}...  (issue 4 adds semantics)
  Mov,         // mov / herd `ld r, imm`
  Arith,       // add, sub, mul, and, or, xor, shl, shr, min, max, neg, not (arith says which)
  Setp,        // setp.cmp.type p, a, b
  Selp,        // selp.type d, a, b, p
  Bra,         // bra / herd goto; conditional through `guard` or `cmp` (herd beq/bne/...)
  Label,       // a label definition `L:`; no semantics of its own
  Nop,         // instructions with no memory-model effect that we still accept
};

enum class AtomOp { None, And, Or, Xor, Cas, Exch, Add, Sub, Inc, Dec, Min, Max };
enum class ArithOp { None, Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, Neg, Not };
enum class CmpOp { None, Eq, Ne, Lt, Le, Gt, Ge };
enum class BarOp { None, Sync, Arrive, RedPopc, RedAnd, RedOr };
enum class FenceProxyKind { None, Alias, Texture, Surface, Constant, Async, AsyncGlobal,
                            AsyncSharedCta, AsyncSharedCluster };

struct Operand {
  enum class Kind { None, Reg, Imm, Addr };
  Kind kind = Kind::None;
  std::string name;    // register (without '%') or location name for Addr
  int64_t imm = 0;     // value for Imm; byte offset for Addr (`[x+4]`)
  bool negated = false;  // `!p`: the predicate operand of bar.red is used negated
  SourceLoc loc;
};

struct Instr {
  Opcode op = Opcode::Nop;
  std::string text;  // the instruction as written, for error messages and graphs
  SourceLoc loc;

  // memory qualifiers (Ld, St, Atom, Red, Fence)
  Sem sem = Sem::Weak;
  Scope scope = Scope::None;
  Space space = Space::Generic;
  Proxy proxy = Proxy::Generic;
  Type type = Type::None;
  bool semExplicit = false;    // .sem written (vs defaulted)
  bool scopeExplicit = false;  // .scope written (vs defaulted)

  AtomOp atomOp = AtomOp::None;
  ArithOp arith = ArithOp::None;
  CmpOp cmp = CmpOp::None;           // Setp, and conditional Bra in herd form (beq a, b, L)
  BarOp barOp = BarOp::None;
  FenceProxyKind proxyKind = FenceProxyKind::None;

  // Operands in PTX order, e.g. ld: {dst, addr}; st: {addr, src}; atom: {dst, addr, b[, c]};
  // red: {addr, b}; Arith: {dst, a[, b]}; Setp: {p, a, b}; Selp: {d, a, b, p};
  // herd Bra: {a, b} compared with `cmp`; Bar: {id[, count]}.
  std::vector<Operand> args;
  std::string target;  // Bra target label; Label name for Label

  // `@p` / `@!p` guard
  std::string guard;
  bool guardNegated = false;
};

struct Thread {
  std::string name;  // "P0"
  int cta = 0;
  int cluster = 0;
  int gpu = 0;
  std::vector<Instr> code;
  SourceLoc loc;
  std::map<std::string, int64_t> initRegs;  // registers given an initial value
};

struct Location {
  std::string name;
  Space space = Space::Global;
  int64_t init = 0;
  // For an alias: the location it names a second address of, and the proxy the alias is
  // accessed through (herd: `y @ generic aliases x`, `s @ surface aliases x`). Empty = not an alias.
  std::string aliasOf;
  Proxy aliasProxy = Proxy::Generic;
  // For .shared locations: the CTA whose shared memory holds it (-1 = every CTA has its own copy
  // reached by threads of that CTA; single copy is the common litmus case, see docs/format.md).
  int ownerCta = -1;
  SourceLoc loc;
};

// ---- final condition ------------------------------------------------------------------------

struct Term {
  enum class Kind { Reg, Mem, Const };
  Kind kind = Kind::Const;
  std::string thread;  // Reg
  std::string name;    // register (without '%') or location
  int64_t value = 0;   // Const
  SourceLoc loc;
};

struct Cond {
  enum class Kind { True, False, And, Or, Not, Cmp };
  Kind kind = Kind::True;
  std::vector<Cond> kids;  // And/Or: 2+, Not: 1
  CmpOp cmp = CmpOp::Eq;   // Cmp: lhs cmp rhs
  Term lhs, rhs;
  SourceLoc loc;
};

enum class Quantifier { Exists, NotExists, Forall };

// Expected verdict, in the vocabulary of EXPECTED.tsv.
enum class Expect { None, Reachable, Unreachable, Always, NotAlways };

struct Test {
  std::string name;
  std::string description;
  std::string file;  // path it was read from
  std::vector<Location> locations;
  std::vector<Thread> threads;
  Quantifier quantifier = Quantifier::Exists;
  Cond condition;
  SourceLoc conditionLoc;
  // The final values the outcome shows, in order; default: everything the condition names.
  std::vector<Term> observed;
  Expect expect = Expect::None;
  std::string reason;  // one line: why the expected verdict holds (catalogue)
};

// ---- helpers shared by front ends, printers and the model -----------------------------------

const char* toString(Sem);
const char* toString(Scope);
const char* toString(Space);
const char* toString(Proxy);
const char* toString(Type);
const char* toString(Expect);
const char* toString(Quantifier);
std::optional<Expect> parseExpect(const std::string&);

int typeBits(Type);  // 0 for None
bool isSignedType(Type);
bool isFloatType(Type);

// Condition helpers.
std::string formatCondition(const Cond&);        // herd syntax, e.g. (P0:r0 == 1 /\ x == 2)
std::vector<Term> conditionTerms(const Cond&);   // registers and locations named, first-use order
std::string formatTerm(const Term&);             // "P0:r0", "x", "3"

}  // namespace litmus
