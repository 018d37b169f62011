// The fuzz targets without libFuzzer (any compiler): runs the target once over each file named,
// and over every file under each directory named. Every build has these drivers, so the
// regression inputs (tests/fuzz/regressions) run through the very code libFuzzer drives, under
// the sanitizers in CI's sanitizer build.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (!fs::is_directory(argv[i])) {
      files.emplace_back(argv[i]);
      continue;
    }
    for (const auto& e : fs::recursive_directory_iterator(argv[i]))
      if (e.is_regular_file()) files.push_back(e.path());
  }
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::cerr << f.string() << ": cannot read\n";
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }
  std::cout << files.size() << " inputs\n";
  return 0;
}
