#!/usr/bin/env bash
# Fetches NVIDIA's SASS disassembler (nvdisasm, with cuobjdump beside it) from Debian trixie's
# non-free `nvidia-cuda-toolkit` package, for reading the machine code of `litmus run --emit-sass`
# and of ptxas (docs/findings.md F1, "Machine code"). The local CUDA 13 has no nvdisasm, and
# bookworm's (CUDA 11.8) cannot read CUDA 13 cubins; trixie's (CUDA 12.4) can.
#
# Nothing system-wide changes: apt runs with its own sources list, lists, cache and (empty) status
# file under a scratch folder, the package is only downloaded (`apt-get download`) and unpacked
# with `dpkg-deb -x`; only the two programs and the package's copyright file are kept.
# Not part of scripts/setup.sh: only the machine-code work needs it.
#
#   scripts/get-nvdisasm.sh [DEST]    DEST defaults to .tools/nvdisasm (ignored by git)
#   LITMUS_NVDISASM_PACKAGE   the package version to fetch, e.g. nvidia-cuda-toolkit=12.4.131~12.4.1-2
#                             (default: whatever trixie's non-free has now)
# Prints the path of the nvdisasm binary on stdout (progress goes to stderr); exit 0 when it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-.tools/nvdisasm}
package=${LITMUS_NVDISASM_PACKAGE:-nvidia-cuda-toolkit}
bin=$dest/bin/nvdisasm

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "get-nvdisasm: already there" >&2
  echo "$(cd "$(dirname "$bin")" && pwd)/nvdisasm"
  exit 0
fi
for tool in apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || { echo "get-nvdisasm: needs $tool (a Debian system)" >&2; exit 2; }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/get-nvdisasm.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/lists/partial" "$scratch/cache/archives/partial" "$scratch/prefs" "$scratch/deb"
: >"$scratch/status"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie non-free" \
  >"$scratch/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$scratch/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::Etc::Preferences=/dev/null -o "Dir::Etc::PreferencesParts=$scratch/prefs"
          -o "Dir::State::Lists=$scratch/lists" -o "Dir::State::status=$scratch/status"
          -o "Dir::Cache=$scratch/cache" -o APT::Architecture=amd64 -o APT::Sandbox::User=root)

echo "get-nvdisasm: reading trixie non-free's package list" >&2
apt-get "${apt_opts[@]}" -qq update >&2
echo "get-nvdisasm: downloading $package" >&2
(cd "$scratch/deb" && apt-get "${apt_opts[@]}" -qq download "$package" >&2)
deb=$(ls "$scratch"/deb/*.deb)
echo "get-nvdisasm: unpacking $(basename "$deb")" >&2
dpkg-deb -x "$deb" "$scratch/root"
[ -x "$scratch/root/usr/bin/nvdisasm" ] || { echo "get-nvdisasm: $(basename "$deb") has no usr/bin/nvdisasm" >&2; exit 4; }

# Assembled beside DEST and moved into place whole, so that an interrupted run leaves nothing half-made.
staging=$dest.partial
rm -rf "$staging"
mkdir -p "$staging/bin"
cp "$scratch/root/usr/bin/nvdisasm" "$scratch/root/usr/bin/cuobjdump" "$staging/bin/"
cp "$scratch/root/usr/share/doc/nvidia-cuda-toolkit/copyright" "$staging/copyright" 2>/dev/null || true
dpkg-deb -f "$deb" Package Version >"$staging/VERSION"
"$staging/bin/nvdisasm" --version >/dev/null || { echo "get-nvdisasm: the unpacked nvdisasm does not run" >&2; exit 4; }
rm -rf "$dest"
mv "$staging" "$dest"
"$bin" --version | tail -1 >&2
echo "$(cd "$(dirname "$bin")" && pwd)/nvdisasm"
