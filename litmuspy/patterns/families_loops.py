"""Families of the pattern library whose pipeline outlives one tile or one CTA: a persistent
kernel's tile loop (the pipeline state carried from tile to tile) and a CUTLASS-style multicast
pipeline over a cluster (one copy per tile reaching every CTA, the stages released on cluster-scope
empty barriers). See families.py for the test layout."""

from .families import SHARED, any_wrong, release_stage, test, try_wait


# --- Persistent kernel -------------------------------------------------------------------------

def persistent_pipeline(S, T, B, variant=""):
    """A persistent CTA walks T output tiles of B k-blocks each through one S-stage pipeline: the
    producer P0 and the consumer P1 count k-blocks across tiles (block j = t * B + b lives in stage
    j % S, phase j // S), so the stage and phase the next tile starts at are where the last one
    stopped. `state-reset` restarts both counts at every tile (CUTLASS's PipelineState declared
    inside the tile loop)."""
    K = T * B
    locs = [(f"g{j}", str(j + 1)) for j in range(K)]
    for i in range(S):
        locs += [(f"s{i}", SHARED % 0), (f"full{i}", SHARED % 0), (f"empty{i}", SHARED % 0)]

    def position(t, b):  # the stage and phase the code believes block (t, b) is in
        j = b if variant == "state-reset" else t * B + b
        return j % S, j // S

    prod = [f"mbarrier.init.shared::cta.b64 [full{i}], 1;" for i in range(S)]
    prod += [f"mbarrier.init.shared::cta.b64 [empty{i}], 1;" for i in range(S)]
    prod.append("bar.sync 0;")
    cons = ["bar.sync 0;"]
    terms = []
    for t in range(T):
        for b in range(B):
            j = t * B + b
            i, n = position(t, b)
            if n > 0 and not (variant == "tile-start-no-empty-wait" and b == 0):
                prod += try_wait(f"E{j}", f"e{j}", f"empty{i}", (n - 1) & 1)
            prod.append(f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full{i}], 16;")
            prod.append("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                        f"[s{i}], [g{j}], 16, [full{i}];")
            wait_sem = ".relaxed.cta" if variant == "relaxed-wait" else ""
            cons += try_wait(f"F{j}", f"f{j}", f"full{i}", n & 1, wait_sem)
            cons.append(f"ld.shared.u32 %r{j}, [s{i}];")
            terms.append((f"P1:r{j}", j + 1))
            # a stage is released only where the producer refills it (the same in every variant,
            # so that a variant changes its one step only)
            if j + S < K and variant != "consumer-no-release":
                arrive_sem = ".relaxed.cta" if variant == "relaxed-arrive" else ""
                cons += release_stage(i, True, arrive_sem)
    threads = [("P0", [("cta", 0), ("warp", 0)], prod), ("P1", [("cta", 0), ("warp", 1)], cons)]
    return threads, locs, any_wrong(terms)


def persistent_family(S, T, B):
    what = (f"Persistent kernel: one CTA walks {T} tiles of {B} k-blocks each through one "
            f"{S}-stage TMA pipeline; the stage and phase carry over from tile to tile.")

    def make(variant, expect, reason, liveness="terminates"):
        threads, locs, cond = persistent_pipeline(S, T, B, variant)
        name = f"persistent-S{S}-T{T}-B{B}" + (f"-{variant}" if variant else "")
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads, cond,
                    expect, reason, liveness)
    tests = [make("", "unreachable",
                  "§9.7.13.15.16: each wait acquires the phase whose complete-tx released the "
                  "copy's writes (D28, D30); the proxy fence and the empty wait order the reads "
                  "before the refill (D36); the counts carried across tiles keep the parities "
                  "right.")]
    if T * B > S:
        tests.append(make("state-reset", "reachable",
                          "The pipeline state restarts at stage 0, phase 0 each tile: the next "
                          "tile's first refill skips its empty wait and its first wait names an "
                          "earlier phase's parity, which returns at once, so a read may see another "
                          "block; a wait that comes after the refill's phase waits on a phase "
                          "that never completes.", "may-hang"))
    if B * (T - 1) >= S:
        tests.append(make("tile-start-no-empty-wait", "reachable",
                          "The producer refills the stage a new tile starts in without waiting "
                          "for the consumer's release: the refill races the read of the last "
                          "tile's block in that stage, and its arrival may overrun the phase "
                          "(a hang).", "may-hang"))
    if T * B > S:
        tests.append(make("consumer-no-release", "unreachable",
                          "The consumer never releases a stage: the producer waits forever "
                          "before the first refill, so no execution finishes (the bug is "
                          "the hang).", "may-hang"))
        tests.append(make("relaxed-arrive", "reachable",
                          "§9.7.13.15.13: a .relaxed arrive does not release the consumer's read "
                          "of the stage: the refill after the producer's empty wait is not "
                          "ordered after it, and the read may see the next block."))
    tests.append(make("relaxed-wait", "reachable",
                      "§9.7.13.15.16: a .relaxed try_wait does not acquire the phase, so the "
                      "read after it is not ordered after the copy's writes and may see the "
                      "stage's old value."))
    return tests


# --- Multicast cluster pipeline ----------------------------------------------------------------

def multicast_pipeline(N, S, K, variant=""):
    """A producer in CTA 0 multicasts tile k into stage k % S of every CTA of an N-CTA cluster
    (`.multicast::cluster`, complete-tx on each CTA's copy of full[i], D48). Each CTA's consumer
    initialises its full barriers, announces the bytes it expects, waits at .acquire.cluster, reads
    its copy and releases the stage on CTA 0's empty[i] with a remote .release.cluster arrive;
    empty[i] counts N arrivals (one per CTA) and the producer waits on it at .acquire.cluster
    before the refill, which overwrites the stage in every CTA."""
    mask = (1 << N) - 1
    locs = [(f"g{k}", str(k + 1)) for k in range(K)]
    for i in range(S):
        for c in range(N):
            copy = f", copy-of: s{i}c0" if c else ""
            locs.append((f"s{i}c{c}", "{space: shared, cta: %d%s}" % (c, copy)))
        for c in range(N):
            copy = f", copy-of: full{i}c0" if c else ""
            locs.append((f"full{i}c{c}", "{space: shared, cta: %d%s}" % (c, copy)))
        locs.append((f"empty{i}", SHARED % 0))
    cluster_arrive = ["barrier.cluster.arrive.relaxed;", "barrier.cluster.wait;"]
    init_fence = [] if variant == "no-init-fence" else ["fence.mbarrier_init.release.cluster;"]
    count = 1 if variant == "empty-count-1" else N
    prod = [f"mbarrier.init.shared::cta.b64 [empty{i}], {count};" for i in range(S)]
    prod += init_fence + cluster_arrive
    for k in range(K):
        i, n = k % S, k // S
        if n > 0 and variant != "no-empty-wait":
            sem = "" if variant == "empty-wait.cta" else ".acquire.cluster"
            prod += try_wait(f"E{k}", f"e{k}", f"empty{i}", (n - 1) & 1, sem)
        # the refill is an async-proxy write issued in CTA 0: the proxy fence that orders the
        # consumers' generic reads before it must be in CTA 0 too (D27, D36)
        if n > 0 and variant != "no-proxy-fence":
            prod.append("fence.proxy.async.shared::cluster;")
        prod.append("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                    f".multicast::cluster [s{i}c0], [g{k}], 16, [full{i}c0], {mask};")
    threads = [("P", [("cta", 0), ("cluster", 0), ("warp", 0)], prod)]
    terms = []
    for c in range(N):
        code = [f"mbarrier.init.shared::cta.b64 [full{i}c{c}], 1;" for i in range(S)]
        code += init_fence + cluster_arrive
        code += [f"mapa.shared::cluster.u32 %m{i}, empty{i}, 0;" for i in range(min(S, K - S))]
        for k in range(K):
            i, n = k % S, k // S
            parity = n & 1
            if variant == "wrong-parity" and k == K - 1:
                parity ^= 1
            code.append(f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full{i}c{c}], 16;")
            sem = "" if variant == "wait.cta" else ".acquire.cluster"
            code += try_wait(f"F{k}", f"f{k}", f"full{i}c{c}", parity, sem)
            code.append(f"ld.shared.u32 %r{k}, [s{i}c{c}];")
            terms.append((f"C{c}:r{k}", k + 1))
            if k + S < K and not (variant == "consumer-no-release" and c == N - 1):
                sem = {"empty-arrive.cta": ".release.cta",
                       "relaxed-arrive": ".relaxed.cluster"}.get(variant, ".release.cluster")
                code.append(f"mbarrier.arrive{sem}.shared::cluster.b64 _, [%m{i}];")
        threads.append((f"C{c}", [("cta", c), ("cluster", 0), ("warp", 1)], code))
    return threads, locs, any_wrong(terms)


def multicast_pipeline_family(N, S, K):
    what = (f"CUTLASS-style multicast pipeline: a producer in CTA 0 multicasts each of {K} tiles "
            f"into {S} stages of all {N} CTAs of a cluster; each CTA's consumer releases a stage "
            f"on CTA 0's empty barrier (count {N}) with a remote .release.cluster arrive.")

    def make(variant, expect, reason, liveness="terminates"):
        threads, locs, cond = multicast_pipeline(N, S, K, variant)
        name = f"multicast-pipeline-N{N}-S{S}-K{K}" + (f"-{variant}" if variant else "")
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads, cond,
                    expect, reason, liveness)
    tests = [make("", "unreachable",
                  "D48: the multicast copy and its complete-tx reach each CTA's copy of the stage "
                  "and of full[i]; each .cluster wait acquires the complete-tx (D28-D30, D35); "
                  "the proxy fence, the .release.cluster arrives and the producer's "
                  ".acquire.cluster empty wait order every CTA's read before the refill (D36).")]
    tests.append(make("wait.cta", "reachable",
                      "The complete-tx is released by CTA 0's copy: a .cta-scope wait in another "
                      "CTA does not synchronize with it, so that CTA's read may miss the copy "
                      "(D30, §14 item 12)."))
    if K > S:
        tests.append(make("empty-arrive.cta", "reachable",
                          "A remote .release.cta arrive does not synchronize with the producer in "
                          "CTA 0: the refill is not ordered after another CTA's read of the "
                          "stage, which may see the next tile."))
        tests.append(make("empty-wait.cta", "reachable",
                          "The producer's empty wait at .cta does not acquire the other CTAs' "
                          ".release.cluster arrives: the refill is not ordered after their reads."))
        tests.append(make("relaxed-arrive", "reachable",
                          "§9.7.13.15.13: a .relaxed arrive releases nothing: the refill is not "
                          "ordered after the consumer's read of the stage."))
        tests.append(make("no-proxy-fence", "reachable",
                          "D36, D27: without a proxy fence in CTA 0, the CTA that issues the "
                          "refill's async-proxy writes, the consumers' generic reads are not "
                          "ordered before them, and a read may see the next tile."))
        tests.append(make("empty-count-1", "reachable",
                          f"empty is initialised for one arrival, not {N}: the first CTA's release "
                          "completes the phase and the refill races the other CTAs' reads; a "
                          "release after the phase completed overruns the next phase's count, "
                          "and a consumer may then wait forever.", "may-hang"))
        tests.append(make("no-empty-wait", "reachable",
                          "The refill is not ordered after the consumers' reads of the stage: a "
                          "read may see the next tile; a refill before the phase completes "
                          "overruns the count (a hang).", "may-hang"))
        tests.append(make("consumer-no-release", "unreachable",
                          "The last CTA's consumer never releases a stage: the producer waits "
                          "forever before the refill, so no execution finishes (the bug is the "
                          "hang).", "may-hang"))
        tests.append(make("wrong-parity", "reachable",
                          "§9.7.13.15.16: the last wait names the previous phase's parity and "
                          "returns at once, before the refill lands: the read sees the old tile; "
                          "a wait after the refill's phase waits on an incomplete phase of that "
                          "parity forever.", "may-hang"))
    return tests
