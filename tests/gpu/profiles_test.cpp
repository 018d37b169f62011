// Profile files with per-family sections (`litmus run --tune --per-family`): round trip, the old
// format, and positioned errors.
#include <doctest.h>

#include "gpu-runner/runner.h"

TEST_CASE("profiles: per-family sections round trip, and start from the default") {
  gpu::ProfileSet set;
  set.base.memStride = 7;
  gpu::Profile mp;
  mp.stressPct = 40;
  mp.stressIters = 512;
  set.families["MP"] = mp;
  gpu::Profile sb = set.base;
  sb.barrierPct = 0;
  set.families["2+2W x"] = sb;
  const std::string text = gpu::formatProfiles(set);
  CHECK(text.find("\n[family MP]\n") != std::string::npos);
  const gpu::ProfileSet back = gpu::parseProfiles(text, "p");
  CHECK(back.base == set.base);
  REQUIRE(back.families.size() == 2);
  CHECK(back.families.at("MP") == mp);
  CHECK(back.families.at("2+2W x") == sb);
  std::string section;
  CHECK(back.forFamily("MP", &section) == mp);
  CHECK(section == "MP");
  CHECK(back.forFamily("LB", &section) == set.base);
  CHECK(section == "default");
  // a section lists only what differs from the default above it
  const gpu::ProfileSet partial = gpu::parseProfiles("memStride = 9\n[family LB]\ndelayMax = 5\n", "p");
  CHECK(partial.families.at("LB").memStride == 9);
  CHECK(partial.families.at("LB").delayMax == 5);
  CHECK(partial.base.delayMax == 0);
}

TEST_CASE("profiles: the old format is the default profile; no sections") {
  gpu::Profile p;
  p.spinLimit = 100;
  const gpu::ProfileSet set = gpu::parseProfiles(gpu::formatProfile(p), "old");
  CHECK(set.base == p);
  CHECK(set.families.empty());
  CHECK(gpu::formatProfiles(set) == gpu::formatProfile(p));  // written back in the old format
}

TEST_CASE("profiles: bad sections are positioned errors") {
  const auto error = [](const std::string& text) {
    try {
      gpu::parseProfiles(text, "f");
    } catch (const litmus::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("[famly MP]\n") == "f:1:1: error: expected a section '[family NAME]'");
  CHECK(error("[family ]\n") == "f:1:1: error: expected a section '[family NAME]'");
  CHECK(error("[family A]\n[family A]\n") == "f:2:1: error: a second section for family 'A'");
  CHECK(error("[family A]\nbogus = 1\n") == "f:2:1: error: unknown profile key 'bogus'");
  CHECK(error("[family A]\nthreadsPerBlock = 33\n") ==
        "f: error: threadsPerBlock must be a multiple of 32 (section [family A])");
}
