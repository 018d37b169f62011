#!/usr/bin/env python3
"""ctest `extract`: `litmus extract` on the project's own CUDA kernels (kernels/pipelines.cu,
compiled to the committed pipelines.ptx, so no nvcc is needed).

1. Each kernel's extracted test gets the verdict of its pattern-library counterpart: the same
   observation of the condition (Never / Sometimes) and the same liveness (terminates / may hang).
   Both verdicts come from `litmus check`; neither is written here.
2. Merging identical threads changes no verdict: the one-warp pipeline, extracted with and without
   merging, gets the same observation, liveness and races (docs/extract.md, E6); two identical
   CTAs keep one, with the verdict of one (E8).
3. Events point back into the kernel: a hang, a race and --explain name PTX lines.
4. Bad input: a .cu without nvcc on the PATH, a malformed module, an unknown kernel (exit 2).

Usage: check.py LITMUS SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

LITMUS, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
HERE = os.path.join(SRC, "tests", "extract")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(args, cwd=HERE, env=None):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def pattern_dir():
    for d in ("litmus/patterns/reference", "patterns/reference"):
        if os.path.isdir(os.path.join(SRC, d)):
            return os.path.join(SRC, d)
    sys.exit("no pattern library under " + SRC)


def extract(kernel, block, out, merge=True):
    args = [LITMUS, "extract", "pipelines.ptx", "--kernel", kernel, "--block", str(block), "-o", out]
    r = run(args + ([] if merge else ["--no-merge"]))
    if r.returncode != 0:
        fail(f"extract {kernel}: exit {r.returncode}: {r.stderr.strip()}")
        return None
    path = r.stdout.split("wrote ")[1].split(":")[0]
    return path if os.path.isabs(path) else os.path.join(HERE, path)


def verdict(test):
    r = run([LITMUS, "check", "--json", "--timeout", "60", test])
    if r.returncode not in (0, 1):
        fail(f"check {test}: exit {r.returncode}: {r.stderr.strip()}")
        return None
    d = json.loads(r.stdout.splitlines()[0])
    return {"observation": d["observation"], "hang": bool(d.get("hang")), "races": len(d.get("races", [])) > 0,
            "threads": None}


BUGS = ["", "no_expect_tx", "no_empty_wait", "wrong_parity", "consumer_no_release", "no_consumer_proxy_fence"]
PATTERN_NAME = {"no_expect_tx": "no-expect_tx", "no_empty_wait": "no-empty-wait", "wrong_parity": "wrong-parity",
                "consumer_no_release": "consumer-no-release", "no_consumer_proxy_fence": "no-consumer-proxy-fence",
                "empty_count_1": "empty-count-1", "relaxed_wait": "relaxed-wait", "relaxed_arrive": "relaxed-arrive"}


def pattern(family, size, bug):
    name = f"{family}-{size}" + (f"-{PATTERN_NAME[bug]}" if bug else "")
    return os.path.join(pattern_dir(), family, name + ".yaml")


def cases():
    for bug in BUGS + ["relaxed_wait", "relaxed_arrive"]:
        yield ("tma_pipeline", 64, bug, pattern("tma-pipeline", "S2-K3", bug))
    for bug in BUGS + ["empty_count_1"]:
        yield ("warp_specialized", 96, bug, pattern("warp-specialized", "S2-K3-C2", bug))
        yield ("lane_pipeline", 3, bug, pattern("warp-specialized", "S2-K3-C2", bug))


def kernel_name(base, bug):
    return base + ("_" + bug if bug else "")


def threads(test):
    with open(test) as f:
        return sum(1 for line in f if line.startswith("  P") and line.rstrip().endswith(":"))


with tempfile.TemporaryDirectory() as out:
    # 1. the pattern library's verdicts
    compared = 0
    for base, block, bug, pat in cases():
        k = kernel_name(base, bug)
        test = extract(k, block, out)
        if not test:
            continue
        got, want = verdict(test), verdict(pat)
        if got is None or want is None:
            continue
        compared += 1
        for key in ("observation", "hang"):
            if got[key] != want[key]:
                fail(f"{k}: {key} {got[key]}, but the pattern {os.path.basename(pat)} gives {want[key]}")
        print(f"ok {k} (block {block}): {got['observation']}, {'may hang' if got['hang'] else 'terminates'} "
              f"= {os.path.basename(pat)}")
    if compared != 22:
        fail(f"compared {compared} kernels with their patterns, expected 22")

    # 2. merging identical threads changes no verdict
    merged_somewhere = False
    for block in (3,):
        for bug in BUGS + ["empty_count_1"]:
            k = kernel_name("lane_pipeline", bug)
            sub = os.path.join(out, f"merge{block}")
            a = extract(k, block, os.path.join(sub, "merged"))
            b = extract(k, block, os.path.join(sub, "whole"), merge=False)
            if not a or not b:
                continue
            va, vb = verdict(a), verdict(b)
            if va is None or vb is None:
                continue
            if va != vb:
                fail(f"{k} at block {block}: merged {va}, unmerged {vb}")
            ta, tb = threads(a), threads(b)
            merged_somewhere = merged_somewhere or ta < tb
            print(f"ok {k} (block {block}): {ta} threads merged, {tb} unmerged, same verdict")
    if not merged_somewhere:
        fail("no extraction merged any threads: the merge check would be vacuous")

    # identical independent CTAs: a grid of two keeps one (docs/extract.md, E8), with the same verdict
    for bug in ("", "no_empty_wait"):
        k = kernel_name("tma_pipeline", bug)
        one = extract(k, 64, os.path.join(out, "one"))
        r = run([LITMUS, "extract", "pipelines.ptx", "--kernel", k, "--block", "64", "--grid", "2", "-o",
                 os.path.join(out, "two")])
        if r.returncode != 0 or "CTAs share nothing but cluster barriers" not in r.stderr:
            fail(f"{k} on a grid of 2: exit {r.returncode}, stderr {r.stderr!r}")
            continue
        two = os.path.join(out, "two", f"{k}-b64-g2.yaml")
        if one and verdict(one) != verdict(two):
            fail(f"{k}: a grid of 2 CTAs gets {verdict(two)}, one CTA {verdict(one)}")
        elif one:
            print(f"ok {k} (grid 2): one CTA kept, same verdict")

    # lockstep (E7) is an assumption: consumer lanes that wait without releasing can fall behind and
    # hang under the PTX model; in lockstep with lane 0 they cannot
    for lockstep, hang in ((True, False), (False, True)):
        sub = os.path.join(out, "lockstep" if lockstep else "apart")
        r = run([LITMUS, "extract", "pipelines.ptx", "--kernel", "tma_pipeline_waiting_lanes", "--block", "64", "-o", sub]
                + ([] if lockstep else ["--no-lockstep"]))
        v = verdict(os.path.join(sub, "tma_pipeline_waiting_lanes-b64.yaml")) if r.returncode == 0 else None
        if not v or v["hang"] != hang or v["observation"] != "Never":
            fail(f"tma_pipeline_waiting_lanes {'in lockstep' if lockstep else 'apart'}: {v}, expected "
                 f"{'a possible hang' if hang else 'no hang'} and Never ({r.stderr.strip()})")
        else:
            print(f"ok tma_pipeline_waiting_lanes {'in lockstep' if lockstep else 'apart'}: "
                  f"{'may hang' if hang else 'terminates'}")

    # 3. events name their PTX lines
    t = extract("tma_pipeline_no_empty_wait", 64, out)
    r = run([LITMUS, "check", t]) if t else None
    if r and not ("spins forever at" in r.stdout and "(pipelines.ptx:" in r.stdout):
        fail("a hang does not name its PTX line:\n" + r.stdout)
    if r and "Race " not in r.stdout:
        fail("no race reported for tma_pipeline_no_empty_wait:\n" + r.stdout)
    t = extract("tma_pipeline_no_consumer_proxy_fence", 64, out)
    r = run([LITMUS, "check", t]) if t else None
    if r and not (r.returncode == 1 and "a data race (" in r.stderr and "the test declares 'races: none'" in r.stderr):
        fail(f"a race does not fail a `races: none` test: exit {r.returncode}, stderr {r.stderr!r}")
    t = extract("tma_pipeline_no_expect_tx", 64, out)
    r = run([LITMUS, "check", "--explain", t]) if t else None
    if r and not ("Allowed" in r.stdout and "ld.shared.u32" in r.stdout and "(pipelines.ptx:" in r.stdout):
        fail("--explain does not point into the PTX:\n" + r.stdout)

    # 4. bad input
    env = dict(os.environ, PATH="/nonexistent")
    r = run([LITMUS, "extract", "kernels/pipelines.cu", "-o", out], env=env)
    if r.returncode != 2 or "nvcc is not on the PATH" not in r.stderr:
        fail(f"a .cu without nvcc: exit {r.returncode}, stderr {r.stderr!r}")
    bad = os.path.join(out, "bad.ptx")
    with open(bad, "w") as f:
        f.write(".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n  mov.u32 %r1, 0;\n}\n")
    r = run([LITMUS, "extract", bad, "--block", "32", "-o", out])
    if r.returncode != 2 or "bad.ptx:6:11: error: register '%r1' is not declared" not in r.stderr:
        fail(f"an undeclared register: exit {r.returncode}, stderr {r.stderr!r}")
    r = run([LITMUS, "extract", "pipelines.ptx", "--kernel", "nope", "-o", out])
    if r.returncode != 2 or "no kernel named 'nope'" not in r.stderr:
        fail(f"an unknown kernel: exit {r.returncode}, stderr {r.stderr!r}")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
