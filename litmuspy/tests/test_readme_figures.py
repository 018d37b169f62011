"""Tests of litmuspy.readme_figures: the README passes as committed, and a drifted figure, a
figure dropped from the README and --write are each noticed or repaired."""
import contextlib
import io
import os
import pathlib
import tempfile
import unittest

from litmuspy import readme_figures

ROOT = pathlib.Path(__file__).resolve().parents[2]


class ReadmeFigures(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = pathlib.Path(tmp.name)
        for name in ("catalog", "tests", "checker", ".ci", "results"):
            os.symlink(ROOT / name, self.root / name)
        self.readme = self.root / "README.md"
        self.readme.write_text((ROOT / "README.md").read_text())

    def check(self, mode="--check"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = readme_figures.main(["readme_figures", mode, str(self.root)])
        return status, out.getvalue()

    def test_the_committed_readme_is_current(self):
        self.assertEqual(self.check()[0], 0)

    def test_a_drifted_figure_fails_and_write_repairs_it(self):
        value = dict((n, v) for n, v, _ in readme_figures.figures(self.root))["catalogue-tests"]
        text = self.readme.read_text()
        drifted = text.replace(f"bundled litmus tests ({value})", f"bundled litmus tests ({value + 1})")
        self.readme.write_text(drifted)
        status, out = self.check()
        self.assertEqual(status, 1)
        self.assertIn(f"catalogue-tests is quoted as {value + 1}; the tree says {value}", out)
        self.check("--write")
        self.assertEqual(self.readme.read_text(), text)

    def test_a_figure_dropped_from_the_readme_fails(self):
        text = self.readme.read_text().replace("unless more than", "unless over")
        self.readme.write_text(text)
        status, out = self.check()
        self.assertEqual(status, 1)
        self.assertIn("auto-racing-writes", out)

    def test_a_phrase_may_break_across_lines(self):
        rx = readme_figures.phrase_re("{} of them without barriers")
        self.assertEqual(rx.search("agree, 49 of them\nwithout barriers").group(1), "49")


if __name__ == "__main__":
    unittest.main()
