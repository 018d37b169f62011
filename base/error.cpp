#include "base/error.h"

#include <string>
#include <utility>

namespace litmus {

namespace {

std::string formatWhat(const SourceLoc& loc, const std::string& message) {
  std::string where = loc.file.empty() ? "<input>" : loc.file;
  // Unknown positions are left out rather than printed as 0 so that editors do not jump to a
  // line that does not exist.
  if (loc.line > 0) {
    where.append(":").append(std::to_string(loc.line));
    if (loc.col > 0) where.append(":").append(std::to_string(loc.col));
  }
  return where + ": error: " + message;
}

}  // namespace

Error::Error(SourceLoc loc, const std::string& message)
    : std::runtime_error(formatWhat(loc, message)), loc_(std::move(loc)), message_(message) {}

}  // namespace litmus
