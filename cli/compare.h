// `litmus compare` (cli/compare.cpp).
#pragma once

// argv[0] is the first argument after `compare`. Returns the exit status.
int cmdCompare(int argc, char** argv);
