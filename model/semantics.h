// Instruction semantics: a thread's PTX code, run along every control-flow path with reads
// returning values from a given domain, lowered to events (model/event.h).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "litmus/test.h"
#include "model/event.h"

namespace model {

// Static facts about a test that the semantics and the model need, with names turned into ids.
struct Program {
  const litmus::Test* test = nullptr;
  std::vector<std::string> vaNames;       // one per declared location (aliases included)
  std::vector<int> vaLoc;                 // virtual address -> physical location
  std::vector<litmus::Proxy> vaProxy;     // proxy of the alias declaration (Generic if none)
  std::vector<std::string> locNames;      // physical location -> name of its root declaration
  std::vector<int64_t> locInit;
  std::vector<litmus::Space> locSpace;
  struct ThreadInfo {
    std::vector<std::string> regNames;    // register id -> name
    std::map<std::string, int> regId;
    std::map<std::string, int> labels;    // label -> instruction index
    std::vector<int64_t> initRegs;        // by register id
  };
  std::vector<ThreadInfo> threads;

  int vaOf(const std::string& name) const;  // -1 if unknown
};

// Throws litmus::Error for instructions the model does not cover yet.
Program buildProgram(const litmus::Test& test);

using Domain = std::vector<std::set<int64_t>>;  // per physical location: values a read may return

struct TraceSet {
  std::vector<Trace> traces;
  bool bounded = false;  // some path exceeded the loop bound and was dropped
};

// Every path of `thread` whose loops take at most `unroll` backward jumps per branch.
TraceSet enumerateTraces(const Program& prog, int thread, const Domain& domain, int unroll);

// The smallest domain closed under the writes of all threads (a fixed point; see semantics.cpp).
Domain valueDomain(const Program& prog, int unroll);

// Value arithmetic of a PTX type on the 64-bit value representation (ints as themselves, floats as
// their IEEE bit pattern zero-extended).
int64_t normalize(litmus::Type t, int64_t v);

}  // namespace model
