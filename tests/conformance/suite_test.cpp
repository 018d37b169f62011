// The suite runner's honesty rules: a test listed in a TSV but absent is a failure, a hang is
// never a pass unless expected, and a test with no expectation at all is not counted as passed.
#include "suite/suite.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

using suite::SuiteEntry;
using suite::Verdict;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("litmus-suite-test-" + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

// Three warps at bar.sync 1, 64: one is always left waiting, so no execution finishes.
std::string deadlock(const std::string& keys) {
  return "name: deadlock\nlocations:\n  x: 0\nthreads:\n"
         "  P0:\n    cta: 0\n    code: |\n      bar.sync 1, 64;\n"
         "  P1:\n    cta: 0\n    code: |\n      bar.sync 1, 64;\n"
         "  P2:\n    cta: 0\n    code: |\n      bar.sync 1, 64;\n"
         "condition: 'exists (true)'\n" +
         keys;
}

// A loop that writes and never exits: every path runs past the loop bound and is dropped, and
// the model names no hang (it only recognises side-effect-free spin loops).
std::string endlessWrites(const std::string& keys) {
  return "name: endless\nlocations:\n  x: 0\nthreads:\n  P0:\n    code: |\n"
         "      L:\n      st.global.u32 [x], 1;\n      bra L;\n"
         "condition: 'exists (x == 1)'\n" +
         keys;
}

const char* kCoRR =
    "name: corr\nlocations:\n  x: 0\nthreads:\n"
    "  P0:\n    code: |\n      st.global.u32 [x], 1;\n"
    "  P1:\n    code: |\n      ld.global.u32 %r0, [x];\n"
    "condition: 'exists (P1:r0 == 1)'\n";

SuiteEntry runOne(const std::string& file) {
  const auto report = suite::runSuite({file}, {});
  REQUIRE(report.entries.size() == 1);
  return report.entries[0];
}

}  // namespace

TEST_CASE("suite: a test that may hang fails unless may-hang is expected") {
  TempDir dir;
  SUBCASE("a verdict expectation alone does not let a hang pass") {
    const SuiteEntry e = runOne(dir.write("a.yaml", deadlock("expect: unreachable\n")));
    CHECK((e.verdict == Verdict::Fail));
    CHECK(e.message.find("may hang (") != std::string::npos);
    CHECK(e.message.find("waits forever at 'bar.sync 1, 64'") != std::string::npos);
  }
  SUBCASE("liveness: terminates fails, naming the hang") {
    const SuiteEntry e =
        runOne(dir.write("a.yaml", deadlock("expect: unreachable\nliveness: terminates\n")));
    CHECK((e.verdict == Verdict::Fail));
    CHECK(e.message.find("expected terminates, got may-hang (P") != std::string::npos);
  }
  SUBCASE("liveness: may-hang passes") {
    const SuiteEntry e =
        runOne(dir.write("a.yaml", deadlock("expect: unreachable\nliveness: may-hang\n")));
    CHECK((e.verdict == Verdict::Pass));
    CHECK(e.message.empty());
  }
  SUBCASE("may-hang from LIVENESS.tsv passes, and the TSV replaces the test's own key") {
    const std::string f =
        dir.write("a.yaml", deadlock("expect: unreachable\nliveness: terminates\n"));
    suite::SuiteOptions opt;
    opt.livenessTsv =
        dir.write("LIVENESS.tsv", "test\tmodel\ttermination\na.yaml\tptx\tmay-hang\n");
    const auto report = suite::runSuite({f}, opt);
    REQUIRE(report.entries.size() == 1);
    CHECK((report.entries[0].verdict == Verdict::Pass));
  }
  SUBCASE("no expectation at all: the hang still fails, as in check") {
    const SuiteEntry e = runOne(dir.write("a.yaml", deadlock("")));
    CHECK((e.verdict == Verdict::Fail));
    CHECK(e.livenessMet == false);
    CHECK(!e.verdictMet.has_value());
  }
}

TEST_CASE("suite: no finishing execution and no hang to show for it is unknown, as in check") {
  TempDir dir;
  const SuiteEntry e = runOne(dir.write("e.yaml", endlessWrites("expect: unreachable\n")));
  REQUIRE(e.outcome.positive + e.outcome.negative == 0);
  REQUIRE(e.outcome.hang.empty());
  CHECK((e.verdict == Verdict::Unknown));
  CHECK(!e.verdictMet.has_value());
  CHECK(e.message.find("no execution finishes within the loop bound (--unroll 2)") !=
        std::string::npos);
  CHECK((runOne(dir.write("f.yaml", endlessWrites(""))).verdict == Verdict::Unknown));
}

TEST_CASE("suite: a test that terminates and meets its expectation passes") {
  TempDir dir;
  CHECK((runOne(dir.write("c.yaml", std::string(kCoRR) + "expect: reachable\n")).verdict ==
         Verdict::Pass));
  CHECK((runOne(dir.write("d.yaml", std::string(kCoRR) + "expect: unreachable\n")).verdict ==
         Verdict::Fail));
}

TEST_CASE("suite: a TSV entry that names no file is a failing entry, seen by progress") {
  TempDir dir;
  const std::string present = dir.write("c.yaml", kCoRR);
  suite::SuiteOptions opt;
  opt.expectedTsv = dir.write("EXPECTED.tsv",
                              "test\tmodel\tquantifier\tcondition\n"
                              "c.yaml\tptx\texists\treachable\n"
                              "gone.litmus\tptx\texists\tunreachable\n"
                              "both.litmus\tptx\texists\treachable\n");
  opt.livenessTsv = dir.write("LIVENESS.tsv",
                              "test\tmodel\ttermination\n"
                              "both.litmus\tptx\tterminates\n"
                              "c.yaml\tptx\tterminates\n");
  std::vector<SuiteEntry> seen;
  std::vector<size_t> totals;
  opt.progress = [&](size_t done, size_t total, const SuiteEntry& e) {
    CHECK(done == seen.size() + 1);
    totals.push_back(total);
    seen.push_back(e);
  };
  const auto report = suite::runSuite({present}, opt);
  REQUIRE(report.entries.size() == 3);
  REQUIRE(seen.size() == 3);
  CHECK(totals == std::vector<size_t>{3, 3, 3});
  CHECK((seen[0].verdict == Verdict::Pass));
  const std::string dirName = dir.path.string();
  CHECK(seen[1].path == dirName + "/both.litmus");
  CHECK((seen[1].verdict == Verdict::Error));
  CHECK(seen[1].message == "listed in EXPECTED.tsv and LIVENESS.tsv but not found");
  CHECK(seen[1].liveness == "terminates");
  CHECK(seen[2].path == dirName + "/gone.litmus");
  CHECK(seen[2].name == "gone");
  CHECK((seen[2].verdict == Verdict::Error));
  CHECK(seen[2].message == "listed in EXPECTED.tsv but not found");
  CHECK((seen[2].expected == litmus::Expect::Unreachable));
  CHECK((seen[2].outcome.status == litmus::Status::Unknown));
  CHECK(report.count(Verdict::Error) == 2);

  // The JUnit report carries them as errors.
  const std::string junit = (dir.path / "report.xml").string();
  suite::writeJunit(junit, report);
  std::ifstream in(junit);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(xml.find("errors=\"2\"") != std::string::npos);
  CHECK(xml.find("<error message=\"listed in EXPECTED.tsv but not found\"/>") != std::string::npos);
}
