"""``linkgraph render PUZZLE (--chains VARIANT | --nets) -o FILE``: draw chains and nets.

Finds the forcing chains (`linkgraph.chains.search.forcing_chains`) or forcing nets
(`linkgraph.nets.search.forcing_nets`) of a position, as ``linkgraph chains`` and
``linkgraph nets`` do with the same options, and writes the picture of one
(``--index K``, counted from 1, default the first) or of every one (``--all``:
``FILE`` becomes ``stem-1.svg``, ``stem-2.svg``...). The format follows the
suffix of FILE: ``.dot``, ``.svg``, ``.png`` or ``.pdf`` for a picture, ``.graphml``,
``.gexf`` or ``.json`` for the proof graph itself in plain form (`linkgraph.graph.plain`,
readable by any graph tool). Prints the paths
written; exit 1 when there is no such chain or net.
"""

from __future__ import annotations

import argparse
import sys
from itertools import islice

from linkgraph.cli.common import add_puzzle, add_time_limit, read_grid
from linkgraph.commands.common import check_option, checked, comma_list
from linkgraph.errors import check_choice
from linkgraph.io import check_output
from linkgraph.limits import check_count

VARIANT_CHOICES = ("cell", "house", "contradiction", "all")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "render",
        help="draw a forcing chain or net as a picture (.dot, .svg, .png, .pdf) or export its proof graph "
        "(.graphml, .gexf, .json)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    add_puzzle(p)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--chains", metavar="VARIANT", choices=VARIANT_CHOICES,
                      help="forcing chains: cell, house, contradiction or all")
    what.add_argument("--nets", action="store_true", help="forcing nets")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--index", type=int, default=1, metavar="K", help="draw the K-th result (from 1; default 1)")
    which.add_argument("--all", action="store_true", help="draw every result, one file each")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="picture file (.dot, .svg, .png, .pdf) or proof graph file (.graphml, .gexf, .json)")
    p.add_argument("--layout", choices=("flow", "board", "rounds"), default="flow",
                   help="flow: a graph of literals; board: on the candidate grid; rounds: one small board "
                   "per round of a net, each with only that round's links (default flow)")
    p.add_argument("--prepare", choices=("none", "basic"), default=None,
                   help="apply the basic ladder first (default: basic for --nets, none for --chains)")
    p.add_argument("--min-literals", type=int, default=3, metavar="N",
                   help="nets: skip trivial nets of fewer than N literals (default 3; 0 keeps every one)")
    p.add_argument("--family", default="cell,house,group,als",
                   help="chains: comma list of link families (default cell,house,group,als)")
    p.add_argument("--depth", type=int, default=0, choices=(0, 1, 2), help="nets: depth (default 0)")
    p.add_argument("--level", type=int, default=0, metavar="N", help="nets: nesting level (default 0)")
    p.add_argument("--start", choices=("on", "off", "both"), default="both", help="nets: premises tried")
    p.add_argument("--select", choices=("shortest", "first", "sudokuwiki"), default="shortest",
                   help="nets: order (default shortest)")
    p.add_argument("--kind", default="contradiction,verity,double",
                   help="nets: comma list of contradiction, verity, double")
    check_option(p)
    add_time_limit(p)
    p.set_defaults(run=run)


def _steps(grid, args: argparse.Namespace):
    if args.nets:
        from linkgraph.commands.nets import nontrivial
        from linkgraph.nets.search import forcing_nets

        kinds = [k.strip() for k in args.kind.split(",") if k.strip()]
        return nontrivial(forcing_nets(grid, depth=args.depth, level=args.level, start=args.start,
                                       select=args.select, kinds=kinds), args.min_literals)
    from linkgraph.chains.steps import forcing_chains

    families = [f.strip() for f in args.family.split(",") if f.strip()]
    return forcing_chains(grid, variants=[args.chains], families=families)


def run(args: argparse.Namespace) -> int:
    from linkgraph.draw.graphviz import FORMATS, render as draw
    from linkgraph.graph.plain import GRAPH_FORMATS, write_graph

    out = check_output(args.output, option="--output")
    check_choice("--output suffix", [out.suffix.lower().lstrip(".")], (*FORMATS, *GRAPH_FORMATS))

    def render(step, path, *, layout, grid):
        if path.suffix.lower().lstrip(".") in GRAPH_FORMATS:
            return write_graph(step.proof, path)
        return draw(step, path, layout=layout, grid=grid)

    check_count("--index", args.index, minimum=1, none=False)
    if args.nets:
        from linkgraph.nets.propagate import check_depth_level

        check_depth_level(args.depth, args.level)
        check_count("--min-literals", args.min_literals, none=False)
    else:
        from linkgraph.graph.links import check_link_options

        check_link_options(comma_list(args.family))
    grid = checked(read_grid(args.puzzle), args)
    if args.prepare is None:
        args.prepare = "basic" if args.nets else "none"
    if args.prepare == "basic":
        from linkgraph.solver import prepare

        grid = prepare(grid)
    found = _steps(grid, args)
    what = "net" if args.nets else "chain"
    if args.all:
        steps = list(found)
        if not steps:
            print(f"linkgraph render: no forcing {what} found", file=sys.stderr)
            return 1
        for k, step in enumerate(steps, 1):
            path = out.with_name(f"{out.stem}-{k}{out.suffix}")
            print(render(step, path, layout=args.layout, grid=grid))
        return 0
    step = next(islice(found, args.index - 1, None), None)
    if step is None:
        print(f"linkgraph render: no forcing {what} number {args.index}", file=sys.stderr)
        return 1
    print(render(step, out, layout=args.layout, grid=grid))
    return 0
