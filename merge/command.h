// `litmus merge FILE...`: the command line of merge/merge.h. argv[0] is the first argument after
// `merge`. Exit: 0 merged, 2 bad input or usage (nothing printed to stdout), 4 internal error.
#pragma once

namespace merge {

int cmdMerge(int argc, char** argv);

}  // namespace merge
