// One instruction of a flattened function body (extract/flatten.h): its guard, mnemonic words and
// operands, with every register and label already renamed to be unique in the body.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus/test.h"

namespace extract {

struct Arg {
  enum class Kind {
    Reg,   // %r5, or an inline-asm register renamed %P1_s7; `special` for %tid.x and the like
    Imm,   // 5, -1, 0xff, 0f3F800000 (float bits)
    Sym,   // a variable (shared, global, param) or function name
    Addr,  // [base+off], [base], [off]: base is a Reg or Sym (empty: an absolute address)
    Vec,   // {a, b, ..}
    Pair,  // a|b: the two destinations of setp, shfl.sync, elect.sync
    Sink,  // _
    Label,  // a branch target
  };
  Kind kind = Kind::Imm;
  std::string name;        // Reg, Sym, Label; Addr: the base
  bool baseIsReg = false;  // Addr
  bool negated = false;    // !%p
  bool special = false;    // a special register (%tid.x, %laneid, %cluster_ctarank, ...)
  int64_t imm = 0;         // Imm; Addr: the byte offset
  std::vector<Arg> elems;  // Vec, Pair
};

struct Op {
  std::string mnemonic;            // "mbarrier.try_wait.parity.shared::cta.b64"
  std::vector<std::string> parts;  // the mnemonic split at '.'
  std::string guard;               // a renamed predicate register; empty: none
  bool guardNegated = false;
  std::vector<Arg> args;
  // call: the callee, its argument and return parameter names (in the caller's scope)
  std::string callee;
  std::vector<std::string> callArgs, callRets;
  litmus::SourceLoc loc;

  bool is(const char* head) const { return !parts.empty() && parts[0] == head; }
  bool has(const char* part) const;
  // The bytes of the type qualifier (the last of b8..b128, u*, s*, f*, pred); 0 if none.
  int typeBytes() const;
  bool typeSigned() const;
};

// Formats an operand back to PTX text with the names it holds.
std::string formatArg(const Arg&);

}  // namespace extract
