lineStressPct = 100
lineStressOps = 128
