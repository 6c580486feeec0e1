#!/usr/bin/python3
"""Validate an xdplab results file against docs/results.schema.json: lab run's
(xdplab.lab-results/1), a single command's (xdplab.run-results/1), monitor's
(xdplab.monitor-results/1) or ndr's (xdplab.ndr-results/1) --json FILE.

Usage: scripts/validate-results.py RESULTS.json
Exit status: 0 valid, 1 invalid or not JSON (the first error is printed),
2 usage (no argument, or a file that cannot be read: one line).
Uses Debian's python3-jsonschema (installed by scripts/deps.sh).
"""
import json
import os
import sys

import jsonschema


def main():
    if len(sys.argv) != 2:
        print("usage: validate-results.py RESULTS.json", file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "docs", "results.schema.json")) as f:
        schema = json.load(f)
    try:
        with open(sys.argv[1]) as f:
            doc = json.load(f)
    except OSError as e:
        print(f"validate-results.py: {sys.argv[1]}: {e.strerror} (give a results file of 'xdplab lab run --json')",
              file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        print(f"{sys.argv[1]}: invalid: not JSON ({e})", file=sys.stderr)
        return 1
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as e:
        path = "/".join(str(p) for p in e.absolute_path)
        print(f"{sys.argv[1]}: invalid at /{path}: {e.message}", file=sys.stderr)
        return 1
    extra = f", {len(doc['ndr'])} ndr rows" if "ndr" in doc else ""
    print(f"{sys.argv[1]}: valid ({len(doc['rows'])} rows{extra})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
