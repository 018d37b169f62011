#!/usr/bin/env python3
"""check and suite judge alike: the same decision for every test and the same exit status.

Runs `litmus check --json` and `litmus suite --json` over the same files (the catalogue, the tests
of this folder, and every 25th test of ../shared/corpus/dat3m-ptx when it is there) and compares,
test by test, check's `decision` with suite's `verdict`, and each run's exit status with the
statuses of its decisions (judge/judge.h). Also runs each file of this folder alone through both,
where the exit statuses must agree.

Usage: parity.py LITMUS SOURCE_ROOT; exit 1 with one line per difference.
"""
import json
import os
import subprocess
import sys

EXIT = {"pass": 0, "no-expectation": 0, "FAIL": 1, "ERROR": 2, "UNKNOWN": 3}
SEVERITY = {0: 0, 3: 1, 1: 2, 2: 3}  # base/exit_code.h: 2 > 1 > 3 > 0


def run(litmus, command, files):
    args = [litmus, command, "--json", "--timeout", "20", "-j", "2"] + files
    p = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    records = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    return p.returncode, records


def worst(decisions):
    return max((EXIT[d] for d in decisions), key=lambda c: SEVERITY[c], default=0)


def compare(litmus, files, what, problems):
    check_rc, checks = run(litmus, "check", files)
    suite_rc, suites = run(litmus, "suite", files)
    by_file = {os.path.realpath(r["file"]): r["decision"] for r in checks}
    by_path = {os.path.realpath(r["path"]): r["verdict"] for r in suites}
    if len(by_file) != len(files) or len(by_path) != len(files):
        problems.append(f"{what}: {len(files)} files, {len(by_file)} check and {len(by_path)} suite records")
    for f in sorted(set(by_file) & set(by_path)):
        if by_file[f] != by_path[f]:
            problems.append(f"{f}: check decides {by_file[f]}, suite {by_path[f]}")
    for name, rc, decisions in (("check", check_rc, by_file.values()), ("suite", suite_rc, by_path.values())):
        if rc != worst(decisions):
            problems.append(f"{what}: {name} exits {rc}, its decisions say {worst(decisions)}")
    if check_rc != suite_rc:
        problems.append(f"{what}: check exits {check_rc}, suite {suite_rc}")
    return len(by_file)


def test_files(folder, suffixes=(".yaml", ".litmus")):
    out = []
    for dirpath, _, names in os.walk(folder):
        out += [os.path.join(dirpath, n) for n in names if n.endswith(suffixes)]
    return sorted(out)


def main():
    litmus, root = sys.argv[1], sys.argv[2]
    problems = []
    here = test_files(os.path.join(root, "tests", "judge"))
    for f in here:
        check_rc = subprocess.run([litmus, "check", f], capture_output=True).returncode
        suite_rc = subprocess.run([litmus, "suite", f], capture_output=True).returncode
        if check_rc != suite_rc:
            problems.append(f"{f}: check exits {check_rc}, suite {suite_rc}")
    n = compare(litmus, test_files(os.path.join(root, "catalog"), (".yaml",)) + here, "catalog", problems)
    corpus = os.path.join(root, "..", "shared", "corpus", "dat3m-ptx")
    sample = test_files(corpus, (".litmus",))[::25] if os.path.isdir(corpus) else []
    m = compare(litmus, sample, "corpus sample", problems) if sample else 0
    print("\n".join(f"parity: {p}" for p in problems + [f"{n} catalogue tests, {m} corpus tests, "
                                                          f"{len(problems)} differences"]))
    return int(bool(problems))


if __name__ == "__main__":
    sys.exit(main())
