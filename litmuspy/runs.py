"""Reading `litmus run --json` result files: one JSON object per line, gzip-compressed or not."""
import gzip
import json


def records(path):
    """Every record of a result file, in file order."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def condition_hits(path):
    """A result file's tests, each with the most condition hits any of its runs had."""
    hits = {}
    for r in records(path):
        hits[r["test"]] = max(hits.get(r["test"], 0), r.get("condition") or 0)
    return hits


def verdict(r):
    """The verdict `litmus run` gave the record. Records from before verdicts existed have none,
    and the rules that decide one live in one place (judge/, through `litmus merge --rejudge`), not
    here."""
    if "verdict" not in r:
        raise ValueError(f"{r.get('test', '?')}: a record without a verdict (from before verdicts): "
                         "rejudge it with `litmus merge --rejudge FILE` first")
    return r["verdict"]
