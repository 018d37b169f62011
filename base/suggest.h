// "Did you mean": the known word nearest to a misspelt one, for the messages of unknown
// instructions, options, commands and gen families.
#pragma once

#include <string>
#include <vector>

namespace litmus {

// The candidate nearest to `word` by edit distance (insertions, deletions, substitutions and
// swaps of neighbours, case ignored), if it is near enough to be a likely slip: at most a third of
// the word's length, and at least 1 and at most 3 edits. Empty otherwise.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

// "; did you mean 'X'?" for nearest(word, candidates), or "" when nothing is near.
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace litmus
