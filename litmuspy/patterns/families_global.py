"""Grid- and cluster-level families of the pattern library: split-K serial semaphore, stream-K
fix-up flags, a grid barrier, a DSMEM reduction, elected leader arrivals and a device-side
tensor-map update. See families.py for the test layout."""

from .families import SHARED, any_wrong, spin, test, try_wait


def _scoped(variant, sem, scope="gpu"):
    """The memory order and scope of a synchronizing access, as a variant weakens or narrows it."""
    if variant == "relaxed":
        return f".relaxed.{scope}"
    if variant == "cta-scope":
        return f".{sem}.cta"
    return f".{sem}.{scope}"


def split_k_family(N):
    """N CTAs add their partial sums into one global accumulator in turn: CTA i waits until the
    semaphore holds i (acquire), reads-adds-writes the accumulator, and releases i + 1."""
    def make(variant, expect, reason, liveness="terminates"):
        acq, rel = _scoped(variant, "acquire"), _scoped(variant, "release")
        threads = []
        for i in range(N):
            code = spin("W", f"ld{acq}.global.u32 %s, [sem];\nsetp.eq.u32 %p, %s, {i};", "p")
            code += ["ld.global.u32 %a, [acc];", f"add.u32 %a, %a, {i + 1};",
                     "st.global.u32 [acc], %a;", f"st{rel}.global.u32 [sem], {i + 1};"]
            threads.append((f"P{i}", [("cta", i)], code))
        total = N * (N + 1) // 2
        name = f"split-k-N{N}" + (f"-{variant}" if variant else "")
        what = f"Split-K serial reduction over {N} CTAs through a global semaphore."
        return test(name, what + (f" Bug: {variant} semaphore." if variant else ""),
                    [("acc", "0"), ("sem", "0")], threads, any_wrong([("acc", total)]),
                    expect, reason, liveness)
    return [
        make("", "unreachable",
             "§8.8: each CTA's acquire load reads the previous CTA's release store, so the "
             "read-modify-writes of acc are ordered by causality and none is lost."),
        make("relaxed", "reachable",
             "A relaxed semaphore does not order the plain accesses of acc: a CTA may read a stale "
             "partial sum and lose an update."),
        make("cta-scope", "reachable",
             "§8.7: release and acquire at .cta scope between different CTAs are not morally "
             "strong, so they do not synchronize; the semaphore's writes need not be ordered by "
             "coherence either, so a CTA may spin forever on a stale value.", "may-hang"),
    ]


def stream_k_family(N):
    """N CTAs each write a partial tile and raise their own flag; the fix-up CTA waits for every
    flag and sums the partials."""
    def make(variant, expect, reason, liveness="terminates"):
        acq, rel = _scoped(variant, "acquire"), _scoped(variant, "release")
        locs = [(f"part{i}", "0") for i in range(N)] + [(f"flag{i}", "0") for i in range(N)]
        threads = []
        for i in range(N):
            threads.append((f"P{i}", [("cta", i)],
                            [f"st.global.u32 [part{i}], {i + 1};",
                             f"st{rel}.global.u32 [flag{i}], 1;"]))
        fix = ["mov.u32 %sum, 0;"]
        for i in range(N):
            fix += spin(f"W{i}", f"ld{acq}.global.u32 %f{i}, [flag{i}];\n"
                        f"setp.eq.u32 %p{i}, %f{i}, 1;", f"p{i}")
            fix += [f"ld.global.u32 %v{i}, [part{i}];", f"add.u32 %sum, %sum, %v{i};"]
        threads.append(("F", [("cta", N)], fix))
        name = f"stream-k-N{N}" + (f"-{variant}" if variant else "")
        what = f"Stream-K fix-up: {N} CTAs publish partial tiles through flags; one CTA sums them."
        return test(name, what + (f" Bug: {variant} flags." if variant else ""), locs, threads,
                    any_wrong([("F:sum", N * (N + 1) // 2)]), expect, reason, liveness)
    return [
        make("", "unreachable",
             "§8.8: each flag's release store synchronizes with the fix-up's acquire load that "
             "reads it, so every partial is visible."),
        make("relaxed", "reachable", "Relaxed flags order nothing: a partial may be read stale."),
        make("cta-scope", "reachable",
             "§8.7: .cta-scope release/acquire between CTAs does not synchronize, and a flag's "
             "store is not morally strong with the fix-up's load, which need never see it (a hang, "
             "D26).", "may-hang"),
    ]


def grid_barrier_family(N):
    """A software grid barrier (cooperative-groups style) over N CTAs: each CTA writes its data,
    arrives by a release reduction on a counter, spins until the counter is N (acquire), then
    reads its neighbour's data."""
    def make(variant, expect, reason, liveness="terminates"):
        acq, rel = _scoped(variant, "acquire"), _scoped(variant, "release")
        locs = [(f"d{i}", "0") for i in range(N)] + [("count", "0")]
        threads, terms = [], []
        for i in range(N):
            j = (i + 1) % N
            code = [f"st.global.u32 [d{i}], {i + 1};", f"red{rel}.global.add.u32 [count], 1;"]
            code += spin("W", f"ld{acq}.global.u32 %c, [count];\nsetp.eq.u32 %p, %c, {N};", "p")
            code.append(f"ld.global.u32 %r0, [d{j}];")
            threads.append((f"P{i}", [("cta", i)], code))
            terms.append((f"P{i}:r0", j + 1))
        name = f"grid-barrier-N{N}" + (f"-{variant}" if variant else "")
        what = f"Grid barrier over {N} CTAs: a release arrival counter and an acquire spin."
        return test(name, what + (f" Bug: {variant} barrier." if variant else ""), locs, threads,
                    any_wrong(terms), expect, reason, liveness)
    return [
        make("", "unreachable",
             "§8.8: the acquire load that reads N reads from a release sequence containing every "
             "CTA's release reduction, so all data writes are visible."),
        make("relaxed", "reachable", "Relaxed arrivals and spin order nothing."),
        make("cta-scope", "reachable",
             "§8.7: .cta-scope reductions and loads in different CTAs are not morally strong: "
             "they do not synchronize, and the counter may never be seen at N (a hang).",
             "may-hang"),
    ]


def dsmem_reduction_family(N):
    """Every CTA of an N-CTA cluster writes its partial into its own shared memory; after the
    cluster barrier CTA 0 reads all partials through mapa (DSMEM)."""
    def make(variant, expect, reason):
        locs = [(f"part{i}", SHARED % i) for i in range(N)]
        arrive = {"": "barrier.cluster.arrive;", "relaxed": "barrier.cluster.arrive.relaxed;"}
        threads = []
        for i in range(N):
            code = [f"st.shared.u32 [part{i}], {i + 1};"]
            if variant != "no-barrier":
                code += [arrive.get(variant, arrive[""]), "barrier.cluster.wait;"]
            if i == 0:
                code.append("mov.u32 %sum, 0;")
                for j in range(N):
                    code += [f"mapa.shared::cluster.u32 %a{j}, part{j}, {j};",
                             f"ld.shared::cluster.u32 %v{j}, [%a{j}];",
                             f"add.u32 %sum, %sum, %v{j};"]
            threads.append((f"P{i}", [("cta", i), ("cluster", 0)], code))
        name = f"dsmem-reduction-N{N}" + (f"-{variant}" if variant else "")
        what = f"DSMEM reduction: {N} CTAs of a cluster, partials read by CTA 0 after barrier.cluster."
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads,
                    any_wrong([("P0:sum", N * (N + 1) // 2)]), expect, reason)
    return [
        make("", "unreachable",
             "§9.7.13.3: barrier.cluster.arrive (release) synchronizes with barrier.cluster.wait "
             "(acquire), so every partial precedes CTA 0's reads (D23, D32)."),
        make("relaxed", "reachable",
             "§9.7.13.3: arrive.relaxed releases nothing: the partials may be read stale."),
        make("no-barrier", "reachable", "Nothing orders the partials before the reads."),
    ]


def elect_leader_family(L):
    """L lanes of one warp write their data, synchronize the warp, and the elected lane arrives
    once on an mbarrier for all of them; a consumer warp waits and reads every lane's data."""
    def make(variant, expect, reason):
        locs = [(f"d{l}", SHARED % 0) for l in range(L)] + [("m", SHARED % 0)]
        mask = (1 << L) - 1
        threads = []
        for l in range(L):
            code = ["bar.sync 0;", f"st.shared.u32 [d{l}], {l + 1};"]
            if variant != "no-warp-sync":
                code.append(f"bar.warp.sync {mask};")
            code += [f"elect.sync _|%e, {mask};", "@!%e bra END;",
                     "mbarrier.arrive.shared::cta.b64 _, [m];", "END:"]
            threads.append((f"L{l}", [("cta", 0), ("warp", 0)], code))
        cons = ["mbarrier.init.shared::cta.b64 [m], 1;", "bar.sync 0;"]
        cons += try_wait("W", "p", "m", 0)
        cons += [f"ld.shared.u32 %r{l}, [d{l}];" for l in range(L)]
        threads.append(("C", [("cta", 0), ("warp", 1)], cons))
        name = f"elect-leader-L{L}" + (f"-{variant}" if variant else "")
        what = f"elect.sync leader arrival for a warp of {L} lanes; a consumer warp waits."
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads,
                    any_wrong([(f"C:r{l}", l + 1) for l in range(L)]), expect, reason)
    return [
        make("", "unreachable",
             "§9.7.13.2: bar.warp.sync orders every lane's store before the leader's release "
             "arrive, which the consumer's wait acquires (D28, D33)."),
        make("no-warp-sync", "reachable",
             "Only the leader's own store is released by its arrive: another lane's store is "
             "unordered with the consumer's read."),
    ]


def tensormap_update_family():
    """A kernel rewrites a tensor map in global memory and publishes it; another CTA loads
    through it (the tensormap-proxy read that cp.async.bulk.tensor makes, written as a load of a
    tensormap alias)."""
    def make(variant, expect, reason):
        p0 = ["st.global.u32 [tmap], 1;"]
        if variant != "no-release-fence":
            p0.append("fence.proxy.tensormap::generic.release.gpu;")
        p0.append("st.release.gpu.global.u32 [flag], 1;")
        p1 = spin("W", "ld.acquire.gpu.global.u32 %f, [flag];\nsetp.eq.u32 %p, %f, 1;", "p")
        if variant != "no-acquire-fence":
            p1.append("fence.proxy.tensormap::generic.acquire.gpu [tmap], 128;")
        p1.append("ld.u32 %r0, [t];")
        locs = [("tmap", "0"), ("t", "{alias-of: tmap, proxy: tensormap}"), ("flag", "0")]
        threads = [("P0", [("cta", 0)], p0), ("P1", [("cta", 1)], p1)]
        name = "tensormap-update" + (f"-{variant}" if variant else "")
        what = "Device-side tensor-map update before a TMA load through it."
        return test(name, what + (f" Bug: {variant}." if variant else ""), locs, threads,
                    "exists (P1:r0 != 1)", expect, reason)
    return [
        make("", "unreachable",
             "§9.7.13.4: the release and acquire halves of the tensormap proxy fence, joined by "
             "the flag's release/acquire, order the generic write before the tensormap read (D31)."),
        make("no-release-fence", "reachable",
             "§9.7.13.4: without the release half in the writer, the acquire half alone does not "
             "carry the generic write to the tensormap proxy (D31)."),
        make("no-acquire-fence", "reachable",
             "§9.7.13.4: without the acquire half in the reader, the tensormap-proxy read is not "
             "ordered after the flag's acquire; the release half alone orders nothing (D31)."),
    ]
