// `litmus extract KERNEL.ptx|KERNEL.cu [--kernel NAME] [--block X,Y,Z] [--cluster X,Y,Z]
// [--grid X,Y,Z] [--param NAME=VALUE ...] -o DIR`: the command line of extract/extract.h.
// argv[0] is the first argument after `extract`. Exit: 0 every selected kernel extracted, 2 bad
// input or usage (a kernel that cannot be extracted is said on stderr; the others are written).
#pragma once

namespace extract {

int cmdExtract(int argc, char** argv);

}  // namespace extract
