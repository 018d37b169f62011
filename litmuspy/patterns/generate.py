#!/usr/bin/env python3
"""Generates the synchronization-pattern library (patterns/), from the repository root:

Each family is the synchronization skeleton of a kind of kernel people ship (TMA pipelines,
warp-specialized producers and consumers, cluster pipelines, split-K semaphores, ...), written at
a chosen size, together with its buggy variants: one synchronization step removed, weakened or
narrowed in scope. Every test states the verdict it should have and one line saying why; the
verdict a checker prints comes from the model, never from this file (`litmus suite` compares).

  python3 -m litmuspy.patterns.generate [--out DIR]
      the committed library: DIR/reference/FAMILY/ (reference sizes, every variant) and
      DIR/scaling/FAMILY/ (correct pattern, larger sizes); DIR defaults to patterns/
  python3 -m litmuspy.patterns.generate --check [--out DIR]
      fail if DIR is not what the generator writes
  python3 -m litmuspy.patterns.generate --out DIR --only FAMILY --size NAME=VALUE ...
      one family at chosen sizes, into DIR/FAMILY/
"""
import argparse
import filecmp
import os
import sys
import tempfile

from .registry import DEFAULTS, FAMILIES, NOT_IN_REFERENCE, SCALING

# The committed library: patterns/ at the repository root.
LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "patterns")
LIBRARY = os.path.normpath(LIBRARY)


def quoted(text):
    """A YAML double-quoted scalar."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(test):
    """The YAML text of one test: keys in the order docs/format.md lists them."""
    out = [f"name: {test['name']}", f"description: {quoted(test['description'])}"]
    out.append("locations:")
    for name, decl in test["locations"]:
        out.append(f"  {name}: {decl}")
    out.append("threads:")
    for name, placement, code in test["threads"]:
        out.append(f"  {name}:")
        for key, value in placement:
            out.append(f"    {key}: {value}")
        out.append("    code: |")
        out.extend(f"      {line}" for line in code)
    out.append(f"condition: '{test['condition']}'")
    out.append(f"expect: {test['expect']}")
    out.append(f"liveness: {test['liveness']}")
    out.append(f"reason: {quoted(test['reason'])}")
    return "\n".join(out) + "\n"


def write_tests(fam_dir, tests):
    os.makedirs(fam_dir, exist_ok=True)
    paths = []
    for t in tests:
        path = os.path.join(fam_dir, t["name"] + ".yaml")
        with open(path, "w") as f:
            f.write(render(t))
        paths.append(path)
    return paths


def family_tests(family, sizes=None):
    """A family's tests at its default sizes, overridden by `sizes` where it has the parameter."""
    params = dict(DEFAULTS[family])
    params.update({k: v for k, v in (sizes or {}).items() if k in params})
    return FAMILIES[family](**params)


def write_library(out_dir):
    """The committed library: every variant at the reference sizes (but for the families of
    NOT_IN_REFERENCE), and the correct pattern at the scaling sizes. Returns the paths written."""
    written = []
    for family in FAMILIES:
        if family in NOT_IN_REFERENCE:
            continue
        written += write_tests(os.path.join(out_dir, "reference", family), family_tests(family))
    for family, sizes in SCALING.items():
        tests = [family_tests(family, s)[0] for s in sizes]
        written += write_tests(os.path.join(out_dir, "scaling", family), tests)
    return written


def differences(expected_dir, actual_dir):
    """Files that differ, are missing or are extra between two library trees."""
    diffs = []
    for root, _, files in os.walk(expected_dir):
        for name in files:
            if not name.endswith(".yaml"):
                continue
            rel = os.path.relpath(os.path.join(root, name), expected_dir)
            other = os.path.join(actual_dir, rel)
            if not os.path.exists(other):
                diffs.append(f"missing: {rel}")
            elif not filecmp.cmp(os.path.join(root, name), other, shallow=False):
                diffs.append(f"differs: {rel}")
    for root, _, files in os.walk(actual_dir):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), actual_dir)
            if name.endswith(".yaml") and not os.path.exists(os.path.join(expected_dir, rel)):
                diffs.append(f"not generated: {rel}")
    return sorted(diffs)


def parse_sizes(items):
    sizes = {}
    for item in items or []:
        key, _, value = item.partition("=")
        if not value.isdigit() or int(value) < 1:
            sys.exit(f"litmuspy.patterns.generate: error: --size {item}: expected NAME=POSITIVE-INTEGER")
        sizes[key] = int(value)
    return sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--out", default=LIBRARY, help="library root (default: patterns/)")
    ap.add_argument("--only", choices=sorted(FAMILIES), help="one family")
    ap.add_argument("--size", action="append", help="NAME=VALUE, e.g. S=4 K=4 N=3")
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temporary directory and compare with --out")
    args = ap.parse_args()
    sizes = parse_sizes(args.size)
    if (args.only or sizes) and (args.check or os.path.abspath(args.out) == LIBRARY):
        sys.exit("litmuspy.patterns.generate: error: --only and --size write elsewhere: give --out DIR, not --check")
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            write_library(tmp)
            diffs = differences(tmp, args.out)
        for d in diffs:
            print(d)
        print(f"litmuspy.patterns.generate --check: {len(diffs)} difference(s)")
        return 1 if diffs else 0
    if args.only or sizes:
        families = [args.only] if args.only else list(FAMILIES)
        paths = []
        for family in families:
            paths += write_tests(os.path.join(args.out, family), family_tests(family, sizes))
    else:
        paths = write_library(args.out)
    print(f"litmuspy.patterns.generate: wrote {len(paths)} tests under {args.out}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
