// Printing instructions as PTX-dialect text, plus the small lexical helpers that the front ends
// (instruction, condition, herd and YAML parsers) share so that they all read literals alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/test.h"

namespace litmus {

// Canonical PTX-dialect text of one instruction, without the trailing ';' (a label prints as
// "L:"). parseInstruction(formatInstr(i), loc, Dialect::Ptx) gives back an Instr equal to `i` in
// every field except `text` and `loc`. Used by `litmus convert` and toYaml.
std::string formatInstr(const Instr&);
// cp.async.bulk.tensor and tensormap.replace, as formatInstr prints them (ptx_instr_tensor.cpp);
// empty for other instructions.
std::string formatTensorInstr(const Instr&);
// formatInstr's text (without the guard) for cvta, mov d, LOCATION, exit, nanosleep, createpolicy,
// clusterlaunchcontrol and the .release forms of st.async/red.async; nullopt for the others.
std::optional<std::string> formatMiscInstr(const Instr&);

// Text of an operand as formatInstr prints it (`%r0`, `[x+4]`, `0f3F800000`, `!%p`).
std::string formatOperand(const Operand&, Type type);
// The mnemonics of cp.async, wgmma and setmaxnreg, and wgmma.mma_async's operands
// (ptx_instr_cpasync.cpp).
std::string cpAsyncMnemonic(const Instr&);
std::string wgmmaOperands(const Instr&);

// PTX spellings of the operation enums ("add", "eq", "popc", "async.shared::cta"), the
// counterparts of the toString overloads in test.h.
const char* toString(AtomOp);
const char* toString(ArithOp);
const char* toString(CmpOp);
const char* toString(BarOp);
const char* toString(FenceProxyKind);

// The inverses, for qualifier and mnemonic words; nullopt when `s` is none of them.
std::optional<Sem> semFromString(std::string_view);  // weak .. volatile; mmio is read apart
std::optional<Scope> scopeFromString(std::string_view);
std::optional<Space> spaceFromString(std::string_view);
std::optional<Type> typeFromString(std::string_view);
std::optional<AtomOp> atomOpFromString(std::string_view);
std::optional<ArithOp> arithFromString(std::string_view);
std::optional<CmpOp> cmpFromString(std::string_view);     // setp: eq .. ge, lo, ls, hi, hs
std::optional<CmpOp> branchFromString(std::string_view);  // herd: beq, bne, blt, ble, bgt, bge
std::optional<FenceProxyKind> proxyKindFromString(std::string_view);

// For a mnemonic split at '.', the name of the instruction family when it is one we recognise
// but do not model yet ("mbarrier.arrive", "cp.async"); nullopt otherwise.
std::optional<std::string> unsupportedInstruction(const std::vector<std::string_view>& parts);

namespace lex {

std::string_view trim(std::string_view);
// letter or '_' first, then letters, digits, '_' or '$'.
bool isIdentifier(std::string_view);
// Decimal (optionally signed) or 0x hex. Accepts [-2^63, 2^64-1]; values above INT64_MAX keep
// their 64-bit two's-complement pattern. nullopt when malformed or out of that range.
std::optional<int64_t> parseInteger(std::string_view);
// True when the text looks like an integer literal (digits after an optional sign), whether or
// not it fits: lets callers say "out of range" rather than "malformed".
bool looksNumeric(std::string_view);
// True when the text is an optional sign and decimal digits, or 0x and hex digits.
bool isIntegerSyntax(std::string_view);

// A floating-point literal (decimal, or PTX 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX) as the bit pattern
// of `type` (f16, bf16, f32 or f64). nullopt if malformed or the type takes no literals.
std::optional<int64_t> encodeFloat(std::string_view, Type type);
// The inverse: text that encodeFloat reads back to the same bits.
std::string formatFloat(int64_t bits, Type type);

// A word of an instruction and its offset in the text given to parseInstruction.
struct Piece {
  std::string_view s;
  int off = 0;
};

// One instruction cut into words: an optional guard, the mnemonic split at '.', and the operands
// split at top-level commas (each trimmed). Throws Error, with columns counted from `loc`, for
// empty text, a malformed guard, an empty qualifier or a missing operand.
struct InstrPieces {
  std::string_view text;  // trimmed, without the trailing ';'
  int off = 0;            // where `text` starts
  bool label = false;     // a label definition "L:"; nothing else is filled
  std::string_view labelName;
  std::string_view guard;  // without '@', '!' and '%'
  bool guardNegated = false;
  std::vector<Piece> parts;     // "ld", "relaxed", "gpu", ...
  std::vector<Piece> operands;  // "%r0", "[x+4]", ...
};
InstrPieces splitInstruction(std::string_view text, const SourceLoc& loc);

// Operand syntax shared by the instruction reader and printer. Errors are thrown at `loc`.
// `%r0` or `r0` (with a leading `!` when allowNegation); nullopt if the text is no register.
std::optional<Operand> readRegister(std::string_view, const SourceLoc& loc, bool allowNegation);
// `[x]`, `[x+4]` or `[x-4]`.
Operand readAddress(std::string_view, const SourceLoc& loc);
// An integer that must fit `type` (any 64-bit value when untyped), or a float literal for a
// floating-point type, stored as the type's bit pattern.
Operand readImmediate(std::string_view, const SourceLoc& loc, Type type);

}  // namespace lex
}  // namespace litmus
