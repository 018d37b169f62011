// Scoring a GPU run of mutants (docs/mutation.md): a small fixed index and results file against
// golden text and JSON; bad index and results lines are errors with their line.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mutate/score.h"

namespace {

const std::string kDir = std::string(LITMUS_SOURCE_DIR) + "/tests/mutate/";

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

mutate::Score fixedScore() {
  return mutate::score(mutate::readIndex(readFile(kDir + "score-index.tsv"), "score-index.tsv"),
                       mutate::readResults(readFile(kDir + "score-results.jsonl"), "score-results.jsonl"),
                       false);
}

}  // namespace

TEST_CASE("mutate score: killed, not killed, not run, per category (golden)") {
  const mutate::Score s = fixedScore();
  std::ostringstream os;
  mutate::printScore(os, s);
  const std::string path = kDir + "golden/score.txt";
  // UPDATE_GOLDEN=1 rewrites the file and fails, so that an update never passes as a check.
  if (std::getenv("UPDATE_GOLDEN")) {
    std::ofstream(path) << os.str();
    FAIL_CHECK("golden file rewritten: " << path << "; review the diff and rerun");
  }
  CHECK(os.str() == readFile(path));
  // killable only: the equivalent, unknown and invalid lines are not counted, even when run
  CHECK(s.total.killable == 8);
  // po-reverse-2 was killed by its second run; sync-weaken-1 ran and was not killed; the refused
  // wait drop was not run; the proxy-fence drop is missing from the results; of the two `forall`
  // mutants (killed by a state that fails the condition) the one that saw x=0 is killed, though
  // the other's condition held 100 times
  CHECK(s.total.killed == 4);
  CHECK(s.total.notKilled == 2);
  CHECK(s.total.notRun == 2);
  CHECK((s.total.notRunWhy == std::map<std::string, int>{{"not in the results", 1}, {"refused", 1}}));
  CHECK(s.total.violations == 1);
  const nlohmann::ordered_json j = mutate::scoreJson(s);
  CHECK(j["categories"]["po-reverse"]["killed"] == 2);
  CHECK(j["categories"]["po-weaken"]["score"].is_null());
  CHECK(j["total"]["score"] == 0.5);
  CHECK(j["categories"]["mbarrier-wait-drop"]["killed"] == 1);
  CHECK(j["reference"]["killed"] == 32);
}

TEST_CASE("mutate score: without an index, the results' mutant names give the categories") {
  const mutate::Score s =
      mutate::score({}, mutate::readResults(readFile(kDir + "score-results.jsonl"), "r.jsonl"), true);
  // every result named <original>~<category>-<k>, equivalent or not, killed by its condition;
  // "Other" is no mutant
  CHECK(s.total.killable == 9);
  CHECK(s.total.killed == 6);
}

TEST_CASE("mutate score: malformed input names its line") {
  CHECK_THROWS_WITH(mutate::readResults(std::string(R"({"schema":{"name":"ptx-litmus-result","version":1},"kind":"run",)") +
                                          R"("test":"a","file":"a.yaml","verdict":"ok","status":"ok"})" + "\nnot json\n",
                                      "r.json"),
                    "r.json:2:1: error: not a `litmus run --json` line: not a JSON object");
  CHECK_THROWS_WITH(mutate::readIndex("mutant\n", "i.tsv"),
                    "i.tsv:1:1: error: not a mutant index (its first line is not the header of index.tsv)");
  const std::string header = "mutant\toriginal\tcategory\tverdict\tkills\trunner\tfile\tchange\twhy\n";
  CHECK_THROWS_WITH(mutate::readIndex(header + "a\tb\tpo-sideways\tkillable\tcondition\truns\tf\tc\tw\n", "i.tsv"),
                    "i.tsv:2:1: error: unknown category 'po-sideways'");
  CHECK_THROWS_WITH(mutate::readIndex(header + "a\tb\n", "i.tsv"), "i.tsv:2:1: error: expected 9 tab-separated fields");
}
