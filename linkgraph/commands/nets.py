"""``linkgraph nets``: forcing nets in a position, best first."""

from __future__ import annotations

import argparse
from itertools import islice

from linkgraph.commands.common import Report, check_option, checked, comma_list, prepare_option, prepared
from linkgraph.grid import Grid
from linkgraph.limits import check_count

__all__ = ["NOTATIONS", "add_options", "net_text", "nontrivial", "report"]

NOTATIONS = ("sudokuwiki", "eureka", "gnpx", "plain")


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``linkgraph nets``."""
    p.add_argument("--depth", type=int, default=0, choices=(0, 1, 2),
                   help="0 sets X; 1 also locked candidates; 2 also subsets and basic fish")
    p.add_argument("--level", type=int, default=0, metavar="N",
                   help="nesting level: 1 lets a candidate whose own net fails count as OFF (default 0)")
    p.add_argument("--start", choices=("on", "off", "both"), default="both", help="premises tried (default both)")
    p.add_argument("--select", choices=("shortest", "first", "sudokuwiki"), default="shortest",
                   help="order of the nets (default shortest)")
    p.add_argument("--kind", default="contradiction,verity,double",
                   help="comma list of contradiction, verity, double")
    prepare_option(p, default="basic")
    p.add_argument("--min-literals", type=int, default=3, metavar="N",
                   help="skip trivial nets of fewer than N literals (default 3; 0 keeps every one)")
    p.add_argument("--notation", choices=NOTATIONS, default="sudokuwiki", help="text notation (default sudokuwiki)")
    p.add_argument("--all", action="store_true", help="every net (one per conclusion), not only the best")
    check_option(p)


def nontrivial(steps, min_literals: int):
    """The nets of `steps` with at least `min_literals` literals (shared with ``render --nets``)."""
    check_count("min_literals", min_literals, none=False)
    return (s for s in steps if s.proof.number_of_nodes() >= min_literals)


def net_text(step, notation: str) -> str:
    """The text of a net step in `notation`."""
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


def report(grid: Grid, args: argparse.Namespace) -> Report:
    """The best net (every net with ``--all``); `value` is the list of steps.

    Examples
    --------
    >>> from linkgraph.commands import nets
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> nets.add_options(parser)
    >>> out = nets.report(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), parser.parse_args([]))
    >>> out.status, len(out.data["steps"]), out.data["steps"][0]["depth"]
    (0, 1, 0)
    """
    from linkgraph.nets.search import forcing_nets

    from linkgraph.nets.propagate import check_depth_level

    check_depth_level(args.depth, args.level)
    check_count("min_literals", args.min_literals, none=False)
    grid = prepared(checked(grid, args), args)
    steps_iter = nontrivial(forcing_nets(grid, depth=args.depth, level=args.level, start=args.start,
                                         select=args.select, kinds=comma_list(args.kind)), args.min_literals)
    steps = list(steps_iter) if args.all else list(islice(steps_iter, 1))
    data = {
        "candidates": grid.to_candidates(),
        "steps": [
            {
                **s.to_dict(),
                "kind": s.proof.graph.get("net"),
                "support_size": s.proof.number_of_nodes(),
                "depth": args.depth,
                "level": args.level,
                "sudokuwiki": net_text(s, "sudokuwiki"),
            }
            for s in steps
        ],
    }
    return Report(data, 0 if steps else 1, steps, None if steps else "linkgraph nets: no forcing net found")
