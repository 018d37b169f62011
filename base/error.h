// Bad input, as every layer reports it: a source position and the "file:line:col: error: message"
// line. It sits in base/ because the exit-code mapping (base/exit_code.h) catches it; the names stay
// in namespace litmus, where the parser that raises most of them lives.
#pragma once

#include <stdexcept>
#include <string>

namespace litmus {

struct SourceLoc {
  std::string file;
  int line = 0;  // 1-based; 0 = unknown
  int col = 0;   // 1-based; 0 = unknown
};

// Bad input. `what()` is the full "file:line:col: error: message" line.
class Error : public std::runtime_error {
 public:
  Error(SourceLoc loc, const std::string& message);
  const SourceLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string message_;
};

}  // namespace litmus
