// A small interpreter for the integer and memory subset of the PTX that the runner generates for
// its harness (decode, result slots, tally keys), so that tests without a GPU can execute the
// generated code itself instead of copies of its formulas. Every instruction it meets must be in
// the subset; anything else stops it (the caller decides whether that is the end of the code it
// wanted or a failure). Memory is a byte map; addresses are whatever the caller puts in registers.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu-runner/params.h"

namespace ptxsim {


struct Instr {
  std::string guard;  // "%h_p", "!%h_p" or empty
  std::string op;     // "add.u32"
  std::vector<std::string> args;
};

// The lines of the test kernel, labels mapped to instruction indices.
struct Program {
  std::vector<Instr> code;
  std::map<std::string, size_t> labels;
};

// The kernel that starts at `.entry NAME` (up to the next .entry).
inline Program parseKernel(const std::string& ptx, const std::string& name = "litmus_test") {
  Program p;
  const size_t from = ptx.find(".entry " + name);
  const size_t to = ptx.find(".entry ", from + 1);
  std::istringstream in(ptx.substr(from, to == std::string::npos ? std::string::npos : to - from));
  bool body = false;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find("//"));
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line == "{") body = true;
    if (!body || line[0] == '.' || line[0] == '{' || line[0] == '}') continue;
    if (line.back() == ':') {
      p.labels[line.substr(0, line.size() - 1)] = p.code.size();
      continue;
    }
    Instr in_;
    if (line[0] == '@') {
      const size_t sp = line.find(' ');
      in_.guard = line.substr(1, sp - 1);
      line = line.substr(sp + 1);
    }
    const size_t sp = line.find_first_of(" \t;");
    in_.op = line.substr(0, sp);
    std::string rest = sp == std::string::npos ? "" : line.substr(sp);
    if (const size_t semi = rest.rfind(';'); semi != std::string::npos) rest = rest.substr(0, semi);
    // Operands are separated by commas outside brackets and braces.
    std::string cur;
    int depth = 0;
    for (char c : rest) {
      depth += (c == '[' || c == '{') - (c == ']' || c == '}');
      if (c == ',' && depth == 0) {
        in_.args.push_back(cur);
        cur.clear();
      } else if (c != ' ' && c != '\t') {
        cur += c;
      }
    }
    if (!cur.empty()) in_.args.push_back(cur);
    p.code.push_back(in_);
  }
  return p;
}

using Memory = std::map<uint64_t, uint8_t>;

// One hardware thread's registers (special registers included, under their PTX names), the launch
// words its p_lp (and p_nlp) parameters hold, and global memory.
struct Machine {
  std::map<std::string, uint64_t> reg;
  const gpu::Launch* launch = nullptr;
  const gpu::Launch* nextLaunch = nullptr;
  Memory* memory = nullptr;
  // Registers the harness does not set (the test's own): a value derived from the name, so that
  // a test can tell which register's value ended where.
  bool inventRegisters = false;

  uint64_t value(const std::string& a) {
    if (a == "[p_lp]") return launch->words.at(0);
    if (a.rfind("[p_lp+", 0) == 0) return launch->words.at(std::stoul(a.substr(6)) / 4);
    if (a.rfind("[p_nlp+", 0) == 0) return nextLaunch->words.at(std::stoul(a.substr(7)) / 4);
    if (const auto it = reg.find(a); it != reg.end()) return it->second;
    if (inventRegisters && a.rfind("%t", 0) == 0) return invented(a);
    if (a[0] == '%' || a[0] == '[') throw std::runtime_error("read before write: " + a);
    return std::stoull(a, nullptr, 0);
  }
  static uint64_t invented(const std::string& name) {
    uint64_t h = 1469598103934665603ULL;
    for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ULL;
    return h & 0xffffffu;
  }
  // "[%h_A+8]" or "[%h_A]": the address.
  uint64_t address(const std::string& a) {
    const std::string in = a.substr(1, a.size() - 2);
    const size_t plus = in.find('+');
    return value(in.substr(0, plus)) + (plus == std::string::npos ? 0 : std::stoull(in.substr(plus + 1), nullptr, 0));
  }
  uint64_t load(uint64_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) {
      const auto it = memory->find(at + static_cast<uint64_t>(i));
      v |= uint64_t{it == memory->end() ? uint8_t{0} : it->second} << (8 * i);
    }
    return v;
  }
  void store(uint64_t at, int bytes, uint64_t v) {
    for (int i = 0; i < bytes; ++i) (*memory)[at + static_cast<uint64_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  }
};

inline bool has(const std::string& op, const char* part) { return op.find(part) != std::string::npos; }

inline uint64_t compare(const std::string& op, uint64_t a, uint64_t b) {
  if (has(op, ".eq.")) return a == b;
  if (has(op, ".ne.")) return a != b;
  if (has(op, ".lt.")) return a < b;
  if (has(op, ".le.")) return a <= b;
  if (has(op, ".gt.")) return a > b;
  if (has(op, ".ge.")) return a >= b;
  throw std::runtime_error("unknown comparison " + op);
}

// The widths (bits) named by an instruction's type suffixes, in order: "cvt.u32.u64" gives 32, 64.
inline std::vector<int> widths(const std::string& op) {
  std::vector<int> out;
  std::stringstream parts(op);
  for (std::string p; std::getline(parts, p, '.');) {
    if (p == "pred") out.push_back(1);
    else if (p.size() >= 2 && (p[0] == 'u' || p[0] == 's' || p[0] == 'b') && std::isdigit(static_cast<unsigned char>(p[1])))
      out.push_back(std::stoi(p.substr(1)));
  }
  return out;
}

inline uint64_t maskOf(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Loads and stores of global memory: "ld.global.u64 %r, [a]", "ld.global.v2.u64 {%a, %b}, [a]",
// "st.global.u32 [a], v", "st.global.v2.u64 [a], {v, w}". False for anything else.
inline bool memoryOp(Machine& m, const Instr& in) {
  const bool ld = in.op.rfind("ld.", 0) == 0, st = in.op.rfind("st.", 0) == 0;
  if ((!ld && !st) || !has(in.op, ".global") || !m.memory) return false;
  const int bytes = widths(in.op).back() / 8;
  const std::string& regs = in.args.at(ld ? 0 : 1);
  std::vector<std::string> list;
  if (regs[0] == '{') {
    std::stringstream items(regs.substr(1, regs.size() - 2));
    for (std::string r; std::getline(items, r, ',');) list.push_back(r);
  } else {
    list.push_back(regs);
  }
  const uint64_t at = m.address(in.args.at(ld ? 1 : 0));
  for (size_t i = 0; i < list.size(); ++i) {
    const uint64_t a = at + i * static_cast<uint64_t>(bytes);
    if (ld) m.reg[list[i]] = m.load(a, bytes);
    else m.store(a, bytes, m.value(list[i]));
  }
  return true;
}

// Executes one instruction of the subset; false for one outside it.
inline bool execute(Machine& m, const Instr& in) {
  const std::string& op = in.op;
  if (memoryOp(m, in)) return true;
  const std::string base = op.substr(0, op.find('.'));
  const std::vector<int> w = widths(op);
  if (w.empty()) return false;
  const bool wide = has(op, ".wide.");
  const int width = base == "cvt" ? w.at(0) : wide ? 2 * w.back() : w.back();
  const uint64_t in_ = maskOf(base == "cvt" ? w.at(1) : wide ? w.back() : width);
  auto arg = [&](size_t i) { return m.value(in.args.at(i)) & in_; };
  uint64_t r = 0;
  if (base == "mov" || base == "cvta" || base == "cvt" || (base == "ld" && has(op, ".param"))) r = arg(1);
  else if (base == "add") r = arg(1) + arg(2);
  else if (base == "sub") r = arg(1) - arg(2);
  else if (base == "mul") r = arg(1) * arg(2);
  else if (base == "mad") r = arg(1) * arg(2) + arg(3);
  else if (base == "div") r = arg(1) / arg(2);
  else if (base == "rem") r = arg(1) % arg(2);
  else if (base == "and") r = arg(1) & arg(2);
  else if (base == "or") r = arg(1) | arg(2);
  else if (base == "xor") r = arg(1) ^ arg(2);
  else if (base == "min") r = std::min(arg(1), arg(2));  // unsigned: the harness's min.u32
  else if (base == "max") r = std::max(arg(1), arg(2));
  else if (base == "shl") r = arg(1) << arg(2);
  else if (base == "shr" && has(op, ".s64")) r = static_cast<uint64_t>(static_cast<int64_t>(arg(1)) >> arg(2));
  else if (base == "shr") r = arg(1) >> arg(2);
  else if (base == "not" && width == 1) r = !m.value(in.args.at(1));
  else if (base == "selp") r = m.value(in.args.at(3)) ? arg(1) : arg(2);
  else if (base == "setp") {
    r = compare(op, arg(1), arg(2));
    if (has(op, ".and.")) r = r && m.value(in.args.at(3));
  } else
    return false;
  m.reg[in.args.at(0)] = base == "setp" ? r : r & maskOf(width);
  return true;
}

}  // namespace ptxsim
