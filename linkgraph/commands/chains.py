"""``linkgraph chains``: forcing chains (GNPX ForceChain cell, house, contradiction)."""

from __future__ import annotations

import argparse

from linkgraph.commands.common import Report, check_option, checked, comma_list, prepare_option, prepared
from linkgraph.grid import Grid

__all__ = ["NOTATIONS", "VARIANT_CHOICES", "add_options", "chain_lines", "report"]

NOTATIONS = ("gnpx", "eureka", "english")
VARIANT_CHOICES = ("cell", "house", "contradiction", "all")


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``linkgraph chains``."""
    p.add_argument("--variant", choices=VARIANT_CHOICES, default="all", help="which forcing chains (default all)")
    prepare_option(p)
    p.add_argument("--notation", choices=NOTATIONS, default="gnpx", help="chain notation (default gnpx)")
    p.add_argument("--family", default="cell,house,group,als",
                   help="comma list of link families: cell, house, group, als (default all)")
    check_option(p)


def chain_lines(step, notation: str) -> list[str]:
    """The chains of a forcing-chain step in `notation`, one line each."""
    from linkgraph import notation as nt

    text = {"gnpx": nt.gnpx, "eureka": nt.eureka, "english": nt.english}[notation](step)
    return text.splitlines()


def report(grid: Grid, args: argparse.Namespace) -> Report:
    """Every forcing chain of the position; `value` is ``(grid, steps)`` (after --prepare).

    Examples
    --------
    >>> from linkgraph.commands import chains
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> chains.add_options(parser)
    >>> out = chains.report(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), parser.parse_args(["--variant", "cell"]))
    >>> out.status, out.data["steps"][0]["variant"]
    (0, 'cell')
    """
    from linkgraph.chains.steps import forcing_chains

    from linkgraph.graph.links import check_link_options

    families = list(check_link_options(comma_list(args.family)))
    grid = prepared(checked(grid, args), args)
    steps = list(forcing_chains(grid, variants=[args.variant], families=families))
    data = {
        "candidates": grid.to_candidates(),
        "steps": [
            {
                **s.to_dict(),
                "variant": s.proof.graph.get("variant"),
                "premise_set": s.proof.graph.get("premise_set"),
                "premises": [str(p) for p in s.premises],
                "length": s.proof.graph.get("length"),
                "chains": chain_lines(s, args.notation),
            }
            for s in steps
        ],
    }
    return Report(data, 0 if steps else 1, (grid, steps), None if steps else "linkgraph chains: no forcing chain found")
