"""``linkgraph links``: the link counts of a position.

Prints the counts of `linkgraph.graph.links.link_counts` (candidates, strong and weak
candidate pairs, group and ALS nodes, edges by kind and family, density), the
degree summary and the sizes of the strong-link components. The options and the JSON
are `linkgraph.commands.links`'s (shared with the explorer's ``/api/links``).
``--graph FILE`` also writes the link graph (or with ``--implication`` the
implication digraph) in plain form to FILE, by suffix ``.graphml``, ``.gexf`` or
``.json`` (node-link JSON; see `linkgraph.graph.plain`), and names the file on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from linkgraph.cli.common import add_format, add_puzzle, add_time_limit, emit_json, read_grid
from linkgraph.commands import links as command
from linkgraph.graph.implication import implication_graph
from linkgraph.graph.plain import check_graph_path, write_graph
from linkgraph.io import check_output


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("links", help="count the strong, weak, group and ALS links of a position")
    add_puzzle(p)
    command.add_options(p)
    add_time_limit(p)
    p.add_argument("--graph", metavar="FILE", default=None,
                   help="also write the graph to FILE: .graphml, .gexf or .json (node-link)")
    p.add_argument("--implication", action="store_true",
                   help="with --graph: write the implication digraph of literals instead of the link graph")
    add_format(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.graph is not None:  # before any work
        check_output(args.graph, option="--graph")
        check_graph_path(args.graph)
    out = command.report(read_grid(args.puzzle), args)
    if args.graph is not None:
        G = out.value
        path = write_graph(implication_graph(G) if args.implication else G, Path(args.graph))
        print(f"linkgraph links: wrote {path}", file=sys.stderr)
    counts = out.data
    if args.format == "json":
        emit_json(counts)
        return out.status
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
    return out.status
