#include "litmus/herd_writer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <vector>

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
  if (!t.readings.empty()) refuse(t.readings.front().loc, "readings of the model's decisions ('readings:')");
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

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The Dat3M dialect of the corpus (docs/format.md §4): a location at offset 0 named bare (`x`,
// not `[x]`) and registers without '%' (`r1`); special registers keep theirs.
std::string dat3mOperands(const Test& t, const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '[' || c == '%') {
      size_t j = i + 1;
      while (j < text.size() && identChar(text[j])) ++j;
      const std::string name = text.substr(i + 1, j - i - 1);
      const bool location = c == '[' && j < text.size() && text[j] == ']' &&
                            std::any_of(t.locations.begin(), t.locations.end(),
                                        [&](const Location& l) { return l.name == name; });
      const bool reg = c == '%' && !name.empty() && !isSpecialRegister(name) &&
                       (j >= text.size() || text[j] != '.');
      if (location) {
        out += name;
        i = j + 1;
        continue;
      }
      if (reg) {
        out += name;
        i = j;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

std::string instrText(const Test& t, const Instr& in) {
  if (in.op == Opcode::Bar && !t.dat3mBarriers)
    refuse(in.loc, "'" + formatInstr(in) + "' (herd reads bar operands the Dat3M way; "
                   "declare 'barriers: dat3m')");
  std::string text = dat3mOperands(t, formatInstr(in));
  // Dat3M spells an unconditional jump `goto LC00` (its grammar has no `bra`)
  if (in.op == Opcode::Bra && in.guard.empty() && in.cmp == CmpOp::None && text.rfind("bra ", 0) == 0)
    text = "goto " + text.substr(4);
  // and a register move `ld r0, 1` (its grammar has no `mov`)
  if (in.op == Opcode::Mov && text.rfind("mov ", 0) == 0) text = "ld " + text.substr(4);
  if (text.find('|') != std::string::npos || text.find(';') != std::string::npos)
    refuse(in.loc, "'" + text + "'");
  return text;
}

// The columns padded to one width each, as the corpus writes them; the cluster is named only
// where it is not the CTA's own (herd's default, and all that Dat3M's placement says).
void writeCode(std::ostream& os, const Test& t) {
  size_t rows = 0;
  for (const Thread& th : t.threads) rows = std::max(rows, th.code.size());
  std::vector<std::vector<std::string>> cells(rows + 1, std::vector<std::string>(t.threads.size()));
  std::vector<size_t> width(t.threads.size(), 0);
  // Thread::cta and ::cluster are unique across the test, so herd reads them back as written;
  // a cluster of one CTA is herd's default and left unsaid, as Dat3M's placement has no cluster
  std::map<std::pair<int, int>, std::set<int>> ctasOfCluster;
  for (const Thread& th : t.threads) ctasOfCluster[{th.gpu, th.cluster}].insert(th.cta);
  for (size_t i = 0; i < t.threads.size(); ++i) {
    const Thread& th = t.threads[i];
    const bool ownCluster = ctasOfCluster[{th.gpu, th.cluster}].size() == 1;
    cells[0][i] = th.name + "@cta " + std::to_string(th.cta) +
                  (ownCluster ? "" : ",cluster " + std::to_string(th.cluster)) + ",gpu " +
                  std::to_string(th.gpu);
    for (size_t r = 0; r < th.code.size(); ++r) cells[r + 1][i] = instrText(t, th.code[r]);
    for (size_t r = 0; r <= rows; ++r) width[i] = std::max(width[i], cells[r][i].size());
  }
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i)
      os << (i ? " | " : " ") << row[i] << std::string(width[i] - row[i].size(), ' ');
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
