// Finding litmus test files on disk.
#pragma once

#include <string>
#include <vector>

namespace litmus {

bool isTestFile(const std::string& path);  // .yaml, .yml or .litmus
// Files named directly are returned as given; directories are searched recursively for test
// files (sorted, so that runs are reproducible). Throws litmus::Error for a missing path.
std::vector<std::string> findTestFiles(const std::vector<std::string>& paths);

// Output paths are tried before any test runs, so that a bad one is a usage error with nothing
// printed, not a failure after minutes of work. Both throw litmus::Error naming the path.
void requireDirectory(const std::string& dir);  // created if missing
void requireWritable(const std::string& file);  // left as it was (removed if it was not there)

}  // namespace litmus
