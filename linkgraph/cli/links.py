"""``linkgraph links PUZZLE``: count the links of a position.

Prints the counts of `linkgraph.graph.links.link_counts` (candidates, strong and weak
candidate pairs, group and ALS nodes, edges by kind and family, density), the
degree summary and the sizes of the strong-link components. ``--graph FILE`` also
writes the link graph (or with ``--implication`` the implication digraph) in plain form
to FILE, by suffix ``.graphml``, ``.gexf`` or ``.json`` (node-link JSON; see
`linkgraph.graph.plain`), and names the file on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from linkgraph.cli.common import add_format, add_puzzle, emit_json, read_grid
from linkgraph.graph.implication import implication_graph
from linkgraph.graph.links import FAMILIES, degree_summary, link_counts, link_graph, strong_components
from linkgraph.graph.plain import check_graph_path, write_graph


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
    p.add_argument("--graph", metavar="FILE", default=None,
                   help="also write the graph to FILE: .graphml, .gexf or .json (node-link)")
    p.add_argument("--implication", action="store_true",
                   help="with --graph: write the implication digraph of literals instead of the link graph")
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
    """The PUZZLE grid, after --prepare when given."""
    grid = read_grid(args.puzzle)
    if args.prepare:
        from linkgraph.solver import prepare

        grid = prepare(grid, ladder=args.prepare)
    return grid


def graph_options(args: argparse.Namespace) -> dict:
    """link_graph keyword arguments from --families and --als-max-size."""
    options: dict = {"families": [f.strip() for f in args.families.split(",") if f.strip()]}
    if args.als_max_size is not None:
        options["als_max_size"] = args.als_max_size
    return options


def run(args: argparse.Namespace) -> int:
    if args.graph is not None:
        check_graph_path(args.graph)  # before any work
    grid = prepared_grid(args)
    G = link_graph(grid, **graph_options(args))
    if args.graph is not None:
        path = write_graph(implication_graph(G) if args.implication else G, Path(args.graph))
        print(f"linkgraph links: wrote {path}", file=sys.stderr)
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
