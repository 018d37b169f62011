"""The figures README.md quotes, computed from the tree: counts of the catalogue and the corpora,
the auto engine's threshold in checker/checker.cpp, the oversized inputs of tests/limits, the
recorded conformance levels and the counts of the committed H100 runs. Timings are not among
them: they vary from run to run, and the README names the bench script and the machine instead.

  python3 -m litmuspy.readme_figures [ROOT]           print each figure: NAME VALUE
  python3 -m litmuspy.readme_figures --check [ROOT]   exit 1 when the README quotes another value
  python3 -m litmuspy.readme_figures --write [ROOT]   rewrite the README's figures to the current values

Each figure is found in the README by the phrase around it; a phrase that is missing fails the
check too, so that a figure cannot drop out of the README unnoticed.
"""
import pathlib
import re
import sys


def count(root, folder, *suffixes):
    return sum(1 for p in (root / folder).rglob("*") if p.is_file() and p.name.endswith(suffixes))


def grab(path, pattern):
    m = re.search(pattern, path.read_text(), re.M)
    if not m:
        raise SystemExit(f"{path}: no match for {pattern!r}: the figure's source changed")
    return m.group(1)


def levels(root):
    text = (root / ".ci/conformance-level").read_text()
    return dict(line.split() for line in text.split("\n") if line.strip())


def figures(root):
    """(name, value, README phrase with {} where the value stands)"""
    lvl = levels(root)
    limits = root / "tests/limits/gen_inputs.py"
    auto = grab(root / "checker/checker.cpp", r"kAutoSmtRacingWrites = (\d+);")
    return [
        ("catalogue-tests", count(root, "catalog", ".yaml", ".litmus"), "bundled litmus tests ({})"),
        ("bad-input-files", count(root, "tests/bad-input", ".yaml", ".litmus"),
         "the bad-input corpus ({} files)"),
        ("auto-racing-writes", int(auto), "unless more than {} plain writes"),
        ("limits-items", int(grab(limits, r"n, line = (\d+) // a\.scale")), "{} locations or threads"),
        ("limits-line-mb", int(grab(limits, r"line = \d+ // a\.scale, (\d+) \* 1000 \* 1000")),
         "or a {} MB line"),
        ("conformance-all", int(lvl["all"]), "{} tests with an expected verdict agree"),
        ("conformance-core", int(lvl["core"]), "{} of them without barriers or proxies"),
        ("conformance-liveness", int(lvl["liveness"]), "and {} liveness verdicts"),
        ("h100-self-test",
         int(grab(root / "results/h100/self-test.txt", r"^Self-test: (\d+) known-answer tests")),
         "on our H100: {} tests"),
        ("h100-catalogue-run", int(grab(root / "results/h100/summary.md", r"^- tests: (\d+)$")),
         "conformance run ({} tests"),
    ]


def phrase_re(phrase):
    """The phrase with its value as group 1; a space matches any run of spaces and line breaks."""
    before, after = (r"\s+".join(map(re.escape, part.split(" "))) for part in phrase.split("{}"))
    return re.compile(before + r"(\d[\d,]*)" + after)


def main(argv):
    mode = argv[1] if len(argv) > 1 and argv[1].startswith("--") else None
    rest = argv[2:] if mode else argv[1:]
    if mode not in (None, "--check", "--write"):
        print(f"usage: {argv[0]} [--check|--write] [ROOT]", file=sys.stderr)
        return 2
    root = pathlib.Path(rest[0] if rest else pathlib.Path(__file__).resolve().parent.parent)
    readme = root / "README.md"
    text = readme.read_text()
    drift = 0
    for name, value, phrase in figures(root):
        rx = phrase_re(phrase)
        quoted = [int(m.group(1).replace(",", "")) for m in rx.finditer(text)]
        if mode is None:
            print(name, value)
        elif mode == "--write":
            text = rx.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)]
                          + (f"{value:,}" if "," in m.group(1) else str(value))
                          + m.group(0)[m.end(1) - m.start(0):], text)
        elif not quoted:
            print(f"README.md: the figure {name} ({value}) is not quoted: no '{phrase.format('N')}'")
            drift += 1
        elif any(q != value for q in quoted):
            print(f"README.md: {name} is quoted as {', '.join(map(str, quoted))}; the tree says {value}"
                  f" (python3 -m litmuspy.readme_figures --write updates it)")
            drift += 1
        else:
            print(f"ok {name} {value}")
    if mode == "--write":
        readme.write_text(text)
    return 1 if drift else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
