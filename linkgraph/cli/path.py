"""``linkgraph path PUZZLE FROM TO``: the shortest implication chain between two literals.

Text output is GNPX link notation, one bracket per link::

    [W r2c8/+1 -> r2c4/-1] => [S (ALS:r2468c4) r2c4/-1 -> r4c4/+3] => ...

JSON output is a list of ``{"from", "to", "kind", "family", "via"}`` (the options and
the JSON are `linkgraph.commands.path`'s, shared with the explorer's ``/api/path``).
Exit 1 when `TO` cannot be reached from `FROM`. An OFF literal starts with ``-``, so
put the literals after ``--``: ``linkgraph path PUZZLE -- +r2c8#1 -r2c4#1``.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_format, add_puzzle, add_time_limit, emit_json, read_grid
from linkgraph.commands import path as command
from linkgraph.model import Als, Candidate, Family, LinkKind, Literal


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "path",
        help="shortest implication chain from one literal to another",
        epilog="OFF literals start with '-': write them after '--', e.g. "
        "linkgraph path PUZZLE --prepare basic -- +r2c8#1 -r2c4#1",
    )
    add_puzzle(p, optional=False)
    command.add_options(p)
    add_time_limit(p)
    add_format(p)
    p.set_defaults(run=run)


def _node_text(lit: Literal) -> str:
    node = lit.cand
    sign = "+" if lit.on else "-"
    where = str(node.cell) if isinstance(node, Candidate) else str(node).partition("#")[0]
    return f"{where}/{sign}{node.digit}"


def gnpx_link(link: dict, u: Literal, v: Literal) -> str:
    """One link in GNPX notation: ``[S r2c4/-1 -> r3c5/+1]``, ``[S (ALS:r2468c4) ...]``."""
    letter = "S" if link["kind"] == LinkKind.STRONG else "W"
    als = f"(ALS:{Als.parse(link['via']).cells_text}) " if link["family"] == Family.ALS else ""
    return f"[{letter} {als}{_node_text(u)} -> {_node_text(v)}]"


def run(args: argparse.Namespace) -> int:
    out = command.report(read_grid(args.puzzle), args)
    path, links = out.value
    if args.format == "json":
        emit_json(out.data)
    if path is None:
        print(out.note, file=sys.stderr)
    elif args.format != "json" and len(path) == 1:
        print(f"{path[0]}: FROM and TO are the same literal (a chain of no links)")
    elif args.format != "json":
        print(" => ".join(gnpx_link(d, u, v) for d, u, v in zip(links, path, path[1:])))
    return out.status
