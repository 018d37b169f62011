// The YAML test format, written (litmus convert, mutants, generated tests): toYaml builds the
// document with yaml-cpp's emitter so that parseYaml (yaml.cpp) reads every string back as itself.
#include <yaml-cpp/yaml.h>

#include <stdexcept>

#include "litmus/parse.h"
#include "litmus/ptx_format.h"

namespace litmus {
namespace {

// Per-element initial values as a list of 32-bit words when they are exactly offsets 0, 4, ..,
// and as a map from byte offsets otherwise.
void emitInit(YAML::Emitter& out, const Location& l) {
  if (l.initAt.empty()) {
    out << l.init;
    return;
  }
  bool words = true;
  int64_t next = 0;
  for (const auto& [offset, value] : l.initAt) {
    words = words && offset == next;
    next += 4;
  }
  out << YAML::Flow << (words ? YAML::BeginSeq : YAML::BeginMap);
  for (const auto& [offset, value] : l.initAt) {
    if (!words) out << YAML::Key << offset << YAML::Value;
    out << value;
  }
  out << (words ? YAML::EndSeq : YAML::EndMap);
}

void emitLocation(YAML::Emitter& out, const Location& l) {
  out << YAML::Key << l.name << YAML::Value;
  if (!l.tensorOf.empty()) {  // a tensor map: its value comes from `tensormap`
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "tensormap" << YAML::Value << l.tensorOf;
    out << YAML::Key << "dims" << YAML::Value << YAML::Flow << l.tensorDims;
    out << YAML::Key << "box" << YAML::Value << YAML::Flow << l.tensorBox << YAML::EndMap;
    return;
  }
  if (l.space == Space::Global && l.aliasOf.empty() && l.initAt.empty()) {
    out << l.init;
    return;
  }
  out << YAML::Flow << YAML::BeginMap;
  if (!l.aliasOf.empty()) {
    // a non-generic alias names the address it views, which may itself be an alias
    out << YAML::Key << "alias-of" << YAML::Value << (l.viewOf.empty() ? l.aliasOf : l.viewOf);
    if (l.aliasProxy != Proxy::Generic)
      out << YAML::Key << "proxy" << YAML::Value << std::string(toString(l.aliasProxy));
  } else {
    out << YAML::Key << "init" << YAML::Value;
    emitInit(out, l);
    if (l.space != Space::Global) {
      out << YAML::Key << "space" << YAML::Value << std::string(toString(l.space));
      if (l.ownerCta >= 0) out << YAML::Key << "cta" << YAML::Value << l.ownerCta;
      if (!l.copyOf.empty()) out << YAML::Key << "copy-of" << YAML::Value << l.copyOf;
    }
  }
  out << YAML::EndMap;
}

void emitThread(YAML::Emitter& out, const Thread& t) {
  out << YAML::Key << t.name << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "cta" << YAML::Value << t.cta << YAML::Key << "cluster" << YAML::Value
      << t.cluster << YAML::Key << "gpu" << YAML::Value << t.gpu;
  if (t.warp >= 0) out << YAML::Key << "warp" << YAML::Value << t.warp;
  if (t.grid != 0) out << YAML::Key << "grid" << YAML::Value << t.grid;
  if (!t.initRegs.empty()) {
    out << YAML::Key << "init" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [reg, value] : t.initRegs) out << YAML::Key << reg << YAML::Value << value;
    out << YAML::EndMap;
  }
  std::string code;
  for (const Instr& in : t.code) {
    code += formatInstr(in) + (in.op == Opcode::Label ? "" : ";");
    // the PTX line an extracted instruction came from, read back by the parser into Instr::origin
    if (in.op != Opcode::Label && in.origin.line)
      code += "  //@ " + in.origin.file + ":" + std::to_string(in.origin.line);
    code += "\n";
  }
  out << YAML::Key << "code" << YAML::Value;
  if (code.empty()) {
    out << YAML::DoubleQuoted << "";
  } else {
    code.pop_back();  // the block ends the line itself; a final newline would leave a blank line
    out << YAML::Literal << code;
  }
  out << YAML::EndMap;
}

bool sameTerms(const std::vector<Term>& a, const std::vector<Term>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Term& x, const Term& y) { return formatTerm(x) == formatTerm(y); });
}

}  // namespace

std::string toYaml(const Test& test) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << test.name;
  if (!test.family.empty()) out << YAML::Key << "family" << YAML::Value << test.family;
  if (!test.description.empty()) out << YAML::Key << "description" << YAML::Value << test.description;
  if (test.dat3mBarriers) out << YAML::Key << "barriers" << YAML::Value << "dat3m";
  if (!test.locations.empty()) {
    out << YAML::Key << "locations" << YAML::Value << YAML::BeginMap;
    for (const Location& l : test.locations) emitLocation(out, l);
    out << YAML::EndMap;
  }
  out << YAML::Key << "threads" << YAML::Value << YAML::BeginMap;
  for (const Thread& t : test.threads) emitThread(out, t);
  out << YAML::EndMap;
  if (!test.grids.empty()) {
    out << YAML::Key << "grids" << YAML::Value << YAML::BeginSeq;
    for (const GridLaunch& g : test.grids)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "grid" << YAML::Value << g.grid << YAML::Key
          << "after" << YAML::Value << g.after << YAML::Key << "launch" << YAML::Value
          << (g.programmatic ? "programmatic" : "serialized") << YAML::EndMap;
    out << YAML::EndSeq;
  }
  out << YAML::Key << "condition" << YAML::Value
      << std::string(toString(test.quantifier)) + " " + formatCondition(test.condition);
  if (!sameTerms(test.observed, conditionTerms(test.condition))) {
    out << YAML::Key << "observe" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const Term& term : test.observed) out << formatTerm(term);
    out << YAML::EndSeq;
  }
  if (test.expect != Expect::None)
    out << YAML::Key << "expect" << YAML::Value << std::string(toString(test.expect));
  if (!test.reason.empty()) out << YAML::Key << "reason" << YAML::Value << test.reason;
  if (!test.liveness.empty()) out << YAML::Key << "liveness" << YAML::Value << test.liveness;
  if (test.raceFree) out << YAML::Key << "races" << YAML::Value << "none";
  if (!test.readings.empty()) {
    out << YAML::Key << "readings" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& r : test.readings) out << YAML::Key << r.decision << YAML::Value << r.name;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  if (!out.good()) throw std::logic_error("toYaml: " + out.GetLastError());
  return std::string(out.c_str()) + "\n";
}

}  // namespace litmus
