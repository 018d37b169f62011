// Name and placement lookups over a Test, built once per validation: validation asks them for
// every operand, and a linear search each time made it quadratic (issue 30: 40,000 locations or
// threads took minutes). Internal to the front ends.
#pragma once

#include <string>
#include <unordered_map>

#include "litmus/test.h"

namespace litmus {

class TestIndex {
 public:
  explicit TestIndex(const Test& test) : test_(test) {
    for (const Location& l : test.locations) locations_.emplace(l.name, &l);
    for (size_t i = 0; i < test.threads.size(); ++i) ctaThread_.emplace(test.threads[i].cta, static_cast<int>(i));
  }
  const Test& test() const { return test_; }
  const Location* location(const std::string& name) const {  // the first declared; nullptr if none
    auto it = locations_.find(name);
    return it == locations_.end() ? nullptr : it->second;
  }
  int threadInCta(int cta) const {  // the first thread of the CTA; -1 if none
    auto it = ctaThread_.find(cta);
    return it == ctaThread_.end() ? -1 : it->second;
  }

 private:
  const Test& test_;
  std::unordered_map<std::string, const Location*> locations_;
  std::unordered_map<int, int> ctaThread_;
};

}  // namespace litmus
