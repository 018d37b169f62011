// --trace-waits without a GPU (gpu-runner/wait_trace.h, docs/wait-trace.md): the sites of a test,
// the stores the generator puts at them (and nowhere without the option), and the parent's summary
// of a region as a killed worker leaves it. tests/gpu/ptxas.sh assembles traced modules;
// tests/gpu/cli.sh runs a traced hang through the fake driver.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "gpu-runner/runner.h"
#include "gpu-runner/wait_trace.h"
#include "litmus/parse.h"

namespace {

litmus::Test pipeline() {
  const std::string rel = "patterns/reference/tma-pipeline/tma-pipeline-S2-K3-no-expect_tx.yaml";
  std::ifstream in(std::string(LITMUS_SOURCE_DIR) + "/" + rel);
  std::stringstream s;
  s << in.rdbuf();
  return litmus::parseYaml(s.str(), rel);
}

// The constants of the trace stores in the module: "0x1000c" for P1 at site 12.
std::vector<uint64_t> storedSites(const std::string& ptx) {
  // (found by hand: GCC 12's <regex> trips -Werror=maybe-uninitialized in the sanitizer build)
  std::vector<uint64_t> out;
  const std::string store = "or.b64 %h_tracev, %h_traceep, ";
  for (size_t at = ptx.find(store); at != std::string::npos; at = ptx.find(store, at + 1)) {
    const size_t from = at + store.size();
    const size_t end = ptx.find(';', from);
    REQUIRE(end != std::string::npos);
    const std::string k = ptx.substr(from, end - from);
    REQUIRE(k.rfind("0x", 0) == 0);
    out.push_back(std::strtoull(k.c_str(), nullptr, 16));
  }
  return out;
}

uint64_t slot(uint32_t launch, uint32_t thread, uint32_t site) {
  return uint64_t{launch} << 32 | uint64_t{thread} << 16 | site;
}

}  // namespace

TEST_CASE("wait sites: the loops and blocking barriers of each thread, in code order") {
  const gpu::WaitSites s = gpu::waitSites(pipeline());
  // P0: bar.sync 0, the E2 loop; P1: bar.sync 0, the F0, F1 and F2 loops
  REQUIRE(s.names.size() == gpu::kFirstTestSite + 6);
  CHECK(s.names[gpu::kFirstTestSite] == "bar.sync 0 (line 22)");
  CHECK(s.names[gpu::kFirstTestSite + 1] == "E2: mbarrier.try_wait.parity.shared::cta.b64 %e2, [empty0], 0 (line 28)");
  CHECK(s.names[gpu::kFirstTestSite + 5] == "F2: mbarrier.try_wait.parity.shared::cta.b64 %f2, [full0], 1 (line 48)");
  // the site of a loop is its label (instruction 9 of P0), so the store precedes the label
  CHECK(s.ids.at({0, 9}) == gpu::kFirstTestSite + 1);
  CHECK(s.ids.count({0, 5}) == 0);  // an arrival goes on: no site
}

TEST_CASE("traced PTX stores each site once, with its thread; untraced PTX stores none") {
  const litmus::Test t = pipeline();
  const std::string off = gpu::generatePtx(t), on = gpu::generatePtx(t, true);
  CHECK(off.find("trace") == std::string::npos);
  CHECK(on.find(".param .u64 p_trace") != std::string::npos);
  const std::vector<uint64_t> sites = storedSites(on);
  auto has = [&](uint32_t thread, uint32_t site) {
    return std::count(sites.begin(), sites.end(), uint64_t{thread} << 16 | site) == 1;
  };
  for (uint32_t thread : {0u, 1u}) {
    CHECK(has(thread, gpu::kSiteBody));
    CHECK(has(thread, gpu::kSiteDrain));
    CHECK(has(thread, gpu::kSiteFinished));
  }
  CHECK(has(0, gpu::kFirstTestSite));
  CHECK(has(0, gpu::kFirstTestSite + 1));
  for (uint32_t k = 2; k < 6; ++k) CHECK(has(1, gpu::kFirstTestSite + k));
  CHECK(sites.size() == 3 * 2 + 6);
  // warp mode (this test): lane 0's slot speaks for its warp
  CHECK(on.find("and.pred %h_tron, %h_tron, %h_lane0;") != std::string::npos);
  // the loop's store comes before its label, outside the loop: once on entry, not per iteration
  const size_t label = on.find("\nL1_F2:\n");
  REQUIRE(label != std::string::npos);
  const size_t store = on.rfind("%h_traceep, 0x1000c;", label);
  REQUIRE(store != std::string::npos);
  CHECK(on.find("@%h_tron st.relaxed.sys.global.u64 [%h_trace], %h_tracev;", store) < label);
  // the harness's sites take the thread from %h_t
  CHECK(on.find("or.b64 %h_tracev, %h_tracet, " + std::to_string(gpu::kSiteStart) + ";") != std::string::npos);
  CHECK(on.find("or.b64 %h_tracev, %h_tracet, " + std::to_string(gpu::kSiteAlign) + ";") != std::string::npos);
}

TEST_CASE("the summary counts the last launch's slots per thread and site") {
  const litmus::Test t = pipeline();
  const gpu::WaitSites sites = gpu::waitSites(t);
  std::vector<uint64_t> region(256, 0);
  for (size_t i = 0; i < 64; ++i) region[i] = slot(7, 0, gpu::kSiteFinished);                // P0: 2 warps
  for (size_t i = 64; i < 100; ++i) region[i] = slot(7, 1, gpu::kFirstTestSite + 5);         // P1 at F2
  for (size_t i = 100; i < 128; ++i) region[i] = slot(6, 1, gpu::kFirstTestSite + 5);        // older launch
  for (size_t i = 128; i < 130; ++i) region[i] = slot(7, gpu::kTraceNoThread, gpu::kSiteStart);
  const gpu::WaitTrace w = gpu::summarizeTrace(region.data(), region.size(), {"P0", "P1"}, sites);
  CHECK(w.launch == 7);
  REQUIRE(w.rows.size() == 3);
  CHECK(w.rows[0].thread == "P0");
  CHECK(w.rows[0].site == "finished");
  CHECK(w.rows[0].warps == 2);
  CHECK(w.rows[0].lanes == 64);
  CHECK(w.rows[1].thread == "P1");
  CHECK(w.rows[1].lanes == 36);  // slots 64..99: launch 6's slots 100..127 are not counted
  CHECK(w.rows[1].warps == 2);
  CHECK(w.rows[2].thread == "(no thread)");
  CHECK(gpu::formatTrace(w) ==
        "Waits when the watchdog fired (launch 7; per litmus thread, warps (lanes) at each site):\n"
        "  P0: 2 (64) finished\n"
        "  P1: 2 (36) at F2: mbarrier.try_wait.parity.shared::cta.b64 %f2, [full0], 1 (line 48)\n"
        "  (no thread): 1 (2) at the start barrier (harness)\n");
  std::vector<uint64_t> none(64, 0);
  CHECK(gpu::summarizeTrace(none.data(), none.size(), {"P0"}, sites).launch == 0);
  CHECK(gpu::formatTrace(gpu::WaitTrace{}).empty());  // not traced: nothing to say
}
