#!/usr/bin/env python3
"""Check every instruction form of tests/seeds/forms.txt against a litmus binary.

For each line of forms.txt this builds a minimal YAML test around the instruction (docs/format.md),
runs `LITMUS check` on it and classifies the outcome:
  ok          the test parsed and the model checked it (exit 0, 1 or 3)
  refused     a located error that names why the form is not taken (unsupported, one grid, sm_..)
  parse-error any other located error on the form's line: the front end does not know the form
  crash       anything else (exit 4, a signal, a timeout, an error without a location, or an error
              located on a line the harness added, which means the harness is wrong)
It prints one line per form that is not ok, then a table by instruction family, and exits 1 if any
form is `crash` or `parse-error` (0 otherwise; 2 on bad usage).

Usage: python3 tests/seeds/check_forms.py LITMUS [--forms FILE] [--verbose] [--families F,G]
"""
import argparse
import collections
import functools
import os
import re
import resource
import subprocess
import sys
import tempfile

# A located refusal names why the form is not taken; any other located error is a parse error.
REFUSAL = re.compile(r"not supported|one grid|needs sm_|requires sm_|refused|not modelled"
                     r"|recognised but", re.I)
LOCATED = re.compile(r"^(?P<file>[^:\s]+\.yaml):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$",
                     re.M)
# Registers a line reads or writes: %name not followed by a dot (special registers such as %tid.x
# are excluded). %ra and %rs are the harness's mapa addresses, written by the prelude.
REGISTER = re.compile(r"%([A-Za-z_][A-Za-z0-9_]*)(?![.\w])")
MAPA_REGS = {"ra": "mapa.shared::cluster.u32 %ra, rm, 1;",   # mbarrier in CTA 1
             "ga": "mapa.u64 %ga, rm, 1;",                   # the same, as a generic address
             "rs": "mapa.shared::cluster.u32 %rs, rs, 1;"}   # data in CTA 1
ADDRESS_REGISTER = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*)")
# Warp-level forms act on the lanes of their member mask: a literal mask gets that many lanes
# (test threads of one warp, docs/format.md 2.2); a mask in a register (initialised to 1) is lane 0.
WARP_FAMILIES = ("bar.warp", "elect", "vote", "vote.sync", "match", "redux", "activemask")
MASK = re.compile(r"[,\s]\s*0x([0-9a-fA-F]+)\s*;?\s*$")
BAR_COUNT = re.compile(r"^\s*(?:@!?%?\w+\s+)?bar(?:rier)?(?:\.cta)?\.(?:sync|arrive|red)\S*\s+"
                       r"(?:[^,;]+,\s*)?\d+\s*,\s*(\d+)\s*(?:[,;]|$)")


def family(line):
    """The instruction family used in the summary table: the mnemonic's leading components."""
    mnem = re.sub(r"^@!?%?\w+\s+", "", line.strip()).split()[0].rstrip(";")
    comps = mnem.split(".")
    head = comps[0]
    if head in ("mbarrier", "tensormap", "clusterlaunchcontrol", "griddepcontrol", "wgmma",
                "setmaxnreg", "vote", "match", "redux"):
        if head == "wgmma":
            return head
        second = comps[1] if len(comps) > 1 else ""
        if head == "vote":
            return "vote.sync" if second == "sync" else "vote"
        if head in ("match", "redux", "setmaxnreg", "griddepcontrol"):
            return head
        return f"{head}.{second}"
    if head == "cp":
        for fam in ("cp.async.bulk.tensor", "cp.async.bulk", "cp.async.mbarrier"):
            if mnem.startswith(fam):
                return fam
        return "cp.async"
    second = comps[1] if len(comps) > 1 else ""
    if (head, second) in (("red", "async"), ("barrier", "cluster"), ("fence", "proxy"),
                          ("membar", "proxy")):
        return f"{head}.{second}"
    if head in ("bar", "barrier"):
        return "bar.warp" if "warp" in comps else "bar/barrier"
    if head in ("ld", "st", "mov", "cvta", "setp", "add", "mul", "and", "bra", "exit", "ret"):
        return "support (ld/st/mov/alu/bra)"
    return head


def is_cta_barrier(line):
    fam = family(line)
    return fam == "bar/barrier"


def warp_lanes(line):
    """How many lanes (test threads of P0's warp) a warp-level form with a literal mask needs."""
    m = MASK.search(line)
    if family(line) not in WARP_FAMILIES or not m:
        return 1
    return int(m.group(1), 16).bit_length()


def cta0_threads(line):
    """How many test threads CTA 0 needs so that a bar/barrier line with a count completes."""
    if not is_cta_barrier(line):
        return 1
    m = BAR_COUNT.match(line)
    return max(2, int(m.group(1)) // 32) if m else 2


def thread_yaml(name, cta, regs, code_lines, warp=None):
    out = [f"  {name}:", f"    cta: {cta}", "    cluster: 0"]
    if warp is not None:
        out.append(f"    warp: {warp}")
    if regs:
        out.append("    init: {" + ", ".join(f"{r}: 1" for r in sorted(regs)) + "}")
    out.append("    code: |")
    out += [f"      {c}" for c in code_lines]
    return out


def build_test(line):
    """The YAML text of a minimal test around `line`, and the 1-based YAML line holding it."""
    regs = set(REGISTER.findall(line))
    mapas = [r for r in MAPA_REGS if r in regs]
    regs -= set(mapas)
    remote = bool(mapas)
    pre, post = [], []
    # any other register used as an address holds the generic address of m, from cvta (the
    # seeds' `cvta.shared.u64 %rd1, m; mbarrier.init.b64 [%rd1], 1`)
    for r in sorted(set(ADDRESS_REGISTER.findall(line)) - set(MAPA_REGS)):
        pre.append(f"cvta.shared.u64 %{r}, m;")
        regs.discard(r)
    if "[m]" in line and "mbarrier.init" not in line:
        pre.append("mbarrier.init.shared.b64 [m], 4;")
    for r in mapas:
        pre.append(MAPA_REGS[r])
    if remote:
        pre += ["barrier.cluster.arrive;", "barrier.cluster.wait;"]
    if re.search(r"\bbra(\.uni)?\s+L\b", line):
        post += ["L:", "ld.global.u32 %r8, [y];"]
    # tm is a tensor map over g with as many dimensions as the form's cp.async.bulk.tensor.Nd
    dims = int(re.search(r"\.tensor\.(\d)d", line).group(1)) if ".tensor." in line else 1
    tm = "  tm: {tensormap: g, dims: [" + ", ".join(["4"] + ["1"] * (dims - 1)) + "]}"
    locs = ["  x: 0", "  y: 0", "  g: 0", tm, "  s: {space: shared, cta: 0}",
            "  m: {space: shared, cta: 0}"]
    if remote:
        locs += ["  rs: {space: shared, cta: 1}", "  rm: {space: shared, cta: 1}"]
    text = ["name: seed_form", "locations:"] + locs + ["threads:"]
    lanes = warp_lanes(line)
    text += thread_yaml("P0", 0, regs, pre + [line] + post, 0 if lanes > 1 else None)
    form_line = len(text) - len(post)
    for lane in range(1, lanes):
        text += thread_yaml(f"L{lane}", 0, regs, [line], 0)
    mirror = [line] if is_cta_barrier(line) or family(line) == "barrier.cluster" else []
    for i in range(1, cta0_threads(line)):
        text += thread_yaml(f"P{i}", 0, regs if mirror else set(), mirror or ["ld.global.u32 %r8, [y];"])
    if remote or family(line) == "barrier.cluster":
        p2 = ["mbarrier.init.shared.b64 [rm], 4;"] if remote else []
        if remote:
            p2 += ["barrier.cluster.arrive;", "barrier.cluster.wait;"]
        p2 += [line] if family(line) == "barrier.cluster" else []
        text += thread_yaml("PR", 1, regs if family(line) == "barrier.cluster" else set(), p2)
    text.append('condition: "exists (x == 0)"')
    return "\n".join(text) + "\n", form_line


@functools.lru_cache(maxsize=None)
def sanitized(litmus):
    """AddressSanitizer reserves terabytes of address space, so a sanitizer build cannot run under
    an address-space limit (tests/patterns/run_library.sh does the same).
    Its runtime is linked dynamically by GCC and statically by clang: the symbol is looked for in
    the program itself."""
    try:
        with open(litmus, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (6_000_000_000, 6_000_000_000))


def classify(litmus, line, workdir):
    text, form_line = build_test(line)
    path = os.path.join(workdir, "form.yaml")
    with open(path, "w") as f:
        f.write(text)
    try:
        proc = subprocess.run(["timeout", "20", litmus, "check", path], capture_output=True,
                              text=True, preexec_fn=None if sanitized(litmus) else limit_memory)
    except OSError as e:
        return "crash", f"cannot run {litmus}: {e}"
    rc, err = proc.returncode, proc.stderr.strip()
    if rc in (0, 1):
        return "ok", ""
    if rc == 3:
        return "ok", "checked, verdict unknown: " + (err.splitlines() or [""])[-1]
    m = LOCATED.search(err)
    if rc == 2 and m:
        if int(m.group("line")) != form_line:
            return "crash", f"harness: error on a line it added: {m.group(0)}"
        kind = "refused" if REFUSAL.search(m.group("msg")) else "parse-error"
        return kind, m.group("msg")
    if rc in (124, 137):
        return "crash", f"timeout: no verdict within 20 s (exit {rc})"
    return "crash", f"exit {rc}: {err[-300:]}"


def read_forms(path):
    """(section, line) for each instruction line of forms.txt."""
    forms, section = [], ""
    with open(path) as f:
        for raw in f:
            s = raw.strip()
            if s.startswith("#"):
                section = s.lstrip("# ").strip() if s.lstrip("#").strip() else section
                continue
            if s:
                forms.append((section, s))
    return forms


STATUSES = ("ok", "refused", "parse-error", "crash")


def print_table(results):
    table = collections.OrderedDict()
    for _, line, status, _ in results:
        table.setdefault(family(line), collections.Counter())[status] += 1
    width = max(len(f) for f in table) + 2
    print(f"\n{'family':<{width}}" + "".join(f"{s:>12}" for s in STATUSES) + f"{'total':>8}")
    totals = collections.Counter()
    for fam, counts in table.items():
        totals.update(counts)
        print(f"{fam:<{width}}" + "".join(f"{counts[s]:>12}" for s in STATUSES)
              + f"{sum(counts.values()):>8}")
    print(f"{'total':<{width}}" + "".join(f"{totals[s]:>12}" for s in STATUSES)
          + f"{sum(totals.values()):>8}")
    return totals


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("litmus")
    ap.add_argument("--forms", default=os.path.join(here, "forms.txt"))
    ap.add_argument("--verbose", action="store_true", help="also print the ok forms")
    ap.add_argument("--families", default="",
                    help="comma-separated families (as the table names them) to check; default all")
    args = ap.parse_args()
    wanted = {f.strip() for f in args.families.split(",") if f.strip()}
    if not os.access(args.litmus, os.X_OK):
        print(f"{args.litmus}: error: not an executable", file=sys.stderr)
        return 2
    results = []
    with tempfile.TemporaryDirectory() as work:
        for section, line in read_forms(args.forms):
            if wanted and family(line) not in wanted:
                continue
            status, why = classify(args.litmus, line, work)
            results.append((section, line, status, why))
            if status != "ok" or args.verbose or why:
                print(f"{status:<12} {line}" + (f"    -- {why}" if why else ""))
    if not results:
        print("no forms of the families asked for", file=sys.stderr)
        return 2
    totals = print_table(results)
    return 1 if totals["crash"] or totals["parse-error"] else 0


if __name__ == "__main__":
    sys.exit(main())
