// `litmus compare A.json B.json`: the command line of compare/ (tables per family, the tests that
// differ). Exit 0 when no test differs, 1 when some does, 2 for bad input or usage.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "cli/compare.h"
#include "base/subcommand.h"
#include "compare/compare.h"
#include "litmus/test.h"

int cmdCompare(int argc, char** argv) {
  CLI::App app{"Compares two result files family by family: the condition allowed or forbidden by the model "
               "against seen or not, for A and B side by side, then the tests where they differ "
               "(docs/compare.md). A file holds the JSON lines of `litmus run --json` or of "
               "`litmus check --json` (the model only: a test counts as seen when the model allows its "
               "condition).",
               "litmus compare"};
  app.footer("exit: 0 no test differs, 1 some test is seen by one side only, 2 bad input or usage");
  std::string a, b;
  bool json = false;
  app.add_option("A", a, "the first results file")->required();
  app.add_option("B", b, "the second results file")->required();
  app.add_flag("--json", json, "print the comparison as one JSON object");
  if (const auto rc = cli::parseSubcommand(app, "compare", argc, argv)) return *rc;
  try {
    std::ifstream ia(a), ib(b);
    if (!ia) throw litmus::Error({a, 0, 0}, "cannot read the file");
    if (!ib) throw litmus::Error({b, 0, 0}, "cannot read the file");
    const compare::Side sa = compare::readSide(ia, a), sb = compare::readSide(ib, b);
    const compare::Comparison c = compare::compareSides(sa, sb);
    if (json)
      std::cout << compare::toJson(sa, sb, c).dump() << "\n";
    else
      compare::printText(std::cout, sa, sb, c);
    return c.differ() ? 1 : 0;
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
