// checker::check under an address-space limit: a failed allocation in either engine ends the test
// Unknown with the limit named, instead of escaping as std::bad_alloc or a Z3 exception, and a
// check after it in the same process runs normally. The limit is process-wide, so each case runs
// in a forked child that reports through a pipe. AddressSanitizer builds cannot cap the address
// space (their shadow memory needs terabytes), so there the cases are skipped, as doctest says.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "base/memory_limit.h"
#include "checker/checker.h"
#include "litmus/parse.h"

namespace {

constexpr uint64_t kLimit = 64ull << 20;

// In a child: caps the address space at what it holds plus kLimit, checks `file` with `engine`,
// then CoRR; writes "<status>|<detail>|<status of CoRR>" to the parent. "crash" if it did not
// end normally.
std::string checkInChild(const std::string& file, checker::Engine engine) {
  const litmus::Test big = litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/tests/cli/" + file);
  const litmus::Test small =
      litmus::parseFile(std::string(LITMUS_SOURCE_DIR) + "/tests/cli/golden/CoRR.yaml");
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    std::string report = "setup failed";
    try {
      std::string why;
      checker::Options o;
      o.engine = engine;
      o.maxStates = 0;  // the states are what fills the memory
      o.maxMemoryBytes = cli::limitAddressSpace(kLimit, why);
      const checker::Result r = checker::check(big, o);
      const checker::Result after = checker::check(small, o);
      auto status = [](const checker::Result& x) {
        return x.outcome.status == litmus::Status::Done ? "done" : "unknown";
      };
      report = std::string(status(r)) + "(" + litmus::toString(r.outcome.unknownReason) + ")|" +
               r.outcome.statusDetail + "|" + status(after) + " " +
               std::to_string(after.outcome.states.size());
    } catch (...) {
      report = "escaped";
    }
    (void)!write(fds[1], report.data(), report.size());
    _exit(0);
  }
  close(fds[1]);
  std::string got;
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? got : "crash";
}

}  // namespace

TEST_CASE("memory limit: a check that runs out ends Unknown, the next one runs (explicit)" *
          doctest::skip(cli::kAddressSanitizer)) {
  CHECK(checkInChild("memory-limit/many-states.yaml", checker::Engine::Explicit) ==
        "unknown(memory)|memory limit of 64 MiB exceeded|done 3");
}

TEST_CASE("memory limit: a check that runs out ends Unknown, the next one runs (smt, Z3 out of memory)" *
          doctest::skip(cli::kAddressSanitizer)) {
  CHECK(checkInChild("memory-limit/coherence-100-smt.yaml", checker::Engine::Smt) ==
        "unknown(memory)|memory limit of 64 MiB exceeded|done 3");
}
