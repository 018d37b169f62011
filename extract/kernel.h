// A kernel ready for evaluation: its flattened body, its registers numbered, which registers are
// live before each instruction, and the memory objects of one launch.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "extract/flatten.h"
#include "extract/value.h"

namespace extract {

struct Launch {
  std::array<int, 3> block = {1, 1, 1}, cluster = {1, 1, 1}, grid = {1, 1, 1};
  int threadsPerCta() const { return block[0] * block[1] * block[2]; }
  int ctasPerCluster() const { return cluster[0] * cluster[1] * cluster[2]; }
  int ctas() const { return grid[0] * grid[1] * grid[2]; }
};

// Where one thread of the launch runs. CTAs are numbered cluster by cluster, in rank order within
// a cluster, as litmus tests number them (docs/format.md: ranks follow CTA numbers).
struct ThreadId {
  std::array<int, 3> tid{}, ctaid{}, clusterCtaid{}, clusterid{};
  int cta = 0;      // the test's CTA number
  int cluster = 0;  // the test's cluster number
  int rank = 0;     // %cluster_ctarank
  int linear = 0;   // the thread's index in its CTA
  int warp() const { return linear / 32; }
  int lane() const { return linear % 32; }
};
std::vector<ThreadId> threadsOf(const Launch& launch);

// The registers an instruction reads and writes (ids into Kernel::regs); `kills` when the writes
// happen whatever the guard says.
struct OpRegs {
  std::vector<int> uses, defs;
  bool kills = false;
};

struct Kernel {
  const Module* module = nullptr;
  const Function* fn = nullptr;
  Body body;
  std::vector<std::string> regs;  // id -> renamed register name
  std::map<std::string, int> regIds;
  std::vector<OpRegs> opRegs;
  std::vector<std::vector<int>> liveIn;  // per instruction: the live registers, sorted
  std::vector<bool> target;              // per instruction: a branch goes there
  std::map<std::string, int> symIds;     // param slots and other symbols read as memory

  int reg(const std::string& name) const { return regIds.at(name); }
  int sym(const std::string& name);
};

Kernel prepareKernel(const Module& module, const Function& fn);

// The operands an instruction writes: ld, atom, arithmetic, mbarrier.arrive's state, try_wait's
// predicate... (0 or 1 leading operand; a `p|q` pair or `{a, b}` vector counts as one operand).
bool writesFirstOperand(const Op& op);
// The instruction never falls through (bra without guard, ret, exit, trap, brkpt).
bool endsPath(const Op& op);

}  // namespace extract
