#!/usr/bin/env python3
"""Per-family summary of a generated campaign's `litmus run --json` results, as Markdown.

    python3 -m litmuspy.campaign_summary RESULTS.json[.gz] CONFIG [TITLE]

For each family: the tests, and of those whose condition the model allows, how many showed it
(seen) and how many did not; of those whose condition the model forbids, how many stayed within
the model and how many showed a forbidden state. Then every test with a state the model forbids,
with the state, its count and the commands that reproduce it (CONFIG is the `litmus gen` config
the tests came from). A forbidden state counts whatever the condition: a violation is any
observed state the model forbids.
"""
import re
import sys
from collections import defaultdict

from .runs import records

# What makes a generated test a Hopper one (docs/gen.md names them so).
HOPPER = re.compile(r"\.cluster|-dsmem|sync\.(cluster|mbar|mbarspin|mbarremote|tx|stasync)")


def main(path, config, title):
    results = records(path)
    fam = defaultdict(lambda: defaultdict(int))
    bad = []
    for r in results:
        f = fam[r.get("family") or r["test"]]
        f["tests"] += 1
        f["hopper"] += bool(HOPPER.search(r["test"]))
        f[r["verdict"]] += 1
        allowed = r.get("conditionAllowed")
        seen = (r.get("condition") or 0) > 0
        if allowed:
            f["allowed seen" if seen else "allowed not seen"] += 1
        elif allowed is False:
            f["forbidden seen" if seen else "forbidden not seen"] += 1
        if r.get("violations"):
            states = [(h["state"], h["count"]) for h in r.get("histogram", []) if h.get("allowed") is False]
            bad.append((r["test"], r.get("instances", 0), states))
    cols = ["tests", "hopper", "allowed seen", "allowed not seen", "forbidden not seen",
            "forbidden seen", "violation", "ok", "hung", "timeout", "inconclusive", "refused", "error"]
    print(f"# {title}\n")
    print(f"{len(results)} tests from `{path}`; `hopper`: tests using cluster scope, DSMEM, "
          "barrier.cluster, an mbarrier, a bulk copy or st.async. `allowed/forbidden seen`: the "
          "condition (the cycle's weak outcome) observed at least once; `violation`: some observed "
          "state (any state) is one the model forbids.\n")
    print("| family | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    total = defaultdict(int)
    for name in sorted(fam):
        print(f"| {name} | " + " | ".join(str(fam[name][c]) for c in cols) + " |")
        for c in cols:
            total[c] += fam[name][c]
    print("| total | " + " | ".join(str(total[c]) for c in cols) + " |")
    print(f"\n## States the model forbids that the GPU showed ({len(bad)} tests)\n")
    if bad:
        print("Reproduce: `litmus gen --config " + config + " -o DIR`, then "
              "`litmus run -n 1e8 DIR/NAME.yaml` (exit 1 and a VIOLATION line).\n")
        print("| test | instances | forbidden state: count |")
        print("|---|---:|---|")
        for test, n, states in sorted(bad):
            shown = "; ".join(" ".join(f"{k}={v}" for k, v in s.items()) + f": {c}" for s, c in states[:3])
            print(f"| `{test}` | {n} | {shown} |")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "Campaign summary")
