#include "gpu-runner/sass.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "gpu-runner/cuda_api.h"

extern char** environ;

namespace gpu {

struct MachineCode::Impl {
  cuda::Api api;
  std::string device;

  void check(cuda::CUresult r, const std::string& what, RunStatus status = RunStatus::Error) const {
    if (r != cuda::CUDA_SUCCESS) throw MachineCodeError{status, what + " failed: " + cuda::errorText(api, r)};
  }
};

MachineCode::MachineCode() : impl_(std::make_unique<Impl>()) {
  cuda::Api& api = impl_->api;
  std::string why;
  if (!cuda::load(api, why)) throw MachineCodeError{RunStatus::NoDriver, why};
  impl_->check(api.cuInit(0), "no usable CUDA device: cuInit", RunStatus::NoDevice);
  int count = 0;
  impl_->check(api.cuDeviceGetCount(&count), "no usable CUDA device: cuDeviceGetCount", RunStatus::NoDevice);
  if (count == 0) throw MachineCodeError{RunStatus::NoDevice, "no CUDA device found"};
  cuda::CUdevice dev = 0;
  impl_->check(api.cuDeviceGet(&dev, 0), "cuDeviceGet", RunStatus::NoDevice);
  char name[256] = {};
  impl_->check(api.cuDeviceGetName(name, sizeof name - 1, dev), "cuDeviceGetName");
  int major = 0, minor = 0;
  impl_->check(api.cuDeviceGetAttribute(&major, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
               "cuDeviceGetAttribute");
  impl_->check(api.cuDeviceGetAttribute(&minor, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
               "cuDeviceGetAttribute");
  int version = 0;
  if (api.cuDriverGetVersion) api.cuDriverGetVersion(&version);
  impl_->device = std::string(name) + " (sm_" + std::to_string(major) + std::to_string(minor) + "), CUDA driver " +
                  (version ? std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) : "?");
  cuda::CUcontext ctx = nullptr;
  impl_->check(api.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  impl_->check(api.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  if (!api.cuLinkCreate || !api.cuLinkAddData || !api.cuLinkComplete || !api.cuLinkDestroy)
    throw MachineCodeError{RunStatus::NoDevice, "the CUDA driver has no JIT linker (cuLinkCreate_v2, "
                                                "cuLinkAddData_v2, cuLinkComplete, cuLinkDestroy)"};
}

MachineCode::~MachineCode() { cuda::unload(impl_->api); }

const std::string& MachineCode::device() const { return impl_->device; }

std::string MachineCode::cubin(const std::string& ptx, const std::string& name) {
  const cuda::Api& api = impl_->api;
  cuda::JitOptions jit;  // the harness's options (harness.cpp, Device::load)
  cuda::CUlinkState link = nullptr;
  impl_->check(api.cuLinkCreate(jit.count, jit.options, jit.values, &link), "cuLinkCreate");
  // The linker owns the cubin it returns: copy it out before destroying the link.
  std::string out;
  cuda::CUresult r = api.cuLinkAddData(link, cuda::CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()),
                                       ptx.size() + 1, name.c_str(), 0, nullptr, nullptr);
  std::string what = "the CUDA driver rejected the generated PTX (cuLinkAddData)";
  if (r == cuda::CUDA_SUCCESS) {
    void* image = nullptr;
    size_t bytes = 0;
    r = api.cuLinkComplete(link, &image, &bytes);
    what = "the CUDA driver's linker failed (cuLinkComplete)";
    if (r == cuda::CUDA_SUCCESS) out.assign(static_cast<const char*>(image), bytes);
  }
  const std::string log = jit.text();
  api.cuLinkDestroy(link);
  if (r != cuda::CUDA_SUCCESS)
    throw MachineCodeError{RunStatus::Error, what + ": " + cuda::errorText(api, r) + (log.empty() ? "" : "\n" + log)};
  if (out.empty()) throw MachineCodeError{RunStatus::Error, "the CUDA driver's linker returned an empty cubin"};
  return out;
}

std::string findNvdisasm() {
  if (const char* given = std::getenv("LITMUS_NVDISASM"); given && *given) return given;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/nvdisasm";
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

std::string disassemble(const std::string& nvdisasm, const std::string& cubinPath, const std::string& outPath) {
  int err[2];
  if (pipe(err) != 0) return "cannot create a pipe for nvdisasm";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, err[0]);
  std::vector<std::string> args = {nvdisasm, "-hex", cubinPath};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, nvdisasm.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(err[1]);
  std::string message;
  char buf[4096];
  for (ssize_t n; (n = read(err[0], buf, sizeof buf)) > 0;) message.append(buf, static_cast<size_t>(n));
  close(err[0]);
  if (spawned != 0) return "cannot run " + nvdisasm;
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  while (!message.empty() && message.back() == '\n') message.pop_back();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && message.empty()) return "cannot run " + nvdisasm;
  return nvdisasm + " failed (" +
         (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                            : "signal " + std::to_string(WTERMSIG(status))) +
         ")" + (message.empty() ? "" : ": " + message);
}

}  // namespace gpu
