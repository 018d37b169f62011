// What the extraction knows about a register while it evaluates one thread: a number, an address
// (a memory object and a byte offset), a value only the litmus test computes (a register of the
// emitted code: what a load returned, a try_wait predicate), or nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace extract {

// How an address reads: the state space of the window it is in.
enum class Window : uint8_t { Generic, Global, SharedCta, SharedCluster, Param, Local };

struct Value {
  enum class Kind : uint8_t {
    Undef,    // never written (reads as whatever the emitted register holds)
    Int,      // a number the extraction computed
    Addr,     // object `obj` at byte offset `i`, in `window`
    Dyn,      // the emitted register `dyn` (extract/thread.h names it)
    Unknown,  // abstracted: float arithmetic, clocks, data the test does not keep
  };
  Kind kind = Kind::Undef;
  Window window = Window::Generic;
  int obj = -1;
  int dyn = -1;
  int64_t i = 0;

  static Value num(int64_t v) { return {Kind::Int, Window::Generic, -1, -1, v}; }
  static Value addr(int obj, int64_t off, Window w) { return {Kind::Addr, w, obj, -1, off}; }
  static Value dynamic(int id) { return {Kind::Dyn, Window::Generic, -1, id, 0}; }
  static Value unknown() { return {Kind::Unknown, Window::Generic, -1, -1, 0}; }

  bool isInt() const { return kind == Kind::Int; }
  bool known() const { return kind == Kind::Int || kind == Kind::Addr; }
  bool operator==(const Value& o) const {
    return kind == o.kind && window == o.window && obj == o.obj && dyn == o.dyn && i == o.i;
  }
};

// A memory object of the launch: a shared variable in one CTA (dynamic shared memory is one
// object per CTA), the buffer a pointer parameter points to, a module .global variable, a kernel
// parameter's own bytes, a local (stack) array.
struct MemObject {
  enum class Kind { Shared, Buffer, GlobalVar, Param, Local };
  Kind kind = Kind::Shared;
  std::string ptxName;  // the variable or parameter
  std::string name;     // its litmus location name (Shared, Buffer, GlobalVar)
  int cta = -1;         // Shared: the CTA (test numbering) that holds it
  int64_t bytes = 0;    // 0: unknown (dynamic shared memory, a buffer)
};

}  // namespace extract
