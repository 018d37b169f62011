// report/: reading result files (run, check, suite lines; gzip; bad input) and the page; and the
// readable graphs of checker/graph.h (initial writes hidden, mbarrier values decoded).
#include <doctest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "checker/checker.h"
#include "checker/graph.h"
#include "litmus/parse.h"
#include "report/html.h"
#include "report/input.h"

namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("litmus-report-test-" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

const char* const kRun =
    R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"T","file":"t.yaml","family":"F","verdict":"ok","reason":"r","status":"ok","histogram":[]})";
const char* const kRefused = R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"run","test":"U","file":"u.yaml","family":"F","verdict":"refused","reason":"r","status":"refused"})";
const char* const kCheck =
    R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"check","test":"C","file":"c.yaml","engine":"explicit","status":"done","quantifier":"exists","condition":"x","states":[],"races":[]})";

}  // namespace

TEST_CASE("report: run, check and suite lines are read, in order, with their kind") {
  const std::string suite = std::string(R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"suite","path":"s.yaml","verdict":"pass","expected":"forbidden","outcome":)") + kCheck + "}";
  const auto recs = report::readResults(tempFile("kinds.json", std::string(kRun) + "\n\n" + kRefused + "\n" + kCheck + "\n" + suite + "\n"));
  REQUIRE(recs.size() == 4);
  CHECK(recs[0].kind == "run");
  CHECK(recs[1].kind == "run");
  CHECK(recs[1].line == 3);  // the blank line counts
  CHECK(recs[2].kind == "check");
  CHECK(recs[3].kind == "check");
  CHECK(recs[3].data["file"] == "s.yaml");
  CHECK(recs[3].data["decision"] == "pass");
}

TEST_CASE("report: .json.gz is inflated") {
  const std::string path = (fs::temp_directory_path() / "litmus-report-test.json.gz").string();
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f);
  const std::string text = std::string(kRun) + "\n" + kCheck + "\n";
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  const auto recs = report::readResults(path);
  REQUIRE(recs.size() == 2);
  CHECK(recs[1].data["test"] == "C");
}

TEST_CASE("report: bad input is an error at its line and column") {
  const std::string bad = tempFile("bad.json", std::string(kRun) + "\n{\"test\": 1,,}\n");
  try {
    report::readResults(bad);
    FAIL("no error");
  } catch (const litmus::Error& e) {
    CHECK(e.loc().line == 2);
    CHECK(e.loc().col == 12);  // the second comma
    CHECK(std::string(e.what()).find(bad + ":2:12: error: not JSON") == 0);
  }
  CHECK_THROWS_WITH_AS(report::readResults(tempFile("neither.json", "{\"test\":\"x\"}\n")),
                       doctest::Contains("1:1: error: not a result of check --json, suite --json or run --json"), litmus::Error);
  CHECK_THROWS_WITH_AS(report::readResults(tempFile("array.json", "[1]\n")),
                       doctest::Contains("not a JSON object"), litmus::Error);
  CHECK_THROWS_WITH_AS(report::readResults(tempFile("empty.json", "\n")), doctest::Contains("no results"), litmus::Error);
  CHECK_THROWS_AS(report::readResults(tempFile("torn.json.gz", "\x1f\x8b garbage")), litmus::Error);
}

TEST_CASE("report: the page embeds the results and fetches nothing") {
  const auto recs = report::readResults(tempFile("page.json", std::string(kRun) + "\n" + kCheck + "\n"));
  report::PageOptions o;
  o.title = "a <title>";
  o.graphs.enabled = false;
  const std::string page = report::renderPage(recs, {"page.json"}, o);
  CHECK(page.find("<title>a &lt;title&gt;</title>") != std::string::npos);
  CHECK(page.find("\"familyKey\":\"F\"") != std::string::npos);
  CHECK(page.find("http://") == std::string::npos);
  CHECK(page.find("https://") == std::string::npos);
  // Inside the data, no "</" can close the script element early.
  const size_t data = page.find("id=\"data\">");
  CHECK(page.find("</", data) == page.find("</script>", data));
}

TEST_CASE("graph: initial writes hidden, reads of them marked, mbarrier values decoded") {
  const litmus::Test t = litmus::parseFile(std::string(LITMUS_SOURCE_DIR) +
                                           "/catalog/mbarrier/MP+mbarrier.arrive+test_wait.yaml");
  checker::Options opt;
  opt.witnesses = opt.explain = true;
  const checker::Result r = checker::check(t, opt);
  REQUIRE(!r.witnesses.empty());
  const std::string dot = checker::executionDot(t, r.witnesses[0], "w");
  CHECK(dot.find("(init)\\n") == std::string::npos);  // no initial-write node
  CHECK(dot.find("(phase ") != std::string::npos);
  CHECK(dot.find("pending ") != std::string::npos);
  CHECK(dot.find("tx-count ") != std::string::npos);
  REQUIRE(r.violation);
  const std::string bad = checker::executionDot(t, r.violation->execution, "v", &*r.violation);
  CHECK(bad.find("penwidth=3") != std::string::npos);  // the deciding edges
  CHECK(bad.find("penwidth=0.7") != std::string::npos);  // the others faded
}
