// `litmus gen` (cli/main.cpp hands it everything after the word `gen`).
#pragma once

namespace gen {

// argv[0] is the first argument after `gen`. Returns the exit status.
int cmdGen(int argc, char** argv);

}  // namespace gen
