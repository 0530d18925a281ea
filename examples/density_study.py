"""
Does strong-link density predict the SE rating?
===============================================

A small study, end to end.

Two SE-rated corpora cover the difficulty range: sudoku_exchange_diabolical
(SE 5.0-9.3) and hardest_1106 (ER 9.7-11.9). For each puzzle we apply the
basic ladder (singles, locked candidates, subsets, basic fish) and measure the
link graph of the position where it gets stuck: how many strong (set-X) links
each open candidate has, how dense they are, how large the biggest strong
component is. The script writes one CSV row per puzzle, a table of rank
correlations (Spearman) between each metric and the rating, and a scatter plot
of strong links per candidate against the rating.

Run from the repository root (all cores; about a minute per 500 puzzles)::

    python examples/density_study.py                        # ~1,000 puzzles
    python examples/density_study.py --per-corpus 200 --out /tmp/study

The corpora are read from ../shared/puzzles beside the repository, or from the
copies shipped in linkgraph/data/puzzles (diabolical_sample stands in for the
full diabolical list). Plots need matplotlib (``pip install linkgraph[plot]``).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import sys
from pathlib import Path

import numpy as np

import linkgraph as lg
from linkgraph.research.batch import iter_batch
from linkgraph.io import read_puzzles
from linkgraph.research.metrics import POSITION_COLUMNS

# The repository root (the documentation's gallery runs the script from examples/, without __file__).
ROOT = (Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd().resolve()).parent
SHARED = ROOT.parent / "shared" / "puzzles"
SHIPPED = ROOT / "linkgraph" / "data" / "puzzles"
#: (label, file in ../shared/puzzles, shipped stand-in)
CORPORA = (
    ("diabolical", "sudoku_exchange_diabolical.txt", "diabolical_sample.txt"),
    ("hardest_1106", "hardest_1106.txt", "hardest_1106.txt"),
)
METRICS = (
    "strong_per_candidate", "density_strong", "bivalue_cells", "bilocal_sets", "live_candidates",
    "unsolved_cells", "strong_component_max", "strong_components", "average_clustering", "degree_mean",
    "nodes_als", "nodes_group",
)


def corpus_file(shared: str, shipped: str, root: Path) -> Path:
    """The shared corpus if present, else the shipped copy."""
    path = root / shared
    return path if path.is_file() else SHIPPED / shipped


def sample(path: Path, n: int) -> list[lg.io.PuzzleLine]:
    """Up to `n` rated lines spread evenly over the file (every k-th rated line)."""
    rated = [ln for ln in read_puzzles(path) if ln.rating is not None and not ln.error]
    step = max(1, len(rated) // n)
    return rated[::step][:n]


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank."""
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    sx = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and sx[j + 1] == sx[i]:
            j += 1
        r[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation: Pearson's r of the ranks."""
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description='Does strong-link density predict the SE rating?')
    ap.add_argument("--corpora", type=Path, default=SHARED, help="folder of the shared corpora")
    ap.add_argument("--per-corpus", type=int, default=500, help="puzzles per corpus (default 500)")
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--out", type=Path, default=Path("density_study"), help="output prefix")
    args = ap.parse_args(argv)

    rows = []
    for label, shared, shipped in CORPORA:
        path = corpus_file(shared, shipped, args.corpora)
        lines = sample(path, args.per_corpus)
        print(f"{label}: {len(lines)} rated puzzles from {path}", file=sys.stderr)
        for row in iter_batch(lines, "metrics", workers=args.workers, times=False):
            rows.append({"corpus": label, **row})

    args.out.parent.mkdir(parents=True, exist_ok=True)
    table = args.out.with_suffix(".csv")
    columns = ["corpus", "line", "puzzle", "rating", "error", *POSITION_COLUMNS]
    with open(table, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, columns, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    ok = [r for r in rows if not r["error"]]
    stuck = [r for r in ok if r["unsolved_cells"] > 0]
    print(f"{len(rows)} puzzles, {len(rows) - len(ok)} errors, {len(stuck)} not solved by the basic ladder",
          file=sys.stderr)

    # Rank correlation with the rating: all puzzles, and per corpus.
    print(f"\nSpearman rank correlation with the SE rating ({table})")
    groups = [("all", ok), *((lab, [r for r in ok if r["corpus"] == lab]) for lab, _, _ in CORPORA)]
    print(f"{'metric':<24}" + "".join(f"{g:>14}" for g, _ in groups))
    for m in METRICS:
        cells = []
        for _, rs in groups:
            x = np.array([r[m] for r in rs], dtype=float)
            y = np.array([r["rating"] for r in rs], dtype=float)
            cells.append(f"{spearman(x, y):>14.3f}")
        print(f"{m:<24}" + "".join(cells))
    print(f"{'(puzzles)':<24}" + "".join(f"{len(rs):>14}" for _, rs in groups))

    # Mean strong links per candidate by rating band.
    print("\nstrong links per open candidate, by rating band")
    key = lambda r: int(r["rating"])  # noqa: E731
    for band, rs in itertools.groupby(sorted(stuck, key=key), key=key):
        rs = list(rs)
        vals = [r["strong_per_candidate"] for r in rs]
        print(f"  SE {band}.x  n={len(rs):>4}  mean {np.mean(vals):.3f}  median {np.median(vals):.3f}")

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: skipping the figure (pip install linkgraph[plot])", file=sys.stderr)
        return 0
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), dpi=100)
    for lab, _, _ in CORPORA:
        rs = [r for r in stuck if r["corpus"] == lab]
        axes[0].scatter([r["rating"] for r in rs], [r["strong_per_candidate"] for r in rs], s=8, alpha=0.5,
                        label=f"{lab} (n={len(rs)})")
        axes[1].scatter([r["rating"] for r in rs], [r["live_candidates"] for r in rs], s=8, alpha=0.5,
                        label=f"{lab} (n={len(rs)})")
    axes[0].set_ylabel("strong links per open candidate (after the basic ladder)")
    axes[1].set_ylabel("live candidates (after the basic ladder)")
    for ax in axes:
        ax.set_xlabel("SE rating")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle("Link structure where the basic ladder gets stuck, against the SE rating")
    fig.tight_layout()
    figure = args.out.with_suffix(".png")
    fig.savefig(figure, metadata={"Software": None})
    plt.close(fig)
    print(f"\nfigure: {figure}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if status := main():  # no sys.exit(0): the docs gallery runs this block in-process
        sys.exit(status)
