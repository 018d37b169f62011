// Exit statuses of `litmus` and the one place that turns what escapes a command into one of them.
// Header-only so that the unit tests check the very mapping the program uses.
#pragma once

#include <exception>
#include <filesystem>
#include <new>
#include <ostream>
#include <string>

#include "base/error.h"

namespace cli {

enum Exit : int {
  kOk = 0,
  kFailed = 1,    // a check, an expectation or a run verdict failed
  kBadInput = 2,  // bad input or usage
  kUnknown = 3,   // some test has no verdict (timeout, memory, solver unknown) and none failed
  kInternal = 4,  // a bug in litmus
};

// Over many tests the most severe status wins: 4 > 2 > 1 > 3 > 0. An unknown never hides a
// failure, and a failure never hides bad input.
inline int severity(int status) {
  switch (status) {
    case kOk: return 0;
    case kUnknown: return 1;
    case kFailed: return 2;
    case kBadInput: return 3;
    default: return 4;
  }
}
inline int worse(int a, int b) { return severity(a) >= severity(b) ? a : b; }

// Runs `command` and returns its status; what it throws becomes a message on `err` and a status:
// bad input (litmus::Error, already `file:line:col: error: ...`) and paths that cannot be read or
// written (the user named them) are 2, running out of memory leaves the answer unknown (3), and
// anything else is a bug (4). `where` prefixes the messages that carry no location.
template <class Command>
int guarded(Command&& command, std::ostream& err, const std::string& where) {
  try {
    return command();
  } catch (const litmus::Error& e) {
    err << e.what() << "\n";
    return kBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    err << where << ": error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::bad_alloc&) {
    err << where << ": out of memory: no verdict\n";
    return kUnknown;
  } catch (const std::exception& e) {
    err << where << ": internal error: " << e.what() << "\n";
    return kInternal;
  } catch (...) {
    err << where << ": internal error: unknown exception\n";
    return kInternal;
  }
}

}  // namespace cli
