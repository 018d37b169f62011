// Front ends: YAML and herd `.litmus` text -> Test, and Test -> YAML (for `litmus convert`).
// Every function throws litmus::Error ("file:line:col: error: message") on bad input and never
// returns a half-built Test. Reading and validation look at `deadline` as they go and throw
// Deadline::Expired once it has passed (the caller's --timeout covers them too).
#pragma once

#include <string>
#include <string_view>

#include "base/deadline.h"
#include "litmus/test.h"

namespace litmus {

// Reads PATH and dispatches on its extension: .yaml/.yml -> YAML, .litmus -> herd.
Test parseFile(const std::string& path, const Deadline& deadline = {});

Test parseYaml(const std::string& text, const std::string& file, const Deadline& deadline = {});
Test parseHerd(const std::string& text, const std::string& file, const Deadline& deadline = {});

enum class Dialect {
  Ptx,   // PTX as a programmer writes it: `st.release.gpu.global.u32 [x], 1;`
  Herd,  // the dat3m herd dialect: `st.release.gpu x, 1`, `ld r0, 1`, `beq r1, r2, L`, `goto L`
};

// One instruction (or label definition "L:") without surrounding whitespace; a trailing ';' is
// accepted. `loc` is the position of the first character.
Instr parseInstruction(std::string_view text, const SourceLoc& loc, Dialect dialect);

// A herd-style final condition: `exists (...)`, `~exists (...)`, `forall (...)`.
// Sets quantifier and condition on `test`.
void parseFinalCondition(std::string_view text, const SourceLoc& loc, Test& test);

// One condition term: `P0:r0` (or `0:r0`, `P0:%r0`), a location `x` / `[x]`, or a number. Used
// for YAML `observe` lists; thread indices are resolved against test.threads.
Term parseTerm(std::string_view text, const SourceLoc& loc, const Test& test);

// Semantic checks common to both front ends (unknown registers/locations/labels/threads, placement
// consistency, defaults for observed terms). Called by parseYaml/parseHerd before returning.
void validate(Test& test, const Deadline& deadline = {});

// Tensor maps (litmus/ptx_instr_tensor.cpp): checks the `tensormap`, `dims`, `box` and `copy-of`
// keys of the locations together and gives each map its initial global_address.
void finishTensorMaps(Test& test);
// Per-instruction checks of cp.async.bulk.tensor, tensormap.replace and multicast operands that
// need the test's locations (called by validate).
class TestIndex;  // litmus/test_index.h
void validateTensorInstr(const TestIndex& names, const Thread& thread, const Instr& in);

// YAML text that parseYaml reads back into an equivalent Test.
std::string toYaml(const Test& test);

}  // namespace litmus
