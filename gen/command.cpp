// `litmus gen`: its options (CLI11), turned into a Config, then runCampaign.
#include "gen/command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/subcommand.h"
#include "base/suggest.h"
#include "gen/campaign.h"
#include "gen/families.h"

namespace gen {
namespace {

constexpr const char* kFooter = R"(Shapes are family names (MP SB LB S R 2+2W WRC ISA2 IRIW Z6.3 3.2W WWC RWC WRW+2W
CoRR CoWW) or cycles in quotes ("PodWW Rfe Fence.sc.gpu.dRR Fre"). Edges: Rfe Rfi Fre Fri Coe Coi,
Po{s,d}{R,W}{R,W}, Fence.SEM.SCOPE.{s,d}XY, DpData{s,d}W, DpCtrl{s,d}{R,W}, and
Sync.PRIM.{s,d}XY with PRIM bar cluster mbar mbarspin mbarremote tx stasync.
diy's single-dash spellings work too (-size 4 -nprocs 3 -relax Rfe -safe 'PodWW PodRR Fre').
Each test is checked by the PTX model; its verdict goes to DIR/index.tsv and a comment in the
test, never to `expect:`. docs/gen.md has the details.
Exit status: 0 ok; 2 bad usage or config, or a file cannot be written; 3 some test's check did
not finish (listed as unknown); 4 internal error.)";

struct Args {
  std::vector<std::string> shapes;
  std::string config, out, relax, safe, placements = "cta", runner;
  std::vector<std::string> scopes, orders, fences, fenceScopes, spaces, proxies;
  int size = 4, nprocs = 4, jobs = 2, limit = 0;
  double timeout = -1;
  bool noCheck = false;
  std::string shard;  // --shard K/N (docs/scale.md)
};

void addOptions(CLI::App& app, Args& a) {
  app.add_option("SHAPE", a.shapes, "families or quoted cycles");
  app.add_option("-c,--config", a.config, "a campaign config (YAML, docs/gen.md)")->type_name("FILE");
  app.add_option("-o,--output", a.out, "output directory (default: the config's, else gen-out)")->type_name("DIR");
  app.add_option("--relax", a.relax, "diy -relax: cycles contain at least one of these edges")->type_name("EDGES");
  app.add_option("--safe", a.safe, "diy -safe: the other edges of the cycles")->type_name("EDGES");
  app.add_option("--size", a.size, "with --relax: at most N edges per cycle")->check(CLI::Range(2, 8));
  app.add_option("--nprocs", a.nprocs, "with --relax: at most N threads")->check(CLI::Range(2, 6));
  app.add_option("--scopes", a.scopes, "access scopes: cta cluster gpu sys (default gpu)")->delimiter(',');
  app.add_option("--orders", a.orders, "order profiles: weak rlx relacq ra ra-weak sc (default rlx)")->delimiter(',');
  app.add_option("--fences", a.fences, "fence profiles: none sc acq_rel acquire release (default none)")->delimiter(',');
  app.add_option("--fence-scopes", a.fenceScopes, "fence scopes (default: the access scope)")->delimiter(',');
  app.add_option("--spaces", a.spaces, "global shared (shared: DSMEM across CTAs of a cluster)")->delimiter(',');
  app.add_option("--proxies", a.proxies, "generic alias alias-fence (default generic)")->delimiter(',');
  app.add_option("--placements", a.placements,
                 "levels split: cta (default), cluster, gpu, warp, comma-separated (cluster,cta)");
  app.add_option("--runner", a.runner, "GPU runner refusals: filter (default), report, off")
      ->check(CLI::IsMember({"filter", "report", "off"}));
  app.add_option("--timeout", a.timeout, "seconds per model check (default 10)");
  app.add_option("-j,--jobs", a.jobs, "model checks in parallel (default 2)")->check(CLI::Range(1, 64));
  app.add_option("--limit", a.limit, "at most N tests");
  app.add_option("--shard", a.shard, "only the tests of shard K of N, by a hash of the generated name "
                                   "(docs/scale.md); give each shard its own -o directory")
      ->type_name("K/N")
      ->check([](const std::string& v) { return suite::parseShard(v) ? std::string() : "bad value '" + v + "' (" + suite::shardSyntax() + ")"; });
  app.add_flag("--no-check", a.noCheck, "write the tests without running the model");
  app.footer(kFooter);
}

Config fromArgs(const Args& a) {
  Config c;
  if (!a.config.empty()) {
    std::ifstream in(a.config);
    if (!in) throw Error(a.config + ": error: cannot read the config");
    std::stringstream text;
    text << in.rdbuf();
    c = parseConfig(text.str(), a.config);
  } else {
    Group g;
    for (const std::string& s : a.shapes) {
      if (const Family* f = findFamily(s)) g.cycles.push_back({f->name, parseCycle(f->cycle)});
      else {
        std::vector<Edge> cycle;
        try {
          cycle = parseCycle(s);
        } catch (const Error& e) {  // most likely a misspelt family name
          std::vector<std::string> names;
          for (const Family& f : families()) names.push_back(f.name);
          const std::string hint = litmus::nearest(s, names);
          if (hint.empty()) throw;
          throw Error("'" + s + "' is neither a family nor a cycle; did you mean '" + hint + "'? (" + e.what() + ")");
        }
        buildSkeleton(cycle);
        g.cycles.push_back({familyOf(cycle), cycle});
      }
    }
    if (!a.relax.empty())
      for (const std::vector<Edge>& cycle : enumerateCycles(parseCycle(a.relax), a.safe.empty() ? std::vector<Edge>{} : parseCycle(a.safe), a.size, a.nprocs))
        g.cycles.push_back({familyOf(cycle), cycle});
    if (g.cycles.empty()) throw Error("no shapes: name families, cycles, --relax or --config");
    for (size_t at = 0, next; at <= a.placements.size(); at = next + 1) {
      next = a.placements.find(',', at);
      if (next == std::string::npos) next = a.placements.size();
      const std::string l = a.placements.substr(at, next - at);
      if (l != "cta" && l != "cluster" && l != "gpu" && l != "warp")
        throw Error("--placements: unknown level '" + l + "' (cta cluster gpu warp)");
      g.clusters |= l == "cluster";
      g.gpus |= l == "gpu";
      g.warps |= l == "warp";
    }
    if (!a.scopes.empty()) g.scopes = a.scopes;
    if (!a.orders.empty()) g.orders = a.orders;
    if (!a.fences.empty()) g.fences = a.fences;
    if (!a.fenceScopes.empty()) g.fenceScopes = a.fenceScopes;
    if (!a.spaces.empty()) g.spaces = a.spaces;
    if (!a.proxies.empty()) g.proxies = a.proxies;
    c.groups.push_back(g);
    // The axes' words are checked as the config's are.
    std::string yaml = "groups: [{cycles: [PodWW Rfe PodRR Fre], scopes: [";
    for (const std::string& s : g.scopes) yaml += s + ",";
    yaml += "], orders: [";
    for (const std::string& s : g.orders) yaml += s + ",";
    yaml += "], fences: [";
    for (const std::string& s : g.fences) yaml += s + ",";
    yaml += "], spaces: [";
    for (const std::string& s : g.spaces) yaml += s + ",";
    yaml += "], proxies: [";
    for (const std::string& s : g.proxies) yaml += s + ",";
    yaml += "]}]";
    parseConfig(yaml, "command line");
  }
  if (a.timeout >= 0) c.timeout = a.timeout;
  if (!a.runner.empty()) c.runner = a.runner;
  if (a.limit > 0) c.limit = a.limit;
  return c;
}

// diy's one-dash long options (-size 4) as CLI11 reads them (--size 4).
std::vector<std::string> normalise(int argc, char** argv) {
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    std::string s = argv[i];
    for (const char* o : {"-size", "-nprocs", "-relax", "-safe", "-o"})
      if (s == o && s != "-o") s = "-" + s;
    out.push_back(s);
  }
  return out;
}

}  // namespace

int cmdGen(int argc, char** argv) {
  CLI::App app{"litmus gen: diy-style cycle-based test generation (docs/gen.md)", "litmus gen"};
  Args a;
  addOptions(app, a);
  if (const auto rc = cli::parseSubcommand(app, "gen", normalise(argc, argv))) return *rc;
  Config c;
  try {
    c = fromArgs(a);
  } catch (const Error& e) {
    const std::string m = e.what();
    // Config errors name their file; command-line ones the command.
    std::cerr << (a.config.empty() ? "litmus gen: " : "") << m << "\n";
    return 2;
  }
  RunOptions o;
  o.outDir = !a.out.empty() ? a.out : !c.output.empty() ? c.output : "gen-out";
  o.jobs = a.jobs;
  if (!a.shard.empty()) o.shard = *suite::parseShard(a.shard);
  o.check = !a.noCheck;
  o.progress = isatty(2);
  return runCampaign(c, o, std::cout);
}

}  // namespace gen
