"""``--ladder sukaku``: Sukaku Explainer's solve path and rating, emulated with linkgraph's rungs.

(This was ``--ladder se`` until SE 1.2.1's own rules replaced it there, `linkgraph.techniques.se`;
it stays for the corpora rated by Sukaku Explainer, SE's successor, whose extra rules —
strong-link fish, big wings — it imitates.)

The SE-rated corpora were rated by Sudoku Explainer or its successor Sukaku
Explainer (the Sudoku Exchange bank: Sukaku Explainer). SE rates a puzzle by
the hardest step of its own path, and at each step it applies the first hint
of its technique list. The default ladder has a richer technique set (ALS,
Medusa, W-wing, finned fish), so a puzzle that SE cracks only with a forcing
chain (SE 7.1) may fall here to an ALS-XZ (5.9), and one that SE cracks with a
WXYZ-wing (5.5) may need the same ALS-XZ: over the whole diabolical file the
default rating follows SE with a Spearman rho of 0.76, and no re-weighting of
its technique ratings reaches 0.78.

This ladder walks SE's path instead, with SE's technique list in SE's order
and SE's ratings (figures from Sudoku Explainer and Sukaku Explainer):

- singles, intersections, naked and hidden subsets, basic fish (the default
  ratings, which are SE's);
- the single-digit patterns of two strong links (skyscraper 4.0, 2-string kite
  4.1, turbot fish 4.2), XY-wing 4.2, XYZ-wing 4.4, unique rectangles 4.5-4.7;
- naked quad 5.0, jellyfish 5.2, hidden quad 5.4, then X-chains of three strong
  links (SE: 5.4-5.6 by the houses; 5.5 here), WXYZ-wing, BUG+1 5.6, X-chains of
  four strong links (SE: 5.8-6.0; 5.9 here), VWXYZ-wing, UVWXYZ-wing. A wing of
  N cells is rated from its base (5.5, 6.2, 6.6 for 4, 5, 6 cells) by the size of
  its largest cell: with ``m = (N + 2) // 2``, ``base + 0.1 * ((N - m) - |m - largest|)``;
  the five- and six-cell wings need a pivot cell that sees all the others;
- one chain rung holding SE's "forcing chains and cycles": every X-chain,
  XY-chain and AIC (no grouped nodes) of the position, the lowest-rated taken,
  ties to the shorter: an X-chain is SE's forcing X-chain (6.6), the others SE's
  forcing chain (7.0);
- forcing chains 8.0 (SE's multiple forcing chains), forcing nets 8.5 (dynamic),
  +depth and ++depth nets 9.0 (dynamic+), nested 9.5, nested +depth 10.0, doubly
  nested 10.5.

Chains and nets add SE's length bonus on the chain's own literals (the proof's
nodes less the premise and the conclusions, a nested net's sub-net proofs
included): +0.1 past 4, 6, 8, 12, 16, 24, ...
The uniqueness rungs are in, as in SE: the ladder is for proper puzzles.

Over the whole sudoku_exchange_diabolical file (39,419 puzzles) the puzzle
rating of this ladder follows SE with a Spearman rho of about 0.9 (README,
"Rating"); the default ladder stays the explainer's own: more techniques, each
rated once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from linkgraph.grid import Grid
from linkgraph.model import Cell, Role
from linkgraph.steps import Step
from linkgraph.techniques import wings
from linkgraph.techniques.aic import search as aic
from linkgraph.techniques.base import length_bonus, makes_progress
from linkgraph.techniques.ladder import TECHNIQUES, Technique

__all__ = ["SUKAKU_LADDER", "sukaku_rating"]

#: Base rating of a wing (before the adjustment by its largest cell).
_WING_BASE = {"wxyz-wing": 5.5, "vwxyz-wing": 6.2, "uvwxyz-wing": 6.6}

#: SE's base for chains and nets, by technique (before the length bonus).
_CHAIN_BASE = {
    "x-chain": 6.6, "xy-chain": 7.0, "aic": 7.0,
    "forcing-chain-contradiction": 8.0, "forcing-chain-cell": 8.0, "forcing-chain-house": 8.0,
    "forcing-net-contradiction": 8.5, "forcing-net-double": 8.5, "forcing-net-verity": 8.5,
    "forcing-net-plus": 9.0, "forcing-net-plus-plus": 9.0, "forcing-net-nested": 9.5,
    "forcing-net-nested-plus": 10.0, "forcing-net-nested-2": 10.5,
}

#: X-chains short enough for SE's strong-link fish rungs: links -> rating.
_STRONG_LINKS = {2: 4.2, 3: 5.5, 4: 5.9}


def _wing_cells(grid: Grid, step: Step) -> list[int]:
    g = grid.geometry
    return [g.cell_index(Cell.parse(c)) for c in step.proof.graph["cells"]]


def _chain_literals(step: Step) -> int:
    """The literals of a chain or net less its premise and conclusions (SE's chain length: SE
    rates a chain per target, so a chain that eliminates two candidates is no longer); a nested
    net counts the literals of every distinct sub-net proof on its edges too, as SE adds the
    complexity of each nested chain."""
    seen: set[int] = set()

    def size(P) -> int:
        n = P.number_of_nodes()
        for _, _, data in P.edges(data=True):
            sub = data.get("proof")
            if sub is not None and id(sub) not in seen:
                seen.add(id(sub))
                n += size(sub)
        return n

    conclusions = sum(1 for _, role in step.proof.nodes(data="role") if role == Role.CONCLUSION)
    return max(size(step.proof) - max(conclusions, 1) - 1, 0)


def sukaku_rating(grid: Grid, step: Step) -> float:
    """The rating SE gives `step` (found on `grid`), by the rules of the module docstring.

    Examples
    --------
    >>> lg.techniques.sukaku.sukaku_rating(lg.Grid.parse(lg.samples.EULER_01), lg.make_step("x-wing"))
    3.2
    """
    name = str(step.technique)
    if name in _WING_BASE:
        cells = _wing_cells(grid, step)
        size, largest = len(cells), max(int(grid.counts[c]) for c in cells)
        middle = (size + 2) // 2
        return round(_WING_BASE[name] + 0.1 * ((size - middle) - abs(middle - largest)), 1)
    if name in _CHAIN_BASE:
        length = _chain_literals(step)
        if name == "x-chain" and length % 2 == 0 and length // 2 in _STRONG_LINKS:
            return _STRONG_LINKS[length // 2]
        return round(_CHAIN_BASE[name] + length_bonus(length), 1)
    return TECHNIQUES[name].rating


def _strong_link_chains(links: int) -> Callable[[Grid], Iterator[Step]]:
    """X-chains of exactly `links` strong links (SE's strong-linked fish rungs)."""
    def find(grid: Grid) -> Iterator[Step]:
        return (s for s in aic.x_chains(grid) if _chain_literals(s) == 2 * links)
    return find


def _chains(grid: Grid) -> Iterator[Step]:
    """SE's forcing chains and cycles: every X-chain, XY-chain and AIC that makes progress,
    lowest SE rating first, ties to the shorter (then in the order found)."""
    found = [s for finder in (aic.x_chains, aic.xy_chains, partial(aic.aics, groups=False)) for s in finder(grid)
             if makes_progress(grid, s)]
    found.sort(key=lambda s: (sukaku_rating(grid, s), s.proof.number_of_nodes()))
    return iter(found)


def _ladder():
    def rung(name: str, title: str | None = None, find=None, rating: float | None = None,
             step_names: tuple[str, ...] = ()) -> Technique:
        t = TECHNIQUES.get(name)
        return Technique(name, title or t.title, t.family if t else "chains", rating if rating is not None else t.rating,
                         find or t.find, rate=sukaku_rating, step_names=step_names)

    names = ("full-house", "hidden-single", "naked-single", "locked-pointing", "locked-claiming", "naked-pair",
             "x-wing", "hidden-pair", "naked-triple", "swordfish", "hidden-triple", "skyscraper", "2-string-kite",
             "turbot-fish", "xy-wing", "xyz-wing", "unique-rectangle-1", "unique-rectangle-2", "unique-rectangle-4",
             "unique-rectangle-3", "naked-quad", "jellyfish", "hidden-quad")
    return (
        *(rung(n) for n in names),
        rung("x-chain-3-links", "X-Chain of three strong links", _strong_link_chains(3), 5.5, ("x-chain",)),
        rung("wxyz-wing", rating=5.5),
        rung("bug+1"),
        rung("x-chain-4-links", "X-Chain of four strong links", _strong_link_chains(4), 5.9, ("x-chain",)),
        rung("vwxyz-wing", find=partial(wings.vwxyz_wings, pivot=True)),
        rung("uvwxyz-wing", find=partial(wings.uvwxyz_wings, pivot=True)),
        rung("se-chains", "Forcing Chains and Cycles (X-chain, XY-chain, AIC)", _chains, 6.6,
             ("x-chain", "xy-chain", "aic")),
        *(rung(n, rating=_CHAIN_BASE[n]) for n in (
            "forcing-chain-contradiction", "forcing-chain-cell", "forcing-chain-house", "forcing-net-contradiction",
            "forcing-net-double", "forcing-net-verity", "forcing-net-plus", "forcing-net-plus-plus",
            "forcing-net-nested", "forcing-net-nested-plus", "forcing-net-nested-2")),
    )


#: The ``sukaku`` ladder, in SE's order; every rung rates its steps with `sukaku_rating`.
SUKAKU_LADDER = _ladder()
