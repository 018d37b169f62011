// A kernel as one flat list of instructions: inline-asm scopes resolved (their registers and labels
// renamed to be unique, so that `LAB_WAIT` may repeat), and calls to .func bodies inlined.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "extract/op.h"
#include "extract/ptx_module.h"

namespace extract {

struct Body {
  std::vector<Op> ops;
  std::map<std::string, int> labels;  // renamed label -> index of the op it precedes
  std::vector<VarDecl> shared;        // .shared declared in the kernel or an inlined function
  std::vector<VarDecl> locals;        // .local (stack frames)
};

// Throws litmus::Error for a label or register that no scope declares, recursion, or a call
// through a pointer. Calls to functions without a body (vprintf, __assertfail) stay calls.
Body flatten(const Module& module, const Function& kernel);

// Reads one instruction's text (registers resolved by `resolve`, which returns the renamed name
// or "" for a name that is no register in scope) into an Op.
struct Resolver {
  virtual ~Resolver() = default;
  virtual std::string reg(const std::string& name) const = 0;    // "" if not a register
  virtual std::string label(const std::string& name) const = 0;  // "" if not a label
  virtual std::string sym(const std::string& name) const = 0;    // a variable, possibly renamed
};
Op parseOp(const std::string& text, const litmus::SourceLoc& loc, const Resolver& r);

bool isSpecialRegister(const std::string& name);  // with '%': "%tid.x", "%cluster_ctarank"

}  // namespace extract
