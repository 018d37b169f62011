#!/usr/bin/env python3
"""Matches the results of `litmus suite --json` with a corpus's EXPECTED.tsv and LIVENESS.tsv.

Every count comes from a result line that names the test: a test listed in a TSV with no result
line, a listed file that is missing, a run of litmus that crashed, an ERROR or UNKNOWN verdict and
an engine disagreement are failures, each printed with the test's name. Crashes, missing files,
missing results and engine disagreements fail the run whatever the recorded level; the other
failures count against the core/all/liveness levels of the level file.
Standard library only: CI has python3 and nothing else.
"""
import argparse
import json
import os
import re
import sys

# Tests that touch barriers, proxies or textures are not "core"; a missing file is never core.
NOT_CORE = re.compile(r"bar\.|barrier|fence\.proxy|aliases|tld|suld|sust|cold")
DISAGREE = "engines disagree"
# 0: every test passed; 1: some failed; 3: some unknown and none failed (the CLI's exit codes).
NORMAL_EXITS = (0, 1, 3)


def read_tsv(path, column):
    """{test: value of `column`} from a TSV with a header line; None if the file is unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    rows = {}
    for line in lines[1:]:
        cols = line.split("\t")
        if len(cols) > column and cols[0]:
            rows[cols[0]] = cols[column]
    return rows


def key_of(path, corpus):
    """The test's name as the TSVs spell it: its path relative to the corpus directory."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(corpus))
    return rel.replace(os.sep, "/")


def read_results(path, corpus, fatal):
    """{test: result object}; lines that are not JSON objects (the summary line) are skipped."""
    results = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                r = json.loads(line)
            except ValueError:
                fatal.append(f"results line {n}: not a JSON object: {line[:80]}")
                continue
            if not isinstance(r, dict) or not all(
                isinstance(r.get(k), str) for k in ("path", "verdict")
            ):
                fatal.append(f"results line {n}: no 'path' or 'verdict': {line[:80]}")
                continue
            key = key_of(r["path"], corpus)
            if key in results:
                fatal.append(f"{key}: two results")
            results[key] = r
    return results


def disagrees(r):
    """The engines gave different answers (suite's `disagreement` record)."""
    return bool(r.get("disagreement")) or str(r.get("message", "")).startswith(DISAGREE)


def failed_aspects(r):
    """The expectations a result fails, as a subset of {'verdict', 'liveness'}, from the judge's
    verdictMet and livenessMet (judge/judge.h): a FAIL that meets both (--fail-on-relies) and
    every ERROR, UNKNOWN or disagreement counts against both."""
    if r["verdict"] == "pass":
        return set()
    if r["verdict"] != "FAIL" or disagrees(r):
        return {"verdict", "liveness"}
    failed = {aspect for aspect, key in (("verdict", "verdictMet"), ("liveness", "livenessMet"))
              if r.get(key) is False}
    return failed or {"verdict", "liveness"}


def corpus_tests(corpus):
    """Every .litmus file of the corpus, by name: each must have a result (engine agreement)."""
    found = set()
    for dirpath, _, files in os.walk(corpus):
        for name in files:
            if name.endswith(".litmus"):
                found.add(key_of(os.path.join(dirpath, name), corpus))
    return found


def is_core(corpus, test):
    try:
        with open(os.path.join(corpus, test), encoding="utf-8", errors="replace") as f:
            return not NOT_CORE.search(f.read())
    except OSError:
        return False


class Tally:
    """Passes per level and the failures to print."""

    def __init__(self):
        self.passed = {"core": 0, "all": 0, "liveness": 0}
        self.total = {"core": 0, "all": 0, "liveness": 0}
        self.failures = []  # (test, why): counted against a level
        self.fatal = []  # fail the run whatever the level

    def count(self, level, ok):
        self.total[level] += 1
        self.passed[level] += ok


def check_listed(test, r, expected, liveness, corpus, tally):
    """Counts one test listed in EXPECTED.tsv and/or LIVENESS.tsv."""
    listed = test in expected, test in liveness
    exists = os.path.isfile(os.path.join(corpus, test))
    core = listed[0] and exists and is_core(corpus, test)
    if r is None:
        why = "no result from litmus" + ("" if exists else " (file not found)")
        tally.fatal.append((test, why))
        failed = {"verdict", "liveness"}
    else:
        failed = failed_aspects(r)
        if r["verdict"] != "pass":
            tally.failures.append((test, f"{r['verdict']}: {r.get('message', '')}"))
        if not exists:
            tally.fatal.append((test, "file not found"))
        # A pass judged against the wrong expectation is no pass: litmus must have read the TSVs.
        if listed[0] and r.get("expected") != expected[test]:
            tally.fatal.append(
                (test, f"judged against '{r.get('expected')}', EXPECTED.tsv says '{expected[test]}'")
            )
            failed.add("verdict")
        got = (r.get("outcome") or {}).get("liveness")
        if listed[1] and "liveness" not in failed and got != liveness[test]:
            tally.fatal.append((test, f"passed, but the outcome says '{got}', "
                                      f"LIVENESS.tsv says '{liveness[test]}'"))
            failed.add("liveness")
    if listed[0]:
        tally.count("all", "verdict" not in failed)
        if core:
            tally.count("core", "verdict" not in failed)
    if listed[1]:
        tally.count("liveness", "liveness" not in failed)


def match(args):
    corpus = args.corpus
    tally = Tally()
    expected = read_tsv(os.path.join(corpus, "EXPECTED.tsv"), 3)
    liveness = read_tsv(os.path.join(corpus, "LIVENESS.tsv"), 2)
    if expected is None or liveness is None:
        tally.fatal.append((corpus, "cannot read EXPECTED.tsv or LIVENESS.tsv"))
        expected, liveness = expected or {}, liveness or {}
    if args.exit_code not in NORMAL_EXITS:
        what = (f"killed by signal {args.exit_code - 128}" if args.exit_code > 128
                else f"exit code {args.exit_code}")
        tally.fatal.append(("litmus", f"{what} (a crash, bad input or internal error)"))
    problems = []
    results = read_results(args.results, corpus, problems)
    tally.fatal += [("results", p) for p in problems]
    for test in sorted(set(expected) | set(liveness)):
        check_listed(test, results.get(test), expected, liveness, corpus, tally)
    for test in sorted(corpus_tests(corpus) - set(expected) - set(liveness)):
        if test not in results:
            tally.fatal.append((test, "no result from litmus"))
    for test, r in sorted(results.items()):
        if disagrees(r):
            tally.fatal.append((test, r["message"]))
    return tally


def read_levels(path):
    levels = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                levels[parts[0]] = int(parts[1])
    return levels


def percent(tally, level):
    p, t = tally.passed[level], tally.total[level]
    return f"{p}/{t} = {100.0 * p / t if t else 0:.1f}%"


def report(args, tally):
    for test, why in tally.failures:
        print(f"  {test}: {why}")
    for test, why in tally.fatal:
        print(f"  FATAL {test}: {why}")
    print(f"conformance: core (no barrier, no proxy) {percent(tally, 'core')}; "
          f"all with expectation {percent(tally, 'all')}; "
          f"liveness {percent(tally, 'liveness')}; {args.seconds:.1f} s")
    if tally.fatal:
        print(f"conformance: FAILED: {len(tally.fatal)} problem(s) marked FATAL above "
              "(a crash, a missing file or result, or an engine disagreement)", file=sys.stderr)
        return 1
    if args.update:
        with open(args.level, "w", encoding="utf-8") as f:
            for level in ("core", "all", "liveness"):
                f.write(f"{level} {tally.passed[level]}\n")
        print(f"conformance: recorded new level in {args.level}")
        return 0
    want = read_levels(args.level)
    recorded = ", ".join(f"{k} {want.get(k, '?')}" for k in ("core", "all", "liveness"))
    below = [k for k in ("core", "all", "liveness") if tally.passed[k] < want.get(k, 1 << 30)]
    if below:
        print(f"conformance: FAILED: {', '.join(below)} below the recorded level ({recorded})",
              file=sys.stderr)
        return 1
    print(f"conformance: ok (recorded level: {recorded})")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", required=True)
    p.add_argument("--results", required=True, help="stdout of litmus suite --json")
    p.add_argument("--exit-code", type=int, required=True, help="litmus's exit status")
    p.add_argument("--level", required=True)
    p.add_argument("--seconds", type=float, default=0.0)
    p.add_argument("--update", action="store_true")
    args = p.parse_args()
    return report(args, match(args))


if __name__ == "__main__":
    sys.exit(main())
