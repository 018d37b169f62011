// The extraction of one kernel: the launch's memory objects and parameter values, two passes over
// its threads (the first finds the objects nobody writes, whose loads the second folds), the
// merging of identical threads, and the litmus Test.
#include "extract/extract.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "extract/merge.h"
#include "extract/symmetry.h"
#include "extract/thread.h"
#include "litmus/parse.h"

namespace extract {

namespace {

using litmus::Error;

std::string identifier(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  return s;
}

// The name of a variable as its source wrote it: `stage` for the static local
// _ZZ12tma_pipelinePKjiE5stage (demangled "tma_pipeline(...)::stage").
std::string variableName(const std::string& ptx) {
  const std::string d = demangle(ptx);
  const size_t colons = d.rfind("::");
  return identifier(colons == std::string::npos || d == ptx ? ptx : d.substr(colons + 2));
}

class Names {
 public:
  std::string unique(const std::string& want) {
    std::string n = want;
    for (int i = 2; !used_.insert(n).second; ++i) n = want + "_" + std::to_string(i);
    return n;
  }

 private:
  std::set<std::string> used_ = {"_", "true", "false", "and", "or", "not", "exists", "forall", "END"};
};

// Parameters: the given values, else a global buffer for each 64-bit one and the default for
// integers (said in a note).
void addParams(LaunchContext& c, const Kernel& k, const ExtractOptions& opt, Names& names, std::vector<std::string>& notes) {
  std::map<std::string, std::map<int64_t, int64_t>> given;
  for (const ParamValue& p : opt.params) {
    std::string name = p.name;
    for (size_t i = 0; i < k.fn->params.size(); ++i) {
      const std::string& full = k.fn->params[i].name;
      if (name == std::to_string(i) || name == "param_" + std::to_string(i) ||
          (full.size() > name.size() && full.compare(full.size() - name.size(), name.size(), name) == 0 &&
           full[full.size() - name.size() - 1] == '_'))
        name = full;
    }
    if (std::none_of(k.fn->params.begin(), k.fn->params.end(), [&](const VarDecl& d) { return d.name == name; }))
      throw Error(k.fn->loc, "--param " + p.name + ": the kernel has no such parameter");
    given[name][p.offset] = p.value;
  }
  for (size_t i = 0; i < k.fn->params.size(); ++i) {
    const VarDecl& p = k.fn->params[i];
    auto& vals = c.params[p.name];
    for (const auto& [off, v] : given[p.name]) vals[off] = Value::num(v);
    if (p.count != 1 || vals.count(0)) continue;
    if (p.elemBytes == 8) {
      c.objects.push_back({MemObject::Kind::Buffer, p.name, names.unique("arg" + std::to_string(i)), -1, 0});
      vals[0] = Value::addr(static_cast<int>(c.objects.size()) - 1, 0, Window::Generic);
    } else {
      vals[0] = Value::num(opt.defaultScalar);
      notes.push_back("note: parameter " + std::to_string(i) + " (" + p.name + ") = " + std::to_string(opt.defaultScalar) +
                      " (the default; --param " + std::to_string(i) + "=N to change)");
    }
  }
}

LaunchContext makeContext(const Module& m, const Kernel& k, const Launch& launch, const ExtractOptions& opt,
                    std::vector<std::string>& notes) {
  LaunchContext c;
  c.kernel = &k;
  c.launch = launch;
  Names names;
  std::vector<VarDecl> sharedVars;
  for (const VarDecl& v : m.vars)
    if (v.space == VarDecl::Space::Shared) sharedVars.push_back(v);
  sharedVars.insert(sharedVars.end(), k.body.shared.begin(), k.body.shared.end());
  std::map<std::string, std::string> base;  // variable -> location name (extern: one object)
  std::string dynamicName;
  for (const VarDecl& v : sharedVars) {
    if (v.external && !dynamicName.empty()) base[v.name] = dynamicName;
    else base[v.name] = names.unique(variableName(v.name));
    if (v.external && dynamicName.empty()) dynamicName = base[v.name];
  }
  std::map<std::string, int> firstOf;  // location name -> object id of CTA 0 (for extern aliases)
  for (int cta = 0; cta < launch.ctas(); ++cta)
    for (const VarDecl& v : sharedVars) {
      const std::string n = base[v.name] + (launch.ctas() > 1 ? "_c" + std::to_string(cta) : "");
      auto [it, added] = firstOf.emplace(n, static_cast<int>(c.objects.size()));
      if (added) c.objects.push_back({MemObject::Kind::Shared, v.name, n, cta, v.bytes()});
      c.sharedIds[{v.name, cta}] = it->second;
    }
  for (const VarDecl& v : m.vars)
    if (v.space == VarDecl::Space::Global || v.space == VarDecl::Space::Const) {
      c.namedIds[v.name] = static_cast<int>(c.objects.size());
      c.objects.push_back({MemObject::Kind::GlobalVar, v.name, names.unique(variableName(v.name)), -1, v.bytes()});
    }
  for (const VarDecl& v : k.body.locals) {
    c.namedIds[v.name] = static_cast<int>(c.objects.size());
    c.objects.push_back({MemObject::Kind::Local, v.name, v.name, -1, v.bytes()});
  }
  addParams(c, k, opt, names, notes);
  return c;
}

// Runs other lanes of a warp up to a shfl.sync, for the value they contribute.
class Oracle : public LaneOracle {
 public:
  Oracle(const LaunchContext& ctx, const std::vector<ThreadId>& ids) : ctx_(ctx), ids_(ids) {}
  Value laneValue(int thread, int pc, int occurrence, int reg) override {
    const auto key = std::make_tuple(thread, pc, occurrence);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    if (thread < 0 || thread >= static_cast<int>(ids_.size()) || depth_ > 64) return Value::unknown();
    ThreadOptions opt;
    opt.stopPc = pc;
    opt.stopOccurrence = occurrence;
    opt.stopReg = reg;
    Value v = Value::unknown();
    ++depth_;
    try {
      evaluateThread(ctx_, ids_[thread], thread, *this, opt, &v);
    } catch (const Error&) {
      v = Value::unknown();
    }
    --depth_;
    return cache_[key] = v;
  }

 private:
  const LaunchContext& ctx_;
  const std::vector<ThreadId>& ids_;
  std::map<std::tuple<int, int, int>, Value> cache_;
  int depth_ = 0;
};

std::vector<ThreadCode> evaluateAll(const LaunchContext& ctx, const std::vector<ThreadId>& ids) {
  Oracle oracle(ctx, ids);
  std::vector<ThreadCode> out;
  for (size_t t = 0; t < ids.size(); ++t) out.push_back(evaluateThread(ctx, ids[t], static_cast<int>(t), oracle));
  return out;
}

// Buffers and global variables that no thread writes: inputs, whose loads fold.
std::set<int> readOnlyObjects(const LaunchContext& ctx, const std::vector<ThreadId>& ids) {
  std::set<int> written;
  try {
    for (const ThreadCode& c : evaluateAll(ctx, ids))
      for (const Access& a : c.accesses)
        if (a.write) written.insert(a.obj);
  } catch (const Error&) {
    return {};  // the second pass reports it; fold nothing meanwhile
  }
  std::set<int> out;
  for (size_t o = 0; o < ctx.objects.size(); ++o)
    if (!written.count(static_cast<int>(o)) &&
        (ctx.objects[o].kind == MemObject::Kind::Buffer || ctx.objects[o].kind == MemObject::Kind::GlobalVar))
      out.insert(static_cast<int>(o));
  return out;
}

Launch launchOf(const Function& fn, const ExtractOptions& opt) {
  Launch l;
  if (opt.block) l.block = *opt.block;
  else if (fn.reqntid[0]) l.block = {fn.reqntid[0], fn.reqntid[1], fn.reqntid[2]};
  else throw Error(fn.loc, "kernel '" + fn.name + "' declares no .reqntid: give the block shape with --block X,Y,Z");
  if (opt.cluster) l.cluster = *opt.cluster;
  else if (fn.reqCluster[0]) l.cluster = {fn.reqCluster[0], fn.reqCluster[1], fn.reqCluster[2]};
  l.grid = opt.grid ? *opt.grid : l.cluster;
  for (int d = 0; d < 3; ++d) {
    if (l.block[d] < 1 || l.cluster[d] < 1 || l.grid[d] < 1) throw Error(fn.loc, "launch dimensions must be positive");
    if (l.grid[d] % l.cluster[d]) throw Error(fn.loc, "the grid is not a whole number of clusters");
  }
  if (l.threadsPerCta() > 1024) throw Error(fn.loc, "a CTA has at most 1024 threads");
  if (static_cast<int64_t>(l.threadsPerCta()) * l.ctas() > 16384)
    throw Error(fn.loc, "the launch has more than 16384 threads; extract a smaller one");
  return l;
}

std::string shapeText(const std::array<int, 3>& d) {
  std::string s = std::to_string(d[0]);
  if (d[1] > 1 || d[2] > 1) s += "x" + std::to_string(d[1]);
  if (d[2] > 1) s += "x" + std::to_string(d[2]);
  return s;
}

void nameThreads(litmus::Cond& c, const std::string& thread) {
  if (c.kind == litmus::Cond::Kind::Cmp) {
    for (litmus::Term* t : {&c.lhs, &c.rhs})
      if (t->kind == litmus::Term::Kind::Reg) t->thread = thread;
  }
  for (litmus::Cond& k : c.kids) nameThreads(k, thread);
}

}  // namespace

int LaunchContext::sharedObject(const std::string& ptxName, int cta) const {
  auto it = sharedIds.find({ptxName, cta});
  return it == sharedIds.end() ? -1 : it->second;
}

int LaunchContext::objectNamed(const std::string& ptxName) const {
  auto it = namedIds.find(ptxName);
  return it == namedIds.end() ? -1 : it->second;
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : mangled;
}

std::string shortName(const std::string& mangled) {
  const std::string d = demangle(mangled);
  if (d == mangled) return identifier(mangled);
  std::string head;  // the text before the parameter list, without template arguments
  int depth = 0;
  for (char c : d) {
    if (c == '(' && depth == 0) break;
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0) head += c;
  }
  const size_t space = head.find_last_of(" :");
  return identifier(space == std::string::npos ? head : head.substr(space + 1));
}

std::vector<const Function*> selectKernels(const Module& m, const std::string& filter) {
  std::vector<const Function*> out;
  for (const Function& f : m.functions)
    if (f.entry && (filter.empty() || f.name == filter || shortName(f.name) == filter)) out.push_back(&f);
  return out;
}

namespace {

std::string testName(const Module& m, const Function& fn, const Launch& launch) {
  std::string name = shortName(fn.name);
  const auto kernels = selectKernels(m, shortName(fn.name));
  if (kernels.size() > 1)
    name += "-" + std::to_string(std::find(kernels.begin(), kernels.end(), &fn) - kernels.begin());
  name += "-b" + shapeText(launch.block);
  if (launch.ctasPerCluster() > 1) name += "-c" + shapeText(launch.cluster);
  if (launch.grid != launch.cluster) name += "-g" + shapeText(launch.grid);
  return name;
}

// The test's threads, one per group, with the PTX lines as origins; `used` gets the objects their
// code names and `any` each check's condition.
void addThreads(litmus::Test& t, const std::vector<Group>& groups, const LaunchContext& ctx, const std::string& source,
                std::set<int>& used, litmus::Cond& any) {
  std::map<std::string, int> byName;
  for (size_t o = 0; o < ctx.objects.size(); ++o) byName[ctx.objects[o].name] = static_cast<int>(o);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    litmus::Thread th;
    th.name = "P" + std::to_string(gi);
    th.cta = groups[gi].cta;
    th.cluster = groups[gi].cluster;
    for (const Line& l : groups[gi].code.lines) {
      litmus::SourceLoc origin = l.origin;
      origin.file = source;
      litmus::Instr in = litmus::parseInstruction(l.label.empty() ? l.text : l.label + ":", origin, litmus::Dialect::Ptx);
      if (!l.label.empty()) origin = {};
      in.origin = origin;
      for (size_t i = 0; i < in.args.size(); ++i) {
        const litmus::Operand& a = in.args[i];
        const bool names = a.kind == litmus::Operand::Kind::Addr || (in.op == litmus::Opcode::Mapa && i == 1);
        if (auto it = byName.find(a.name); names && it != byName.end()) used.insert(it->second);
      }
      th.code.push_back(std::move(in));
    }
    for (litmus::Cond c : groups[gi].code.errors) {
      nameThreads(c, th.name);
      any.kids.push_back(std::move(c));
    }
    t.threads.push_back(std::move(th));
  }
}

// The locations the code names; inputs get their initial words (initialValue).
void addLocations(litmus::Test& t, const std::set<int>& used, const LaunchContext& ctx,
                  std::map<int, std::set<int64_t>>& inputWords) {
  for (int o : used) {
    const MemObject& obj = ctx.objects[o];
    litmus::Location l;
    l.name = obj.name;
    l.space = obj.kind == MemObject::Kind::Shared ? litmus::Space::Shared : litmus::Space::Global;
    if (obj.kind == MemObject::Kind::Shared) l.ownerCta = obj.cta;
    for (int64_t w : inputWords[o]) l.initAt[w] = initialValue(w);
    if (!l.initAt.empty()) l.init = l.initAt.begin()->first == 0 ? l.initAt.begin()->second : 0;
    t.locations.push_back(std::move(l));
  }
}

// The properties (E5): no hang, no race, and the kernel's checks never failing.
void addProperties(litmus::Test& t, const litmus::Cond& any) {
  if (any.kids.empty()) {
    t.condition.kind = litmus::Cond::Kind::False;
  } else {
    t.condition = any.kids.size() == 1 ? any.kids[0] : any;
    t.expect = litmus::Expect::Unreachable;
    t.reason = "the kernel's own checks (trap, assert) never fail";
  }
  t.quantifier = litmus::Quantifier::Exists;
  t.observed = litmus::conditionTerms(t.condition);
  t.liveness = "terminates";
  t.raceFree = true;
}

}  // namespace

Extracted extractKernel(const Module& m, const Function& fn, const ExtractOptions& opt) {
  Extracted x;
  x.kernel = fn.name;
  const Kernel k = prepareKernel(m, fn);
  const Launch launch = launchOf(fn, opt);
  LaunchContext ctx = makeContext(m, k, launch, opt, x.notes);
  const std::vector<ThreadId> ids = threadsOf(launch);
  ctx.readOnly = readOnlyObjects(ctx, ids);
  std::vector<ThreadCode> codes = evaluateAll(ctx, ids);
  std::set<std::string> seen;
  std::map<int, std::set<int64_t>> inputWords;  // read-only object -> words the test reads
  for (const ThreadCode& c : codes) {
    for (const std::string& n : c.notes)
      if (seen.insert(n).second) x.notes.push_back(n);
    for (const Access& a : c.accesses)
      if (ctx.readOnly.count(a.obj))
        for (int64_t w = a.offset / 4; w * 4 < a.offset + std::max(a.bytes, 4); ++w) inputWords[a.obj].insert(w * 4);
  }
  std::vector<Group> groups = groupThreads(launch, ids, std::move(codes), opt.merge, opt.lockstep, x.notes);
  if (opt.merge) keepOneOfIdenticalCtas(groups, ctx.objects, x.notes);
  if (groups.empty()) throw NothingToCheck(fn.loc, "kernel '" + fn.name + "' has no synchronization or memory access to check");

  litmus::Test& t = x.test;
  t.name = testName(m, fn, launch);
  x.file = t.name + ".yaml";
  const std::string source = opt.source.empty() ? m.file : opt.source;
  t.description = "Extracted by litmus extract from " + source + ": " + demangle(fn.name) + ", block " +
                  shapeText(launch.block) + ", cluster " + shapeText(launch.cluster) + ", grid " + shapeText(launch.grid) +
                  ".";
  std::set<int> used;
  litmus::Cond any;
  any.kind = litmus::Cond::Kind::Or;
  addThreads(t, groups, ctx, source, used, any);
  addLocations(t, used, ctx, inputWords);
  addProperties(t, any);
  x.yaml = litmus::toYaml(t);
  try {  // a test that does not read back is the extraction's bug, said as such
    x.test = litmus::parseYaml(x.yaml, x.file);
  } catch (const Error& e) {
    throw Error(fn.loc, "internal error: the test extracted from '" + fn.name + "' does not read back: " + e.what());
  }
  return x;
}

}  // namespace extract
