"""``linkgraph chains``: forcing chains (GNPX ForceChain cell, house, contradiction).

The options and the JSON are `linkgraph.commands.chains`'s (shared with the explorer's
``/api/chains``); this module prints GNPX's text layout.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_format, add_puzzle, add_time_limit, emit_json, read_grid
from linkgraph.commands import chains as command
from linkgraph.commands.chains import NOTATIONS, VARIANT_CHOICES, chain_lines

__all__ = ["NOTATIONS", "VARIANT_CHOICES", "add_parser", "run"]


def add_parser(sub) -> None:
    p = sub.add_parser(
        "chains",
        help="forcing chains (cell, house, contradiction) in a position",
        description="Search the implication graph breadth first from every premise at once and "
        "print each proven placement or elimination with one shortest chain per premise, "
        "in GNPX's layout.",
    )
    add_puzzle(p)
    command.add_options(p)
    add_time_limit(p)
    add_format(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from linkgraph.notation import gnpx_heading

    out = command.report(read_grid(args.puzzle), args)
    if args.format == "json":
        emit_json(out.data)
        return out.status
    grid, steps = out.value
    if not steps:
        print(out.note, file=sys.stderr)
        return 1
    by_title: dict[str, list] = {}
    for s in steps:
        by_title.setdefault(gnpx_heading(s).split(" ", 1)[0], []).append(s)
    blocks = []
    for title, group in by_title.items():
        lines = [title, ""]
        lines += [gnpx_heading(s).split(" ", 1)[1] for s in group]
        blocks.append("\n".join(lines))
        for s in group:
            blocks.append("\n".join([gnpx_heading(s)] + chain_lines(s, args.notation)))
    blocks.append(grid.to_puzzle(solved=True))
    print("\n\n".join(blocks))
    return 0
