"""What the explorer page shows, as JSON-ready data.

- `explore`: a puzzle's solve path as ``linkgraph solve --proofs --format json`` gives
  it (`linkgraph.commands.solve`), plus, per step, its flow picture (SVG through
  Graphviz's ``dot``), the technique's title and where a hint points; the board's
  shape; and the start position's link counts (``linkgraph links``);
- `propagation`: the simulator: what asserted literals imply, round by round, the
  contradiction if they fail, and the proof of one consequence on request;
- `SAMPLES`: the puzzles the page offers.

Nothing here reads a file or talks to the network.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from linkgraph.commands import links as links_command
from linkgraph.commands import solve as solve_command
from linkgraph.draw.data import proof_data
from linkgraph.errors import GraphvizError, LinkgraphError, OptionError, option_flags
from linkgraph.grid import Grid
from linkgraph.model import Candidate, Cell, House, Literal, SetX, sort_key
from linkgraph.samples import EASTER_MONSTER, EULER_01, GNPX_FORCECHAIN, GOLDEN_NUGGET
from linkgraph.steps import Step

__all__ = ["LADDERS", "MAX_ASSERTIONS", "SAMPLES", "command_args", "command_flags", "explore", "hint_place", "page_data", "parse_assertions", "propagation"]

#: The puzzles the page offers: (name, puzzle string, ladder to solve it with).
SAMPLES: tuple[tuple[str, str, str], ...] = (
    ("GNPX ForceChain example (singles + forcing chains)", GNPX_FORCECHAIN, "forcing-chains"),
    ("GNPX ForceChain example (default ladder)", GNPX_FORCECHAIN, "default"),
    ("Diabolical: sample line 1 (SE 7.2)",
     ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.", "default"),
    ("Diabolical: sample line 3 (SE 7.1)",
     "..3..1..8.1.9..25..4.....79...4..5.....176.....2..5...78.....9..31..9.4.6..8..3..", "default"),
    ("Project Euler 96, grid 01 (singles)", EULER_01, "default"),
    ("Easter Monster (nets)", EASTER_MONSTER, "default"),
    ("Golden Nugget (nets)", GOLDEN_NUGGET, "default"),
)

#: Ladders the page names; any ladder spec of ``linkgraph solve --ladder`` works too.
LADDERS: dict[str, str] = {
    "default": "default",
    "se": "se",
    "basic": "basic",
    "all": "all",
    "forcing-chains": "full-house,hidden-single,naked-single,forcing-chain-contradiction,"
                      "forcing-chain-cell,forcing-chain-house",
}

#: At most this many literals may be asserted at once in the simulator.
MAX_ASSERTIONS = 81

_HOUSE_WORDS = {"r": "row", "c": "column", "b": "box", "d": "diagonal", "w": "window", "j": "region"}


def command_args(module, argv: Sequence[str]) -> argparse.Namespace:
    """Parse `argv` with a command's own options (`linkgraph.commands`); OptionError on a bad one.

    >>> from linkgraph.commands import nets
    >>> from linkgraph.explorer.data import command_args
    >>> command_args(nets, ["--depth", "1"]).depth
    1
    >>> command_args(nets, ["--depth", "9"])
    Traceback (most recent call last):
    ...
    linkgraph.errors.OptionError: argument --depth: invalid choice: 9 (choose from 0, 1, 2)
    """

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str):  # type: ignore[override]
            raise OptionError(message)

    parser = _Parser(prog="linkgraph", add_help=False)
    module.add_options(parser)
    return parser.parse_args(list(argv))


def command_flags(module) -> dict[str, str]:
    """{option name: flag} of a command's options, for `linkgraph.errors.describe` (as the CLI names them).

    >>> from linkgraph.commands import solve
    >>> from linkgraph.explorer.data import command_flags
    >>> command_flags(solve)["max_steps"]
    '--max-steps'
    """
    parser = argparse.ArgumentParser(prog="linkgraph", add_help=False)
    module.add_options(parser)
    return option_flags(parser)


def ladder_spec(ladder: str) -> str:
    """The ladder spec behind a name the page offers (other text is passed on as it is).

    >>> from linkgraph.explorer.data import ladder_spec
    >>> ladder_spec("se"), ladder_spec("forcing-chains").split(",")[-1]
    ('se', 'forcing-chain-house')
    """
    return LADDERS.get(ladder.strip(), ladder.strip())


def _place_words(place: str) -> str:
    """``b5`` -> ``box 5``; ``r2c8`` -> ``cell r2c8``."""
    if place and place[0] in _HOUSE_WORDS and place[1:].isdigit():
        return f"{_HOUSE_WORDS[place[0]]} {place[1:]}"
    return f"cell {place}" if place else ""


def _place_cells(place: str, grid: Grid) -> list[int]:
    """The cell indices of a house (``b5``) or cell (``r2c8``) text; [] for anything else."""
    g = grid.geometry
    try:
        if "c" in place[1:] and place.startswith("r"):
            return [g.cell_index(Cell.parse(place))]
        return [int(i) for i in g.house_cells[g.house_index(House.parse(place))]]
    except (LinkgraphError, ValueError, IndexError):
        return []


def hint_place(step: Step, grid: Grid) -> str:
    """Where a hint for `step` points: a house (``b5``) or a cell (``r2c8``).

    The first base set of a pattern (its house, or its cell for a cell set), else the
    premise set of a forcing chain, else the first house holding every cell the step
    changes, else the first such cell.

    Examples
    --------
    >>> from linkgraph.explorer.data import hint_place
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> hint_place(lg.hint(grid), grid)  # the first step: a hidden single in row 1
    'r1'
    """
    P = step.proof
    for text in list(P.graph.get("base", ()) or ())[:1] + [P.graph.get("premise_set")]:
        if text:
            try:
                sx = SetX.parse(str(text))
            except LinkgraphError:  # a contradiction chain's premise is one candidate: r4c8#3
                try:
                    return str(Candidate.parse(str(text)).cell)
                except LinkgraphError:
                    continue
            return str(sx.cell) if sx.cell is not None else str(sx.house)
    g = grid.geometry
    cells = sorted({c.cell for c in step.placements | step.eliminations})
    wanted = {g.cell_index(c) for c in cells}
    for h, members in enumerate(g.house_cells):
        if wanted and wanted <= set(members.tolist()):
            return str(g.houses[h])
    return str(cells[0]) if cells else ""


def _flow_svg(P) -> str | None:
    """The flow picture of a proof with links, or None (no links, or no Graphviz)."""
    if P.number_of_edges() == 0:
        return None
    from linkgraph.draw.graphviz import step_svg

    try:
        svg = step_svg(P)
    except GraphvizError:
        return None
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def board_shape(grid: Grid) -> dict:
    """The board's size, digit symbols and, per cell, the index of its box or region.

    >>> from linkgraph.explorer.data import board_shape
    >>> shape = board_shape(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> shape["size"], shape["symbols"], len(set(shape["regions"])), shape["regions"][:9] == [shape["regions"][0]] * 3 + [shape["regions"][3]] * 3 + [shape["regions"][6]] * 3
    (9, '123456789', 9, True)
    """
    g = grid.geometry
    return {
        "size": g.size,
        "symbols": g.symbols,
        "regions": [g.box_of(i) for i in range(g.number_of_cells)],
    }


def explore(grid: Grid, *, ladder: str = "default", pictures: bool = True, check_limit: float | None = None) -> dict:
    """The explorer's data for a puzzle: the solve path with proofs, pictures and hints.

    Parameters
    ----------
    grid : Grid
        The puzzle (or a candidate grid).
    ladder : str, optional
        A ladder the page names (``forcing-chains``: singles and forcing chains) or any
        spec of ``linkgraph solve --ladder``.
    pictures : bool, optional
        Draw each step's flow picture (needs Graphviz's ``dot``; None without it).
    check_limit : float, optional
        Seconds the uniqueness check may take (default: ``linkgraph solve``'s ``--check-limit``).

    Returns
    -------
    dict
        ``board`` (`board_shape`), ``ladder``, ``solve`` (exactly ``linkgraph solve
        --proofs --format json``), ``status`` (its exit status), ``steps`` (per step:
        ``title``, ``where``, ``where_text``, ``svg``) and ``links`` (``linkgraph links
        --format json`` of the start position).

    Raises
    ------
    InvalidPuzzleError
        For a puzzle with no or several solutions (the CLI's message).
    SearchLimitError
        When the uniqueness check does not settle within `check_limit` seconds.

    Examples
    --------
    >>> from linkgraph.explorer import explore
    >>> data = explore(lg.Grid.parse(lg.samples.EULER_01), pictures=False)
    >>> data["solve"]["solved"], data["steps"][0]["title"], data["board"]["size"]
    (True, 'Hidden Single', 9)
    """
    spec = ladder_spec(ladder)
    argv = ["--ladder", spec, "--proofs"] + ([] if check_limit is None else [f"--check-limit={check_limit!r}"])
    report = solve_command.report(grid, command_args(solve_command, argv))
    return page_data(grid, report, ladder=ladder, pictures=pictures)


def page_data(grid: Grid, report, *, ladder: str = "default", pictures: bool = True) -> dict:
    """`explore`'s data from a solve already made: `report` is `linkgraph.commands.solve.report`
    of `grid` with ``--proofs``."""
    from linkgraph.techniques import TECHNIQUES

    extras = []
    position = grid
    for step in report.value.steps:
        tech = TECHNIQUES.get(step.technique)
        place = hint_place(step, position)
        extras.append({
            "title": tech.title if tech is not None else step.technique,
            "where": place,
            "where_text": _place_words(place),
            "where_cells": _place_cells(place, position),
            "svg": _flow_svg(step.proof) if pictures else None,
        })
        position = position.apply(step)
    links = links_command.report(grid, command_args(links_command, [])).data
    return {
        "board": board_shape(grid),
        "ladder": ladder,
        "solve": report.data,
        "status": report.status,
        "steps": extras,
        "links": links,
    }


def parse_assertions(text: str, grid: Grid) -> list[Literal]:
    """Read ``+r2c8#1,-r5c5#7`` (comma or space separated); a bare ``r2c8#1`` means ON
    (a ``+`` in a URL reads as a space).

    Raises NotationError for a literal that does not parse, OptionError for none, too
    many, or a candidate that is not open.

    Examples
    --------
    >>> from linkgraph.explorer.data import parse_assertions
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> [str(x) for x in parse_assertions(" r2c8#1, -r2c4#1", grid)]
    ['+r2c8#1', '-r2c4#1']
    """
    items = [t for t in text.replace(",", " ").split() if t]
    if not items:
        raise OptionError("assert: expected literals such as '+r2c8#1,-r5c5#7', found none")
    if len(items) > MAX_ASSERTIONS:
        raise OptionError(f"assert: at most {MAX_ASSERTIONS} literals, found {len(items)}")
    lits = []
    for item in items:
        lit = Literal.parse(item if item[0] in "+-" else "+" + item, size=grid.size)
        if not hasattr(lit.cand, "cell") or not grid.has(lit.cand) or grid.placed[grid.geometry.cell_index(lit.cand.cell)]:
            raise OptionError(f"assert: {lit.cand} is not an open candidate of this position")
        lits.append(lit)
    return lits


def propagation(
    grid: Grid,
    assertions: Sequence[Literal],
    *,
    depth: int = 0,
    level: int = 0,
    explain: str | None = None,
    pictures: bool = True,
) -> dict:
    """What `assertions` imply in `grid`, round by round: the simulator's data.

    Parameters
    ----------
    grid : Grid
        The position.
    assertions : sequence of Literal
        Literals assumed together (round 0).
    depth : int, optional
        0 plain, 1 +depth (locked candidates), 2 ++depth (also subsets and fish).
    level : int, optional
        Nesting level (0 none).
    explain : str, optional
        A literal (``-r2c4#1``) whose proof to add, or ``"contradiction"``.
    pictures : bool, optional
        Add the explained proof's flow picture (SVG).

    Returns
    -------
    dict
        ``assert`` (texts), ``depth``, ``level``, ``rounds`` (one entry per round from
        0: ``round`` and ``literals``, the texts derived in it), ``contradiction`` (None,
        or ``round``, ``kind``: empty, two-on or both, ``via``: the set X, ``literals``)
        and ``explain`` (None, or ``target``, ``proof`` as `linkgraph.draw.data.proof_data`,
        ``support_size``, ``svg``).

    Examples
    --------
    >>> from linkgraph.explorer import propagation
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> out = propagation(grid, [lg.Literal.parse("+r2c8#1")], explain="-r2c4#1", pictures=False)
    >>> out["rounds"][0]["literals"], "-r2c4#1" in out["rounds"][1]["literals"]
    (['+r2c8#1'], True)
    >>> out["contradiction"]["round"] > 1, [(e["from"], e["to"]) for e in out["explain"]["proof"]["edges"]]
    (True, [('+r2c8#1', '-r2c4#1')])
    """
    from linkgraph.nets.propagate import propagate_many

    prop = propagate_many(grid, [tuple(assertions)], depth=depth, level=level)
    outcome = prop.outcome(0)
    st = prop.structure
    ron, roff = prop.rounds(0)
    by_round: dict[int, list[Literal]] = {}
    for rounds, on in ((ron, True), (roff, False)):
        for k in np.flatnonzero(rounds >= 0):
            by_round.setdefault(int(rounds[k]), []).append(Literal(st.candidate(int(k)), on=on))
    last = max(by_round, default=0)
    rows = [{"round": r, "literals": [str(x) for x in sorted(by_round.get(r, []), key=sort_key)]}
            for r in range(last + 1)]
    contradiction = None
    if outcome.contradiction is not None:
        contradiction = {
            "round": int(prop.failed[0]),
            "kind": outcome.contradiction_kind,
            "via": outcome.contradiction_via,
            "literals": [str(x) for x in outcome.contradiction],
        }
    shown = None
    if explain:
        if explain.strip() == "contradiction":
            if outcome.contradiction is None:
                raise OptionError("explain: the assertions lead to no contradiction")
            P = outcome.explain()
        else:
            target = explain.strip()
            lit = Literal.parse(target if target[0] in "+-" else "+" + target, size=grid.size)
            if not hasattr(lit.cand, "cell") or not outcome.implies(lit):
                raise OptionError(f"explain: {lit} does not follow from the assertions")
            P = outcome.explain([lit])
        shown = {
            "target": explain.strip(),
            "proof": proof_data(P, grid),
            "support_size": P.number_of_nodes(),
            "svg": _flow_svg(P) if pictures else None,
        }
    return {
        "assert": [str(x) for x in assertions],
        "depth": depth,
        "level": level,
        "rounds": rows,
        "contradiction": contradiction,
        "explain": shown,
    }
