// Finding litmus test files on disk.
#pragma once

#include <string>
#include <vector>

namespace litmus {

bool isTestFile(const std::string& path);  // .yaml, .yml or .litmus
// Files named directly are returned as given; directories are searched recursively for test
// files (sorted, so that runs are reproducible). Throws litmus::Error for a missing path.
std::vector<std::string> findTestFiles(const std::vector<std::string>& paths);

}  // namespace litmus
