#!/usr/bin/env python3
"""Every address operand in register form checks like its direct form (issue 31 item 3).

For each catalogue test whose code has bracketed addresses (`[x]`, `[x+8]`, `[tm, {..}]`), this
writes a copy where each such address is a register: the thread first takes the address with
`cvta.global.u64` (global locations) or `mov.u64` (shared ones), then, for an offset, `add.u64`;
the instruction then reads `[%reg]`. Both files go through `LITMUS check --json`; the verdict,
the reachable states and may-hang must be the same. An error in either, or a difference, fails.

Usage: python3 tests/litmus/register_addresses.py LITMUS CATALOG_DIR [--limit N]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

class Dumper(yaml.SafeDumper):
    pass


Dumper.add_representer(str, lambda d, v: d.represent_scalar(
    "tag:yaml.org,2002:str", v, style="|" if "\n" in v else None))

ADDRESS = re.compile(r"\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\s*(\d+))?\s*(\]|,\s*\{)")


SPACE = re.compile(r"\.(shared::cluster|shared::cta|shared|global)\b")
ASYNC = re.compile(r"^(cp\.|tensormap\.|clusterlaunchcontrol\.|st\.async|red\.async)")


def producer(line, shared):
    """How the thread takes the address for this line: an address of the instruction's space
    (`mov.u64 %r, x`: .global or .shared::cta), or a generic one (cvta) where it names none."""
    op = re.sub(r"^\s*([A-Za-z_][A-Za-z0-9_$]*\s*:)?\s*(@!?%?\w+\s+)?", "", line).split(None, 1)[0]
    if ASYNC.match(op) or SPACE.search(op):
        return "mov.u64"
    return "cvta.shared.u64" if shared else "cvta.global.u64"


def registerForm(doc, walked=None):
    """The test with every bracketed location address taken from a register; None if it has none.
    The mnemonics of the instructions rewritten are added to `walked`."""
    locs = doc.get("locations") or {}
    changed = False
    for th in (doc.get("threads") or {}).values():
        if not isinstance(th, dict) or not isinstance(th.get("code"), str):
            continue
        prelude, regs, lines = [], {}, []
        for line in th["code"].split("\n"):
            def reg(m):
                nonlocal changed
                name, off, close = m.group(1), int(m.group(2) or 0), m.group(3)
                if name not in locs:
                    return m.group(0)
                decl = locs[name] if isinstance(locs[name], dict) else {}
                take = producer(line, decl.get("space") == "shared")
                key = (name, off, take)
                if key not in regs:
                    n = len(regs)
                    prelude.append(f"{take} %radr{n}, {name};")
                    base = f"%radr{n}"
                    if off:
                        prelude.append(f"add.u64 %radd{n}, %radr{n}, {off};")
                        base = f"%radd{n}"
                    regs[key] = base
                changed = True
                if walked is not None:
                    op = re.sub(r"^\s*([A-Za-z_][A-Za-z0-9_$]*\s*:)?\s*(@!?%?\w+\s+)?", "", line).split(None, 1)[0]
                    walked.add(".".join(op.split(".")[:2]) if op.startswith(("cp.", "fence.", "mbarrier.", "tensormap.")) else op.split(".")[0])
                return "[" + regs[key] + ("]" if close == "]" else ", {")
            lines.append(ADDRESS.sub(reg, line))
        if prelude:
            th["code"] = "\n".join(prelude + lines)
    return doc if changed else None


def check(litmus, path):
    r = subprocess.run([litmus, "check", "--json", "--timeout", "60", path], capture_output=True,
                       text=True, timeout=300)
    if r.returncode not in (0, 1):
        return None, f"exit {r.returncode}: {r.stderr.strip() or r.stdout.strip()[:300]}"
    out = json.loads(r.stdout)
    keep = {k: out.get(k) for k in ("status", "observation", "states", "liveness", "positive", "negative")}
    return keep, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("litmus")
    ap.add_argument("catalog")
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.catalog) for f in fs if f.endswith(".yaml"))
    walked = failed = 0
    forms = set()
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            with open(path) as f:
                text = f.read()
            if "---" in text.split("\n", 1)[0]:
                continue
            doc = yaml.safe_load(text)
            direct, err = check(a.litmus, path)
            if err:
                continue  # a test the checker leaves unknown is the catalogue test's business
            form = registerForm(doc, forms)
            if form is None:
                continue
            out = os.path.join(tmp, os.path.basename(path))
            with open(out, "w") as f:
                yaml.dump(form, f, Dumper=Dumper, sort_keys=False, allow_unicode=True)
            walked += 1
            reg, err = check(a.litmus, out)
            if err or reg != direct:
                failed += 1
                print(f"DIFF {path}: direct {direct}, register form {reg or err}")
            if a.limit and walked >= a.limit:
                break
    print("instructions walked in register form:", " ".join(sorted(forms)))
    print(f"{walked} tests walked in register form, {failed} differ")
    return 1 if failed or walked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
