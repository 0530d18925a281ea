"""``linkgraph chains``: forcing chains (GNPX ForceChain cell, house, contradiction)."""

from __future__ import annotations

import argparse

from linkgraph.cli.common import add_format, add_puzzle, emit_json, read_grid

NOTATIONS = ("gnpx", "eureka", "english")
VARIANT_CHOICES = ("cell", "house", "contradiction", "all")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "chains",
        help="forcing chains (cell, house, contradiction) in a position",
        description="Search the implication graph breadth first from every premise at once and "
        "print each proven placement or elimination with one shortest chain per premise, "
        "in GNPX's layout.",
    )
    add_puzzle(p)
    p.add_argument("--variant", choices=VARIANT_CHOICES, default="all", help="which forcing chains (default all)")
    p.add_argument("--prepare", choices=("none", "basic"), default="none",
                   help="apply the basic ladder first (default none)")
    p.add_argument("--notation", choices=NOTATIONS, default="gnpx", help="chain notation (default gnpx)")
    p.add_argument("--family", default="cell,house,group,als",
                   help="comma list of link families: cell, house, group, als (default all)")
    add_format(p)
    p.set_defaults(run=run)


def _chains(step, notation: str) -> list[str]:
    from linkgraph import notation as nt

    text = {"gnpx": nt.gnpx, "eureka": nt.eureka, "english": nt.english}[notation](step)
    return text.splitlines()


def run(args: argparse.Namespace) -> int:
    from linkgraph.chains.steps import forcing_chains
    from linkgraph.notation import gnpx_heading

    grid = read_grid(args.puzzle)
    if args.prepare == "basic":
        from linkgraph.solver import prepare

        grid = prepare(grid)
    families = [f.strip() for f in args.family.split(",") if f.strip()]
    steps = list(forcing_chains(grid, variants=[args.variant], families=families))
    if args.format == "json":
        emit_json({
            "candidates": grid.to_candidates(),
            "steps": [
                {
                    **s.to_dict(),
                    "variant": s.proof.graph.get("variant"),
                    "premise_set": s.proof.graph.get("premise_set"),
                    "premises": [str(p) for p in s.premises],
                    "length": s.proof.graph.get("length"),
                    "chains": _chains(s, args.notation),
                }
                for s in steps
            ],
        })
        return 0 if steps else 1
    if not steps:
        print("no forcing chain found")
        return 1
    by_title: dict[str, list] = {}
    for s in steps:
        by_title.setdefault(gnpx_heading(s).split(" ", 1)[0], []).append(s)
    blocks = []
    for title, group in by_title.items():
        lines = [title, ""]
        lines += [gnpx_heading(s).split(" ", 1)[1] for s in group]
        blocks.append("\n".join(lines))
        for s in group:
            blocks.append("\n".join([gnpx_heading(s)] + _chains(s, args.notation)))
    blocks.append(grid.to_puzzle(solved=True))
    print("\n\n".join(blocks))
    return 0
