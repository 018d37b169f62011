"""The project's Python: summaries of `litmus run --json` results (results/), the peer
comparisons, and the pattern-library generator (litmuspy.patterns, which writes patterns/).

Run from the repository root as modules, e.g. `python3 -m litmuspy.summarize results/h100`; the
tests are `python3 -m unittest discover -s litmuspy/tests -t .` (ctest `litmuspy`). Standard
library only.
"""
