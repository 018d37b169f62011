// Campaigns: which cycles to generate and which annotation axes to cross them with (a YAML config
// or the command line), expanded into specs in a fixed order without duplicates, then written as
// YAML tests with an index of the model's verdicts (docs/gen.md).
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "gen/spec.h"
#include "suite/shard.h"

namespace gen {

// Named annotation set (the peer campaign's variants): accesses named "T.I" (thread T, its I-th
// access) get the order given, the others `base`; threads in `fences` get a fence of that
// semantics on each of their program-order edges.
struct Variant {
  std::string name;
  std::string base = "rlx";
  std::map<std::string, std::string> orders;
  std::map<int, std::string> fences;
};

struct Group {
  std::vector<std::pair<std::string, std::vector<Edge>>> cycles;  // family, cycle
  bool clusters = false;                        // placements over clusters and CTAs
  bool gpus = false;                            // .. and GPUs
  bool warps = false;                           // .. and warps within CTAs
  std::vector<std::string> scopes = {"gpu"};
  std::vector<std::string> orders = {"rlx"};    // weak rlx relacq ra ra-weak sc
  std::vector<std::string> fences = {"none"};   // none, or a fence semantics: sc acq_rel ...
  std::vector<std::string> fenceScopes;         // empty: the access scope
  std::vector<std::string> spaces = {"global"}; // global shared
  std::vector<std::string> proxies = {"generic"}; // generic alias alias-fence
  std::vector<Variant> variants;                // replace orders/fences when given
  std::string peer;                             // peer test name prefix ("iriw")
  std::vector<std::string> peerPlacements;      // the peer's spellings of the splits ("1_02")
};

struct Config {
  std::string output;
  double timeout = 10;           // seconds per model check
  std::string runner = "filter"; // GPU runner refusals: filter (leave out), report (keep), off
  int limit = 0;                 // at most this many tests (0: all)
  std::vector<Group> groups;
};

// Throws Error ("file: error: message") on a bad config.
Config parseConfig(const std::string& text, const std::string& file);

struct Expanded {
  std::vector<Spec> specs;
  int duplicates = 0;    // specs equal to an earlier one up to rotation and renaming
  int impossible = 0;    // combinations that cannot be written (shared across clusters, ...)
};
Expanded expand(const Config& config);

struct RunOptions {
  std::string outDir;
  int jobs = 2;
  bool check = true;     // run the model on each test
  bool progress = false; // a progress line on stderr
  suite::Shard shard;    // --shard: only the specs whose name (nameOf, before -vN) is in it
};

// Writes the tests and DIR/index.tsv; prints a summary (per family: tests, allowed, forbidden,
// unknown; runner refusals; time) to `out`. Returns an exit status: 0, 2 on a write error, 3 when
// some check did not finish (the test is listed as unknown), 4 on an internal error.
int runCampaign(const Config& config, const RunOptions& options, std::ostream& out);

}  // namespace gen
