// The command line of a `litmus NAME ...` subcommand that owns a CLI11 parser (compare, gen, merge,
// mutate, report): one way to parse the words after NAME, print --help and report a usage error.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace cli {

// Parses `words` (the words after NAME, in order). nullopt: go on; otherwise the exit status:
// 0 when --help was printed, 2 after a usage error (said on stderr, with where to look).
inline std::optional<int> parseSubcommand(CLI::App& app, const std::string& name, std::vector<std::string> words) {
  std::reverse(words.begin(), words.end());  // CLI11 takes the arguments last first
  try {
    app.parse(words);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      std::cout << app.help();
      return 0;
    }
    std::cerr << "litmus " << name << ": " << e.what() << "\n(`litmus " << name << " --help` lists the options)\n";
    return 2;
  }
  return std::nullopt;
}

inline std::optional<int> parseSubcommand(CLI::App& app, const std::string& name, int argc, char** argv) {
  return parseSubcommand(app, name, std::vector<std::string>(argv, argv + argc));
}

}  // namespace cli
