// Every file under tests/bad-input must be rejected with exactly the message it announces:
// YAML files in a first-line comment `# expect: ...`, herd files in a sibling `NAME.expect`.
// FILE in the expectation stands for the path given to parseFile.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "litmus/parse.h"

namespace {

std::string corpus() { return LITMUS_SOURCE_DIR "/tests/bad-input"; }

std::string firstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string expectation(const std::filesystem::path& p) {
  if (p.extension() == ".litmus") return firstLine(p.string() + ".expect");
  const std::string prefix = "# expect: ";
  std::string line = firstLine(p.string());
  return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : "(no '# expect:' line)";
}

std::string withFile(std::string text, const std::string& path) {
  for (size_t at; (at = text.find(path)) != std::string::npos;)
    text.replace(at, path.size(), "FILE");
  return text;
}

}  // namespace

TEST_CASE("bad inputs are rejected with their announced message") {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(corpus())) {
    std::string ext = e.path().extension().string();
    if (ext == ".yaml" || ext == ".yml" || ext == ".litmus") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 30);
  for (const auto& f : files) {
    CAPTURE(f.string());
    std::string got = "no error";
    try {
      litmus::parseFile(f.string());
    } catch (const litmus::Error& e) {
      got = withFile(e.what(), f.string());
    } catch (const std::exception& e) {
      got = std::string("not a litmus::Error: ") + e.what();
    }
    CHECK(got == expectation(f));
  }
}

TEST_CASE("parseFile refuses what it cannot read") {
  CHECK_THROWS_WITH_AS(litmus::parseFile("/nonexistent/t.yaml"),
                       "/nonexistent/t.yaml: error: cannot read '/nonexistent/t.yaml'",
                       litmus::Error);
  CHECK_THROWS_WITH_AS(litmus::parseFile(corpus() + "/no-threads.yaml.txt"),
                       (corpus() + "/no-threads.yaml.txt: error: unknown file type; expected "
                                   ".yaml, .yml or .litmus")
                           .c_str(),
                       litmus::Error);
}
