// `litmus mutate`: the command line of mutation testing (docs/mutation.md). argv[0] is the first
// argument after `mutate`. Exit status: 0 done, 2 bad input or usage, 4 internal error.
#pragma once

int cmdMutate(int argc, char** argv);
