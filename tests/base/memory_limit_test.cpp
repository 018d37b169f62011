// The size syntax of --max-memory and the machine's memory as base/memory_limit.h reads it (the
// very header the program uses), and checker::formatBytes, which names a limit in messages.
// The limits themselves act on the whole process, so they are tested through the program
// (tests/cli/run.sh, memory-limit/).
#include <doctest/doctest.h>

#include <sstream>

#include "base/memory_limit.h"
#include "checker/checker.h"

TEST_CASE("--max-memory sizes: binary suffixes, plain bytes, none") {
  using cli::parseMemorySize;
  CHECK(parseMemorySize("512M") == 512ull << 20);
  CHECK(parseMemorySize("4G") == 4ull << 30);
  CHECK(parseMemorySize("4g") == 4ull << 30);
  CHECK(parseMemorySize("64k") == 64ull << 10);
  CHECK(parseMemorySize("1T") == 1ull << 40);
  CHECK(parseMemorySize("512MiB") == 512ull << 20);
  CHECK(parseMemorySize("512MB") == 512ull << 20);
  CHECK(parseMemorySize("1048576") == 1048576u);
  CHECK(parseMemorySize("100B") == 100u);
  CHECK(parseMemorySize("0") == 0u);
  CHECK(parseMemorySize("none") == 0u);
  CHECK(parseMemorySize("NONE") == 0u);
}

TEST_CASE("--max-memory sizes: what is not a size") {
  using cli::parseMemorySize;
  for (const char* bad : {"", "M", "lots", "1.5G", "-1", "+5", "4 G", "4X", "4GG", "4Gi", "4GiBs",
                          "18446744073709551616", "16777216T"}) {
    CAPTURE(bad);
    CHECK_FALSE(parseMemorySize(bad).has_value());
  }
  CHECK(parseMemorySize("18446744073709551615") == 18446744073709551615ull);  // the largest
}

TEST_CASE("machine memory: MemTotal from /proc/meminfo text") {
  std::istringstream meminfo(
      "MemFree:        21000000 kB\nMemTotal:       24576000 kB\nMemAvailable:   22000000 kB\n");
  CHECK(cli::memTotalBytes(meminfo) == 24576000ull * 1024);
  std::istringstream none("MemFree: 1 kB\n");
  CHECK(cli::memTotalBytes(none) == 0u);
}

TEST_CASE("the default limit is half of the machine's memory") {
  CHECK(cli::defaultMemoryLimit() == cli::machineMemoryBytes() / 2);
  CHECK(cli::machineMemoryBytes() > 0);  // this machine has a /proc/meminfo
}

TEST_CASE("byte counts in messages") {
  using checker::formatBytes;
  CHECK(formatBytes(0) == "0 bytes");
  CHECK(formatBytes(512) == "512 bytes");
  CHECK(formatBytes(64ull << 20) == "64 MiB");
  CHECK(formatBytes(4ull << 30) == "4 GiB");
  CHECK(formatBytes((11ull << 30) + (3ull << 29)) == "12.5 GiB");
  CHECK(formatBytes(1536) == "1.5 KiB");
}
