#!/usr/bin/env python3
"""A stratified random sample of the peer's allowed variants, for running both harnesses on one GPU.

    python3 -m litmuspy.same_machine_sample [--exclude SAMPLE.tsv] INDEX.tsv PEER.csv SEED A B C D RESULTS.json...


The peer's published H100 column and our runs split the allowed variants into four strata:
A seen by the peer only, B seen by both, C seen by us only, D seen by neither. The script draws
A, B, C and D variants from them (seeded) and prints, per variant, what both harnesses need:
the stratum and its size, the peer's variant name, our test file, and the peer's build line (kernel,
-D defines, test-parameter file) as their tune.sh derives it from the tuning files. The stratum
sizes let an estimate of each harness's total over all allowed variants be weighted back.
INDEX, PEER and RESULTS are as in litmuspy/peer_compare.py. --exclude draws from what an earlier
sample left, so that the two together are one larger random sample of each stratum.
"""
import csv
import random
import re
import sys

from .runs import condition_hits

# results.csv names the kernels and one thread-block split differently from the build lines.
KERNEL = {"three_2w": "3.2w", "two_2w": "2+2w", "wrw_2w": "wrw+2w", "z6_3": "z6-3"}
LOCS = {"isa2": "3-loc.txt", "3.2w": "3-loc.txt", "z6-3": "3-loc.txt"}
NAME = re.compile(r"^(\w+?)_(TB_[0-9_]+?)_(SCOPE_(?:DEVICE|BLOCK))_"
                  r"(NO_FENCE|FENCE_SCOPE_(?:DEVICE|BLOCK))_(\w+)$")


def build_line(variant):
    m = NAME.match(variant)
    if not m:
        sys.exit(f"{variant}: not a variant name this script knows")
    test, tb, scope, fence, order = m.groups()
    kernel = KERNEL.get(test, test)
    if tb == "TB_1_02":
        tb = "TB_02_1"
    defines = [tb, scope] + ([] if fence == "NO_FENCE" else [fence]) + [order]
    return kernel, ",".join(defines), LOCS.get(kernel, "2-loc.txt")


def seen_by_us(paths):
    return {test for p in paths for test, hits in condition_hits(p).items() if hits > 0}


def main(index_path, peer_path, seed, sizes, result_paths, exclude):
    with open(peer_path) as f:
        peer = {r["test"]: r["h100"] == "seen" for r in csv.DictReader(f)}
    ours = seen_by_us(result_paths)
    strata = {"A": [], "B": [], "C": [], "D": []}
    with open(index_path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["verdict"] != "allowed":
                continue
            for v in row["peer"].split(","):
                us, them = row["name"] in ours, peer[v]
                key = "B" if us and them else "A" if them else "C" if us else "D"
                if v not in exclude:
                    strata[key].append((v, row["file"]))
    rng = random.Random(seed)
    print("stratum\tsize\tvariant\tfile\tkernel\tdefines\tparams")
    for key, n in zip("ABCD", sizes):
        pool = sorted(strata[key])
        size = len(pool) + sum(1 for k in exclude.values() if k == key)
        for v, file in sorted(rng.sample(pool, min(n, len(pool)))):
            print("\t".join([key, str(size), v, file, *build_line(v)]))


if __name__ == "__main__":
    args, exclude = sys.argv[1:], {}
    if args[:1] == ["--exclude"] and len(args) > 1:
        with open(args[1]) as f:
            exclude = {r["variant"]: r["stratum"] for r in csv.DictReader(f, delimiter="\t")}
        args = args[2:]
    if len(args) < 8:
        sys.exit(__doc__)
    main(args[0], args[1], int(args[2]), [int(x) for x in args[3:7]], args[7:], exclude)
