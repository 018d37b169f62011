// The device side of a run (private to gpu-runner): driver, module, buffers and the launch loop.
// It runs in the runner's worker process (runner.cpp), which owns the CUDA context and keeps it
// from one test to the next.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpu-runner/plan.h"
#include "gpu-runner/runner.h"

namespace gpu {

// What the device side needs of a test: its module and the sizes its plan gives. It travels from
// the runner to its worker as text (runner.cpp), so it holds no pointers and no Test.
struct Job {
  std::string name;  // progress lines
  std::string ptx;
  Shape shape;
  bool aliases = false;  // some location is a generic alias: buffers are mapped twice
  bool texture = false;  // some location is a texture alias: a texture object over each buffer (p_tex)
  // Some location is a surface alias: a surface array per buffer (p_surf); arrayTexture: a texture
  // alias of a location in it, a texture object over each array (p_atex). ptx_body_image.cpp.
  bool surface = false, arrayTexture = false;
  int bankWords = 0;  // words per instance in the constant bank (locations with a constant alias)
  int regResults = 0, sharedResults = 0;
  int observed = 0;  // observed terms: the histogram key's width
  std::vector<bool> gridProgrammatic{false};
  int gpus = 1;  // test GPUs: the worker's first `gpus` devices run it (docs/gpu-runner.md, "Several GPUs")
  struct TensorMap {  // a template of the module's lt_tmap, in order (ptx_body_tensor.cpp)
    std::string name;
    std::vector<int64_t> dims, box;
  };
  std::vector<TensorMap> tensorMaps;
  RunOptions options;
};
Job makeJob(const litmus::Test& test, const Plan& plan, std::string ptx, const RunOptions& options);

class Device;
// The driver and the CUDA contexts (one per device a job has needed), opened by the first job and
// kept for the following ones; each job loads its module and buffers and releases them when it
// ends. After a job that did not end Ok a context may be unusable (a sticky error), so the worker
// does not run another one. ordinals: the devices the worker may use (device.h).
class Session {
 public:
  // traceSlots: the runner's TraceRegion (wait_trace.h), which traced jobs write into; may be null.
  explicit Session(std::vector<int> ordinals = {}, uint64_t* traceSlots = nullptr);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  RunResult run(const Job& job);
  // A later job's module, compiled while this one runs (jit.h); cacheDir as RunOptions::jitCache.
  // Never fails: trouble with the driver is the job's to report. May be called from another
  // thread than run's (the worker's reader); the modules wait for the first job to open the GPU.
  void prefetch(const std::string& ptx, const std::string& cacheDir);

 private:
  std::unique_ptr<Device> device_;
  uint64_t* traceSlots_ = nullptr;
};

// The histogram table as copied back from the GPU (ptx_gen.h) into r's histogram, not-recorded
// entries and overflow; r.status becomes Error when the counts do not add up to r.instances.
// "0,1,2".
std::string formatGpus(const std::vector<int>& gpus);
void readTable(const std::vector<unsigned char>& table, int observed, RunResult& r);

}  // namespace gpu
