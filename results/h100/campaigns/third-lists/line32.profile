lineStressPct = 100
lineStressOps = 32
