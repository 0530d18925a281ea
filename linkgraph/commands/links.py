"""``linkgraph links``: the link counts of a position.

The counts of `linkgraph.graph.links.link_counts` (candidates, strong and weak
candidate pairs, group and ALS nodes, edges by kind and family, density), the degree
summaries and the sizes of the strong-link components.
"""

from __future__ import annotations

import argparse

from linkgraph.commands.common import Report, check_option, checked, comma_list, prepare_option, prepared
from linkgraph.graph.links import (
    FAMILIES, check_link_options, degree_summary, link_counts, link_graph, strong_components,
)
from linkgraph.grid import Grid

__all__ = ["add_graph_options", "add_options", "graph_options", "report"]


def add_graph_options(p: argparse.ArgumentParser, *, verb: str = "build") -> None:
    """Add ``--prepare LADDER``, ``--families``, ``--als-max-size`` and ``--no-check`` (links and path)."""
    prepare_option(p, ladders=True)
    p.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help=f"comma list of link families to {verb}: {', '.join(FAMILIES)} (default: all)",
    )
    p.add_argument("--als-max-size", type=int, default=None, help="largest ALS in cells (default 4)")
    check_option(p)


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``linkgraph links``."""
    add_graph_options(p)


def graph_options(args: argparse.Namespace) -> dict:
    """`link_graph` keyword arguments from ``--families`` and ``--als-max-size``, checked
    (`linkgraph.graph.links.check_link_options`)."""
    options: dict = {"families": comma_list(args.families)}
    if args.als_max_size is not None:
        options["als_max_size"] = args.als_max_size
    check_link_options(**options)
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
    options = graph_options(args)
    grid = prepared(checked(grid, args), args)
    G = link_graph(grid, **options)
    counts = link_counts(G)
    counts["degree"] = degree_summary(G)
    counts["strong_degree"] = degree_summary(G, kind="strong")
    counts["strong_components"] = [len(c) for c in strong_components(G)]
    return Report(counts, 0, G)
