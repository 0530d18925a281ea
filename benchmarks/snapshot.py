"""The solve snapshot: every step and every proof of a fixed set of solves, and a digest.

A speed change must leave solve paths, ratings and proofs as they were. This script
solves a fixed selection of the shipped corpora and writes what came out, step by step
(technique, notation, placements, eliminations, premises, rating, and the proof graph's
nodes and edges with their attributes), as canonical JSON; it prints a 16-hex digest of
each file. Run it before and after a change and compare the digests; where they differ,
``diff`` the two JSON files to see the first step that moved.

    .venv/bin/python benchmarks/snapshot.py OUTDIR [--quick]

The selection (about 180 solves, a few minutes on one core): the GNPX seed puzzle, the
famous puzzles, top95, every 25th puzzle of the hardest sample, with the default ladder;
the first 12 of the diabolical sample and 4 of the hardest sample with ``--ladder se``; and
Sudoku Explainer's own walk (`linkgraph.techniques.se.solver.rate`, ER/EP/ED and every
hint) on the first 8 of the diabolical sample. ``--quick`` takes one solve in ten.

The digests are a regression check of the code against itself, not truth: truth is
`linkgraph verify` (every step against the puzzle's solution and the proof checker).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import linkgraph as lg
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.model import sort_key
from linkgraph.techniques.se.solver import rate


def _lines(name: str) -> list[str]:
    return [line.puzzle for line in read_puzzles(corpus_path(name))]


def _text(value) -> str:
    return str(value)


def _proof(P) -> dict:
    nodes = sorted(P.nodes, key=sort_key)
    index = {n: i for i, n in enumerate(nodes)}
    return {
        "graph": {k: _text(v) for k, v in sorted(P.graph.items())},
        "nodes": [[_text(n), {k: _text(v) for k, v in sorted(P.nodes[n].items())}] for n in nodes],
        "edges": sorted([index[u], index[v], {k: _text(x) for k, x in sorted(d.items())}]
                        for u, v, d in P.edges(data=True)),
    }


def _solve_record(puzzle: str, ladder: str | None) -> dict:
    result = lg.solve(lg.Grid.parse(puzzle), ladder=ladder)
    return {
        "puzzle": puzzle,
        "ladder": ladder or "default",
        "solved": result.solved,
        "rating": result.rating,
        "steps": [dict(step.to_dict(), rating=r, proof=_proof(step.proof))
                  for step, r in zip(result.steps, result.step_ratings(), strict=True)],
    }


def _rate_record(puzzle: str) -> dict:
    result = rate(lg.Grid.parse(puzzle))
    return {
        "puzzle": puzzle,
        "rating": result.text(),
        "solved": result.solved,
        "hints": [[getattr(h, "producer", ""), h.difficulty, str(h)] for h in result.hints],
    }


def _digest(path: Path, records: list) -> str:
    text = json.dumps(records, indent=1, sort_keys=True)
    path.write_text(text + "\n")
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path, help="where solve.json and rate.json go")
    parser.add_argument("--quick", action="store_true", help="one solve in ten")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    step = 10 if args.quick else 1
    hardest = _lines("hardest_1905_sample")
    diabolical = _lines("diabolical_sample")
    solves = ([(p, None) for p in _lines("seed_examples") + _lines("famous") + _lines("top95")
               + hardest[::25]]
              + [(p, "se") for p in diabolical[:12] + hardest[1::125]])[::step]
    rates = diabolical[:8][::step]
    start = time.perf_counter()
    records = []
    for i, (puzzle, ladder) in enumerate(solves, 1):
        records.append(_solve_record(puzzle, ladder))
        print(f"\rsolve {i}/{len(solves)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    rated = [_rate_record(p) for p in rates]
    print(f"solve.json {_digest(args.outdir / 'solve.json', records)} ({len(records)} solves, "
          f"{sum(len(r['steps']) for r in records)} steps)")
    print(f"rate.json {_digest(args.outdir / 'rate.json', rated)} ({len(rated)} SE walks, "
          f"{sum(len(r['hints']) for r in rated)} hints)")
    print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
