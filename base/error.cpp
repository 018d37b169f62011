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

// Messages quote what the file says between single quotes; a quote of a 50 MB name would make a
// 50 MB message. A quote past kQuoteKept characters keeps its start and says how long it was.
constexpr size_t kQuoteKept = 200;

std::string shortenQuotes(const std::string& message) {
  std::string out;
  size_t at = 0;
  for (size_t open; (open = message.find('\'', at)) != std::string::npos;) {
    const size_t close = message.find('\'', open + 1);
    if (close == std::string::npos) break;
    const size_t length = close - open - 1;
    out.append(message, at, open + 1 - at);
    if (length > kQuoteKept)
      out.append(message, open + 1, kQuoteKept).append("... (" + std::to_string(length) + " characters)");
    else
      out.append(message, open + 1, length);
    out += '\'';
    at = close + 1;
  }
  return out.append(message, at, std::string::npos);
}

}  // namespace

Error::Error(SourceLoc loc, const std::string& message)
    : std::runtime_error(formatWhat(loc, shortenQuotes(message))),
      loc_(std::move(loc)),
      message_(shortenQuotes(message)) {}

}  // namespace litmus
