#!/usr/bin/env python3
"""Pulls the cubins out of a CUDA driver's JIT cache, to see the code cuModuleLoadDataEx ran.

`litmus run --emit-sass` gets its cubin from the driver's JIT linker, which compiles PTX as
relocatable code; the runner's cuModuleLoadDataEx compiles a whole program and keeps no cubin we
can ask for. The driver does cache what it compiled, though (CUDA_CACHE_PATH, default
~/.nv/ComputeCache). Run a test with CUDA_CACHE_PATH pointing at an empty folder, bring the folder
back, and this script writes every CUDA ELF image found in its files (ELF class 64, machine 190,
EM_CUDA), sized by its section header table, as OUT/cache-N.cubin; `nvdisasm -hex` reads them. It
finds nothing when the driver stores its entries compressed: it says so, and exits 1.

    python3 -m litmuspy.jit_cache_cubins CACHE-DIR OUT-DIR
"""

import os
import struct
import sys

MAGIC = b"\x7fELF\x02\x01"  # 64-bit, little-endian
EM_CUDA = 190


def image_size(data, at):
    """The size of the CUDA ELF image at data[at:], or 0 when it is not a complete one: the end of
    whatever lies furthest, the section and program header tables or a section's contents."""
    if len(data) - at < 64:
        return 0
    machine = struct.unpack_from("<H", data, at + 18)[0]
    phoff, shoff = struct.unpack_from("<QQ", data, at + 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, at + 54)
    if machine != EM_CUDA or shnum == 0 or shentsize < 64:
        return 0
    size = max(shoff + shentsize * shnum, phoff + phentsize * phnum)
    if at + size > len(data):
        return 0
    for i in range(shnum):
        kind, = struct.unpack_from("<I", data, at + shoff + i * shentsize + 4)
        offset, length = struct.unpack_from("<QQ", data, at + shoff + i * shentsize + 24)
        if kind != 8:  # SHT_NOBITS takes no room in the file
            size = max(size, offset + length)
    return size if at + size <= len(data) else 0


def images(data):
    """The (offset, bytes) of each complete CUDA ELF image in data."""
    at = data.find(MAGIC)
    while at >= 0:
        size = image_size(data, at)
        if size:
            yield at, data[at:at + size]
            at = data.find(MAGIC, at + size)
        else:
            at = data.find(MAGIC, at + 1)


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[0]):
        sys.stderr.write(__doc__.split("\n\n")[-1].strip() + "\n")
        return 2
    cache, out = argv
    os.makedirs(out, exist_ok=True)
    n = 0
    for root, _, files in sorted(os.walk(cache)):
        for name in sorted(files):
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                data = f.read()
            for offset, image in images(data):
                target = os.path.join(out, "cache-%d.cubin" % n)
                with open(target, "wb") as f:
                    f.write(image)
                print("%s: %d bytes at offset %d of %s" % (target, len(image), offset, path))
                n += 1
    if n == 0:
        print("no CUDA ELF image in %s (entries compressed, or nothing cached)" % cache)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
