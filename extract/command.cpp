#include "extract/command.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/subcommand.h"
#include "extract/extract.h"
#include "litmus/ptx_format.h"

extern char** environ;

namespace extract {

namespace {

namespace fs = std::filesystem;

std::optional<std::array<int, 3>> parseShape(const std::string& s) {
  std::array<int, 3> out = {1, 1, 1};
  std::stringstream in(s);
  std::string part;
  int i = 0;
  while (std::getline(in, part, ',')) {
    const std::optional<int64_t> v = litmus::lex::parseInteger(litmus::lex::trim(part));
    if (i >= 3 || !v || *v < 1 || *v > 1024) return std::nullopt;
    out[i++] = static_cast<int>(*v);
  }
  if (i == 0) return std::nullopt;
  return out;
}

std::optional<ParamValue> parseParam(const std::string& s) {
  const size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  ParamValue p;
  std::string name = s.substr(0, eq);
  if (const size_t plus = name.find('+'); plus != std::string::npos) {
    const std::optional<int64_t> off = litmus::lex::parseInteger(name.substr(plus + 1));
    if (!off || *off < 0) return std::nullopt;
    p.offset = *off;
    name = name.substr(0, plus);
  }
  const std::optional<int64_t> v = litmus::lex::parseInteger(litmus::lex::trim(s.substr(eq + 1)));
  if (!v) return std::nullopt;
  p.name = name;
  p.value = *v;
  return p;
}

std::string findOnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream in(path ? path : "");
  std::string dir;
  while (std::getline(in, dir, ':')) {
    const fs::path p = fs::path(dir.empty() ? "." : dir) / program;
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

// nvcc -ptx -arch sm_90a SRC -o OUT; the exit status, or -1 when it could not start.
int runNvcc(const std::string& nvcc, const std::string& src, const std::string& out) {
  std::vector<std::string> args = {nvcc, "-ptx", "-arch", "sm_90a", src, "-o", out};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, nvcc.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The PTX to read: the file itself, or what nvcc makes of a .cu file (written into `dir`).
std::optional<std::string> ptxOf(const std::string& input, const std::string& dir) {
  if (fs::path(input).extension() != ".cu") return input;
  const std::string nvcc = findOnPath("nvcc");
  if (nvcc.empty()) {
    std::cerr << input << ":0:0: error: nvcc is not on the PATH; compile the kernel with `nvcc -ptx -arch sm_90a "
              << input << "` and give the .ptx file\n";
    return std::nullopt;
  }
  const std::string out = (fs::path(dir) / fs::path(input).stem()).string() + ".ptx";
  const int rc = runNvcc(nvcc, input, out);
  if (rc != 0) {
    std::cerr << input << ":0:0: error: nvcc -ptx -arch sm_90a failed (exit " << rc << ")\n";
    return std::nullopt;
  }
  return out;
}

int countInstrs(const litmus::Test& t) {
  int n = 0;
  for (const litmus::Thread& th : t.threads)
    for (const litmus::Instr& in : th.code) n += in.op != litmus::Opcode::Label;
  return n;
}

// The module to read: the PTX file, or what nvcc makes of a .cu file. Errors are said on stderr.
std::optional<Module> readModule(const std::string& input, const std::string& dir) {
  const std::optional<std::string> ptx = ptxOf(input, dir);
  if (!ptx) return std::nullopt;
  std::ifstream in(*ptx);
  if (!in) {
    std::cerr << *ptx << ":0:0: error: cannot read this file\n";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    return parseModule(text.str(), *ptx);
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return std::nullopt;
  }
}

// Extracts and writes each kernel's test; a kernel with nothing to check is an error only when
// it was asked for by name.
int writeTests(const Module& m, const std::vector<const Function*>& kernels, const ExtractOptions& opt,
               const std::string& dir, bool named) {
  int status = 0;
  for (const Function* f : kernels) {
    try {
      Extracted x = extractKernel(m, *f, opt);
      const fs::path out = fs::path(dir) / x.file;
      std::ofstream o(out);
      o << x.yaml;
      if (!o) throw litmus::Error({out.string(), 0, 0}, "cannot write this file");
      std::cout << "wrote " << out.string() << ": " << x.test.threads.size() << " threads, " << countInstrs(x.test)
                << " instructions\n";
      for (const std::string& n : x.notes) std::cerr << n << "\n";
    } catch (const NothingToCheck& e) {
      if (named) status = 2;
      std::cerr << (named ? e.what() : e.loc().file + ":" + std::to_string(e.loc().line) + ": note: " + e.message() +
                                          "; no test written") << "\n";
    } catch (const litmus::Error& e) {
      std::cerr << e.what() << "\n";
      status = 2;
    }
  }
  return status;
}

}  // namespace

int cmdExtract(int argc, char** argv) {
  CLI::App app{"Extracts the litmus test of each kernel of a PTX module (or of a .cu file, through nvcc): the "
               "launch's threads evaluated with their identity, loops run their given counts, addresses folded to "
               "locations, identical threads merged. Each instruction names its PTX line. The tests check that no "
               "execution hangs or races and that the kernel's own checks (trap, assert) never fail (docs/extract.md).",
               "litmus extract"};
  std::string input, kernel, dir, block, cluster, grid;
  std::vector<std::string> params;
  bool noMerge = false, noLockstep = false;
  app.add_option("KERNEL", input, "a PTX module (.ptx), or CUDA C++ (.cu) compiled with nvcc -ptx -arch sm_90a")->required();
  app.add_option("--kernel", kernel, "the kernel (its PTX name, or its C++ name); default: every kernel");
  app.add_option("--block", block, "the CTA shape X,Y,Z (default: the kernel's .reqntid)");
  app.add_option("--cluster", cluster, "the cluster shape X,Y,Z (default: .reqnctapercluster, else 1)");
  app.add_option("--grid", grid, "the grid shape X,Y,Z in CTAs (default: one cluster)");
  app.add_option("--param", params, "a parameter's value: NAME=VALUE (NAME: the PTX name, param_N or N; NAME+OFF for a byte offset)");
  app.add_flag("--no-merge", noMerge, "keep every thread (no merging of identical threads)");
  app.add_flag("--no-lockstep", noLockstep,
               "keep threads that wait without arriving apart from the thread they follow (docs/extract.md)");
  app.add_option("-o,--output", dir, "the directory the tests are written to")->required();
  app.footer("exit: 0 every selected kernel extracted; 2 bad input or usage (each kernel that cannot be extracted\n"
             "is said on stderr as FILE:LINE:COL: error: ..., the others are written); 4 internal error.");
  if (const auto rc = cli::parseSubcommand(app, "extract", argc, argv)) return *rc;
  ExtractOptions opt;
  opt.merge = !noMerge;
  opt.lockstep = !noLockstep;
  for (auto [text, slot] : {std::pair{&block, &opt.block}, {&cluster, &opt.cluster}, {&grid, &opt.grid}}) {
    if (text->empty()) continue;
    *slot = parseShape(*text);
    if (!*slot) {
      std::cerr << "litmus extract: '" << *text << "' is not a shape X[,Y[,Z]] of positive numbers\n";
      return 2;
    }
  }
  for (const std::string& p : params) {
    std::optional<ParamValue> v = parseParam(p);
    if (!v) {
      std::cerr << "litmus extract: --param '" << p << "' is not NAME=VALUE\n";
      return 2;
    }
    opt.params.push_back(*v);
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "litmus extract: cannot create " << dir << ": " << ec.message() << "\n";
    return 2;
  }
  const std::optional<Module> m = readModule(input, dir);
  if (!m) return 2;
  const std::vector<const Function*> kernels = selectKernels(*m, kernel);
  if (kernels.empty()) {
    std::cerr << m->file << ":0:0: error: "
              << (kernel.empty() ? "no kernel (.entry) in this module" : "no kernel named '" + kernel + "'") << "\n";
    return 2;
  }
  return writeTests(*m, kernels, opt, dir, !kernel.empty());
}

}  // namespace extract
