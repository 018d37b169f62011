// PTX generation for the runner's images, constant bank and register count (docs/gpu-runner.md,
// section 5): surface aliases in a CUDA array, constant aliases in the constant bank, setmaxnreg
// with a .maxnreg at entry. No GPU needed; tests/gpu/cli.sh runs them with the fake driver.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "gpu-runner/plan.h"
#include "gpu-runner/runner.h"
#include "litmus/parse.h"

namespace {

litmus::Test catalogue(const std::string& rel) {
  std::ifstream in(std::string(LITMUS_SOURCE_DIR) + "/" + rel);
  std::stringstream s;
  s << in.rdbuf();
  return litmus::parseYaml(s.str(), rel);
}

litmus::Test yaml(const std::string& text) { return litmus::parseYaml(text, "t.yaml"); }

}  // namespace

// docs/gpu-runner.md section 5: a location named only through surface and texture aliases lives in
// a CUDA array; one named directly cannot (no address reaches an array's memory: findings F14).
TEST_CASE("a surface alias puts its target in the surface array, read and written with suld/sust") {
  const litmus::Test t = catalogue("catalog/proxy/single-thread-sust-tld-nofence.yaml");
  const gpu::Plan plan = gpu::makePlan(t);
  int inArray = 0, surfaces = 0, textures = 0;
  for (const gpu::LocPlan& l : plan.locs) {
    inArray += l.inArray;
    surfaces += l.surface;
    textures += l.texture;
  }
  CHECK(inArray == 1);
  CHECK(surfaces == 1);
  CHECK(textures == 1);
  CHECK(plan.hasSurface());
  CHECK(plan.hasArrayTexture());
  CHECK_FALSE(plan.hasTexture());  // no texture of a location in the buffer: no p_tex
  const std::string ptx = gpu::generatePtx(t);
  CHECK(ptx.find(".param .u64 p_surf") != std::string::npos);
  CHECK(ptx.find(".param .u64 p_atex") != std::string::npos);
  CHECK(ptx.find(".param .u64 p_tex") == std::string::npos);
  CHECK(ptx.find("sust.b.2d.b32.trap") != std::string::npos);
  CHECK(ptx.find("tex.2d.v4.u32.s32") != std::string::npos);
  CHECK(ptx.find("p_nsurf") != std::string::npos);  // the tally initialises the next array
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: direct
locations: {x: 0, s: {alias-of: x, proxy: surface}}
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
      suld.weak.u32 %r0, [s];
condition: exists (P0:r0 == 1)
)")),
                    doctest::Contains("t.yaml:2:19: error: location 's' is a surface alias of 'x', which the test "
                                      "also names directly"));
  CHECK_THROWS_WITH(gpu::generatePtx(yaml(R"(name: wide
locations: {x: 0, s: {alias-of: x, proxy: surface}}
threads:
  P0:
    code: |
      sust.weak.b64 [s], 1;
condition: exists (x == 1)
)")),
                    doctest::Contains("accessed as 32-bit integers"));
}

// §9.7.19.6: every warp starts with the kernel's .maxnreg; each instance's decs give back what its
// incs take (planRegisterCount).
TEST_CASE("setmaxnreg runs with a register count at entry that its decs and incs balance") {
  const litmus::Test t = catalogue("catalog/wgmma/setmaxnreg-orders-nothing.yaml");
  const gpu::Plan plan = gpu::makePlan(t);
  CHECK(plan.maxnreg == 136);  // dec 40 and inc 232: (40 + 232) / 2
  const std::string ptx = gpu::generatePtx(t);
  CHECK(ptx.find(")\n.maxnreg 136\n{") != std::string::npos);
  CHECK(ptx.find("setmaxnreg.dec.sync.aligned.u32 40;") != std::string::npos);
  CHECK(ptx.find(".version 8.0") != std::string::npos);
  CHECK(ptx.find(".target sm_90a") != std::string::npos);
  const auto test = [](const std::string& p0, const std::string& p1) {
    return yaml("name: r\nlocations: {x: 0}\nthreads:\n  P0:\n    code: |\n" + p0 + "  P1:\n    code: |\n" + p1 +
                "condition: exists (x == 0)\n");
  };
  CHECK(gpu::makePlan(test("      setmaxnreg.dec.sync.aligned.u32 200;\n",
                           "      setmaxnreg.inc.sync.aligned.u32 240;\n")).maxnreg == 224);
  CHECK_THROWS_WITH(gpu::makePlan(test("      setmaxnreg.dec.sync.aligned.u32 240;\n",
                                       "      setmaxnreg.inc.sync.aligned.u32 232;\n")),
                    doctest::Contains("no register count at entry"));
  CHECK_THROWS_WITH(gpu::makePlan(test("      setmaxnreg.dec.sync.aligned.u32 40;\n"
                                       "      setmaxnreg.inc.sync.aligned.u32 232;\n",
                                       "      st.global.u32 [x], 1;\n")),
                    doctest::Contains("a thread's second setmaxnreg"));
  CHECK(gpu::makePlan(test("      st.global.u32 [x], 1;\n", "      st.global.u32 [x], 2;\n")).maxnreg == 0);
}

// A location with a constant alias lives in the module's constant bank, one word per instance.
TEST_CASE("a constant alias puts its target in the constant bank, read with ld.const") {
  const litmus::Test t = catalogue("catalog/proxy/constant-nofence.yaml");
  const gpu::Plan plan = gpu::makePlan(t);
  CHECK(plan.bankWords == 1);
  int inBank = 0, constants = 0;
  for (const gpu::LocPlan& l : plan.locs) {
    inBank += l.bankWord >= 0;
    constants += l.constant;
  }
  CHECK(inBank == 1);
  CHECK(constants == 1);
  const std::string ptx = gpu::generatePtx(t);
  CHECK(ptx.find(".const .align 4 .b32 lt_cbank[16384];") != std::string::npos);
  CHECK(ptx.find(".param .u64 p_cbank") != std::string::npos);
  CHECK(ptx.find("ld.const.u32") != std::string::npos);
  CHECK(ptx.find("mad.lo.u32 %h_x, %h_n32, 1, 0") != std::string::npos);  // word n * B + j
}
