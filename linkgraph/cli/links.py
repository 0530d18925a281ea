"""``linkgraph links PUZZLE``: count the links of a position.

Prints the counts of `linkgraph.graph.links.link_counts` (candidates, strong and weak
candidate pairs, group and ALS nodes, edges by kind and family, density), the
degree summary and the sizes of the strong-link components. The options and the JSON
are `linkgraph.commands.links`'s (shared with the explorer's ``/api/links``).
"""

from __future__ import annotations

import argparse

from linkgraph.cli.common import add_format, add_puzzle, emit_json, read_grid
from linkgraph.commands import links as command


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("links", help="count the strong, weak, group and ALS links of a position")
    add_puzzle(p)
    command.add_options(p)
    add_format(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = command.report(read_grid(args.puzzle), args)
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
