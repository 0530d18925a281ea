"""``linkgraph plot RESULTS --x METRIC [--y METRIC] [--by COLUMN] -o FILE.png|svg``.

Draws a scatter plot (``--kind scatter``, the default, needs ``--y``) or
histograms of ``--x`` (``--kind hist``) from a batch or compare output file
(CSV or JSON Lines). ``--by`` splits the rows by a column (a ladder, a
corpus, ...), one colour per value. Rows with an error or a non-numeric value
are left out. Needs matplotlib: ``pip install linkgraph[plot]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from linkgraph.errors import OptionError, PuzzleFormatError, check_choice
from linkgraph.io import atomic_path, check_input, check_output
from linkgraph.limits import check_count


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plot", help="scatter plots and histograms of batch results (needs matplotlib)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("results", metavar="RESULTS", help="a batch or compare output file (.csv or .jsonl)")
    p.add_argument("--x", required=True, metavar="METRIC", help="column for the x axis")
    p.add_argument("--y", metavar="METRIC", help="column for the y axis (scatter)")
    p.add_argument("--by", metavar="COLUMN", help="one series per value of this column (e.g. ladder)")
    p.add_argument("--kind", choices=("scatter", "hist"), default="scatter", help="plot kind (default: scatter)")
    p.add_argument("--bins", type=int, default=30, help="histogram bins (default: 30)")
    p.add_argument("--title", help="plot title (default: from the columns)")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="image file: .png, .svg or .pdf")
    p.set_defaults(run=run)


def _float(v: Any) -> float | None:
    if v is None or v == "" or isinstance(v, bool):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def series(rows: list[dict], x: str, y: str | None, by: str | None) -> dict[str, tuple[list[float], list[float]]]:
    """Numeric (xs, ys) per value of `by` (one series ``"all"`` without it); error rows left out.

    >>> rows = [{"a": "1", "b": "2", "g": "p"}, {"a": "x", "b": "3", "g": "p"}, {"a": "4", "b": "5", "g": "q"}]
    >>> series(rows, "a", "b", "g")
    {'p': ([1.0], [2.0]), 'q': ([4.0], [5.0])}
    """
    out: dict[str, tuple[list[float], list[float]]] = {}
    for row in rows:
        if row.get("error"):
            continue
        xv = _float(row.get(x))
        yv = _float(row.get(y)) if y else 0.0
        if xv is None or yv is None:
            continue
        key = str(row.get(by, "")) if by else "all"
        xs, ys = out.setdefault(key, ([], []))
        xs.append(xv)
        ys.append(yv)
    return dict(sorted(out.items()))


def plot(rows: list[dict], out: str | os.PathLike, *, x: str, y: str | None = None, by: str | None = None,
         kind: str = "scatter", bins: int = 30, title: str | None = None) -> dict[str, int]:
    """Draw `rows` to the image file `out`; return the number of points per series."""
    check_choice("--kind", [kind], ("scatter", "hist"))
    if kind == "scatter" and not y:
        raise OptionError("--y: a scatter plot needs --y METRIC (or use --kind hist)")
    if not rows:
        raise OptionError("RESULTS: no rows")
    for col in (x, y, by):
        if col and col not in rows[0]:
            raise OptionError(f"{col!r}: no such column; columns are {', '.join(rows[0])}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionError("plot needs matplotlib: pip install linkgraph[plot]") from None
    data = series(rows, x, y, by)
    if not data:
        raise OptionError(f"no numeric values in column {x!r}" + (f" and {y!r}" if y else ""))
    fig, ax = plt.subplots(figsize=(7, 5), dpi=100)
    for key, (xs, ys) in data.items():
        label = f"{key} (n={len(xs)})" if by else f"n={len(xs)}"
        if kind == "scatter":
            ax.scatter(xs, ys, s=8, alpha=0.5, label=label)
        else:
            ax.hist(xs, bins=bins, alpha=0.6 if by else 0.9, label=label)
    ax.set_xlabel(x)
    ax.set_ylabel(y if kind == "scatter" else "puzzles")
    ax.set_title(title or (f"{y} against {x}" if kind == "scatter" else f"distribution of {x}"))
    ax.legend(fontsize="small")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    with atomic_path(out) as part:  # the old picture or the whole new one
        fig.savefig(part, metadata={"Software": None} if str(out).endswith(".png") else None)
    plt.close(fig)
    return {k: len(v[0]) for k, v in data.items()}


#: The picture formats of ``-o``, by suffix.
FORMATS = ("png", "svg", "pdf")


def run(args: argparse.Namespace) -> int:
    from linkgraph.research.batch import read_rows

    check_output(args.out, option="--out")
    check_choice("--out suffix", [os.path.splitext(args.out)[1].lower().lstrip(".")], FORMATS)
    check_count("--bins", args.bins, minimum=1, none=False)
    try:
        check_input(args.results)
    except PuzzleFormatError as exc:
        raise OptionError(str(exc)) from None
    rows = read_rows(args.results)
    counts = plot(rows, args.out, x=args.x, y=args.y, by=args.by, kind=args.kind, bins=args.bins, title=args.title)
    print(f"linkgraph plot: {sum(counts.values())} points -> {args.out}", file=sys.stderr)
    return 0
