#!/usr/bin/env python3
"""Reads herd7 result blocks the way mcompare7 reads herd logs, strictly, and fails on anything
herd would not print. Usage: parse_herd.py FILE (or - for stdin). Prints one line per test:
NAME KIND OBSERVATION POS NEG NSTATES OK|NO [FLAGS], then `parsed N tests`; exits 1 on error."""
import re
import sys

STATE_KEY = re.compile(r"^(\d+:[A-Za-z_%][\w$]*|[A-Za-z_][\w$]*(\+\d+)?)=-?\d+;$")
ATOM_EQ = re.compile(r"==")


def fail(lineno, msg):
    sys.exit(f"line {lineno}: {msg}")


def blocks(lines):
    i = 0
    while i < len(lines):
        if lines[i] == "":
            i += 1
            continue
        m = re.fullmatch(r"Test (\S+) (Allowed|Forbidden|Required)", lines[i])
        if not m:
            fail(i + 1, f"expected 'Test NAME KIND', got {lines[i]!r}")
        name, kind = m.groups()
        i += 1
        m = re.fullmatch(r"States (\d+)", lines[i])
        if not m:
            fail(i + 1, "expected 'States N'")
        n = int(m.group(1))
        states = []
        for k in range(n):
            line = lines[i + 1 + k]
            keys = line.split(" ")
            for key in keys:
                if not STATE_KEY.match(key):
                    fail(i + 2 + k, f"bad state binding {key!r}")
            states.append(frozenset(keys))
        if len(set(states)) != n:
            fail(i + 1, "duplicate states")
        i += 1 + n
        m = re.fullmatch(r"(Loop )?(Ok|No|Undef)", lines[i])
        if not m:
            fail(i + 1, "expected Ok/No")
        ok = m.group(2)
        i += 1
        if lines[i] != "Witnesses":
            fail(i + 1, "expected 'Witnesses'")
        m = re.fullmatch(r"Positive: (\d+) Negative: (\d+)", lines[i + 1])
        if not m:
            fail(i + 2, "expected 'Positive: P Negative: N'")
        wpos, wneg = int(m.group(1)), int(m.group(2))
        i += 2
        flags = []
        while lines[i].startswith("Flag "):
            flags.append(lines[i][5:])
            i += 1
        m = re.fullmatch(r"Condition (exists|~exists|forall) (\(.*\))", lines[i])
        if not m:
            fail(i + 1, "expected 'Condition QUANT (...)'")
        if ATOM_EQ.search(m.group(2)):
            fail(i + 1, "herd writes '=' in conditions, not '=='")
        quant = m.group(1)
        want = {"exists": "Allowed", "~exists": "Forbidden", "forall": "Required"}[quant]
        if want != kind:
            fail(i + 1, f"{quant} under kind {kind}")
        i += 1
        m = re.fullmatch(rf"Observation {re.escape(name)} (Never|Sometimes|Always) (\d+) (\d+)", lines[i])
        if not m:
            fail(i + 1, "expected 'Observation NAME Never|Sometimes|Always P N'")
        obs, pos, neg = m.group(1), int(m.group(2)), int(m.group(3))
        expected_obs = "Never" if pos == 0 else "Always" if neg == 0 else "Sometimes"
        if obs != expected_obs:
            fail(i + 1, f"{obs} with {pos} {neg}")
        if (wpos, wneg) != ((neg, pos) if quant == "~exists" else (pos, neg)):
            fail(i + 1, "Witnesses disagree with the Observation")
        holds = {"exists": pos > 0, "~exists": pos == 0, "forall": neg == 0}[quant]
        if (ok == "Ok") != holds:
            fail(i + 1, f"{ok} contradicts the counts")
        i += 1
        if not re.fullmatch(rf"Time {re.escape(name)} \d+\.\d\d", lines[i]):
            fail(i + 1, "expected 'Time NAME S.SS'")
        i += 1
        if i < len(lines) and lines[i].startswith("Hash="):
            if not re.fullmatch(r"Hash=[0-9a-f]+", lines[i]):
                fail(i + 1, "bad Hash line")
            i += 1
        if i < len(lines) and lines[i] != "":
            fail(i + 1, "expected a blank line after the block")
        yield name, kind, obs, pos, neg, n, ok, flags


def main():
    src = sys.stdin if sys.argv[1:] in ([], ["-"]) else open(sys.argv[1])
    lines = src.read().split("\n")
    count = 0
    for name, kind, obs, pos, neg, n, ok, flags in blocks(lines):
        print(name, kind, obs, pos, neg, n, ok.upper(), *flags)
        count += 1
    print(f"parsed {count} tests")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
