// Mutation operators (docs/mutation.md): each weakens one thing in a conformance test, a test whose
// condition the model forbids, so that the condition may become allowed. A testing environment
// that observes a mutant's now-allowed condition "kills" it; the share it kills measures how well
// it exposes weak behaviour (MC Mutants, Levine et al., ASPLOS'23).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/test.h"

namespace mutate {

enum class Category {
  PoReverse,         // swap two program-ordered accesses to different locations
  PoWeaken,          // remove a dependency (data: store a constant; control: drop a forward branch)
  SyncWeaken,        // release/acquire/acq_rel -> relaxed, fence.sc -> fence.acq_rel, drop a fence
  ScopeNarrow,       // sys -> gpu, gpu -> cta, cluster -> cta where the threads span the wider scope
  ProxyFenceDrop,    // drop a fence.proxy.*
  MbarrierWaitDrop,  // drop a wait: mbarrier spin -> one try, bar.sync -> bar.arrive, cluster wait
};

// Every category, in the order operators run and reports list them.
const std::vector<Category>& allCategories();
const char* toString(Category);  // "po-reverse", ...
std::optional<Category> parseCategory(std::string_view);

// One weakening of a test: the test with one change, and the change in words
// ("P1: 'ld.acquire.gpu.global.u32 %r0, [flag]' -> 'ld.relaxed.gpu.global.u32 %r0, [flag]'").
// The test keeps the original's name and has not been validated again.
struct Mutation {
  Category category;
  litmus::Test test;
  std::string change;
};

// Every mutation of `test` in `category`, in program order (threads, then instructions).
std::vector<Mutation> mutations(const litmus::Test& test, Category category);

}  // namespace mutate
