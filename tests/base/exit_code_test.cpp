// The mapping in base/exit_code.h, the very code main() uses: what escapes a command becomes an
// exit status. A genuine internal error cannot be provoked from the command line without a bug,
// so the catch-all (4) is pinned here rather than through a hidden hook in the program.
#include <doctest/doctest.h>

#include <filesystem>
#include <new>
#include <sstream>
#include <stdexcept>

#include "base/exit_code.h"

TEST_CASE("cli exit codes: the most severe status wins, 4 > 2 > 1 > 3 > 0") {
  using namespace cli;
  const int order[] = {kOk, kUnknown, kFailed, kBadInput, kInternal};  // least to most severe
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      CAPTURE(order[i]);
      CAPTURE(order[j]);
      CHECK(worse(order[i], order[j]) == order[i < j ? j : i]);
    }
  CHECK(worse(kFailed, kUnknown) == kFailed);  // an unknown never hides a failure
  CHECK(worse(kUnknown, kFailed) == kFailed);
}

TEST_CASE("cli exit codes: what a command throws becomes a status and one message") {
  std::ostringstream err;
  auto run = [&](auto thrower) {
    err.str("");
    return cli::guarded([&]() -> int { thrower(); return cli::kOk; }, err, "t.yaml");
  };
  CHECK(cli::guarded([] { return cli::kFailed; }, err, "t.yaml") == cli::kFailed);
  CHECK(err.str().empty());

  CHECK(run([] { throw litmus::Error({"t.yaml", 3, 4}, "bad operand"); }) == cli::kBadInput);
  CHECK(err.str() == "t.yaml:3:4: error: bad operand\n");

  CHECK(run([] {
          throw std::filesystem::filesystem_error("cannot open", std::filesystem::path("g/x.dot"),
                                                  std::make_error_code(std::errc::permission_denied));
        }) == cli::kBadInput);
  CHECK(err.str().rfind("t.yaml: error: ", 0) == 0);

  CHECK(run([] { throw std::bad_alloc(); }) == cli::kUnknown);
  CHECK(err.str() == "t.yaml: out of memory: no verdict\n");

  CHECK(run([] { throw std::logic_error("index out of range"); }) == cli::kInternal);
  CHECK(err.str() == "t.yaml: internal error: index out of range\n");

  CHECK(run([] { throw 42; }) == cli::kInternal);
  CHECK(err.str() == "t.yaml: internal error: unknown exception\n");
}
