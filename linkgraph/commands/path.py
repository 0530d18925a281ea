"""``linkgraph path``: the shortest implication chain from one literal to another.

The JSON is the list of links ``{"from", "to", "kind", "family", "via"}`` (empty, with
exit status 1, when `TO` cannot be reached from `FROM`; empty, with exit status 0, when
`FROM` is `TO`: a chain of no links).
"""

from __future__ import annotations

import argparse

from linkgraph.commands.common import Report, checked, prepared
from linkgraph.commands.links import add_graph_options, graph_options
from linkgraph.errors import NotationError
from linkgraph.graph.implication import implication_graph, implication_path, path_links
from linkgraph.graph.links import link_graph
from linkgraph.grid import Grid
from linkgraph.model import Literal

__all__ = ["add_options", "report"]


def add_options(p: argparse.ArgumentParser) -> None:
    """The arguments of ``linkgraph path`` after PUZZLE: FROM, TO and the graph options."""
    p.add_argument("source", metavar="FROM", help="start literal, e.g. +r2c8#1")
    p.add_argument("target", metavar="TO", help="end literal, e.g. +r6c6#2")
    add_graph_options(p, verb="use")


def report(grid: Grid, args: argparse.Namespace) -> Report:
    """The shortest path; `value` is ``(path, links)`` (path None when there is none).

    Examples
    --------
    >>> from linkgraph.commands import path
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> path.add_options(parser)
    >>> out = path.report(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), parser.parse_args(["--", "+r2c8#1", "-r2c4#1"]))
    >>> out.status, [(d["from"], d["to"], d["kind"]) for d in out.data]
    (0, [('+r2c8#1', '-r2c4#1', 'weak')])
    """
    options = graph_options(args)
    a = _literal(args.source, "FROM", grid.size)
    b = _literal(args.target, "TO", grid.size)
    grid = prepared(checked(grid, args), args)
    D = implication_graph(link_graph(grid, **options))
    for lit, what in ((a, "FROM"), (b, "TO")):
        if lit not in D:
            raise NotationError(f"{what} {lit}: not a literal of this position (is {lit.cand} live and unsolved?)")
    found = implication_path(D, a, b)
    if found is None:
        return Report([], 1, (None, []), f"linkgraph path: no chain from {a} to {b}")
    links = path_links(D, found)
    return Report(links, 0, (found, links))


def _literal(text: str, what: str, size: int) -> Literal:
    """The literal FROM or TO, its NotationError naming which."""
    try:
        return Literal.parse(text, size=size)
    except NotationError as exc:
        raise NotationError(f"{what} {exc}") from None
