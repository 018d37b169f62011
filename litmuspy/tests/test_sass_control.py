"""Unit tests of litmuspy.sass_control on fixed lines of `nvdisasm -hex` output (CUDA 12.4's
nvdisasm on a cubin of CUDA 13.0's ptxas -arch=sm_90: bench/f1-repro/f1.cu's default variant)."""

import unittest

from litmuspy import sass_control as sc

# The wait, the load after it, and the two instructions that use their results.
LISTING = """\
.L_x_73:
        /*0310*/               @P2 SYNCS.PHASECHK.TRANS64.TRYWAIT P3, [R0+UR8], R13 ;             /* 0x0000000d000025a7 */
                                                                                                  /* 0x000e620008060148 */
        /*0320*/               @P2 LDS R7, [R5] ;                                                 /* 0x0000000005072984 */
                                                                                                  /* 0x000ea20000000800 */
        /*0330*/               @P2 SEL R8, RZ, 0x1, !P3 ;                                         /* 0x00000001ff082807 */
                                                                                                  /* 0x002fe40005800000 */
        /*0340*/               @P2 LOP3.LUT R7, R7, 0x1, RZ, 0xc0, !PT ;                          /* 0x0000000107072812 */
                                                                                                  /* 0x004fc600078ec0ff */
"""


class ControlFields(unittest.TestCase):
    def test_trywait_sets_write_scoreboard_1(self):
        c = sc.Control(0x000E620008060148)
        self.assertEqual((c.stall, c.yield_bit, c.write, c.read, c.wait, c.reuse), (1, 1, 1, 7, 0, 0))
        self.assertEqual(str(c), "S01 - wr=1 rd=- wait=-")

    def test_consumer_waits_on_scoreboard_1(self):
        c = sc.Control(0x002FE40005800000)
        self.assertEqual(c.waited(), [1])
        self.assertEqual((c.stall, c.write, c.read), (2, 7, 7))

    def test_yield_and_stall(self):
        c = sc.Control(0x004FC600078EC0FF)  # LOP3 after the load: waits on 2, stall 3, yield bit 0
        self.assertEqual((c.stall, c.yield_bit, c.waited()), (3, 0, [2]))
        self.assertEqual(str(c), "S03 Y wr=- rd=- wait=2")

    def test_all_scoreboards_and_read_barrier(self):
        # the fence variant: MEMBAR.ALL.CTA sets read scoreboard 2, the NOP after it waits on all
        membar = sc.Control(0x0005EC0000008000)
        self.assertEqual((membar.stall, membar.write, membar.read, membar.wait), (6, 7, 2, 0))
        self.assertEqual(sc.Control(0x03FFE20000000000).waited(), [0, 1, 2, 3, 4, 5])

    def test_reuse_flags(self):
        c = sc.Control(0x040FE200078EC0FF)  # LOP3.LUT R10, R11.reuse, ...
        self.assertEqual(c.reuse, 1)
        self.assertTrue(str(c).endswith("reuse=a---"))


class Annotate(unittest.TestCase):
    def lines(self):
        return list(sc.annotate(LISTING.splitlines(True)))

    def test_one_line_per_instruction_labels_kept(self):
        out = self.lines()
        self.assertEqual(len(out), 5)
        self.assertEqual(out[0], ".L_x_73:")

    def test_load_does_not_wait_for_the_wait(self):
        load = self.lines()[2]
        self.assertTrue(load.startswith("/*0320*/ @P2 LDS R7, [R5] ;  | S01 - wr=2"), load)
        self.assertIn("wait=-", load)

    def test_predicate_use_names_the_wait(self):
        sel = self.lines()[3]
        self.assertIn("wait=1 <- 1:/*0310*/ @P2 SYNCS.PHASECHK.TRANS64.TRYWAIT", sel)

    def test_data_use_names_the_load(self):
        self.assertIn("wait=2 <- 2:/*0320*/ @P2 LDS R7, [R5] ;", self.lines()[4])

    def test_hex_kept_on_request(self):
        out = list(sc.annotate(LISTING.splitlines(True), keep_hex=True))
        self.assertTrue(out[1].endswith("[0x0000000d000025a7 0x000e620008060148]"), out[1])

    def test_new_function_forgets_setters(self):
        text = LISTING + ".text.other:\n" + "\n".join(LISTING.splitlines()[5:7]) + "\n"
        sel = list(sc.annotate(text.splitlines(True)))[-1]
        self.assertTrue(sel.endswith("wait=1"), sel)

    def test_missing_high_word(self):
        out = list(sc.annotate(LISTING.splitlines(True)[:2]))
        self.assertEqual(out[-1], "/*0310*/ @P2 SYNCS.PHASECHK.TRANS64.TRYWAIT P3, [R0+UR8], R13 ;  | (no high word)")


if __name__ == "__main__":
    unittest.main()
