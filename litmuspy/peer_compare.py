#!/usr/bin/env python3
"""Our runs of the peer's nine families, variant by variant, beside the peer's own H100 column.

    python3 -m litmuspy.peer_compare INDEX.tsv PEER.csv RESULTS.json...

INDEX.tsv is what `litmus gen --config gen/configs/peer-nine.yaml -o DIR` writes (DIR/index.tsv:
each test with the peer variants it stands for; a test can stand for several variants that are
rotations of one another). PEER.csv is cuda-litmus's pldi26-output/results.csv (public; not part
of this repository: fetch it from github.com/sohambagchi/cuda-litmus). RESULTS.json are `litmus
run --json` files of those tests; a variant counts as seen when the condition (the weak outcome)
was observed in any of them. Counted over the variants the PTX model allows (our model's verdict
in the index; the peer's "base" column agrees on all of them).
"""
import csv
import sys
from collections import defaultdict

from .runs import condition_hits


def main(index_path, peer_path, result_paths):
    variants = {}  # peer name -> (our test, family, our model verdict)
    with open(index_path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            for v in row["peer"].split(","):
                variants[v] = (row["name"], row["family"], row["verdict"])
    with open(peer_path) as f:
        peer = {r["test"]: r for r in csv.DictReader(f)}
    runs = [condition_hits(p) for p in result_paths]
    rows = defaultdict(lambda: defaultdict(int))
    disagree = 0
    for v, (test, fam, verdict) in variants.items():
        p = peer.get(v)
        if p is None:
            sys.exit(f"{v}: not in {peer_path}")
        if (p["base"] == "INSTANCE") != (verdict == "allowed"):
            disagree += 1
        if verdict != "allowed":
            continue
        seen = [r.get(test, 0) > 0 for r in runs]
        peer_seen = p["h100"] == "seen"
        r = rows[fam]
        r["allowed"] += 1
        for i, s in enumerate(seen):
            r[f"run{i}"] += s
        us = any(seen)
        r["union"] += us
        r["peer"] += peer_seen
        r["only us"] += us and not peer_seen
        r["only peer"] += peer_seen and not us
        r["missing"] += test not in runs[0]
    cols = ["allowed"] + [f"run{i}" for i in range(len(runs))] + ["union", "peer", "only us", "only peer"]
    print("| family | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    total = defaultdict(int)
    for fam in sorted(rows):
        print(f"| {fam} | " + " | ".join(str(rows[fam][c]) for c in cols) + " |")
        for c in cols + ["missing"]:
            total[c] += rows[fam][c]
    print("| total | " + " | ".join(str(total[c]) for c in cols) + " |")
    print(f"\nrun{{i}}: {', '.join(f'run{i} = {p}' for i, p in enumerate(result_paths))}")
    print(f"variants of the nine shapes: {len(variants)}; model verdicts differing from the peer's: {disagree}; "
          f"allowed variants without a result in run0: {total['missing']}")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
