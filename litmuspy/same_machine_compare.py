#!/usr/bin/env python3
"""Both harnesses on one GPU: the stratified sample's variants seen by each, and totals weighted back.

    python3 -m litmuspy.same_machine_compare SAMPLE.tsv[,...] PEER.tsv[,...] OURS.json[.gz][,...]

SAMPLE.tsv is litmuspy.same_machine_sample's output; PEER.tsv the summary lines of the peer's
harness (variant, calls, weak, instances, wall ms, failed calls; the method is in
results/h100/peer-same-machine/README.md); OURS.json the `litmus run --json` file of run.sh ours.
Each may be a comma-separated list (a sample and its extensions). A variant that has no result from both harnesses is listed and
left out of both sides. A variant counts as seen by us when
the test that stands for it satisfied its condition. Each stratum's share seen is weighted by the
stratum's size to estimate what each harness would see over all allowed variants: a sample
estimate, not a count. Its bounds add up the strata's Wilson intervals, each at 1 - 0.05/S for S
strata (Bonferroni), so that all S hold together with probability 95% or more and the total lies
between the sums; they ignore the finite-population correction, so they are wider than needed
where a stratum was sampled densely. The paired line counts the sampled variants seen by one
harness only, with an exact sign test (unweighted: it speaks of the sample, not of all variants;
two variants that one test stands for count twice).
"""
import csv
import os
import sys
from collections import defaultdict

from .runs import records
from .stats import bonferroni_z, sign_test, wilson


def load(sample_paths, peer_paths, ours_paths):
    sample = []
    for path in sample_paths.split(","):
        with open(path) as f:
            sample += list(csv.DictReader(f, delimiter="\t"))
    peer = {}
    for path in peer_paths.split(","):
        with open(path) as f:
            for line in f:
                v, calls, weak, total, ms, failed = line.rstrip("\n").split("\t")
                peer[v] = (int(weak), int(total), int(ms), int(calls), int(failed))
    ours = {}
    for path in ours_paths.split(","):
        for j in records(path):
            ours[os.path.basename(j["file"])] = (j.get("condition") or 0, j.get("instances") or 0,
                                                 j.get("seconds") or 0.0)
    return sample, peer, ours


def estimate(rows, key):
    """Point estimate and the Bonferroni-Wilson bounds of the module's text."""
    z = bonferroni_z(0.05, len(rows))
    total, low, high = 0.0, 0.0, 0.0
    for size, seen in rows.values():
        n, k = len(seen), sum(1 for s in seen if s[key])
        lo, hi = wilson(k, n, z)
        total, low, high = total + size * k / n, low + size * lo, high + size * hi
    return f"{total:.0f} ({low:.0f} to {high:.0f})"


def main(sample_path, peer_path, ours_path):
    sample, peer, ours = load(sample_path, peer_path, ours_path)
    strata = defaultdict(lambda: [0, []])
    for r in sample:
        strata[r["stratum"]][0] = int(r["size"])
        if r["variant"] not in peer or r["file"] not in ours:
            print(f"left out, no result from both harnesses: {r['stratum']} {r['variant']}")
            continue
        pw, pt, pms, _, _ = peer[r["variant"]]
        oc, oi, osec = ours[r["file"]]
        strata[r["stratum"]][1].append({"peer": pw > 0, "ours": oc > 0, "pi": pt, "oi": oi,
                                        "ps": pms / 1000, "os": osec})
    empty = sorted(k for k in "ABCD" if not strata[k][1])  # litmuspy.same_machine_sample's strata
    if empty:
        sys.exit(f"strata {', '.join(empty)}: no variant run by both harnesses, so no estimate over all")
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
          f"GPU seconds per variant, ours: {sum(s['os'] for s in allv) / len(allv):.1f}")
    only_ours = sum(1 for s in allv if s["ours"] and not s["peer"])
    only_peer = sum(1 for s in allv if s["peer"] and not s["ours"])
    print(f"paired: {len(allv)} variants, {only_ours} seen only by ours, {only_peer} only by the peer's "
          f"harness; sign test p = {sign_test(only_ours, only_peer):.2g}")
    print(f"estimated allowed variants seen over all {sum(v[0] for v in strata.values())} "
          f"(joint 95% bounds): peer harness {estimate(strata, 'peer')}; "
          f"ours {estimate(strata, 'ours')}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
