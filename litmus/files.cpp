#include "litmus/files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "litmus/test.h"

namespace litmus {

namespace fs = std::filesystem;

bool isTestFile(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".litmus";
}

std::vector<std::string> findTestFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::recursive_directory_iterator(p, ec))
        if (entry.is_regular_file() && isTestFile(entry.path().string()))
          found.push_back(entry.path().string());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      out.push_back(p);
    } else {
      throw Error({p, 0, 0}, "no such file or directory");
    }
  }
  return out;
}

void requireDirectory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw Error({dir, 0, 0}, "cannot create directory" + (ec ? ": " + ec.message() : ""));
}

void requireWritable(const std::string& file) {
  const bool existed = std::filesystem::exists(file);
  if (!std::ofstream(file, std::ios::app)) throw Error({file, 0, 0}, "cannot write this file");
  if (!existed) std::filesystem::remove(file);
}

}  // namespace litmus
