// What the fuzz targets share (docs/fuzzing.md): reading an input as a test the way the CLI does,
// under a deadline, where bad input may only end in litmus::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "litmus/parse.h"

namespace fuzz {

// A second per input is far more than any input under libFuzzer's -max_len needs; the deadline
// is there so that a slow path shows as a hang report (-timeout) only when it ignores it.
inline constexpr double kReadSeconds = 1.0;

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// The test in `text`, or nothing when it is bad input or takes too long to read.
inline std::optional<litmus::Test> read(const std::string& text, bool herd) {
  const litmus::Deadline deadline(kReadSeconds);
  try {
    return herd ? litmus::parseHerd(text, "fuzz.litmus", deadline) : litmus::parseYaml(text, "fuzz.yaml", deadline);
  } catch (const litmus::Error&) {
    return std::nullopt;
  } catch (const litmus::Deadline::Expired&) {
    return std::nullopt;
  }
}

}  // namespace fuzz
