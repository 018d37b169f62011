// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "run/emit_sass.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include "base/exit_code.h"
#include "gpu-runner/runner.h"
#include "gpu-runner/sass.h"

namespace runcli {

namespace {

// A test's files are written under temporary names and renamed into place together at the end,
// so that a failure leaves none of them.
class Files {
 public:
  explicit Files(std::string base) : base_(std::move(base)) {}
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;
  ~Files() {
    for (const std::string& ext : made_) std::remove(temp(ext).c_str());
  }
  bool write(const std::string& ext, const std::string& bytes) {
    made_.push_back(ext);
    std::ofstream out(temp(ext), std::ios::binary);
    return static_cast<bool>(out << bytes) && static_cast<bool>(out.flush());
  }
  // For a file another program writes.
  std::string claim(const std::string& ext) {
    made_.push_back(ext);
    return temp(ext);
  }
  bool commit() {
    for (size_t i = 0; i < made_.size(); ++i) {
      if (std::rename(temp(made_[i]).c_str(), (base_ + made_[i]).c_str()) == 0) continue;
      for (size_t j = 0; j < i; ++j) std::remove((base_ + made_[j]).c_str());  // all or none
      return false;
    }
    made_.clear();
    return true;
  }
  std::string path(const std::string& ext) const { return base_ + ext; }
  std::string temp(const std::string& ext) const { return base_ + ext + ".tmp"; }

 private:
  std::string base_;
  std::vector<std::string> made_;
};

// DIR exists (made if need be) and takes a file; checked before anything else happens.
bool writableDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir, ec)) return false;
  std::string probe = dir + "/.litmus-emit-sass.XXXXXX";
  const int fd = mkstemp(probe.data());
  if (fd < 0) return false;
  close(fd);
  std::remove(probe.c_str());
  return true;
}

bool executable(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// One test; returns its exit status.
int emitOne(gpu::MachineCode& jit, const litmus::Test& t, const std::string& base, const std::string& nvdisasm) {
  std::string ptx;
  try {
    ptx = gpu::generatePtx(t);
  } catch (const litmus::Error& e) {
    std::cerr << e.what() << "\n";
    return cli::kUnknown;  // refused, as by --emit-ptx
  }
  Files files(base);
  try {
    const std::string cubin = jit.cubin(ptx, t.name + ".ptx");
    if (!files.write(".ptx", ptx) || !files.write(".cubin", cubin)) {
      std::cerr << base << ".cubin: error: cannot write\n";
      return cli::kBadInput;
    }
  } catch (const gpu::MachineCodeError& e) {
    std::cout << "Test " << t.name << ": error: " << e.message << "\n";
    return cli::kInternal;
  }
  if (!nvdisasm.empty()) {
    const std::string why = gpu::disassemble(nvdisasm, files.temp(".cubin"), files.claim(".sass"));
    if (!why.empty()) {
      std::cout << "Test " << t.name << ": error: " << why << "\n";
      return cli::kInternal;
    }
  }
  if (!files.commit()) {
    std::cerr << base << ".cubin: error: cannot write\n";
    return cli::kBadInput;
  }
  std::cout << "wrote " << files.path(".cubin") << (nvdisasm.empty() ? "" : " and .sass") << " (and .ptx)\n";
  return cli::kOk;
}

}  // namespace

int emitSass(const std::string& dir, const std::vector<litmus::Test>& tests) {
  const char* given = std::getenv("LITMUS_NVDISASM");
  const bool off = given && std::string(given) == "none";  // cubins only, even with one on PATH
  const std::string nvdisasm = off ? "" : gpu::findNvdisasm();
  if (!off && given && *given && !executable(nvdisasm)) {
    std::cerr << "litmus run: $LITMUS_NVDISASM (" << nvdisasm << ") is not an executable file\n";
    return cli::kBadInput;
  }
  if (!writableDir(dir)) {
    std::cerr << dir << ": error: cannot create or write this directory\n";
    return cli::kBadInput;
  }
  std::unique_ptr<gpu::MachineCode> jit;
  try {
    jit = std::make_unique<gpu::MachineCode>();
  } catch (const gpu::MachineCodeError& e) {
    std::cerr << "litmus run: " << e.message << "\n";
    return cli::kBadInput;  // no driver or device, as for a run
  }
  std::cout << "Machine code from the JIT of " << jit->device() << "\n";
  if (off)
    std::cout << "LITMUS_NVDISASM=none: cubins only\n";
  else if (nvdisasm.empty())
    std::cout << "nvdisasm not found ($LITMUS_NVDISASM, PATH; scripts/get-nvdisasm.sh fetches one): "
                 "cubins only\n";
  std::map<std::string, int> seen;
  std::map<int, int> count;
  int rc = cli::kOk;
  for (const litmus::Test& t : tests) {
    const int n = seen[t.name]++;
    const int one = emitOne(*jit, t, dir + "/" + t.name + (n ? "." + std::to_string(n) : ""), nvdisasm);
    ++count[one];
    rc = cli::worse(rc, one);
  }
  std::cout << count[cli::kOk] << " written, " << count[cli::kUnknown] << " refused, "
            << count[cli::kInternal] + count[cli::kBadInput] << " failed\n";
  return rc;
}

}  // namespace runcli
