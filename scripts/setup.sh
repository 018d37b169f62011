#!/usr/bin/env bash
# Installs the build dependencies (Debian packages), configures and builds into build/.
# Idempotent: packages already present are not reinstalled, and the build is incremental.
#   LITMUS_BUILD_DIR   build directory (default: build)
#   LITMUS_CMAKE_ARGS  extra arguments for cmake (e.g. -DLITMUS_SANITIZE=ON)
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and its runtime libraries (libFuzzer, the sanitizers) build the fuzz targets (scripts/fuzz.sh)
packages=(build-essential cmake ninja-build pkg-config libz3-dev libboost-graph-dev
          libyaml-cpp-dev libcli11-dev nlohmann-json3-dev doctest-dev graphviz zlib1g-dev
          chromium python3-jsonschema clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

build=${LITMUS_BUILD_DIR:-build}
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${LITMUS_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)" >&2
