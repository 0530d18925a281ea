"""``linkgraph links PUZZLE``: count the links of a position.

Prints the counts of `linkgraph.graph.links.link_counts` (candidates, strong and weak
candidate pairs, group and ALS nodes, edges by kind and family, density), the
degree summary and the sizes of the strong-link components.
"""

from __future__ import annotations

import argparse

from linkgraph.cli.common import add_check, add_format, add_puzzle, add_time_limit, check_grid, emit_json, read_grid
from linkgraph.graph.links import (
    FAMILIES, check_link_options, degree_summary, link_counts, link_graph, strong_components,
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("links", help="count the strong, weak, group and ALS links of a position")
    add_puzzle(p)
    add_prepare(p)
    p.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help=f"comma list of link families to build: {', '.join(FAMILIES)} (default: all)",
    )
    p.add_argument("--als-max-size", type=int, default=None, help="largest ALS in cells (default 4)")
    add_check(p)
    add_time_limit(p)
    add_format(p)
    p.set_defaults(run=run)


def add_prepare(p: argparse.ArgumentParser) -> None:
    """Add --prepare LADDER (shared with ``linkgraph path``)."""
    p.add_argument(
        "--prepare",
        metavar="LADDER",
        default=None,
        help="first apply a technique ladder until stuck, e.g. 'basic' (default: use the position as given)",
    )


def prepared_grid(args: argparse.Namespace):
    """The PUZZLE grid, checked for one solution unless --no-check, after --prepare when given."""
    grid = read_grid(args.puzzle)
    if not args.no_check:
        check_grid(grid)
    if args.prepare:
        from linkgraph.solver import prepare

        grid = prepare(grid, ladder=args.prepare)
    return grid


def graph_options(args: argparse.Namespace) -> dict:
    """link_graph keyword arguments from --families and --als-max-size (checked, before any work)."""
    options: dict = {"families": [f.strip() for f in args.families.split(",") if f.strip()]}
    if args.als_max_size is not None:
        options["als_max_size"] = args.als_max_size
    check_link_options(**options)
    return options


def run(args: argparse.Namespace) -> int:
    options = graph_options(args)
    grid = prepared_grid(args)
    G = link_graph(grid, **options)
    counts = link_counts(G)
    counts["degree"] = degree_summary(G)
    counts["strong_degree"] = degree_summary(G, kind="strong")
    counts["strong_components"] = [len(c) for c in strong_components(G)]
    if args.format == "json":
        emit_json(counts)
        return 0
    print(f"candidates  {counts['candidates']}")
    print(f"strong      {counts['strong']}  (candidate pairs alone in a set X)")
    print(f"weak        {counts['weak']}  (candidate pairs sharing a set X, strong included)")
    print(f"groups      {counts['groups']}")
    print(f"als         {counts['als']}")
    print(f"density     {counts['density']}")
    print("edges       " + ", ".join(f"{k} {v}" for k, v in counts["edges"].items()))
    deg = counts["degree"]
    print(f"degree      min {deg['min']}  max {deg['max']}  mean {deg['mean']}  median {deg['median']}")
    comps = counts["strong_components"]
    print(f"strong-link components  {len(comps)}  sizes {' '.join(map(str, comps))}")
    return 0
