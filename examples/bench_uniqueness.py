"""
How fast is the uniqueness check on puzzles built against backtracking?
=======================================================================

The uniqueness check and ``linkgraph solve`` timed on such puzzles. Norvig's "impossible" puzzle has no solution, and a search that branches on cells only
needs minutes to find that out (its transposed and relabelled forms too). Wikipedia's
"Sudoku designed to work against the brute force algorithm" has one solution, hidden
behind a first row of blanks. For each form this prints the median process time of

- ``check``: `linkgraph.oracle.count_solutions` (the uniqueness check every command runs);
- ``solve``: the whole ``linkgraph solve PUZZLE`` command, in this process, from reading
  the puzzle to its answer (exit 2 "no solution" for Norvig's forms, the solve path for
  Wikipedia's).

The forms are timed in turn within each round (so a busy machine slows them alike), and
the rounds repeated; process time, not wall time, so other jobs on the machine count less.

Run: ``python examples/bench_uniqueness.py [--repeat N] [--format json]``.

>>> rows = run(repeat=1)
>>> sorted({r["solutions"] for r in rows}), all(r["exit"] in (0, 2) for r in rows)
([0, 1], True)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import time

import linkgraph as lg
from linkgraph.cli.main import main

NORVIG = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
WIKIPEDIA = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"


def transposed(p: str) -> str:
    return "".join(p[c * 9 + r] for r in range(9) for c in range(9))


def relabelled(p: str, perm: str = "912345678") -> str:
    return "".join(perm[int(ch) - 1] if ch in "123456789" else ch for ch in p)


def rotated(p: str) -> str:
    """A quarter turn clockwise."""
    return "".join(p[(8 - c) * 9 + r] for r in range(9) for c in range(9))


def bands_swapped(p: str) -> str:
    """Bands 1 and 3 exchanged (rows 1-3 with rows 7-9)."""
    return p[54:] + p[27:54] + p[:27]


FORMS = {
    "norvig": NORVIG,
    "norvig transposed": transposed(NORVIG),
    "norvig relabelled": relabelled(NORVIG),
    "norvig transposed+relabelled": relabelled(transposed(NORVIG), "387294615"),
    "norvig rotated": rotated(NORVIG),
    "norvig bands swapped": bands_swapped(NORVIG),
    "wikipedia brute-force": WIKIPEDIA,
    "wikipedia transposed": transposed(WIKIPEDIA),
}


def _cpu(fn) -> tuple[float, object]:
    t0 = time.process_time()
    value = fn()
    return time.process_time() - t0, value


def _solve_command(puzzle: str) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["solve", puzzle])


def run(repeat: int = 5) -> list[dict]:
    """One row per form: solutions, the command's exit status, median check and solve milliseconds."""
    check: dict[str, list[float]] = {name: [] for name in FORMS}
    solve: dict[str, list[float]] = {name: [] for name in FORMS}
    found: dict[str, tuple[int, int]] = {}
    for _ in range(repeat):
        for name, puzzle in FORMS.items():
            grid = lg.Grid.parse(puzzle)
            t, n = _cpu(lambda: lg.oracle.count_solutions(grid))
            check[name].append(t)
            t, code = _cpu(lambda: _solve_command(puzzle))
            solve[name].append(t)
            found[name] = (n, code)
    return [{"form": name, "solutions": found[name][0], "exit": found[name][1],
             "check_ms": round(1000 * statistics.median(check[name]), 2),
             "solve_ms": round(1000 * statistics.median(solve[name]), 1)} for name in FORMS]


def _main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds over all forms (default 5)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    rows = run(args.repeat)
    if args.format == "json":
        print(json.dumps(rows, indent=1))
        return
    print(f"{'form':<30} {'solutions':>9} {'exit':>4} {'check ms':>9} {'solve ms':>9}   (median of {args.repeat}, process time)")
    for r in rows:
        print(f"{r['form']:<30} {r['solutions']:>9} {r['exit']:>4} {r['check_ms']:>9} {r['solve_ms']:>9}")


if __name__ == "__main__":
    _main()
