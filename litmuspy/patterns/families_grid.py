"""Families of the pattern library beyond one CTA's pipeline: cluster pipelines, the TMA store
epilogue, single-shot waits, and grid-level patterns (split-K, stream-K, grid barrier, DSMEM
reduction, elected leaders, tensor-map updates). See families.py for the test layout."""

from .families import SHARED, any_wrong, spin, test, try_wait


# --- Cluster pipeline --------------------------------------------------------------------------

def cluster_pipeline_family(N):
    """A producer in CTA 0 copies one tile into every CTA of an N-CTA cluster; each copy completes
    on the destination CTA's own mbarrier (remote complete-tx). Each CTA's consumer initialises
    its mbarrier, publishes it with fence.mbarrier_init and barrier.cluster, expects the bytes,
    and waits at .cluster scope (the complete-tx comes from another CTA)."""
    def make(variant, expect, reason, liveness="terminates"):
        locs = [("g", "5")]
        for c in range(N):
            locs += [(f"s{c}", SHARED % c), (f"full{c}", SHARED % c)]
        sem = "" if variant == "wait.cta" else ".acquire.cluster"
        arrive = "barrier.cluster.arrive.relaxed;"
        prod = [arrive, "barrier.cluster.wait;"]
        for c in range(N):
            prod += [f"mapa.shared::cluster.u32 %d{c}, s{c}, {c};",
                     f"mapa.shared::cluster.u32 %m{c}, full{c}, {c};",
                     "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     f"[%d{c}], [g], 16, [%m{c}];"]
        threads = [("P", [("cta", 0), ("cluster", 0), ("warp", 0)], prod)]
        terms = []
        for c in range(N):
            code = [f"mbarrier.init.shared::cta.b64 [full{c}], 1;"]
            if variant != "no-init-fence":
                code.append("fence.mbarrier_init.release.cluster;")
            code += [arrive, "barrier.cluster.wait;",
                     f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full{c}], 16;"]
            code += try_wait("W", "p", f"full{c}", 0, sem)
            code.append(f"ld.shared.u32 %r0, [s{c}];")
            threads.append((f"C{c}", [("cta", c), ("cluster", 0), ("warp", 1)], code))
            terms.append((f"C{c}:r0", 5))
        name = f"cluster-pipeline-N{N}" + (f"-{variant}" if variant else "")
        what = (f"Cluster pipeline: a producer in CTA 0 copies a tile into each of {N} CTAs, "
                "completing on each CTA's own mbarrier.")
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads,
                    any_wrong(terms), expect, reason, liveness)
    return [
        make("", "unreachable",
             "§9.7.13.4, §9.7.13.3: fence.mbarrier_init and the cluster barrier publish each "
             "init before the remote copies; each .cluster wait acquires its complete-tx (D28-D30)."),
        make("wait.cta", "reachable",
             "The complete-tx belongs to CTA 0's thread: a .cta-scope wait in another CTA does "
             "not synchronize with it, so the read may miss the copy (D30, §14 item 12)."),
        make("no-init-fence", "unreachable",
             "Without fence.mbarrier_init the relaxed cluster barrier does not order the init "
             "before the remote complete-tx, which may act on the uninitialised object and be "
             "lost: the wait then never succeeds (the bug is the hang; D28, D29).",
             "may-hang"),
    ]


# --- TMA store epilogue ------------------------------------------------------------------------

def tma_store_family(T):
    """One thread writes T output tiles through one shared buffer: st.shared, the proxy fence, a
    bulk store, and wait_group.read before the buffer is written again."""
    def make(variant, expect, reason):
        locs = [("s", SHARED % 0)] + [(f"g{t}", "0") for t in range(T)]
        code = []
        for t in range(T):
            code.append(f"st.shared.u32 [s], {t + 1};")
            if not (variant == "no-proxy-fence" and t == 0):
                code.append("fence.proxy.async.shared::cta;")
            code += [f"cp.async.bulk.global.shared::cta.bulk_group [g{t}], [s], 16;",
                     "cp.async.bulk.commit_group;"]
            last = t == T - 1
            if last:
                code.append("cp.async.bulk.wait_group 0;")
            elif not (variant == "no-wait-read" and t == 0):
                code.append("cp.async.bulk.wait_group.read 0;")
        threads = [("P0", [("cta", 0)], code)]
        name = f"tma-store-T{T}" + (f"-{variant}" if variant else "")
        what = f"TMA store epilogue: {T} tiles staged through one shared buffer."
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads,
                    any_wrong([(f"g{t}", t + 1) for t in range(T)]), expect, reason)
    return [
        make("", "unreachable",
             "§9.7.13.4: fence.proxy.async orders the generic st.shared before the async-proxy "
             "read of the copy; wait_group.read orders that read before the reuse (D30)."),
        make("no-proxy-fence", "reachable",
             "Without the proxy fence the async-proxy read of the buffer may miss the generic "
             "store (D27, D30)."),
        make("no-wait-read", "reachable",
             "Without wait_group.read the next tile's st.shared may overwrite the buffer before "
             "the bulk store has read it."),
    ]


# --- Single-shot waits -------------------------------------------------------------------------

def try_wait_token_family():
    """The consumer tests the wait once and uses the stage only if it succeeded (CUTLASS's
    try-wait token): it reads the stage and stores what it read to `out`. The stage starts at 7,
    a stale value the copy overwrites with 1; `out == 7` means the consumer used stale data."""
    def make(name, wait, guarded, expect, reason):
        locs = [("g", "1"), ("s", "{space: shared, cta: 0, init: 7}"), ("m", SHARED % 0),
                ("out", "0")]
        prod = ["mbarrier.init.shared::cta.b64 [m], 1;", "bar.sync 0;",
                "mbarrier.arrive.expect_tx.shared::cta.b64 _, [m], 16;",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                "[s], [g], 16, [m];"]
        use = ["ld.shared.u32 %r0, [s];", "st.global.u32 [out], %r0;"]
        cons = ["bar.sync 0;", wait] + (["@!%p bra END;"] + use + ["END:"] if guarded else use)
        threads = [("P0", [("cta", 0), ("warp", 0)], prod), ("P1", [("cta", 0), ("warp", 1)], cons)]
        what = ("A consumer that waits once on a TMA load's mbarrier and uses the stage only if the "
                "wait succeeded." if guarded else "A consumer that waits once and uses the stage "
                "whatever the wait returned.")
        return test(name, what, locs, threads, "exists (out == 7)", expect, reason)
    tw = "mbarrier.try_wait.parity.shared::cta.b64 %p, [m], 0;"
    tst = "mbarrier.test_wait.parity.shared::cta.b64 %p, [m], 0;"
    return [
        make("try-wait-token", tw, True, "unreachable",
             "§9.7.13.15.16: a try_wait that returns true acquires the phase's complete-tx "
             "(docs/findings.md F1 on what the H100 does)."),
        make("test-wait-token", tst, True, "unreachable",
             "§9.7.13.15.16: test_wait returning true has the same acquire effect as try_wait."),
        make("try-wait-token-read-regardless", tw, False, "reachable",
             "The use of the stage does not depend on the wait's result: when the wait fails "
             "the read may see the stage before the copy."),
    ]
