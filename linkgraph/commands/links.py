"""``linkgraph links``: the link counts of a position.

The counts of `linkgraph.graph.links.link_counts` (candidates, strong and weak
candidate pairs, group and ALS nodes, edges by kind and family, density), the degree
summaries and the sizes of the strong-link components.
"""

from __future__ import annotations

import argparse

from linkgraph.commands.common import Report, comma_list, prepare_option, prepared
from linkgraph.graph.links import FAMILIES, degree_summary, link_counts, link_graph, strong_components
from linkgraph.grid import Grid

__all__ = ["add_graph_options", "add_options", "graph_options", "report"]


def add_graph_options(p: argparse.ArgumentParser, *, verb: str = "build") -> None:
    """Add ``--prepare LADDER``, ``--families`` and ``--als-max-size`` (links and path)."""
    prepare_option(p, ladders=True)
    p.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help=f"comma list of link families to {verb}: {', '.join(FAMILIES)} (default: all)",
    )
    p.add_argument("--als-max-size", type=int, default=None, help="largest ALS in cells (default 4)")


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``linkgraph links``."""
    add_graph_options(p)


def graph_options(args: argparse.Namespace) -> dict:
    """`link_graph` keyword arguments from ``--families`` and ``--als-max-size``."""
    options: dict = {"families": comma_list(args.families)}
    if args.als_max_size is not None:
        options["als_max_size"] = args.als_max_size
    return options


def report(grid: Grid, args: argparse.Namespace) -> Report:
    """The counts ``linkgraph links`` prints; `value` is the link graph they count.

    Examples
    --------
    >>> from linkgraph.commands import links
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> links.add_options(parser)
    >>> data = links.report(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), parser.parse_args([])).data
    >>> data["candidates"] > 0, sorted(data)[:3]
    (True, ['als', 'candidates', 'degree'])
    """
    grid = prepared(grid, args)
    G = link_graph(grid, **graph_options(args))
    counts = link_counts(G)
    counts["degree"] = degree_summary(G)
    counts["strong_degree"] = degree_summary(G, kind="strong")
    counts["strong_components"] = [len(c) for c in strong_components(G)]
    return Report(counts, 0, G)
