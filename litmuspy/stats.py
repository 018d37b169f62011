"""The statistics the comparisons use, on the standard library (statistics, math)."""
import math
import statistics


def wilson(k, n, z):
    """The Wilson score interval of k successes in n trials at normal quantile z."""
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    return max(0.0, centre - half), min(1.0, centre + half)


def bonferroni_z(alpha, m):
    """The two-sided normal quantile that makes m intervals hold together with 1 - alpha."""
    return statistics.NormalDist().inv_cdf(1 - alpha / (2 * m))


def sign_test(a, b):
    """Two-sided exact sign test on the discordant pairs (a only one side, b only the other)."""
    n, k = a + b, min(a, b)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
