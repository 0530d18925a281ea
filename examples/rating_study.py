"""
How well does linkgraph's rating follow Sudoku Explainer's?
============================================================

Spearman's rank correlation over a rated corpus. The script reads the output of ``linkgraph batch FILE --job solve`` (CSV or JSONL) for a
puzzle file whose second column is an SE rating (sudoku_exchange_diabolical,
hardest_1106), keeps the rows that are solved and have a numeric SE rating,
and prints Spearman's rank correlation between the SE rating and ours
(``solver_rating``), with mean ratings per SE band.

    linkgraph batch linkgraph/data/puzzles/diabolical_sample.txt --job solve --out diabolical.csv
    python examples/rating_study.py diabolical.csv

The log of a soundness sweep has the same columns, so a sweep rates as it checks:

    linkgraph verify linkgraph/data/puzzles/diabolical_sample.txt --log diabolical.jsonl
    python examples/rating_study.py diabolical.jsonl

With ``--ladder se`` (Sudoku Explainer's path and rating, `linkgraph.techniques.serate`) the
same study measures how closely that emulation follows SE:

    linkgraph batch linkgraph/data/puzzles/diabolical_sample.txt --job solve --ladder se --out se.csv
    python examples/rating_study.py se.csv

Or it solves the puzzles itself (``--solve FILE``, with ``--ladder`` and
``--limit``), as the documentation's gallery runs it on the first 120 lines of
the shipped diabolical sample:

    python examples/rating_study.py --solve linkgraph/data/puzzles/diabolical_sample.txt --ladder se --limit 120

Spearman's rho is Pearson's correlation of the ranks (ties get their mean
rank), computed here with numpy.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import numpy as np


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of `values`, ties sharing their mean rank.

    >>> ranks(np.array([10.0, 20.0, 20.0, 5.0])).tolist()
    [2.0, 3.5, 3.5, 1.0]
    """
    order = np.argsort(values, kind="stable")
    r = np.empty(len(values))
    r[order] = np.arange(1, len(values) + 1)
    for v in np.unique(values):
        tie = values == v
        r[tie] = r[tie].mean()
    return r


def spearman(x, y) -> float:
    """Spearman's rank correlation of two equal-length sequences.

    >>> round(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 3), round(spearman([1, 2, 3], [3, 2, 1]), 3)
    (1.0, -1.0)
    """
    rx, ry = ranks(np.asarray(x, dtype=float)), ranks(np.asarray(y, dtype=float))
    return float(np.corrcoef(rx, ry)[0, 1])


def read_rows(path: Path) -> list[dict]:
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def solve_rows(path: Path, ladder: str, limit: int | None) -> list[dict]:
    """The rows of ``linkgraph batch PATH --job solve --ladder LADDER`` (on every core), in file order."""
    from linkgraph.io import read_puzzles
    from linkgraph.research.batch import iter_batch

    return list(iter_batch(read_puzzles(path, limit=limit), "solve", options={"ladder": ladder}, times=False))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="How well does linkgraph's rating follow Sudoku Explainer's?")
    ap.add_argument("results", type=Path, nargs="?",
                    help="output of `linkgraph batch FILE --job solve` (.csv or .jsonl), or a `linkgraph verify --log` file")
    ap.add_argument("--solve", type=Path, metavar="FILE",
                    help="solve the SE-rated puzzle file FILE here instead of reading results")
    ap.add_argument("--ladder", default="default", help="the ladder for --solve (default: default; se: SE's path)")
    ap.add_argument("--limit", type=int, help="with --solve: the first N puzzles only")
    args = ap.parse_args(argv)
    if (args.results is None) == (args.solve is None):
        ap.error("give a results file or --solve FILE (one of them)")
    rows = solve_rows(args.solve, args.ladder, args.limit) if args.solve else read_rows(args.results)
    if args.solve:
        print(f"solved {len(rows)} puzzles of {args.solve.name} with --ladder {args.ladder}")
    pairs, unsolved, unrated = [], 0, 0
    for row in rows:
        if "verify" in row:  # the header line of a `linkgraph verify --log` file
            continue
        try:
            se = float(row.get("rating") or "")
        except ValueError:
            unrated += 1
            continue
        if str(row.get("solved")) not in ("1", "True", "true"):
            unsolved += 1
            continue
        pairs.append((se, float(row["solver_rating"])))
    if len(pairs) < 3:
        print("fewer than 3 solved, rated puzzles: nothing to correlate", file=sys.stderr)
        return 1
    se, ours = map(np.array, zip(*pairs))
    print(f"puzzles {len(pairs)} (left out: {unsolved} unsolved, {unrated} without an SE rating)")
    print(f"Spearman rho = {spearman(se, ours):.3f}")
    print("SE band   n   our mean")
    for lo in np.arange(np.floor(se.min()), se.max() + 1e-9, 0.5):
        band = (se >= lo) & (se < lo + 0.5)
        if band.any():
            print(f"{lo:4.1f}-{lo + 0.5:4.1f} {band.sum():4d}   {ours[band].mean():5.2f}")
    return 0


if __name__ == "__main__":
    if status := main():  # no sys.exit(0): the docs gallery runs this block in-process
        sys.exit(status)
