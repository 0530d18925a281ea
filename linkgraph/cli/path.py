"""``linkgraph path PUZZLE FROM TO``: the shortest implication chain between two literals.

Text output is GNPX link notation, one bracket per link::

    [W r2c8/+1 -> r2c4/-1] => [S (ALS:r2468c4) r2c4/-1 -> r4c4/+3] => ...

JSON output is a list of ``{"from", "to", "kind", "family", "via"}``. Exit 1
when `TO` cannot be reached from `FROM`. An OFF literal starts with ``-``, so
put the literals after ``--``: ``linkgraph path PUZZLE -- +r2c8#1 -r2c4#1``.
"""

from __future__ import annotations

import argparse
import sys

from linkgraph.cli.common import add_check, add_format, add_puzzle, add_time_limit, emit_json
from linkgraph.cli.links import add_prepare, graph_options, prepared_grid
from linkgraph.errors import NotationError
from linkgraph.graph.implication import implication_graph, implication_path, path_links
from linkgraph.graph.links import FAMILIES, link_graph
from linkgraph.model import Als, Candidate, Family, LinkKind, Literal


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "path",
        help="shortest implication chain from one literal to another",
        epilog="OFF literals start with '-': write them after '--', e.g. "
        "linkgraph path PUZZLE --prepare basic -- +r2c8#1 -r2c4#1",
    )
    add_puzzle(p, optional=False)
    p.add_argument("source", metavar="FROM", help="start literal, e.g. +r2c8#1")
    p.add_argument("target", metavar="TO", help="end literal, e.g. +r6c6#2")
    add_prepare(p)
    p.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help=f"comma list of link families to use: {', '.join(FAMILIES)} (default: all)",
    )
    p.add_argument("--als-max-size", type=int, default=None, help="largest ALS in cells (default 4)")
    add_check(p)
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


def _literal(text: str, what: str, size: int) -> Literal:
    """The literal FROM or TO, its NotationError naming which."""
    try:
        return Literal.parse(text, size=size)
    except NotationError as exc:
        raise NotationError(f"{what} {exc}") from None


def run(args: argparse.Namespace) -> int:
    options = graph_options(args)
    grid = prepared_grid(args)
    a = _literal(args.source, "FROM", grid.size)
    b = _literal(args.target, "TO", grid.size)
    D = implication_graph(link_graph(grid, **options))
    for lit, what in ((a, "FROM"), (b, "TO")):
        if lit not in D:
            raise NotationError(f"{what} {lit}: not a literal of this position (is {lit.cand} live and unsolved?)")
    path = implication_path(D, a, b)
    if len(path or ()) == 1:  # FROM is TO: a chain of no links
        if args.format == "json":
            emit_json([])
        else:
            print(f"{a}: FROM and TO are the same literal (a chain of no links)")
        return 0
    if path is None:
        if args.format == "json":
            emit_json([])
        print(f"linkgraph path: no chain from {a} to {b}", file=sys.stderr)
        return 1
    links = path_links(D, path)
    if args.format == "json":
        emit_json(links)
    else:
        print(" => ".join(gnpx_link(d, u, v) for d, u, v in zip(links, path, path[1:])))
    return 0
