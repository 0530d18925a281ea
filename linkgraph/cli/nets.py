"""``linkgraph nets``: forcing nets in a position, best first.

The options and the JSON are `linkgraph.commands.nets`'s (shared with the explorer's
``/api/nets``).
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_format, add_puzzle, add_time_limit, emit_json, read_grid
from linkgraph.commands import nets as command
from linkgraph.commands.nets import NOTATIONS, net_text

__all__ = ["NOTATIONS", "add_parser", "run"]


def add_parser(sub) -> None:
    p = sub.add_parser(
        "nets",
        help="forcing nets (contradiction, verity, double) in a position",
        description="Propagate every open candidate ON and OFF at once and report the nets "
        "that prove a placement or an elimination, best first.",
    )
    add_puzzle(p)
    command.add_options(p)
    add_time_limit(p)
    add_format(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = command.report(read_grid(args.puzzle), args)
    if args.format == "json":
        emit_json(out.data)
        return out.status
    for s in out.value:
        print(f"{s}  [{s.proof.number_of_nodes()} literals]")
        for line in net_text(s, args.notation).splitlines():
            print(f"    {line}")
    if out.note:
        print(out.note, file=sys.stderr)
    return out.status
