// The features of the modelled language that a (parsed) test uses, for the test that every
// feature the generator should draw appears in enough of the differential seeds. Read off the
// parsed test, not the generator's intentions, so that a feature the generator writes but the
// parser reads as something else does not count.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "litmus/test.h"

namespace difftest {

// Every feature name `features` can return.
const std::vector<std::string>& featureNames();
std::set<std::string> features(const litmus::Test& test);

}  // namespace difftest
