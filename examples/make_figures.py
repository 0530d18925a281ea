"""
Study figures: our rating against SE's, strong links against the rating
=======================================================================

Regenerates the study figures in diagrams/figures/ from the study data in diagrams/figures/data/.

Two studies, on the shipped 1,000-puzzle sample of sudoku_exchange_diabolical (each line
carries its Sudoku Explainer rating):

- the rating study (`examples/rating_study.py`): linkgraph's rating with ``--ladder se``
  against SE's, one point per puzzle (``rating-se-scatter.png``), and how our ratings are
  spread (``rating-se-hist.png``);
- the density study (`examples/density_study.py`): strong links per open candidate after
  the basic ladder against the SE rating, first 400 puzzles (``density-strong-scatter.png``).

The data files are the studies' batch rows, trimmed to the columns the figures read::

    .venv/bin/python examples/make_figures.py             # draw from diagrams/figures/data/
    .venv/bin/python examples/make_figures.py --refresh   # re-run the batches first (minutes)

The pictures are the same bytes on every run with the same matplotlib (jitter is seeded).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from linkgraph.research.batch import iter_batch
from linkgraph.research.figures import plot

# The repository root (the documentation's gallery runs the script from examples/, without __file__).
ROOT = (Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd().resolve()).parent
SAMPLE = ROOT / "linkgraph" / "data" / "puzzles" / "diabolical_sample.txt"
OUT = ROOT / "diagrams" / "figures"

#: data file -> (batch job, its options, how many lines, the columns kept)
STUDIES = {
    "rating-se.csv": ("solve", {"ladder": "se"}, None, ["line", "rating", "solver_rating", "steps", "hardest"]),
    "density.csv": ("metrics", {}, 400, ["line", "rating", "unsolved_cells", "live_candidates",
                                         "strong_per_candidate", "density"]),
}

#: figure file -> (data file, plot keyword arguments)
FIGURES = {
    "rating-se-scatter.png": ("rating-se.csv", dict(
        kind="scatter", x="rating", y="solver_rating",
        title="linkgraph --ladder se against Sudoku Explainer (diabolical sample, 1,000 puzzles)")),
    "rating-se-hist.png": ("rating-se.csv", dict(
        kind="hist", x="solver_rating", title="linkgraph --ladder se ratings of the diabolical sample")),
    "density-strong-scatter.png": ("density.csv", dict(
        kind="scatter", x="rating", y="strong_per_candidate",
        title="Strong links per open candidate after the basic ladder (400 diabolical puzzles)")),
}


def refresh(data: Path) -> None:
    """Re-run each study's batch over the sample and write its trimmed rows."""
    from linkgraph.io import read_puzzles

    data.mkdir(parents=True, exist_ok=True)
    for name, (job, options, limit, columns) in STUDIES.items():
        lines = list(read_puzzles(SAMPLE, limit=limit))
        rows = list(iter_batch(lines, job, options=options, times=False))
        with open(data / name, "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, columns, extrasaction="ignore", lineterminator="\n")
            w.writeheader()
            w.writerows(r for r in rows if not r.get("error"))
        print(data / name, file=sys.stderr)


def draw(outdir: Path, data: Path) -> list[Path]:
    """Draw every figure from the data files; return the paths written."""
    from linkgraph.research.output import read_rows

    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (source, kwargs) in FIGURES.items():
        plot(read_rows(str(data / source)), outdir / name, dpi=120, **kwargs)
        written.append(outdir / name)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Regenerate the study figures in diagrams/figures/")
    ap.add_argument("outdir", nargs="?", type=Path, default=OUT, help="where to write (default diagrams/figures/)")
    ap.add_argument("--refresh", action="store_true", help="re-run the studies' batches first")
    args = ap.parse_args(argv)
    data = OUT / "data"
    if args.refresh:
        refresh(data)
    for path in draw(args.outdir, data):
        print(path)
    return 0


if __name__ == "__main__":
    if status := main():  # no sys.exit(0): the docs gallery runs this block in-process
        sys.exit(status)
