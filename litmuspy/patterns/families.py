"""The families of the pattern library: one function per kernel pattern, returning its tests.

A test is a dict with name, description, locations [(name, yaml)], threads [(name, placement
[(key, value)], code lines)], condition, expect, liveness, reason. Every family returns the
correct pattern first ("NAME") and then its buggy variants ("NAME-what-is-wrong"); a variant
changes one synchronization step and keeps everything else, so that the checker's verdict on it
can only come from that step.
"""

SHARED = "{space: shared, cta: %d}"


def spin(label, wait, reg):
    """A spin loop on a wait instruction that sets predicate `reg` (try_wait, test_wait, ld)."""
    return [f"{label}:"] + wait.split("\n") + [f"@!%{reg} bra {label};"]


def try_wait(label, pred, mbar, parity, sem=""):
    return spin(label, f"mbarrier.try_wait.parity{sem}.shared::cta.b64 %{pred}, [{mbar}], {parity};",
                pred)


def test(name, description, locations, threads, condition, expect, reason, liveness="terminates"):
    return dict(name=name, description=description, locations=locations, threads=threads,
                condition=condition, expect=expect, reason=reason, liveness=liveness)


def any_wrong(terms):
    """A condition body that holds when some term differs from its correct value."""
    return "exists (" + " \\/ ".join(f"{t} != {v}" for t, v in terms) + ")"


# --- TMA pipeline ------------------------------------------------------------------------------

def release_stage(i, proxy_fence=True, sem=""):
    """A consumer hands stage i back to the producer after its generic reads. The proxy fence
    orders those reads before the async-proxy write of the refill (decision D36); CUTLASS's
    consumer_release leaves it out (the no-consumer-proxy-fence variant)."""
    fence = ["fence.proxy.async.shared::cta;"] if proxy_fence else []
    return fence + [f"mbarrier.arrive{sem}.shared::cta.b64 _, [empty{i}];"]


def tile_words(W):
    """The words of a W-word tile that consumers read: the first and the last (a consumer that
    reads a tile reads more than one word of it, so a stale word anywhere is seen)."""
    return [0] if W == 1 else [0, W - 1]


def tile_value(k, w, W):
    """Word w of tile k in global memory (tile k is k + 1 when a tile is one word)."""
    return k + 1 if W == 1 else 100 * (k + 1) + w


def tma_pipeline(S, K, C=1, variant="", W=1):
    """Producer P0 fills S stages by bulk copies of W-word tiles (full[i]: arrive.expect_tx +
    complete_tx), C consumers read tile k from stage k % S in phase k // S and release it on
    empty[i] (count C); the producer waits on empty[i] before each refill."""
    nbytes = max(16, -(-4 * W // 16) * 16)  # a bulk copy moves a multiple of 16 bytes
    if W == 1:
        locs = [(f"g{k}", str(k + 1)) for k in range(K)]
    else:
        locs = [(f"g{k}", "{init: [" + ", ".join(str(tile_value(k, w, W)) for w in range(W)) + "]}")
                for k in range(K)]
    for i in range(S):
        locs += [(f"s{i}", SHARED % 0), (f"full{i}", SHARED % 0), (f"empty{i}", SHARED % 0)]
    empty_count = 1 if variant == "empty-count-1" else C
    prod = [f"mbarrier.init.shared::cta.b64 [full{i}], 1;" for i in range(S)]
    prod += [f"mbarrier.init.shared::cta.b64 [empty{i}], {empty_count};" for i in range(S)]
    prod.append("bar.sync 0;")
    for k in range(K):
        i, n = k % S, k // S
        if n > 0 and variant != "no-empty-wait":
            prod += try_wait(f"E{k}", f"e{k}", f"empty{i}", (n - 1) & 1)
        # no-expect_tx drops it from the last fill only: after an earlier one, the stray
        # complete-tx would keep the stage's next phase from ever completing (a hang)
        if variant == "no-expect_tx" and k == K - 1:
            prod.append(f"mbarrier.arrive.shared::cta.b64 _, [full{i}];")
        else:
            prod.append(f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full{i}], {nbytes};")
        prod.append("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                    f"[s{i}], [g{k}], {nbytes}, [full{i}];")
    threads = [("P0", [("cta", 0), ("warp", 0)], prod)]
    terms = []
    for c in range(C):
        code = ["bar.sync 0;"]
        for k in range(K):
            i, n = k % S, k // S
            parity = n & 1
            if variant == "wrong-parity" and k == K - 1:
                parity ^= 1
            wait_sem = ".relaxed.cta" if variant == "relaxed-wait" else ""
            code += try_wait(f"F{k}", f"f{k}", f"full{i}", parity, wait_sem)
            for w in tile_words(W):
                reg = f"r{k}" if W == 1 else f"r{k}_{w}"
                code.append(f"ld.shared.u32 %{reg}, [s{i}{f'+{4 * w}' if w else ''}];")
                terms.append((f"P{c + 1}:{reg}", tile_value(k, w, W)))
            refilled = k + S < K
            if refilled and not (variant == "consumer-no-release" and c == C - 1):
                arrive_sem = ".relaxed.cta" if variant == "relaxed-arrive" else ""
                code += release_stage(i, variant != "no-consumer-proxy-fence", arrive_sem)
        threads.append((f"P{c + 1}", [("cta", 0), ("warp", c + 1)], code))
    return threads, locs, any_wrong(terms)


def tma_family(S, K, C, family, what, W=1):
    def make(variant, expect, reason, liveness="terminates"):
        threads, locs, cond = tma_pipeline(S, K, C, variant, W)
        name = (f"{family}-S{S}-K{K}" + (f"-C{C}" if C > 1 else "") + (f"-W{W}" if W > 1 else "")
                + (f"-{variant}" if variant else ""))
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads, cond,
                    expect, reason, liveness)
    tests = [make("", "unreachable",
                  "§9.7.13.15.16: each wait acquires the phase whose complete-tx released the "
                  "copy's writes (D28, D30); the proxy fence and the empty wait order the reads "
                  "before the refill (D36).")]
    tests.append(make("no-expect_tx", "reachable",
                      "§9.7.13.15.11: without expect_tx the last fill's phase completes on the "
                      "arrival alone, before the copy's complete-tx, so the read may see the "
                      "stage's old value; and the complete-tx may reach the mbarrier before the "
                      "arrival does (D53), leaving the phase short of bytes: the last wait never "
                      "completes (the H200 hangs there, docs/findings.md F11).", "may-hang"))
    if K > S:
        tests.append(make("no-empty-wait", "reachable",
                          "The refill is not ordered after the consumer's read of the stage: the "
                          "read may see the next tile's data; a refill arrival before the phase "
                          "completes overruns the count and the phase never completes (a hang).",
                          "may-hang"))
        tests.append(make("wrong-parity", "reachable",
                          "§9.7.13.15.16: try_wait.parity on the parity of the previous phase "
                          "returns at once, before the refill lands: the read sees the old tile; "
                          "a wait that comes after the refill's phase sees an incomplete phase of "
                          "that parity and spins forever.", "may-hang"))
        tests.append(make("consumer-no-release", "unreachable",
                          "A consumer never arrives on empty: the producer waits forever before "
                          "the refill, so no execution finishes (the bug is the hang).",
                          "may-hang"))
    if K > S:
        tests.append(make("no-consumer-proxy-fence", "reachable",
                          "D36, §8.9.5: the release arrive orders the consumer's generic read "
                          "before the refill only with a proxy fence (CUTLASS's consumer_release "
                          "has none; docs/findings.md F3: the H100 run settles it)."))
    # The two-consumer relaxed variants stay out of the reference set (the symbolic engine takes
    # 20-26 s on each at S=2 K=3, and the reference set runs through both engines in CI); the
    # benchmark writes them at its sizes (W > 1).
    relaxed = C == 1 or W > 1
    if relaxed:
        tests.append(make("relaxed-wait", "reachable",
                          "§9.7.13.15.16: a .relaxed try_wait does not acquire the phase, so the "
                          "reads after it are not ordered after the copy's writes and may see the "
                          "stage's old value."))
    if relaxed and K > S:
        tests.append(make("relaxed-arrive", "reachable",
                          "§9.7.13.15.13: a .relaxed arrive does not release the consumer's reads "
                          "of the stage: the producer's refill after its empty wait is not "
                          "ordered after them, and a read may see the next tile."))
    if C > 1 and K > S:
        tests.append(make("empty-count-1", "reachable",
                          "empty is initialised for one arrival: the first consumer's release "
                          "completes the phase and the refill races the other consumer's read; a "
                          "consumer that comes after the refill's phase waits on parity 0 forever.",
                          "may-hang"))
    return tests


def words_text(W):
    return "" if W == 1 else f" {W}-word tiles, consumers read the first and last word;"


def tma_pipeline_family(S, K, W=1):
    return tma_family(S, K, 1, "tma-pipeline",
                      f"TMA load pipeline: {S} stages, {K} tiles, one consumer;{words_text(W)} "
                      "full/empty mbarrier pairs with parity flipping.", W)


def warp_specialized_family(S, K, C, W=1):
    return tma_family(S, K, C, "warp-specialized",
                      f"Warp-specialized producer and {C} consumers in different warps: {S} "
                      f"stages, {K} tiles;{words_text(W)} the empty barrier counts {C} "
                      "arrivals.", W)


# --- Ping-pong consumers -----------------------------------------------------------------------

def ping_pong(S, K, variant=""):
    """Two consumers take alternate tiles of one pipeline and write the shared output in tile
    order, handing the turn to each other through an ordered mbarrier (count 1 per phase)."""
    locs = [(f"g{k}", str(k + 1)) for k in range(K)] + [("out", "0")]
    for i in range(S):
        locs += [(f"s{i}", SHARED % 0), (f"full{i}", SHARED % 0), (f"empty{i}", SHARED % 0)]
    locs.append(("turn", SHARED % 0))
    prod = [f"mbarrier.init.shared::cta.b64 [full{i}], 1;" for i in range(S)]
    prod += [f"mbarrier.init.shared::cta.b64 [empty{i}], 1;" for i in range(S)]
    prod += ["mbarrier.init.shared::cta.b64 [turn], 1;", "bar.sync 0;"]
    for k in range(K):
        i, n = k % S, k // S
        if n > 0 and variant != "no-empty-wait":
            prod += try_wait(f"E{k}", f"e{k}", f"empty{i}", (n - 1) & 1)
        prod.append(f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full{i}], 16;")
        prod.append("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                    f"[s{i}], [g{k}], 16, [full{i}];")
    threads = [("P0", [("cta", 0), ("warp", 0)], prod)]
    terms = []
    for c in range(2):
        code = ["bar.sync 0;"]
        for k in range(c, K, 2):
            i, n = k % S, k // S
            parity = n & 1
            if variant == "wrong-parity" and k == K - 1:
                parity ^= 1
            wait_sem = ".relaxed.cta" if variant == "relaxed-wait" else ""
            code += try_wait(f"F{k}", f"f{k}", f"full{i}", parity, wait_sem)
            code.append(f"ld.shared.u32 %r{k}, [s{i}];")
            if k + S < K and not (variant == "consumer-no-release" and c == 0):
                arrive_sem = ".relaxed.cta" if variant == "relaxed-arrive" else ""
                code += release_stage(i, True, arrive_sem)
            if k > 0 and variant != "no-order":
                code += try_wait(f"T{k}", f"t{k}", "turn", (k - 1) & 1)
            code.append(f"st.global.u32 [out], %r{k};")
            turn_sem = ".relaxed.cta" if variant == "relaxed-turn" else ""
            code.append(f"mbarrier.arrive{turn_sem}.shared::cta.b64 _, [turn];")
            terms.append((f"P{c + 1}:r{k}", k + 1))
        threads.append((f"P{c + 1}", [("cta", 0), ("warp", c + 1)], code))
    terms.append(("out", K))
    return threads, locs, any_wrong(terms)


def ping_pong_family(S, K):
    """FlashAttention-3's schedule in its synchronization: two consumer warpgroups take turns."""
    what = (f"Ping-pong consumers: tiles alternate between two consumer warps ({S} stages, "
            f"{K} tiles); an ordered mbarrier passes the turn for the output.")

    def make(variant, expect, reason, liveness="terminates"):
        threads, locs, cond = ping_pong(S, K, variant)
        name = f"ping-pong-S{S}-K{K}" + (f"-{variant}" if variant else "")
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads, cond,
                    expect, reason, liveness)
    tests = [make("", "unreachable",
                  "§9.7.13.15.16: each turn wait acquires the other consumer's release arrive, "
                  "so the output stores are ordered by causality and coherence (D28).")]
    tests.append(make("no-order", "reachable",
                      "Without the turn wait the two output stores are unordered: the last "
                      "tile's value may be overwritten by an earlier one."))
    tests.append(make("relaxed-turn", "reachable",
                      "§9.7.13.15.13: a .relaxed arrive on the turn barrier releases nothing: the "
                      "next consumer's store is not ordered after the previous one, and the last "
                      "tile's value may be overwritten by an earlier one."))
    tests.append(make("relaxed-wait", "reachable",
                      "§9.7.13.15.16: a .relaxed try_wait does not acquire the phase, so the "
                      "read after it is not ordered after the copy's writes."))
    if K > S:
        tests.append(make("relaxed-arrive", "reachable",
                          "§9.7.13.15.13: a .relaxed release of the stage does not order the "
                          "consumer's read before the refill, which the read may then see."))
        tests.append(make("no-empty-wait", "reachable",
                          "The refill is not ordered after the consumer's read of the stage: the "
                          "read may see the next tile's data; a refill before the phase completes "
                          "overruns the count (a hang).", "may-hang"))
        tests.append(make("wrong-parity", "reachable",
                          "§9.7.13.15.16: the last wait names the previous phase's parity and "
                          "returns at once, before the refill lands; a wait after the refill's "
                          "phase waits on an incomplete phase of that parity forever.", "may-hang"))
        tests.append(make("consumer-no-release", "unreachable",
                          "The first consumer never releases its stage: the producer waits "
                          "forever before that refill, so no execution finishes (the bug is the "
                          "hang).", "may-hang"))
    return tests
