// Internal to extract/: the evaluator of one thread, shared by thread.cpp (control flow and the
// points of the emitted code), thread_ops.cpp (instructions) and emit.cpp (the litmus text of the
// instructions a test keeps).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "extract/thread.h"

namespace extract::detail {

struct State {
  std::vector<Value> regs;
  // Param slots of call blocks (key kParamSlots + symbol id) and local memory (object id), by
  // byte offset.
  std::map<std::pair<int, int64_t>, Value> mem;
};
constexpr int kParamSlots = 1 << 20;

// Thrown to end a lane run at its stop point.
struct Stop {};

class Evaluator {
 public:
  Evaluator(const LaunchContext& ctx, const ThreadId& id, int index, LaneOracle& oracle, const ThreadOptions& opt);
  ThreadCode run();
  Value stopValue = Value::unknown();

  // ---- thread.cpp: control flow
  struct Pending {
    int pc;
    State st;
    std::string label;
    bool skipMemo;
  };
  struct Memo {
    std::string label;
    State st;
    int pc;
  };
  void walk(int pc, State st, bool skipMemo);
  std::vector<int64_t> key(int pc, const State& st) const;
  void jumpTo(const Memo& m, const State& st);
  // Handles a conditional branch whose predicate the test computes; returns the next pc, or -1
  // when the path ends here.
  int dynamicBranch(int pc, const Op& op, const State& st);
  bool errorSink(int pc, State st) const;
  void recordError(const Op& op, int pred, bool whenTrue);
  std::string newLabel() {
    std::string l = "L";  // (not "L" + to_string: GCC 12 -O3 warns -Wrestrict on it when inlined)
    return l += std::to_string(++labels_);
  }
  void emit(const std::string& text, const litmus::SourceLoc& origin);
  void emitLabel(const std::string& label);
  void dropDeadComputations();
  void renumberLabels();
  void note(const Op& op, const std::string& text);
  [[noreturn]] void fail(const Op& op, const std::string& text) const;

  // ---- thread_ops.cpp: one instruction that is not a branch
  enum class Guard { Skip, Run, Dynamic };
  Guard guardOf(const Op& op, const State& st) const;
  Value value(const State& st, const Arg& a) const;  // a source operand (register, immediate, symbol)
  Value special(const std::string& name) const;
  Value symbolAddress(const std::string& sym) const;
  Value addressOf(const State& st, const Arg& a) const;  // an [address] operand
  std::vector<int> destRegs(const Op& op) const;
  void setDests(const Op& op, State& st, const std::vector<Value>& v) const;
  // Evaluates `op`; in quiet mode (error-sink probing) returns false instead of emitting.
  bool step(int pc, const Op& op, State& st, bool quiet);
  bool pure(const Op& op, State& st, bool quiet);
  bool localMemory(const Op& op, State& st, bool quiet, bool& handled);
  void warpQuery(int pc, const Op& op, State& st, bool quiet);
  std::pair<int, bool> shflSource(const Op& op, const State& st, int lanes) const;
  void clusterQuery(const Op& op, State& st);
  void call(const Op& op, State& st);
  void memoryAccess(const Op& op, State& st);

  // ---- emit.cpp: instructions the test keeps
  void emitKept(const Op& op, State& st, Guard guard);
  std::string renderSource(const Op& op, const State& st, const Arg& a);
  std::string renderAddress(const Op& op, const Value& addr, std::vector<std::string>& before);
  int newDyn(const std::string& ptxReg, bool pred);
  std::string dynName(int dyn) const { return dyns_[dyn].name; }
  void emitChecked(const Op& op, const std::string& text, const std::vector<std::string>& before);
  void recordAccess(const Value& addr, int bytes, bool write);
  bool emitDynamicPure(const Op& op, State& st);
  void recordCondition(const Op& op, const State& st, const std::vector<int>& dyns, Guard g);
  std::string guardText(const Op& op, const State& st, Guard g) const;

  const LaunchContext& ctx;
  const Kernel& k;
  ThreadId id;
  int index;
  LaneOracle& oracle;
  ThreadOptions opt;
  ThreadCode out;

 private:
  struct Dyn {
    std::string name;
    bool pred;
  };
  std::vector<Pending> pending_;
  std::map<std::pair<int, std::vector<int64_t>>, Memo> memo_;
  std::vector<int> visits_;
  std::map<int, int> occurrences_;  // per instruction: visits of a warp collective
  std::vector<Dyn> dyns_;
  std::map<std::string, int> dynCount_;
  std::map<int, litmus::Cond> predConds_;  // a test register -> the condition it holds
  std::set<std::string> notes_;
  int labels_ = 0;
  int mapas_ = 0;
  bool initsEmitted_ = false;
  bool endUsed_ = false;

 public:
  std::set<int> virtual_;  // test registers whose instruction the test cannot express (conditions only)
  std::map<int, litmus::Cond>& predConds() { return predConds_; }
  const std::vector<Dyn>& dyns() const { return dyns_; }
  std::map<int, int>& occurrences() { return occurrences_; }
  int nextMapa() { return ++mapas_; }
  void useEnd() { endUsed_ = true; }
  bool endUsed() const { return endUsed_; }
};

std::string regText(const std::string& renamed);  // "%P1_s7" -> "P1_s7"
litmus::Cond negate(const litmus::Cond& c);       // the condition that holds when `c` does not

}  // namespace extract::detail
