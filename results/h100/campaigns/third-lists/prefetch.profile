prefetchPct = 100
