"""``linkgraph plot RESULTS --x METRIC [--y METRIC] [--by COLUMN] -o FILE.png|svg``.

Draws a scatter plot (``--kind scatter``, the default, needs ``--y``) or
histograms of ``--x`` (``--kind hist``) from a batch or compare output file
(CSV or JSON Lines). ``--by`` splits the rows by a column (a ladder, a
corpus, ...), one colour per value. Rows with an error or a non-numeric value
are left out. Axis labels come from the metrics' glossary; discrete axes are
jittered; a scatter against a rating shows Spearman's rho, two ratings the line
y = x; histograms of discrete data get one bin per value
(`linkgraph.research.figures`). Needs matplotlib: ``pip install linkgraph[plot]``.
"""

from __future__ import annotations

import argparse
import os
import sys

from linkgraph.errors import OptionError, PuzzleFormatError, check_choice
from linkgraph.io import check_input, check_output
from linkgraph.limits import check_count

#: The picture formats of ``-o``, by suffix.
FORMATS = ("png", "svg", "pdf")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plot", help="scatter plots and histograms of batch results (needs matplotlib)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("results", metavar="RESULTS", help="a batch or compare output file (.csv or .jsonl)")
    p.add_argument("--x", required=True, metavar="METRIC", help="column for the x axis")
    p.add_argument("--y", metavar="METRIC", help="column for the y axis (scatter)")
    p.add_argument("--by", metavar="COLUMN", help="one series per value of this column (e.g. ladder)")
    p.add_argument("--kind", choices=("scatter", "hist"), default="scatter", help="plot kind (default: scatter)")
    p.add_argument("--bins", type=int, default=None,
                   help="histogram bins (default: one per value for discrete data, else 30)")
    p.add_argument("--title", help="plot title (default: from the glossary of the metrics)")
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150: 1050 x 750 pixels)")
    p.add_argument("--no-jitter", dest="jitter", action="store_false", default=None,
                   help="do not jitter discrete axes of a scatter")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="image file: .png, .svg or .pdf")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from linkgraph.research.batch import read_rows
    from linkgraph.research.figures import plot

    check_output(args.out, option="--out")
    check_choice("--out suffix", [os.path.splitext(args.out)[1].lower().lstrip(".")], FORMATS)
    check_count("--bins", args.bins, minimum=1)
    check_count("--dpi", args.dpi, minimum=1, none=False)
    try:
        check_input(args.results)
    except PuzzleFormatError as exc:
        raise OptionError(str(exc)) from None
    rows = read_rows(args.results)
    counts = plot(rows, args.out, x=args.x, y=args.y, by=args.by, kind=args.kind, bins=args.bins, title=args.title,
                  dpi=args.dpi, jitter=args.jitter)
    print(f"linkgraph plot: {sum(counts.values())} points -> {args.out}", file=sys.stderr)
    return 0
