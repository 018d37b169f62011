"""Tests of the pattern-library generator (litmuspy/patterns).

1. The committed library (patterns/) is what the generator writes.
2. Every buggy variant differs from its family's correct test in exactly the intended step: the
   same locations, condition and thread placement, and every code line it removes or adds is one
   of the lines that step names (at least one line changes). So a variant's verdict can only come
   from that step.
3. Every variant is flagged: it expects the bad outcome reachable or a possible hang, while the
   correct test expects neither.
Run at the reference sizes and at a second size, so that the sizes are real parameters.
"""
import difflib
import re
import tempfile
import unittest

from litmuspy.patterns.generate import LIBRARY, differences, write_library
from litmuspy.patterns.registry import DEFAULTS, FAMILIES

SPIN = r"^[A-Z]\d*:$|@!%[a-z]\d* bra [A-Z]\d*;$"
# variant suffix -> (lines it may remove, lines it may add): regular expressions over code lines
STEPS = {
    "no-expect_tx": (r"mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[full\d+\], \d+;",
                     r"^mbarrier\.arrive\.shared::cta\.b64 _, \[full\d+\];$"),
    "no-empty-wait": (SPIN + r"|mbarrier\.try_wait\.parity(\.acquire\.cluster)?\.shared::cta\.b64 %e\d+, \[empty\d+\]",
                      None),
    "wrong-parity": (r"^mbarrier\.try_wait\.parity(\.acquire\.cluster)?\.shared::cta\.b64 %f\d+, \[full\d+(c\d+)?\], [01];$",) * 2,
    "consumer-no-release": (r"^fence\.proxy\.async\.shared::cta;$|^mbarrier\.arrive\.shared::cta\.b64 _, \[empty\d+\];$"
                            r"|^mbarrier\.arrive\.release\.cluster\.shared::cluster\.b64 _, \[%m\d+\];$", None),
    "no-consumer-proxy-fence": (r"^fence\.proxy\.async\.shared::cta;$", None),
    "relaxed-wait": (r"^mbarrier\.try_wait\.parity\.shared::cta\.b64 %f\d+, ",
                     r"^mbarrier\.try_wait\.parity\.relaxed\.cta\.shared::cta\.b64 %f\d+, "),
    "relaxed-arrive": (r"^mbarrier\.arrive\.shared::cta\.b64 _, \[empty\d+\];$"
                       r"|^mbarrier\.arrive\.release\.cluster\.shared::cluster\.b64 _, \[%m\d+\];$",
                       r"^mbarrier\.arrive\.relaxed\.cta\.shared::cta\.b64 _, \[empty\d+\];$"
                       r"|^mbarrier\.arrive\.relaxed\.cluster\.shared::cluster\.b64 _, \[%m\d+\];$"),
    "empty-count-1": (r"^mbarrier\.init\.shared::cta\.b64 \[empty\d+\], \d+;$",
                      r"^mbarrier\.init\.shared::cta\.b64 \[empty\d+\], 1;$"),
    "no-order": (SPIN + r"|mbarrier\.try_wait\.parity\.shared::cta\.b64 %t\d+, \[turn\]", None),
    "wait.cta": (r"try_wait\.parity\.acquire\.cluster\.shared::cta\.b64 %[pf]\d*, \[full",
                 r"try_wait\.parity\.shared::cta\.b64 %[pf]\d*, \[full"),
    "empty-wait.cta": (r"try_wait\.parity\.acquire\.cluster\.shared::cta\.b64 %e\d+, \[empty",
                       r"try_wait\.parity\.shared::cta\.b64 %e\d+, \[empty"),
    "empty-arrive.cta": (r"^mbarrier\.arrive\.release\.cluster\.shared::cluster\.b64 _, \[%m\d+\];$",
                         r"^mbarrier\.arrive\.release\.cta\.shared::cluster\.b64 _, \[%m\d+\];$"),
    "relaxed-turn": (r"^mbarrier\.arrive\.shared::cta\.b64 _, \[turn\];$",
                     r"^mbarrier\.arrive\.relaxed\.cta\.shared::cta\.b64 _, \[turn\];$"),
    # the pipeline state restarts each tile: the stage, the parity and the empty waits of the
    # tile's blocks change, nothing else
    "state-reset": (SPIN + r"|^mbarrier\.try_wait\.parity\.shared::cta\.b64 %[ef]\d+, \[(full|empty)\d+\], [01];$"
                    r"|^mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[full\d+\], 16;$"
                    r"|^cp\.async\.bulk\..* \[s\d+\], \[g\d+\], 16, \[full\d+\];$|^ld\.shared\.u32 %r\d+, \[s\d+\];$"
                    r"|^fence\.proxy\.async\.shared::cta;$|^mbarrier\.arrive\.shared::cta\.b64 _, \[empty\d+\];$",) * 2,
    "tile-start-no-empty-wait": (SPIN + r"|mbarrier\.try_wait\.parity\.shared::cta\.b64 %e\d+, \[empty\d+\]", None),
    "no-init-fence": (r"^fence\.mbarrier_init\.release\.cluster;$", None),
    "no-proxy-fence": (r"^fence\.proxy\.async\.shared::(cta|cluster);$", None),
    "no-wait-read": (r"^cp\.async\.bulk\.wait_group\.read 0;$", None),
    "relaxed": (r"\.(acquire|release)\.gpu\.|^barrier\.cluster\.arrive;$",
                r"\.relaxed\.gpu\.|^barrier\.cluster\.arrive\.relaxed;$"),
    "cta-scope": (r"\.(acquire|release)\.gpu\.", r"\.(acquire|release)\.cta\."),
    "no-barrier": (r"^barrier\.cluster\.(arrive|wait);$", None),
    "no-warp-sync": (r"^bar\.warp\.sync \d+;$", None),
    "no-release-fence": (r"^fence\.proxy\.tensormap::generic\.release\.gpu;$", None),
    "no-acquire-fence": (r"^fence\.proxy\.tensormap::generic\.acquire\.gpu \[tmap\], 128;$", None),
    "read-regardless": (r"^@!%p bra END;$|^END:$", None),
}
# tests that are a second correct form of their family, with the step that makes them differ
ALTERNATIVES = {"test-wait-token": (r"^mbarrier\.try_wait\.parity", r"^mbarrier\.test_wait\.parity")}


def changed_lines(correct, variant):
    """(removed, added) code lines of variant against correct, thread by thread."""
    removed, added = [], []
    for (name_a, place_a, code_a), (name_b, place_b, code_b) in zip(correct["threads"], variant["threads"]):
        if name_a != name_b or place_a != place_b:
            raise AssertionError(f"thread {name_a} differs in name or placement")
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, code_a, code_b).get_opcodes():
            if op != "equal":
                removed += code_a[i1:i2]
                added += code_b[j1:j2]
    return removed, added


def check_step(correct, variant, step):
    """Problems of one variant against its family's correct test (an empty list when none)."""
    problems = []
    for key in ("locations", "condition"):
        if correct[key] != variant[key]:
            problems.append(f"{key} differ from {correct['name']}")
    if len(correct["threads"]) != len(variant["threads"]):
        return problems + ["the number of threads differs"]
    try:
        removed, added = changed_lines(correct, variant)
    except AssertionError as e:
        return problems + [str(e)]
    if not removed and not added:
        problems.append(f"same code as {correct['name']}")
    may_remove, may_add = step
    for line in removed:
        if not re.search(may_remove, line):
            problems.append(f"removes a line outside its step: {line!r}")
    for line in added:
        if may_add is None or not re.search(may_add, line):
            problems.append(f"adds a line outside its step: {line!r}")
    return problems


def check_family(family, tests):
    correct, problems = tests[0], []
    if correct["expect"] != "unreachable" or correct["liveness"] != "terminates":
        problems.append(f"{correct['name']}: the correct test must expect unreachable and terminates")
    for t in tests[1:]:
        suffix = t["name"][len(correct["name"]) + 1:] if t["name"].startswith(correct["name"] + "-") else None
        step = ALTERNATIVES.get(t["name"]) or STEPS.get(suffix)
        if step is None:
            problems.append(f"{t['name']}: no intended step known for this variant")
            continue
        found = check_step(correct, t, step)
        flagged = t["expect"] == "reachable" or t["liveness"] == "may-hang"
        if t["name"] in ALTERNATIVES:
            flagged = not flagged  # a second correct form: it must not be flagged
        if not flagged:
            found.append(f"expects {t['expect']} and {t['liveness']}: the checker would not flag it")
        problems += [f"{t['name']}: {p}" for p in found]
    return problems


class PatternLibrary(unittest.TestCase):
    def test_committed_library_is_what_the_generator_writes(self):
        with tempfile.TemporaryDirectory() as tmp:
            write_library(tmp)
            self.assertEqual(differences(tmp, LIBRARY), [])

    def test_each_variant_differs_in_its_step_only_and_is_flagged(self):
        checked = 0
        for family, make in FAMILIES.items():
            sizes = [DEFAULTS[family], {k: v + 1 for k, v in DEFAULTS[family].items()}]
            for params in sizes:
                with self.subTest(family=family, sizes=params):
                    tests = make(**params)
                    checked += len(tests)
                    self.assertEqual(check_family(family, tests), [])
        self.assertGreaterEqual(checked, 4 * len(FAMILIES))  # each family: a correct test and a variant, two sizes

    def test_a_variant_outside_its_step_is_caught(self):
        # The check must be able to fail: a variant that also drops an unrelated line.
        family = next(iter(FAMILIES))
        tests = FAMILIES[family](**DEFAULTS[family])
        broken = dict(tests[1], threads=[(n, p, code[1:]) for n, p, code in tests[1]["threads"]])
        self.assertNotEqual(check_family(family, [tests[0], broken]), [])


if __name__ == "__main__":
    unittest.main()
