// Reading a test file and choosing the front end by its extension.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "litmus/parse.h"

namespace litmus {

Test parseFile(const std::string& path, const Deadline& deadline) {
  auto endsWith = [&](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  bool yaml = endsWith(".yaml") || endsWith(".yml");
  if (!yaml && !endsWith(".litmus"))
    throw Error({path, 0, 0}, "unknown file type; expected .yaml, .yml or .litmus");
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  // a directory opens fine on Linux but reads as nothing
  if (!in || std::filesystem::is_directory(path, ec))
    throw Error({path, 0, 0}, "cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error({path, 0, 0}, "cannot read '" + path + "'");
  return yaml ? parseYaml(text.str(), path, deadline) : parseHerd(text.str(), path, deadline);
}

}  // namespace litmus
