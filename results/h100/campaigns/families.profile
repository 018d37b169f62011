# litmus run: stress profile (docs/gpu-runner.md); `litmus run --tune` writes it
threadsPerBlock = 256    # testing threads per block
occupancyPct = 100    # % of the resident capacity used
memStride = 4    # words between instances' slots (max)
interleavePct = 50    # % launches with locations side by side
shufflePct = 100    # % launches with shuffled role blocks
barrierPct = 100    # % launches with the spin barrier
spinLimit = 4096    # polls before the barrier gives up
delayMax = 0    # random delay after the barrier (clocks)
stressPct = 0    # stressing blocks, % of testing blocks
stressIters = 0    # accesses per stressing thread
stressLineBytes = 64    # scratch line size
stressLines = 2    # scratch lines under stress
stressPattern = 0    # 0 st/st 1 st/ld 2 ld/st 3 ld/ld 4 any
preStressPct = 0    # % launches whose testers pre-stress
preStressIters = 0    # pre-stress accesses per tester
# Per-family profiles (`litmus run --tune --per-family`): a test of family NAME runs with its
# section; a section's keys start from the default profile above.

[family 2+2W]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family 3.2W]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family IRIW]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family ISA2]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family RWC]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family WRC]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family WRW+2W]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family WWC]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0

[family Z6.3]
threadsPerBlock = 256
occupancyPct = 100
memStride = 4
interleavePct = 50
shufflePct = 100
barrierPct = 100
spinLimit = 4096
delayMax = 0
stressPct = 0
stressIters = 0
stressLineBytes = 64
stressLines = 2
stressPattern = 0
preStressPct = 0
preStressIters = 0
