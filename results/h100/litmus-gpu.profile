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
