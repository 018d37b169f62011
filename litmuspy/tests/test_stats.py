"""Tests of litmuspy.stats against values worked out by hand or from the definitions."""
import math
import unittest

from litmuspy.stats import bonferroni_z, sign_test, wilson


class Wilson(unittest.TestCase):
    def test_known_interval(self):
        # 36 of 112 at z = 1.96: centre (36 + 1.9208) / 115.8416, half-width 1.96 * sqrt(36 * 76 / 112 + 0.9604) / 115.8416.
        lo, hi = wilson(36, 112, 1.96)
        self.assertAlmostEqual(lo, 0.2421, places=4)
        self.assertAlmostEqual(hi, 0.4126, places=4)

    def test_bounds_stay_in_0_1_and_hold_the_share(self):
        for k, n in [(0, 10), (10, 10), (3, 7)]:
            lo, hi = wilson(k, n, 2.5)
            self.assertTrue(0.0 <= lo <= k / n <= hi <= 1.0, (k, n, lo, hi))

    def test_wider_for_a_larger_quantile(self):
        narrow, wide = wilson(5, 20, 1.0), wilson(5, 20, 3.0)
        self.assertLess(wide[0], narrow[0])
        self.assertGreater(wide[1], narrow[1])


class Bonferroni(unittest.TestCase):
    def test_one_interval_is_the_usual_95_percent(self):
        self.assertAlmostEqual(bonferroni_z(0.05, 1), 1.95996, places=4)

    def test_four_intervals_need_a_larger_quantile(self):
        self.assertAlmostEqual(bonferroni_z(0.05, 4), 2.49771, places=4)


class SignTest(unittest.TestCase):
    def test_eleven_to_none(self):
        self.assertAlmostEqual(sign_test(11, 0), 2 / 2 ** 11)

    def test_seven_to_none(self):
        self.assertAlmostEqual(sign_test(7, 0), 2 / 2 ** 7)

    def test_balanced_is_one(self):
        self.assertEqual(sign_test(5, 5), 1.0)
        self.assertEqual(sign_test(0, 0), 1.0)

    def test_symmetric(self):
        self.assertEqual(sign_test(3, 9), sign_test(9, 3))
        self.assertAlmostEqual(sign_test(3, 9), 2 * sum(math.comb(12, i) for i in range(4)) / 2 ** 12)


if __name__ == "__main__":
    unittest.main()
