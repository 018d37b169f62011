// What the operators share (private to mutate/): building a Mutation from one edit, the registers
// an instruction reads and writes, and the labels of a thread.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "mutate/mutate.h"

namespace mutate::detail {

// "P1: 'ld.acquire.gpu.global.u32 %r0, [flag]'"
std::string where(const litmus::Thread&, const litmus::Instr&);
// A copy of `test` whose thread `t` holds `code`, with the change in words.
Mutation withCode(const litmus::Test& test, Category c, size_t t, std::vector<litmus::Instr> code,
                  std::string change);
// A copy of `test` with instruction `i` of thread `t` replaced by `in` ("P0: 'a' -> 'b'").
Mutation replaced(const litmus::Test& test, Category c, size_t t, size_t i, const litmus::Instr& in);
// A copy of `test` without instruction `i` of thread `t` ("P0: drop 'a'").
Mutation dropped(const litmus::Test& test, Category c, size_t t, size_t i);

std::set<std::string> regsRead(const litmus::Instr&);     // operands after the destinations, guard
std::set<std::string> regsWritten(const litmus::Instr&);  // the destinations
// The index of the label `name` in `code`, or -1.
int labelIndex(const std::vector<litmus::Instr>& code, const std::string& name);
// Plain memory accesses: ld, st, atom, red.
bool isAccess(const litmus::Instr&);

// The operators of each category (operators_order.cpp, operators_sync.cpp, operators_wait.cpp).
std::vector<Mutation> poReverse(const litmus::Test&);
std::vector<Mutation> poWeaken(const litmus::Test&);
std::vector<Mutation> syncWeaken(const litmus::Test&);
std::vector<Mutation> scopeNarrow(const litmus::Test&);
std::vector<Mutation> proxyFenceDrop(const litmus::Test&);
std::vector<Mutation> waitDrop(const litmus::Test&);

}  // namespace mutate::detail
