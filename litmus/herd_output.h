// herd7's own result block (`litmus check --herd`), for mcompare7 and the scripts that read herd:
// thread numbers instead of names in state keys, `=` in conditions, Witnesses swapped for
// ~exists, `Flag` lines, `Time` in two decimals and a `Hash=` line (docs/interop.md).
#pragma once

#include <iosfwd>
#include <string>

#include "litmus/outcome.h"
#include "litmus/test.h"

namespace litmus {

// "1:r0" for a register of the test's second thread (its index in Test::threads), "x" for a
// location, the number for a constant.
std::string herdTerm(const Test&, const Term&);
// The condition as herd prints it: `exists (0:r0=1 /\ 1:r0=0)`, `~exists (...)`, `forall (...)`.
std::string herdCondition(const Test&);
// A stable hash of the test: FNV-1a (64 bits) of its canonical YAML (toYaml), 16 hex digits.
// Not herd's MD5 of its own normalized text, so a herd result and ours differ on it.
std::string testHash(const Test&);
// The block herd7 prints for one test. An Unknown outcome (no verdict) prints nothing: herd
// prints no block for a test it gave up on either.
void printHerdCompat(std::ostream&, const Test&, const Outcome&);

}  // namespace litmus
