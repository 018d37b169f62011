// Lazy read values (docs/model.md D35). The interpreter does not fork a path on the value a read
// returns: the read's value stays a variable, and what the thread computes from it an expression
// over such variables. A path forks only where a value decides what the thread does (a branch, a
// predicate, an address, a barrier operand), and then only on what it decides. The engines
// settle the values once reads-from is known: a read returns the value of the write it reads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace model {

struct Expr;

// A constant, or an expression over the values of one trace's reads.
struct Val {
  int64_t k = 0;                   // the constant (when e is null)
  std::shared_ptr<const Expr> e;   // null: known
  Val() = default;
  explicit Val(int64_t v) : k(v) {}
  bool known() const { return e == nullptr; }
};

using ValueFn = std::function<int64_t(std::span<const int64_t>)>;

struct Expr {
  int read = -1;           // >= 0: the value returned by the trace's event with this index
  ValueFn f;               // otherwise: f applied to the values of args
  std::vector<Val> args;
};

// The value read by the trace's event `read`.
Val readValue(int read);
// f over args; computed at once when every argument is known.
Val lift(std::vector<Val> args, ValueFn f);
Val lift(const Val& a, const std::function<int64_t(int64_t)>& f);
Val lift(const Val& a, const Val& b, const std::function<int64_t(int64_t, int64_t)>& f);

// The value of v, given the values of the reads it uses (nullopt: some is not known).
using ReadLookup = std::function<std::optional<int64_t>(int)>;
std::optional<int64_t> evaluate(const Val& v, const ReadLookup& lookup);
// The reads v uses, sorted, without repetition.
std::vector<int> readsOf(const Val& v);
// v is the bare value of read `read` (the variable of a lazy read).
bool isReadOf(const Val& v, int read);

}  // namespace model
