// An enum's words, written once as a table: the word of a value and the value of a word. The
// result records (schema/) and the judge (judge/) read and write their enums through these.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace words {

template <class E>
struct Word {
  E value;
  const char* text;
};

template <class E, std::size_t N>
const char* wordOf(const Word<E> (&table)[N], E value) {
  for (const Word<E>& w : table)
    if (w.value == value) return w.text;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> valueOf(const Word<E> (&table)[N], std::string_view text) {
  for (const Word<E>& w : table)
    if (text == w.text) return w.value;
  return std::nullopt;
}

}  // namespace words
