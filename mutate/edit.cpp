// Helpers the operators share, and the category names.
#include "mutate/edit.h"

#include "litmus/ptx_format.h"
#include "litmus/instructions.h"

namespace mutate {

const std::vector<Category>& allCategories() {
  static const std::vector<Category> all = {Category::PoReverse,      Category::PoWeaken,
                                            Category::SyncWeaken,     Category::ScopeNarrow,
                                            Category::ProxyFenceDrop, Category::MbarrierWaitDrop};
  return all;
}

const char* toString(Category c) {
  switch (c) {
    case Category::PoReverse: return "po-reverse";
    case Category::PoWeaken: return "po-weaken";
    case Category::SyncWeaken: return "sync-weaken";
    case Category::ScopeNarrow: return "scope-narrow";
    case Category::ProxyFenceDrop: return "proxy-fence-drop";
    case Category::MbarrierWaitDrop: return "mbarrier-wait-drop";
  }
  return "?";
}

std::optional<Category> parseCategory(std::string_view s) {
  for (Category c : allCategories())
    if (s == toString(c)) return c;
  return std::nullopt;
}

std::vector<Mutation> mutations(const litmus::Test& test, Category category) {
  switch (category) {
    case Category::PoReverse: return detail::poReverse(test);
    case Category::PoWeaken: return detail::poWeaken(test);
    case Category::SyncWeaken: return detail::syncWeaken(test);
    case Category::ScopeNarrow: return detail::scopeNarrow(test);
    case Category::ProxyFenceDrop: return detail::proxyFenceDrop(test);
    case Category::MbarrierWaitDrop: return detail::waitDrop(test);
  }
  return {};
}

namespace detail {

using litmus::Instr;
using litmus::Opcode;
using litmus::Operand;

std::string where(const litmus::Thread& t, const Instr& in) {
  return t.name + ": '" + litmus::formatInstr(in) + "'";
}

Mutation withCode(const litmus::Test& test, Category c, size_t t, std::vector<Instr> code,
                  std::string change) {
  Mutation m{c, test, std::move(change)};
  m.test.threads[t].code = std::move(code);
  return m;
}

Mutation replaced(const litmus::Test& test, Category c, size_t t, size_t i, const Instr& in) {
  const litmus::Thread& th = test.threads[t];
  std::vector<Instr> code = th.code;
  code[i] = in;
  return withCode(test, c, t, std::move(code),
                  where(th, th.code[i]) + " -> '" + litmus::formatInstr(in) + "'");
}

Mutation dropped(const litmus::Test& test, Category c, size_t t, size_t i) {
  const litmus::Thread& th = test.threads[t];
  std::vector<Instr> code = th.code;
  code.erase(code.begin() + static_cast<std::ptrdiff_t>(i));
  return withCode(test, c, t, std::move(code), th.name + ": drop '" + litmus::formatInstr(th.code[i]) + "'");
}

std::set<std::string> regsRead(const Instr& in) {
  std::set<std::string> out;
  const size_t dests = static_cast<size_t>(litmus::destCount(in));
  for (size_t i = 0; i < in.args.size(); ++i) {
    const Operand& a = in.args[i];
    if (a.kind == Operand::Kind::RegAddr || (a.kind == Operand::Kind::Reg && i >= dests)) out.insert(a.name);
  }
  if (!in.guard.empty()) out.insert(in.guard);
  return out;
}

std::set<std::string> regsWritten(const Instr& in) {
  std::set<std::string> out;
  const size_t dests = static_cast<size_t>(litmus::destCount(in));
  for (size_t i = 0; i < dests && i < in.args.size(); ++i)
    if (in.args[i].kind == Operand::Kind::Reg) out.insert(in.args[i].name);
  return out;
}

int labelIndex(const std::vector<Instr>& code, const std::string& name) {
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].op == Opcode::Label && code[i].target == name) return static_cast<int>(i);
  return -1;
}

bool isAccess(const Instr& in) { return litmus::isAccess(in); }

}  // namespace detail
}  // namespace mutate
