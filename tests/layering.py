#!/usr/bin/env python3
"""The layering of the sources, checked from their include lines.

Each folder sits in one layer; a file may include headers of its own folder and of any lower
layer, never of a higher one nor of another folder in its own layer. The order is written down
here once. Also no source file (C++ or Python) may run over MAX_LINES. Files under tests/ may
include anything; build directories (build*/) are not looked at.

Usage: layering.py [SOURCE_ROOT]; exit 1 with one line per breach, 0 when there is none.
"""
import os
import re
import sys

# Lowest first. Folders on one line are peers: none of them may include another.
LAYERS = [
    ["base"],         # bad-input error, exit codes, memory limits, subcommand plumbing
    ["litmus"],       # the test format: parser, Test, outcomes and their printer
    ["model"],        # the PTX memory model: events, relations, axioms
    ["semantics"],    # the interpreter that lowers a Test's instructions to events
    ["checker"],      # the engines
    ["judge"],        # verdicts against expectations, run verdicts, exit statuses
    ["schema"],       # the result records: schema, kind, to/from JSON
    ["suite", "gpu-runner", "compare", "merge"],  # conformance runs, the GPU runner, result files
    ["gen", "mutate", "report", "run", "extract"],  # commands built on them
    ["cli"],          # the thin main
]
MAX_LINES = 600
SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".py")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    rank = {folder: i for i, layer in enumerate(LAYERS) for folder in layer}
    breaches = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and not (rel_dir == "." and d.startswith("build"))]
        for name in sorted(filenames):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.normpath(os.path.join(rel_dir, name))
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
            if len(lines) > MAX_LINES:
                breaches.append(f"{path}: error: {len(lines)} lines, over {MAX_LINES}")
            folder = path.split(os.sep)[0]
            if folder not in rank or name.endswith(".py"):
                continue
            for number, line in enumerate(lines, 1):
                m = INCLUDE.match(line)
                if not m or "/" not in m.group(1):
                    continue
                target = m.group(1).split("/")[0]
                if target == folder or target not in rank:
                    continue
                if rank[target] >= rank[folder]:
                    how = "sideways" if rank[target] == rank[folder] else "upward"
                    breaches.append(f"{path}:{number}: error: includes \"{m.group(1)}\", {how}: "
                                    f"{folder} is layer {rank[folder]}, {target} layer {rank[target]}")
    # A source folder missing from LAYERS would escape the check.
    for entry in sorted(os.listdir(root)):
        full = os.path.join(root, entry)
        if os.path.isdir(full) and entry not in rank and not entry.startswith(".") and not entry.startswith("build"):
            if any(n.endswith((".cpp", ".cc", ".h")) for _, _, fs in os.walk(full) for n in fs) and entry != "tests":
                breaches.append(f"{entry}/: error: C++ sources in a folder that has no layer in LAYERS")
    for b in breaches:
        print(b)
    return 1 if breaches else 0

if __name__ == "__main__":
    sys.exit(main())
