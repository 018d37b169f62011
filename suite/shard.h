// --shard K/N (docs/scale.md): a deterministic partition of tests by name, the same on every
// machine, compiler and run. A test belongs to shard K (1..N) when FNV-1a-64(name) mod N == K-1,
// over the bytes of its name (the `name` field; a file that does not parse: its file name without
// the extension). The name, not the path, so that shards given different checkouts or mount
// points agree. Header-only: check, suite, run and gen share it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace suite {

struct Shard {
  uint64_t index = 1, count = 1;  // 1-based: shard 1/1 is everything
  bool all() const { return count == 1; }
};

// FNV-1a, 64 bits: fixed by its definition, unlike std::hash.
inline uint64_t stableHash(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

inline bool inShard(const std::string& name, const Shard& s) {
  return s.all() || stableHash(name) % s.count == s.index - 1;
}

// "K/N" with 1 <= K <= N <= 1e6; nullopt otherwise.
inline std::optional<Shard> parseShard(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return std::nullopt;
  auto number = [](const std::string& t) -> std::optional<uint64_t> {
    if (t.empty() || t.size() > 7) return std::nullopt;
    uint64_t v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return v;
  };
  const auto k = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
  if (!k || !n || *n < 1 || *n > 1000000 || *k < 1 || *k > *n) return std::nullopt;
  return Shard{*k, *n};
}

inline std::string shardSyntax() { return "K/N with 1 <= K <= N, e.g. 2/8"; }

}  // namespace suite
