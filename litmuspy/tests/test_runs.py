"""Tests of litmuspy.runs and of the summaries built on it, over small result files."""
import contextlib
import gzip
import io
import json
import os
import sys
import tempfile
import unittest

from litmuspy import campaign_summary, summarize
from litmuspy.runs import condition_hits, records, verdict


def record(test, verdict_, **extra):
    r = {"test": test, "file": f"catalog/shapes/{test}.yaml", "device": "Fake GPU", "status": "ok",
         "instances": 1000, "condition": 0, "histogram": [], "neverObserved": [], "verdict": verdict_}
    r.update(extra)
    return r


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, rows, gz=False):
        path = os.path.join(self.dir.name, name)
        with (gzip.open(path, "wt") if gz else open(path, "w")) as f:
            for r in rows:
                f.write(json.dumps(r) + "\n\n")  # blank lines are skipped
        return path

    def test_records_plain_and_gzip_alike(self):
        rows = [record("MP", "ok"), record("SB", "violation")]
        self.assertEqual(records(self.write("a.json", rows)), rows)
        self.assertEqual(records(self.write("a.json.gz", rows, gz=True)), rows)

    def test_condition_hits_keeps_the_most_of_repeated_runs(self):
        path = self.write("r.json", [record("MP", "ok", condition=3), record("MP", "ok", condition=7),
                                     record("SB", "ok")])
        self.assertEqual(condition_hits(path), {"MP": 7, "SB": 0})

    def test_verdict_is_the_runners_and_never_guessed(self):
        self.assertEqual(verdict(record("MP", "hung")), "hung")
        old = record("MP", "ok")
        del old["verdict"]
        with self.assertRaises(ValueError):
            verdict(old)

    def run_main(self, module, argv):
        out = io.StringIO()
        saved = sys.argv
        sys.argv = argv
        try:
            with contextlib.redirect_stdout(out):
                module.main(*([] if module is summarize else argv[1:]))
        finally:
            sys.argv = saved
        return out.getvalue()

    def test_summary_counts_each_verdict(self):
        self.write("catalog.json", [record("MP", "ok"), record("SB", "violation", violations=5),
                                    record("LB", "hung", status="timeout"),
                                    record("X", "refused", reason="x.yaml:1:1: error: cannot run 'x'")])
        text = self.run_main(summarize, ["summarize", self.dir.name])
        for line in ["- tests: 4", "- ok (every instance recorded, every state allowed by a decided model): 1",
                     "- violation (a state the model forbids observed): 1",
                     "- hung, where the model says the test can hang: 1", "- refused by the runner: 1"]:
            self.assertIn(line, text)

    def test_campaign_summary_counts_per_family(self):
        bad = {"state": {"P1:r0": 1}, "count": 4, "allowed": False}
        path = self.write("c.json", [
            record("MP-a", "ok", family="MP", conditionAllowed=True, condition=2),
            record("MP-b", "violation", family="MP", conditionAllowed=False, violations=4, histogram=[bad])])
        text = self.run_main(campaign_summary, ["campaign_summary", path, "gen/configs/x.yaml", "T"])
        self.assertIn("| MP | 2 | 0 | 1 | 0 | 1 | 0 | 1 | 1 | 0 | 0 | 0 | 0 | 0 |", text)
        self.assertIn("## States the model forbids that the GPU showed (1 tests)", text)
        self.assertIn("| `MP-b` | 1000 | P1:r0=1: 4 |", text)


if __name__ == "__main__":
    unittest.main()
