// A PTX module as nvcc writes it: module directives, variables, and functions whose bodies are
// kept as statements (instructions, labels, scope braces, declarations). Instructions stay text
// here; extract/flatten.h resolves scopes and calls, and litmus/'s instruction parser reads the
// instructions a litmus test keeps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "litmus/test.h"

namespace extract {

// A variable: a module- or function-level .global/.shared/.const/.local declaration, or a
// parameter of a function (.param). `bytes` is 0 for an unsized array (`.extern .shared .b8
// smem[]`, dynamic shared memory).
struct VarDecl {
  enum class Space { Global, Shared, Const, Local, Param, Reg };
  std::string name;
  Space space = Space::Global;
  bool external = false;  // .extern
  int align = 0;          // .align N; 0: the element size
  std::string type;       // "b8", "u64", "pred", ...
  int elemBytes = 0;
  int64_t count = 1;      // elements; 0: unsized
  int64_t bytes() const { return elemBytes * count; }
  litmus::SourceLoc loc;
};

// One statement of a function body, in source order.
struct Stmt {
  enum class Kind {
    Instr,   // an instruction, with its guard, without ';'
    Label,   // `name:`; text is the name
    Open,    // `{`: a scope (inline asm wraps its text in one)
    Close,   // `}`
    Decl,    // `.reg`, `.shared`, `.local`, `.param` inside the body; decls holds them
    Pragma,  // `.pragma "nounroll";`: no effect on extraction
  };
  Kind kind = Kind::Instr;
  std::string text;
  std::vector<VarDecl> decls;  // Decl
  litmus::SourceLoc loc;
};

struct Function {
  std::string name;
  bool entry = false;     // .entry (a kernel) or .func
  bool hasBody = false;   // false: an .extern declaration (vprintf, __assertfail)
  std::vector<VarDecl> params;
  std::vector<VarDecl> returns;  // .func (.param .b32 retval0) name (...)
  std::vector<Stmt> body;
  // Launch directives of a kernel: .reqntid / .maxntid / .reqnctapercluster (0: absent).
  int reqntid[3] = {0, 0, 0};
  int reqCluster[3] = {0, 0, 0};
  litmus::SourceLoc loc;
};

struct Module {
  std::string file;
  std::string version, target;
  int addressSize = 64;
  std::vector<VarDecl> vars;  // module-level variables
  std::vector<Function> functions;

  const Function* function(const std::string& name) const;
};

// Reads a module; throws litmus::Error ("file:line:col: error: ...") on text it cannot read.
Module parseModule(const std::string& text, const std::string& file);

// One declaration (`.reg .b32 %r<5>`, `.shared .align 8 .b8 x[16]`, `.param .u64 p`), without
// ';'. A `%r<5>` range yields %r0 .. %r4; a list (`.reg .pred P1, P2`) one entry per name.
std::vector<VarDecl> parseDecl(const std::string& text, const litmus::SourceLoc& loc);

// Bytes of a PTX fundamental type ("u32" -> 4, "pred" -> 1, "b128" -> 16); 0 if unknown.
int typeBytes(const std::string& type);

}  // namespace extract
