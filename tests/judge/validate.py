#!/usr/bin/env python3
"""Validates JSON-lines result files against docs/result.schema.json.

Usage: validate.py SCHEMA KINDS FILE...: every line that is a JSON object must validate, and the
files together must hold a record of each kind named in KINDS (comma-separated). A record that
breaks the schema on purpose (a suite record without verdictMet) must be refused, so that a schema
that accepts anything fails too. Exit 1 with one line per problem.
"""
import json
import sys

import jsonschema


def main():
    schema_path, kinds, files = sys.argv[1], set(sys.argv[2].split(",")), sys.argv[3:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    problems, seen, count = [], set(), 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.startswith("{"):
                    continue
                record = json.loads(line)
                count += 1
                seen.add(record.get("kind"))
                for e in validator.iter_errors(record):
                    where = "/".join(str(p) for p in e.absolute_path)
                    problems.append(f"{path}:{n}: {where}: {e.message[:200]}")
    for k in sorted(kinds - seen):
        problems.append(f"no record of kind '{k}' among {count}")
    broken = {"schema": {"name": "ptx-litmus-result", "version": 1}, "kind": "suite", "path": "x",
              "verdict": "pass", "expected": "none", "expectedLiveness": None, "livenessMet": None,
              "message": "", "outcome": {"status": "done", "quantifier": "exists", "states": []}}
    if validator.is_valid(broken):
        problems.append("the schema accepts a suite record without verdictMet")
    for p in problems:
        print(f"validate: {p}")
    print(f"validate: {count} records, kinds {', '.join(sorted(k for k in seen if k))}, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
