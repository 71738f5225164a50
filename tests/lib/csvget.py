#!/usr/bin/python3
# Debian's python3 (scripts/deps.sh): it starts in ~50 ms, where a pyenv
# shim first in PATH takes ~0.4 s, and this runs once per boot or lookup.
"""Read CSV columns by name (RFC 4180, as the runner writes them).

    tests/lib/csvget.py FILE COLUMN [KEY=VALUE ...]

Prints COLUMN of every row whose columns match every KEY=VALUE, one per
line. Tests use it instead of column positions, which move when a column
is added.
"""
import csv
import sys


def main():
    path, col, *conds = sys.argv[1:]
    want = dict(c.split("=", 1) for c in conds)
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        if col not in rows.fieldnames:
            sys.exit(f"csvget: {path} has no column '{col}' (it has {', '.join(rows.fieldnames)})")
        for r in rows:
            if all(r.get(k) == v for k, v in want.items()):
                print(r[col])


if __name__ == "__main__":
    main()
