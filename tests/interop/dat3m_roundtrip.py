#!/usr/bin/env python3
"""`litmus convert` writes the Dat3M dialect (docs/interop.md), shown over the Dat3M PTX corpus.

For each .litmus file F of the corpus: Y = convert F (to YAML), H = convert Y (to herd). The thread
header and the instruction rows of H must be those of F, token for token (Dat3M's own spelling:
`st.weak x, 1`, `ld.weak r1, y`, `goto LC00`, `P0@cta 0,gpu 0`; CTA numbers may differ where
the grouping of threads into CTAs is the same), and H must convert back to Y exactly. A file that convert refuses counts as a failure unless it is one of REFUSED below, each
with the construct the dialect lacks. A missing corpus is a failure, not a skip.

Usage: python3 tests/interop/dat3m_roundtrip.py LITMUS CORPUS_DIR
"""
import os
import re
import subprocess
import sys

# herd's quoted description cannot hold a '"' (herd_writer.cpp refuses it).
REFUSED = {"Manual/MICRO24-Fig4b-correct.litmus": "a description with a '\"' in it"}


def convert(litmus, path, to):
    r = subprocess.run([litmus, "convert", "--to", to, path], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr.strip()


def threadCode(text):
    """Each thread's header and instructions, in order, without whitespace: the columns of the
    lines after the initial state's '}' up to the quantifier (empty cells, which only align the
    columns, left out)."""
    body = text[text.index("}", text.index("{")) + 1:]
    columns = {}
    for line in body.splitlines():
        if re.match(r"\s*(~?exists|forall|locations|filter)\b", line):
            break
        if not line.strip():
            continue
        for i, cell in enumerate(line.strip().rstrip(";").split("|")):
            cell = re.sub(r"\s+", "", cell)
            if cell:
                columns.setdefault(i, []).append(cell)
    return [columns[i] for i in sorted(columns)]


def placement(code):
    """The thread headers with the CTA numbers replaced by the partition they make: herd reads
    the numbers per GPU, our Test numbers CTAs across the test, so only the grouping is kept."""
    heads = [c[0] for c in code]
    groups = {}
    out = []
    for h in heads:
        m = re.match(r"(\w+)@cta(\d+)(?:,cluster(\d+))?,gpu(\d+)$", h)
        if not m:
            out.append(h)
            continue
        key = (m.group(4), m.group(2))
        groups.setdefault(key, len(groups))
        out.append(f"{m.group(1)}@cta#{groups[key]},gpu{m.group(4)}" + (",cluster" if m.group(3) else ""))
    return out, [c[1:] for c in code]


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    litmus, corpus = sys.argv[1:]
    if not os.path.isdir(corpus):
        print(f"FAIL: corpus {corpus} not found (it is ../shared/corpus/dat3m-ptx beside the checkout)")
        return 1
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".litmus"))
    tmp = os.environ.get("TMPDIR", "/tmp")
    same = failed = refused = 0
    for path in files:
        rel = os.path.relpath(path, corpus)
        rc, yaml_text, err = convert(litmus, path, "yaml")
        if rc == 0:
            y = os.path.join(tmp, f"dat3m-rt-{os.getpid()}.yaml")
            with open(y, "w") as f:
                f.write(yaml_text)
            rc, herd, err = convert(litmus, y, "herd")
        if rc != 0:
            if rel in REFUSED and REFUSED[rel] in err:
                refused += 1
                continue
            failed += 1
            print(f"FAIL {rel}: convert refused: {err}")
            continue
        h = os.path.join(tmp, f"dat3m-rt-{os.getpid()}.litmus")
        with open(h, "w") as f:
            f.write(herd)
        _, back, _ = convert(litmus, h, "yaml")
        with open(path) as f:
            want = threadCode(f.read())
        got = threadCode(herd)
        if placement(got) != placement(want) or back != yaml_text:
            failed += 1
            print(f"FAIL {rel}:")
            for a, b in zip(want + [[]] * len(got), got + [[]] * len(want)):
                if a != b:
                    print(f"  corpus: {' ; '.join(a)}\n  wrote:  {' ; '.join(b)}")
                    break
            if back != yaml_text:
                print("  the written herd does not convert back to the same YAML")
            continue
        same += 1
    print(f"{same} of {len(files)} corpus tests written back in the Dat3M dialect, {refused} refused "
          f"as documented, {failed} failed")
    return 1 if failed or same == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
