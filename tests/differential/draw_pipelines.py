#!/usr/bin/env python3
"""Draws the pipelines of the differential test (tests/differential/pipelines.sh).

Seed i draws family number (i - 1) mod F of the pattern library's pipeline families, and its
sizes from a random stream seeded with i, each within a range at whose ends every variant was
measured to finish within a few seconds with both engines on this machine (docs/performance.md,
"The two engines check each other"). Every variant the family writes at those sizes, the correct pattern and each bug
kind, goes into OUT/seed-N/FAMILY/. A census then requires every bug kind that a drawn family has at
the top of its ranges to be drawn by some seed, so that narrowing a range or dropping a variant
fails the test rather than shrinking it; the families no seed drew are named on stderr.

  draw_pipelines.py OUT FIRST-LAST    prints one line per seed: N FAMILY NAME=VALUE...
Exit status 1 when the census fails (the missing kinds on stderr).
"""
import os
import random
import sys

from litmuspy.patterns.generate import family_tests, write_tests

# (lowest, highest) per size; the ends measured with `litmus check --engine both --max-states 0`
# on one core, with a benchmark on the other: each variant within about 3 s, except the multicast pipeline's (3-10 s each at its smallest
# size with a refill, 60 s for its ten). So the multicast pipeline comes last: the ctest's seeds
# (1-5) leave it out and LITMUS_PIPE_SEEDS=1-6 adds it.
RANGES = {
    "tma-pipeline": {"S": (1, 2), "K": (2, 3), "W": (1, 2)},
    "cluster-pipeline": {"N": (2, 3)},
    "persistent": {"S": (1, 1), "T": (2, 3), "B": (1, 1)},
    "ping-pong": {"S": (2, 2), "K": (3, 3)},
    "warp-specialized": {"S": (1, 1), "K": (2, 2), "C": (2, 2), "W": (1, 1)},
    "multicast-pipeline": {"N": (2, 2), "S": (1, 1), "K": (2, 2)},
}


# Sizes at which a family writes all its bug kinds (the refill bugs need a stage refilled); a
# draw outside them is drawn again from the same stream, so that a seed still names one draw.
FULL = {
    "tma-pipeline": lambda z: z["K"] > z["S"],
    "warp-specialized": lambda z: z["K"] > z["S"],
    "ping-pong": lambda z: z["K"] > z["S"],
    "persistent": lambda z: (z["T"] - 1) * z["B"] >= z["S"],
    "multicast-pipeline": lambda z: z["K"] > z["S"],
}


def kinds(family, sizes):
    """The variants a family writes at these sizes, by what they append to the correct name."""
    tests = family_tests(family, sizes)
    base = tests[0]["name"]
    return {""} | {t["name"][len(base) + 1:] for t in tests[1:]}


def draw(seed):
    families = list(RANGES)
    family = families[(seed - 1) % len(families)]
    rng = random.Random(seed)
    while True:
        sizes = {k: rng.randint(lo, hi) for k, (lo, hi) in RANGES[family].items()}
        if FULL.get(family, lambda z: True)(sizes):
            return family, sizes


def main():
    out, seeds = sys.argv[1], sys.argv[2]
    first, _, last = seeds.partition("-")
    drawn = {f: set() for f in RANGES}
    for seed in range(int(first), int(last or first) + 1):
        family, sizes = draw(seed)
        write_tests(os.path.join(out, f"seed-{seed}", family), family_tests(family, sizes))
        drawn[family] |= kinds(family, sizes)
        print(seed, family, " ".join(f"{k}={v}" for k, v in sizes.items()))
    missing = []
    for family, ranges in RANGES.items():
        if not drawn[family]:
            print(f"draw_pipelines: seeds {seeds} draw no {family}", file=sys.stderr)
            continue
        want = kinds(family, {k: hi for k, (_, hi) in ranges.items()})
        missing += [f"{family}: {k or 'the correct pattern'}" for k in sorted(want - drawn[family])]
    for m in missing:
        print(f"draw_pipelines: not drawn by seeds {seeds}: {m}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
