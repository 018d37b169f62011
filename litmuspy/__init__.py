"""The project's Python: summaries of `litmus run --json` results (results/), the peer
comparisons, the pattern-library generator (litmuspy.patterns, which writes patterns/), the SASS
control-bit decoder and cubin extraction (sass_control, jit_cache_cubins), and the README's
figures (readme_figures). Test drivers stay beside their tests under tests/.

Run from the repository root as modules, e.g. `python3 -m litmuspy.summarize results/h100`; the
tests are `python3 -m unittest discover -s litmuspy/tests -t .` (ctest `litmuspy`). Standard
library only.
"""
