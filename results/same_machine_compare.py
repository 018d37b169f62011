#!/usr/bin/env python3
"""Both harnesses on one GPU: the stratified sample's variants seen by each, and totals weighted back.

    results/same_machine_compare.py SAMPLE.tsv PEER.tsv OURS.json[.gz]

SAMPLE.tsv is results/same_machine_sample.py's output; PEER.tsv the summary lines of
results/h100/issue15-same-machine/run.sh peer (variant, calls, weak, instances, wall ms, failed
calls); OURS.json the `litmus run --json` file of run.sh ours. A variant counts as seen by us when
the test that stands for it satisfied its condition. Each stratum's share seen is weighted by the
stratum's size to estimate what each harness would see over all allowed variants, with a 95%
interval from the per-stratum binomial variances (normal approximation, finite-population
corrected): a sample estimate, not a count.
"""
import csv
import gzip
import json
import math
import os
import sys
from collections import defaultdict


def load(sample_path, peer_path, ours_path):
    with open(sample_path) as f:
        sample = list(csv.DictReader(f, delimiter="\t"))
    peer = {}
    with open(peer_path) as f:
        for line in f:
            v, calls, weak, total, ms, failed = line.rstrip("\n").split("\t")
            peer[v] = (int(weak), int(total), int(ms), int(calls), int(failed))
    ours = {}
    with (gzip.open(ours_path, "rt") if ours_path.endswith(".gz") else open(ours_path)) as f:
        for line in f:
            j = json.loads(line)
            ours[os.path.basename(j["file"])] = (j.get("condition") or 0, j.get("instances") or 0,
                                                 j.get("seconds") or 0.0)
    return sample, peer, ours


def estimate(rows, key):
    total, var = 0.0, 0.0
    for size, seen in rows.values():
        n, k = len(seen), sum(1 for s in seen if s[key])
        p = k / n
        total += size * p
        if n > 1:
            var += size * size * p * (1 - p) / (n - 1) * (1 - n / size)
    half = 1.96 * math.sqrt(var)
    return f"{total:.0f} ({max(0, total - half):.0f} to {total + half:.0f})"


def main(sample_path, peer_path, ours_path):
    sample, peer, ours = load(sample_path, peer_path, ours_path)
    strata = defaultdict(lambda: [0, []])
    for r in sample:
        if r["variant"] not in peer or r["file"] not in ours:
            sys.exit(f"{r['variant']}: no result from both harnesses")
        pw, pt, pms, _, _ = peer[r["variant"]]
        oc, oi, osec = ours[r["file"]]
        strata[r["stratum"]][0] = int(r["size"])
        strata[r["stratum"]][1].append({"peer": pw > 0, "ours": oc > 0, "pi": pt, "oi": oi,
                                        "ps": pms / 1000, "os": osec})
    print("| stratum | size | sampled | peer harness saw | ours saw | both | only peer | only ours |"
          " instances/variant, peer | instances/variant, ours |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(strata):
        size, seen = strata[key]
        n = len(seen)
        cnt = lambda f: sum(1 for s in seen if f(s))
        print(f"| {key} | {size} | {n} | {cnt(lambda s: s['peer'])} | {cnt(lambda s: s['ours'])} | "
              f"{cnt(lambda s: s['peer'] and s['ours'])} | {cnt(lambda s: s['peer'] and not s['ours'])} | "
              f"{cnt(lambda s: s['ours'] and not s['peer'])} | "
              f"{sum(s['pi'] for s in seen) / n:.2e} | {sum(s['oi'] for s in seen) / n:.2e} |")
    allv = [s for _, seen in strata.values() for s in seen]
    print(f"\nwall seconds per variant, peer: {sum(s['ps'] for s in allv) / len(allv):.1f}; "
          f"GPU seconds per test, ours: {sum(s['os'] for s in allv) / len(allv):.1f}")
    print(f"estimated allowed variants seen over all {sum(v[0] for v in strata.values())}, "
          f"95% interval: peer harness {estimate(strata, 'peer')}; ours {estimate(strata, 'ours')}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
