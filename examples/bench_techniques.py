"""
Time each technique per call
============================

Each pattern and chain technique timed per call, on positions stuck after the basic ladder.

The solver asks each rung of the ladder for its first step that makes
progress, over and over, so what counts is the time of one such call. For
every ``--every``-th puzzle of the corpus (top1465 by default) the script
applies the basic ladder (`linkgraph.solver.prepare`, not timed), then asks
each technique for its first step (``--mode first``, as the solver does) or
for every step (``--mode all``), and prints the mean and worst milliseconds
per call and how often a step was found.

Run from the repository root::

    python examples/bench_techniques.py                    # every 10th of top1465
    python examples/bench_techniques.py --every 36 --mode all
    python examples/bench_techniques.py --techniques aic,grouped-aic --format json

The whole-solve figure (mean time per puzzle with the default ladder) comes
from the bench command: ``linkgraph bench --job solve --limit 50``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from linkgraph.io import corpus_path, read_puzzles
from linkgraph.solver import makes_progress, prepare
from linkgraph.techniques import TECHNIQUES, resolve_ladder

#: The rungs between the basic ladder and the forcing chains.
DEFAULT = [
    t.name for t in resolve_ladder("default")
    if t.family in ("fish", "single-digit", "wings", "chains") and t.name not in
    ("x-wing", "swordfish", "jellyfish")
]


def first_step(find, grid):
    """The first step that makes progress, or None (what the solver takes)."""
    for step in find(grid):
        if makes_progress(grid, step):
            return step
    return None


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description='Time each technique per call')
    p.add_argument("--corpus", default="top1465", help="corpus name or puzzle file (default top1465)")
    p.add_argument("--every", type=int, default=10, help="take every N-th puzzle (default 10)")
    p.add_argument("--limit", type=int, default=None, help="at most this many positions")
    p.add_argument("--techniques", default=",".join(DEFAULT), help="comma list of technique names")
    p.add_argument("--mode", choices=("first", "all"), default="first",
                   help="first: time to the first step that makes progress (default); all: every step")
    p.add_argument("--cpu", action="store_true",
                   help="time with process CPU time instead of wall time (steadier on a shared machine)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    args = p.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    names = [n.strip() for n in args.techniques.split(",") if n.strip()]
    unknown = [n for n in names if n not in TECHNIQUES]
    if unknown:
        p.error(f"unknown technique(s): {', '.join(unknown)}")
    lines = list(read_puzzles(corpus_path(args.corpus)))[:: args.every]
    if args.limit:
        lines = lines[: args.limit]
    grids = [prepare(line.grid()) for line in lines]
    grids = [g for g in grids if not g.placed.all()]
    times: dict[str, list[float]] = {n: [] for n in names}
    found = {n: 0 for n in names}
    if grids:  # warm up, untimed: the geometry's derived arrays are built on first use
        for name in names:
            first_step(TECHNIQUES[name].find, grids[-1])
    for grid in grids:
        for name in names:
            find = TECHNIQUES[name].find
            t0 = clock()
            if args.mode == "first":
                hit = first_step(find, grid) is not None
            else:
                hit = len(list(find(grid))) > 0
            times[name].append(clock() - t0)
            found[name] += hit
    rows = []
    for name in names:
        ms = [t * 1000 for t in times[name]]
        rows.append({
            "technique": name, "calls": len(ms), "found": found[name],
            "mean_ms": round(statistics.fmean(ms), 3) if ms else None,
            "max_ms": round(max(ms), 3) if ms else None,
        })
    total = sum(r["mean_ms"] or 0 for r in rows)
    report = {"corpus": args.corpus, "every": args.every, "mode": args.mode, "clock": "cpu" if args.cpu else "wall",
              "positions": len(grids),
              "results": rows, "sum_mean_ms": round(total, 3)}
    if args.format == "json":
        print(json.dumps(report, indent=1))
    else:
        print(f"{args.corpus}, every {args.every}th puzzle: {len(grids)} positions after the basic ladder, "
              f"mode {args.mode}, {report['clock']} time")
        print(f"{'technique':<20} {'calls':>6} {'found':>6} {'mean ms':>9} {'max ms':>9}")
        for r in rows:
            print(f"{r['technique']:<20} {r['calls']:>6} {r['found']:>6} {r['mean_ms']:>9} {r['max_ms']:>9}")
        print(f"{'sum of means':<20} {'':>6} {'':>6} {round(total, 3):>9}")
    return report


if __name__ == "__main__":
    main()
