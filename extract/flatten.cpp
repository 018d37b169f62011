// Flattening: scopes and inlining. Registers and labels declared in a `{ }` scope are renamed
// with the scope's number (`%P1_s7`, `LAB_WAIT_s7`), those of an inlined function with the call's
// number (`%r1_i2`), so that names are unique in the kernel's body and the evaluator never needs
// scopes or a call stack.
#include "extract/flatten.h"

#include <set>

namespace extract {

namespace {

using litmus::Error;

struct Frame {
  std::map<std::string, std::string> regs, labels, syms;
};

class Scopes : public Resolver {
 public:
  std::vector<Frame> frames;
  std::set<std::string> functionRegs;  // %r, %rd, ...: the prefixes of `.reg .b32 %r<N>` ranges
  std::string suffix;                  // of an inlined function's names

  std::string reg(const std::string& n) const override {
    for (auto f = frames.rbegin(); f != frames.rend(); ++f)
      if (auto it = f->regs.find(n); it != f->regs.end()) return it->second;
    if (n.size() > 1 && n[0] == '%') {  // %r12 from `.reg .b32 %r<20>`
      size_t d = n.size();
      while (d > 1 && std::isdigit(static_cast<unsigned char>(n[d - 1]))) --d;
      if (d < n.size() && functionRegs.count(n.substr(0, d))) return n + suffix;
    }
    return "";
  }
  std::string label(const std::string& n) const override {
    for (auto f = frames.rbegin(); f != frames.rend(); ++f)
      if (auto it = f->labels.find(n); it != f->labels.end()) return it->second;
    return "";
  }
  std::string sym(const std::string& n) const override {
    for (auto f = frames.rbegin(); f != frames.rend(); ++f)
      if (auto it = f->syms.find(n); it != f->syms.end()) return it->second;
    return n;
  }
};

class Flattener {
 public:
  Flattener(const Module& m, Body& out) : m_(m), out_(out) {}

  // Appends f's body. `params` maps f's parameter names to the names the caller's call block
  // gave its arguments; `rets` likewise for the return parameters; `exitLabel` is where `ret`
  // goes ("" in the kernel itself, where `ret` ends the thread).
  void function(const Function& f, const std::string& suffix, const std::map<std::string, std::string>& params,
                const std::string& exitLabel, int depth);

 private:
  std::vector<std::map<std::string, std::string>> collectLabels(const Function& f, const std::string& suffix);
  void declare(Scopes& sc, const Stmt& st, bool nested, int scopeId);
  void call(const Op& op, const Scopes& sc, int depth);

  const Module& m_;
  Body& out_;
  int scopes_ = 0;
  int calls_ = 0;
};

// The labels of each scope of f, in the order the scopes open (0: the function's own).
std::vector<std::map<std::string, std::string>> Flattener::collectLabels(const Function& f, const std::string& suffix) {
  std::vector<std::map<std::string, std::string>> out(1);
  std::vector<int> open = {0};
  const int base = scopes_;
  for (const Stmt& st : f.body) {
    if (st.kind == Stmt::Kind::Open) {
      open.push_back(static_cast<int>(out.size()));
      out.emplace_back();
    } else if (st.kind == Stmt::Kind::Close) {
      open.pop_back();
    } else if (st.kind == Stmt::Kind::Label) {
      const int s = open.back();
      const std::string renamed = s == 0 ? st.text + suffix : st.text + "_s" + std::to_string(base + s) + suffix;
      if (!out[s].emplace(st.text, renamed).second) throw Error(st.loc, "label '" + st.text + "' defined twice in one scope");
    }
  }
  return out;
}

void Flattener::declare(Scopes& sc, const Stmt& st, bool nested, int scopeId) {
  for (const VarDecl& d : st.decls) {
    const std::string tag = nested ? "_s" + std::to_string(scopeId) + sc.suffix : sc.suffix;
    switch (d.space) {
      case VarDecl::Space::Reg:
        if (!nested && d.count > 1 && d.name[0] == '%') {
          sc.functionRegs.insert(d.name);
        } else {
          std::string renamed = (d.name[0] == '%' ? d.name : "%" + d.name) + tag;
          sc.frames.back().regs[d.name] = renamed;
        }
        break;
      case VarDecl::Space::Param: {  // the argument slots of a call block
        sc.frames.back().syms[d.name] = d.name + tag;
        break;
      }
      case VarDecl::Space::Shared:
        out_.shared.push_back(d);
        break;
      case VarDecl::Space::Local: {
        VarDecl l = d;
        l.name += sc.suffix;
        sc.frames.back().syms[d.name] = l.name;
        out_.locals.push_back(l);
        break;
      }
      default:
        throw Error(st.loc, "declaration of this state space inside a function is not supported");
    }
  }
}

void Flattener::function(const Function& f, const std::string& suffix, const std::map<std::string, std::string>& params,
                         const std::string& exitLabel, int depth) {
  if (depth > 16) throw Error(f.loc, "calls nested deeper than 16 (recursion?) through '" + f.name + "'");
  const std::vector<std::map<std::string, std::string>> labels = collectLabels(f, suffix);
  const int base = scopes_;
  scopes_ += static_cast<int>(labels.size());
  Scopes sc;
  sc.suffix = suffix;
  sc.frames.emplace_back();
  sc.frames.back().labels = labels[0];
  sc.frames.back().syms = params;
  std::vector<int> open = {0};
  int next = 1;
  for (const Stmt& st : f.body) {
    switch (st.kind) {
      case Stmt::Kind::Open:
        open.push_back(next);
        sc.frames.emplace_back();
        sc.frames.back().labels = labels[next++];
        break;
      case Stmt::Kind::Close:
        open.pop_back();
        sc.frames.pop_back();
        break;
      case Stmt::Kind::Label:
        out_.labels[sc.label(st.text)] = static_cast<int>(out_.ops.size());
        break;
      case Stmt::Kind::Decl:
        declare(sc, st, open.size() > 1, base + open.back());
        break;
      case Stmt::Kind::Pragma:
        break;
      case Stmt::Kind::Instr: {
        Op op = parseOp(st.text, st.loc, sc);
        if (op.is("bra") && !op.args.empty() && op.args.back().kind == Arg::Kind::Sym)
          throw Error(st.loc, "label '" + op.args.back().name + "' is not defined");
        if (op.is("call")) {
          call(op, sc, depth);
        } else if (op.is("ret") && !exitLabel.empty()) {
          Op jump;
          jump.mnemonic = "bra";
          jump.parts = {"bra"};
          jump.guard = op.guard;
          jump.guardNegated = op.guardNegated;
          Arg target;
          target.kind = Arg::Kind::Label;
          target.name = exitLabel;
          jump.args.push_back(target);
          jump.loc = op.loc;
          out_.ops.push_back(std::move(jump));
        } else {
          out_.ops.push_back(std::move(op));
        }
        break;
      }
    }
  }
}

// A call to a function with a body is replaced by the body; others stay (vprintf,
// __assertfail: the evaluator knows them).
void Flattener::call(const Op& op, const Scopes&, int depth) {
  const Function* callee = m_.function(op.callee);
  if (!callee || !callee->hasBody || !op.guard.empty()) {
    if (callee && callee->hasBody) throw Error(op.loc, "a guarded call of '" + op.callee + "' is not supported");
    out_.ops.push_back(op);
    return;
  }
  const std::string suffix = "_i" + std::to_string(++calls_);
  std::map<std::string, std::string> params;
  if (op.callArgs.size() != callee->params.size() || op.callRets.size() > callee->returns.size())
    throw Error(op.loc, "call of '" + op.callee + "' with the wrong number of arguments");
  for (size_t i = 0; i < op.callArgs.size(); ++i) params[callee->params[i].name] = op.callArgs[i];
  for (size_t i = 0; i < op.callRets.size(); ++i) params[callee->returns[i].name] = op.callRets[i];
  const std::string exitLabel = "$ret" + suffix;
  function(*callee, suffix, params, exitLabel, depth + 1);
  out_.labels[exitLabel] = static_cast<int>(out_.ops.size());
}

}  // namespace

Body flatten(const Module& module, const Function& kernel) {
  Body out;
  Flattener(module, out).function(kernel, "", {}, "", 0);
  for (const Op& op : out.ops)
    for (const Arg& a : op.args)
      if (a.kind == Arg::Kind::Label && !out.labels.count(a.name))
        throw Error(op.loc, "label '" + a.name + "' is not defined");
  return out;
}

}  // namespace extract
