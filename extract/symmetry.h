// Identical, independent CTAs: the test keeps one of them (docs/extract.md, E8).
#pragma once

#include <string>
#include <vector>

#include "extract/merge.h"
#include "extract/value.h"

namespace extract {

// Removes the groups of every CTA but the first when the CTAs share nothing but cluster barriers
// and run the same code (up to the names of their own shared locations); says so in `notes`.
void keepOneOfIdenticalCtas(std::vector<Group>& groups, const std::vector<MemObject>& objects,
                            std::vector<std::string>& notes);

}  // namespace extract
