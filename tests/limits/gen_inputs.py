#!/usr/bin/env python3
"""Writes the oversized inputs of issue 30 into a directory, one file each.

Every one of them must end within `--timeout` + 1 s (tests/limits/run.sh): checked, Unknown
(exit 3) or a located error (exit 2). Sizes are the issue's: 40,000 locations, 40,000 threads in
one CTA, a 50 MB line; --scale divides the counts (and the line) for quick experiments.

    tests/limits/gen_inputs.py OUT_DIR [--scale K] [--quick]

--quick (the ctest) writes one 50 MB line of each reader's kind (a YAML name, a YAML line of code,
a herd condition) instead of five, about 150 MB instead of 250.
"""
import argparse
import os


def write(path, parts):
    with open(path, "w") as f:
        for p in parts:
            f.write(p)


def yaml_locations(n):
    """n declared locations, message passing over two of them."""
    yield "name: locations-%d\nlocations:\n" % n
    for i in range(n):
        yield "  x%d: 0\n" % i
    yield ("threads:\n  P0:\n    code: |\n      st.global.u32 [x0], 1;\n"
           "      st.release.gpu.global.u32 [x1], 1;\n"
           "  P1:\n    code: |\n      ld.acquire.gpu.global.u32 %r0, [x1];\n"
           "      ld.global.u32 %r1, [x0];\n"
           "condition: 'exists (P1:r0 == 1 /\\ P1:r1 == 0)'\n")


def yaml_location_stores(n):
    """n locations, each written by one store of one thread, and read by another."""
    yield "name: location-stores-%d\nlocations:\n" % n
    for i in range(n):
        yield "  x%d: 0\n" % i
    yield "threads:\n  P0:\n    code: |\n"
    for i in range(n):
        yield "      st.global.u32 [x%d], 1;\n" % i
    yield "  P1:\n    code: |\n"
    for i in range(0, n, max(1, n // 100)):
        yield "      ld.global.u32 %%r%d, [x%d];\n" % (i, i)
    yield "condition: 'exists (P1:r0 == 1)'\n"


def yaml_threads(n, warps):
    """n threads in CTA 0, each reading one location; with warps, 32 lanes to a warp."""
    yield "name: threads-%d%s\nlocations:\n  x: 0\nthreads:\n" % (n, "-warps" if warps else "")
    for i in range(n):
        yield "  P%d:\n    cta: 0\n" % i
        if warps:
            yield "    warp: %d\n" % (i // 32)
        yield "    code: |\n      %s\n" % ("st.global.u32 [x], 1;" if i == 0 else "ld.global.u32 %r0, [x];")
    yield "condition: 'exists (P1:r0 == 1)'\n"


def yaml_long_name(size):
    yield "name: " + "A" * size + "\nlocations: {x: 0}\nthreads:\n  P0:\n    code: |\n"
    yield "      st.global.u32 [x], 1;\ncondition: 'exists (x == 1)'\n"


def yaml_long_bad_name(size):
    """A name that is invalid only at its end: the message must not echo it whole."""
    yield "name: " + "A" * size + "!\nlocations: {x: 0}\nthreads:\n  P0:\n    code: |\n"
    yield "      st.global.u32 [x], 1;\ncondition: 'exists (x == 1)'\n"


def yaml_long_location(size):
    yield "name: long-location\nlocations:\n  " + "x" * size + ": 0\n"
    yield "threads:\n  P0:\n    code: |\n      st.global.u32 [y], 1;\ncondition: 'exists (y == 1)'\n"


def yaml_long_code_line(size):
    """One line of code, `size` bytes of stores separated by ';'."""
    one = "st.global.u32 [x], 1; "
    yield "name: long-code-line\nlocations: {x: 0}\nthreads:\n  P0:\n    code: |\n      "
    yield one * (size // len(one)) + "\n"
    yield "condition: 'exists (x == 1)'\n"


def yaml_long_condition(size):
    yield "name: long-condition\nlocations: {x: 0}\nthreads:\n  P0:\n    code: |\n"
    yield "      st.global.u32 [x], 1;\ncondition: 'exists (x == 1" + " /\\ x == 1" * (size // 10) + ")'\n"


def herd_long_line(size):
    yield "PTX long-line\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1 /\\ "
    yield "y" * size + " == 0)\n"


def herd_locations(n):
    yield "PTX locations-%d\n{\n" % n
    for i in range(n):
        yield "x%d=0;\n" % i
    yield "}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x0, 1 | ld.weak r0, x0 ;\n"
    yield "exists (P1:r0 == 1)\n"


def herd_threads(n):
    yield "PTX threads-%d\n{ x=0; }\n" % n
    yield " | ".join("P%d@cta 0,gpu 0" % i for i in range(n)) + " ;\n"
    yield " | ".join("st.weak x, 1" if i == 0 else "ld.weak r0, x" for i in range(n)) + " ;\n"
    yield "exists (P1:r0 == 1)\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    n, line = 40000 // a.scale, 50 * 1000 * 1000 // a.scale
    os.makedirs(a.out, exist_ok=True)
    files = {
        "locations.yaml": yaml_locations(n),
        "location-stores.yaml": yaml_location_stores(n),
        "threads.yaml": yaml_threads(n, False),
        "threads-warps.yaml": yaml_threads(n, True),
        "long-name.yaml": yaml_long_name(line),
        "long-bad-name.yaml": yaml_long_bad_name(line),
        "long-location.yaml": yaml_long_location(line),
        "long-code-line.yaml": yaml_long_code_line(line),
        "long-condition.yaml": yaml_long_condition(line),
        "long-line.litmus": herd_long_line(line),
        "locations.litmus": herd_locations(n),
        "threads.litmus": herd_threads(n),
    }
    if a.quick:
        for name in ("long-name.yaml", "long-location.yaml", "long-condition.yaml"):
            del files[name]
    for name, parts in files.items():
        write(os.path.join(a.out, name), parts)


if __name__ == "__main__":
    main()
