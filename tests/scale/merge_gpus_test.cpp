#include <doctest.h>

#include "merge/merge.h"

namespace {

merge::Json run(const char* gpus, const char* perGpu, int instances) {
  merge::Json j = merge::Json::parse(R"({"test":"T","file":"t.yaml","verdict":"ok","status":"ok","model":"decided",
    "modelNote":"","instances":0,"seconds":0.1,"seed":1,"histogram":[],"notRecordedStates":[],"neverObserved":[]})");
  j["instances"] = instances;
  j["gpus"] = merge::Json::parse(gpus);
  j["gpuInstances"] = merge::Json::parse(perGpu);
  return j;
}

}  // namespace

TEST_CASE("merge: runs of `run --gpus` add their instances per GPU") {
  const merge::Json m = merge::mergeRuns({run("[0,1]", "[10,12]", 22), run("[1]", "[5]", 5), run("[2,0]", "[3,4]", 7)});
  CHECK(m["instances"] == 34);
  CHECK(m["gpus"] == merge::Json::parse("[0,1,2]"));
  CHECK(m["gpuInstances"] == merge::Json::parse("[14,17,3]"));
}
