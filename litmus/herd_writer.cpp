#include "litmus/herd_writer.h"

#include <sstream>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

namespace litmus {
namespace {

[[noreturn]] void refuse(const SourceLoc& at, const std::string& what) {
  throw Error(at, "cannot write this test in herd's dialect: " + what);
}

bool sameTermList(const std::vector<Term>& a, const std::vector<Term>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (formatTerm(a[i]) != formatTerm(b[i])) return false;
  return true;
}

void refuseLayout(const Test& t) {
  if (!t.grids.empty()) refuse(t.grids.front().loc, "several grids ('grids:')");
  for (const Location& l : t.locations) {
    const std::string name = "location " + l.name;
    if (l.ownerCta >= 0) refuse(l.loc, name + " has a shared-memory layout ('cta:')");
    if (l.space != Space::Global) refuse(l.loc, name + " is not in global memory");
    if (!l.initAt.empty()) refuse(l.loc, name + " has per-element initial values");
    if (!l.tensorOf.empty()) refuse(l.loc, name + " is a tensor map");
    if (!l.copyOf.empty()) refuse(l.loc, name + " is another CTA's copy");
  }
  for (const Thread& th : t.threads) {
    if (th.warp >= 0) refuse(th.loc, "thread " + th.name + " is placed in a warp ('warp:')");
    if (th.grid != 0) refuse(th.loc, "thread " + th.name + " belongs to grid " + std::to_string(th.grid));
  }
  if (!sameTermList(t.observed, conditionTerms(t.condition)))
    refuse(t.conditionLoc, "an 'observe:' list other than the condition's terms");
}

// herd info lines hold one line each; the description is one quoted string.
void writeHeader(std::ostream& os, const Test& t) {
  os << "PTX " << t.name << "\n";
  if (!t.description.empty()) {
    if (t.description.find('"') != std::string::npos)
      refuse({t.file, 1, 1}, "a description with a '\"' in it");
    // one string over several lines keeps each line as it is (herd's front end trims only the
    // ends of the whole comment)
    os << "\"" << t.description << "\"\n";
  }
  auto info = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    if (value.find('\n') != std::string::npos) refuse({t.file, 1, 1}, std::string(key) + " of several lines");
    os << key << "=" << value << "\n";
  };
  info("Family", t.family);
  if (t.expect != Expect::None) info("Expect", toString(t.expect));
  info("Liveness", t.liveness);
  info("Reason", t.reason);
}

void writeInit(std::ostream& os, const Test& t) {
  os << "{\n";
  for (const Location& l : t.locations) {
    if (l.aliasOf.empty()) {
      os << l.name << "=" << l.init << ";\n";
      continue;
    }
    const char* proxy = l.aliasProxy == Proxy::Texture   ? "texture"
                        : l.aliasProxy == Proxy::Surface ? "surface"
                        : l.aliasProxy == Proxy::Constant ? "constant"
                                                          : "generic";
    // a non-generic alias names the address it views, which may itself be an alias
    os << l.name << " @ " << proxy << " aliases " << (l.viewOf.empty() ? l.aliasOf : l.viewOf) << ";\n";
  }
  for (const Thread& th : t.threads)
    for (const auto& [reg, value] : th.initRegs) os << th.name << ":" << reg << "=" << value << ";\n";
  os << "}\n";
}

std::string instrText(const Test& t, const Instr& in) {
  if (in.op == Opcode::Bar && !t.dat3mBarriers)
    refuse(in.loc, "'" + formatInstr(in) + "' (herd reads bar operands the Dat3M way; "
                   "declare 'barriers: dat3m')");
  std::string text = formatInstr(in);
  if (text.find('|') != std::string::npos || text.find(';') != std::string::npos)
    refuse(in.loc, "'" + text + "'");
  return text;
}

void writeCode(std::ostream& os, const Test& t) {
  size_t rows = 0;
  for (const Thread& th : t.threads) rows = std::max(rows, th.code.size());
  for (size_t i = 0; i < t.threads.size(); ++i) {
    const Thread& th = t.threads[i];
    os << (i ? " | " : " ") << th.name << "@cta " << th.cta << ",cluster " << th.cluster << ",gpu "
       << th.gpu;
  }
  os << " ;\n";
  for (size_t r = 0; r < rows; ++r) {
    for (size_t i = 0; i < t.threads.size(); ++i) {
      const auto& code = t.threads[i].code;
      os << (i ? " | " : " ") << (r < code.size() ? instrText(t, code[r]) : "");
    }
    os << " ;\n";
  }
}

// The herd front end must read back every instruction as it was: a form it reads differently
// (or not at all) is a construct the dialect lacks.
void requireReadBack(const Test& t, const std::string& text) {
  Test back;
  try {
    back = parseHerd(text, t.file);
  } catch (const Error& e) {
    refuse(t.threads.empty() ? SourceLoc{t.file, 1, 1} : t.threads.front().loc,
           "herd's front end does not read it back (" + e.message() + ")");
  }
  for (size_t i = 0; i < t.threads.size() && i < back.threads.size(); ++i) {
    const auto& want = t.threads[i].code;
    const auto& got = back.threads[i].code;
    for (size_t k = 0; k < want.size(); ++k)
      if (k >= got.size() || formatInstr(want[k]) != formatInstr(got[k]))
        refuse(want[k].loc, "'" + formatInstr(want[k]) + "' reads back differently in herd's dialect");
  }
}

}  // namespace

std::string toHerd(const Test& t) {
  refuseLayout(t);
  std::ostringstream os;
  writeHeader(os, t);
  writeInit(os, t);
  writeCode(os, t);
  os << toString(t.quantifier) << " " << formatCondition(t.condition) << "\n";
  const std::string text = os.str();
  requireReadBack(t, text);
  return text;
}

}  // namespace litmus
