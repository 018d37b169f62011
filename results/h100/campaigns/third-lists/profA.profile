# the pass-1/pass-2 sweep share that showed the most rarely seen .gpu/.cta-fence tests (docs/peer-gap.md section 5)
threadsPerBlock = 256
occupancyPct = 42
memStride = 4
interleavePct = 80
shufflePct = 95
barrierPct = 33
spinLimit = 2679
delayMax = 1058
roleSkew = 283
stressPct = 16
stressIters = 2035
stressLineBytes = 16
stressLines = 8
stressPattern = 0
preStressPct = 83
preStressIters = 128
