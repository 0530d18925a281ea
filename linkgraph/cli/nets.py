"""``linkgraph nets``: forcing nets in a position, best first."""

from __future__ import annotations

import argparse
from itertools import islice

from linkgraph.cli.common import add_format, add_puzzle, emit_json, read_grid

NOTATIONS = ("sudokuwiki", "eureka", "gnpx", "plain")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "nets",
        help="forcing nets (contradiction, verity, double) in a position",
        description="Propagate every open candidate ON and OFF at once and report the nets "
        "that prove a placement or an elimination, best first.",
    )
    add_puzzle(p)
    p.add_argument("--depth", type=int, default=0, choices=(0, 1, 2),
                   help="0 sets X; 1 also locked candidates; 2 also subsets and basic fish")
    p.add_argument("--level", type=int, default=0, metavar="N",
                   help="nesting level: 1 lets a candidate whose own net fails count as OFF (default 0)")
    p.add_argument("--start", choices=("on", "off", "both"), default="both", help="premises tried (default both)")
    p.add_argument("--select", choices=("shortest", "first", "sudokuwiki"), default="shortest",
                   help="order of the nets (default shortest)")
    p.add_argument("--kind", default="contradiction,verity,double",
                   help="comma list of contradiction, verity, double")
    p.add_argument("--prepare", choices=("none", "basic"), default="basic",
                   help="apply the basic ladder first, so that no net is a mere single (default basic)")
    p.add_argument("--min-literals", type=int, default=3, metavar="N",
                   help="skip trivial nets of fewer than N literals (default 3; 0 keeps every one)")
    p.add_argument("--notation", choices=NOTATIONS, default="sudokuwiki", help="text notation (default sudokuwiki)")
    p.add_argument("--all", action="store_true", help="every net (one per conclusion), not only the best")
    add_format(p)
    p.set_defaults(run=run)


def nontrivial(steps, min_literals: int):
    """The nets of `steps` with at least `min_literals` literals (shared with ``render --nets``)."""
    if min_literals < 0:
        from linkgraph.errors import OptionError

        raise OptionError(f"--min-literals: expected a number >= 0, found {min_literals}")
    return (s for s in steps if s.proof.number_of_nodes() >= min_literals)


def _text(step, notation: str) -> str:
    from linkgraph.nets.search import sudokuwiki

    if notation in ("eureka", "gnpx"):
        try:
            from linkgraph import notation as nt

            return getattr(nt, notation)(step)
        except (ImportError, AttributeError):
            pass
    if notation == "plain":
        P = step.proof
        return "\n".join(f"{u} -> {v}  [{d['kind']} {d['via']}]" for u, v, d in P.edges(data=True))
    return sudokuwiki(step)


def run(args: argparse.Namespace) -> int:
    from linkgraph.nets.search import forcing_nets

    grid = read_grid(args.puzzle)
    if args.prepare == "basic":
        from linkgraph.solver import prepare

        grid = prepare(grid)
    kinds = [k.strip() for k in args.kind.split(",") if k.strip()]
    steps_iter = nontrivial(forcing_nets(grid, depth=args.depth, level=args.level, start=args.start,
                                         select=args.select, kinds=kinds), args.min_literals)
    steps = list(steps_iter) if args.all else list(islice(steps_iter, 1))
    if args.format == "json":
        emit_json({
            "candidates": grid.to_candidates(),
            "steps": [
                {
                    **s.to_dict(),
                    "kind": s.proof.graph.get("net"),
                    "support_size": s.proof.number_of_nodes(),
                    "depth": args.depth,
                    "level": args.level,
                    "sudokuwiki": _text(s, "sudokuwiki"),
                }
                for s in steps
            ],
        })
    else:
        for s in steps:
            print(f"{s}  [{s.proof.number_of_nodes()} literals]")
            for line in _text(s, args.notation).splitlines():
                print(f"    {line}")
    return 0 if steps else 1
