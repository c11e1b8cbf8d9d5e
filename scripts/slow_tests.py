#!/usr/bin/env python3
"""Write tests/slow_tests.txt: the tests that take at least --threshold seconds (setup + call),
read from the output of `pytest --durations=0` runs. tests/conftest.py marks them `slow`;
`make test` leaves them out (the fast inner loop) and `make test-all` (CI) runs everything.

    .venv/bin/pytest -q -p no:cacheprovider --durations=0 tests --ignore=tests/lsp > main.log
    .venv/bin/pytest -q -p no:cacheprovider --durations=0 tests/lsp > lsp.log
    .venv/bin/python scripts/slow_tests.py main.log lsp.log [--threshold 4]

Times are per test function (all of its parameters together count as one entry, each
parameter's time added), so a parametrized test is slow or fast as a whole.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIST = ROOT / "tests" / "slow_tests.txt"
_ROW = re.compile(r"\s*([\d.]+)s (call|setup|teardown)\s+(\S+)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+", type=pathlib.Path)
    ap.add_argument("--threshold", type=float, default=4.0, help="seconds per test function (default 4)")
    args = ap.parse_args()
    seconds: collections.Counter[str] = collections.Counter()
    for log in args.logs:
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _ROW.match(line)
            if m and m.group(2) != "teardown":
                seconds[m.group(3).split("[", 1)[0]] += float(m.group(1))
    slow = sorted(name for name, s in seconds.items() if s >= args.threshold)
    total = sum(seconds.values())
    kept = sum(seconds[n] for n in slow)
    header = (
        f"# Tests marked slow (tests/conftest.py): {len(slow)} test functions of {len(seconds)} timed, "
        f"{kept:.0f} s of {total:.0f} s; made by scripts/slow_tests.py (threshold {args.threshold:g} s)\n"
    )
    LIST.write_text(header + "".join(f"{n}\n" for n in slow), encoding="utf-8")
    print(header.strip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
