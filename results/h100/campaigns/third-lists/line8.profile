lineStressPct = 100
lineStressOps = 8
