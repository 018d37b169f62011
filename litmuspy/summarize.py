#!/usr/bin/env python3
"""Readable summary of a `litmus run --json` conformance run.

    python3 -m litmuspy.summarize DIR > DIR/summary.md

DIR holds catalog.json (one object per test), catalog.err (one "file:line:col: error: ..." line
per refused test) and run.txt (how the run was made: machine, command, date), as
results/h100/run.sh writes them. Every number printed comes from those files. Each test's verdict
is the one `litmus run` gave (docs/gpu-runner.md); this module decides none.
"""
import collections
import os
import re
import sys

from .runs import records, verdict


def state(s):
    return " ".join(f"{k}={v}" for k, v in s.items()) or "(no observed values)"


def refusals(path):
    out = []
    if not os.path.exists(path):
        return out
    for line in open(path):
        m = re.match(r"(\S+?):\d+:\d+: error: (.*)", line.strip())
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def reason_kind(msg):
    """Groups refusal messages by their cause (the instruction text differs per test)."""
    return re.sub(r"(run |location |of )'[^']*'", r"\1'...'", msg)


def quantifier(r):
    """exists, ~exists or forall: read from the test file's condition (paths are from the root)."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")  # the repository root
    try:
        for line in open(os.path.join(root, r["file"])):
            m = re.match(r"condition:\s*['\"]?\s*(~?\s*exists|forall)", line)
            if m:
                return m.group(1).replace(" ", "")
    except OSError:
        pass
    return "?"


def directory(r):
    parts = r["file"].split("/")
    return parts[-2] if len(parts) > 1 else "."


def per_test_table(rows, out):
    out.append("| test | instances | allowed states seen | allowed never seen | forbidden seen | condition | verdict |")
    out.append("|---|---:|---:|---:|---:|---|---|")
    for r in rows:
        hist = r["histogram"]
        seen = sum(1 for h in hist if h["allowed"])
        forbidden = sum(h["count"] for h in hist if h["allowed"] is False)
        cond = f'{r["condition"]:,}'
        if r.get("conditionAllowed") is True:
            cond += " (allowed)"
        elif r.get("conditionAllowed") is False:
            cond += " (forbidden)"
        name = r["test"]
        v = verdict(r)
        if r["status"] != "ok":
            note = "hung, as the model allows" if v == "hung" else v
            out.append(f"| {name} | - | - | - | - | - | {note} |")
            continue
        out.append(f"| {name} | {r['instances']:,} | {seen} | {len(r['neverObserved'])} | "
                   f"{forbidden:,} | {cond} | {v} |")


def main():
    d = sys.argv[1]
    every = records(os.path.join(d, "catalog.json"))
    rows = [r for r in every if verdict(r) != "refused"]
    # Refused tests: in the JSON, and (refused before the run started) in catalog.err.
    refused = [(r["file"], re.sub(r"^\S+?:\d+:\d+: error: ", "", r["reason"])) for r in every
               if verdict(r) == "refused"] or refusals(os.path.join(d, "catalog.err"))
    out = ["# Conformance run of the catalogue on the GPU", ""]
    if os.path.exists(os.path.join(d, "run.txt")):
        out += ["```", open(os.path.join(d, "run.txt")).read().rstrip(), "```", ""]
    devices = sorted({r["device"] for r in rows if r["device"]})
    ok = [r for r in rows if r["status"] == "ok"]
    counts = collections.Counter(verdict(r) for r in rows)
    counts["refused"] = len(refused)
    violations = [r for r in ok if verdict(r) == "violation"]
    out += [f"Device: {', '.join(devices) or 'unknown'}", "",
            f"- tests: {len(rows) + len(refused)}",
            f"- ran to the end: {len(ok)}, {sum(r['instances'] for r in ok):,} instances in all, "
            f"fewest {min((r['instances'] for r in ok), default=0):,} per test",
            f"- ok (every instance recorded, every state allowed by a decided model): {counts['ok']}",
            f"- violation (a state the model forbids observed): {counts['violation']}",
            f"- inconclusive (model undecided or bounded, instances not recorded): {counts['inconclusive']}",
            f"- hung, where the model says the test can hang: {counts['hung']}",
            f"- timeout, where the model says it terminates: {counts['timeout']}",
            f"- error (the runner failed): {counts['error']}",
            f"- refused by the runner: {counts['refused']}", ""]
    unsure = [r for r in rows if verdict(r) == "inconclusive"]
    if unsure:
        out += ["## Inconclusive", ""]
        out += [f"- {directory(r)}/{r['test']}: {r.get('reason', 'the model gave no answer')}" for r in unsure]
        out.append("")
    if violations:
        out += ["## Forbidden states observed", ""]
        shown = 5  # per test: a runner fault can scatter one test over thousands of states
        for r in violations:
            bad = sorted((h for h in r["histogram"] if h["allowed"] is False), key=lambda h: -h["count"])
            for h in bad[:shown]:
                out.append(f"- {r['test']} ({r['file']}): {state(h['state'])} {h['count']:,} times")
            if len(bad) > shown:
                rest = sum(h["count"] for h in bad[shown:])
                out.append(f"- {r['test']}: {len(bad) - shown} more forbidden states, {rest:,} times in all")
        out.append("")
    asked = [r for r in ok if r.get("conditionAllowed") and quantifier(r) == "exists"]
    out += ["## Outcomes asked for by `exists` conditions that the model allows", "",
            "Usually the weak outcome a test is about; 0 means the hardware never showed it.", "",
            "| test | seen | of instances | rate |", "|---|---:|---:|---:|"]
    for r in sorted(asked, key=lambda r: r["file"]):
        rate = 100.0 * r["condition"] / r["instances"] if r["instances"] else 0
        out.append(f"| {directory(r)}/{r['test']} | {r['condition']:,} | {r['instances']:,} | {rate:.2f}% |" if rate >= 0.01 or rate == 0
                   else f"| {directory(r)}/{r['test']} | {r['condition']:,} | {r['instances']:,} | {rate:.1e}% |")
    out.append("")
    by_dir = collections.defaultdict(list)
    for r in rows:
        by_dir[directory(r)].append(r)
    out += ["## Per test", "",
            "`condition`: instances whose final state satisfies the test's condition; (allowed) or "
            "(forbidden): whether the model allows some state that satisfies it.", ""]
    for name in sorted(by_dir):
        out += [f"### {name}", ""]
        per_test_table(by_dir[name], out)
        out.append("")
    never = [(r, s) for r in ok for s in r["neverObserved"]]
    out += ["## Allowed states never observed", ""]
    out += [f"- {directory(r)}/{r['test']}: {state(s)}" for r, s in never] or ["none"]
    out += ["", "## Refused", ""]
    for kind, n in collections.Counter(reason_kind(m) for _, m in refused).most_common():
        out.append(f"- {n} x {kind}")
    out.append("")
    out += [f"  - {f}" for f, _ in sorted(refused)]
    print("\n".join(out))


if __name__ == "__main__":
    main()
