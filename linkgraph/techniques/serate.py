"""``--ladder se``: Sudoku Explainer 1.2.1's solve path and rating.

Each rung is one of SE's hint producers, in SE's order (`linkgraph.techniques.se.solver`):
the direct rules (hidden single, direct pointing, direct hidden pair, naked single, direct
hidden triplet), the indirect rules up to aligned pair exclusion (with SE's unique loops and
BUG types 1-4, `linkgraph.techniques.se.unique`), then Forcing Chains & Cycles, Aligned Triplet
Exclusion, Nishio, Multiple and Dynamic Forcing Chains, Dynamic Forcing Chains (+), and
the nested levels 2 to 5. A rung yields its producer's hints in SE's own order as Steps
whose proofs the checker replays (`linkgraph.techniques.se.proof`); the solver applies the
first, so the path is SE's. Every step carries SE's rating in its proof graph
(``P.graph["rating"]``), which `se_rating` reads.

The uniqueness rungs are in, as in SE: the ladder is for proper puzzles.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linkgraph.grid import Grid
from linkgraph.steps import Step, make_step
from linkgraph.techniques.ladder import Technique
from linkgraph.techniques.se.board import Board
from linkgraph.techniques.se.proof import hint_step
from linkgraph.techniques.se.solver import Producer, producers
from linkgraph.techniques.se.unique import StepHint

__all__ = ["SE_LADDER", "se_rating"]


def se_rating(grid: Grid, step: Step) -> float:
    """SE's rating of `step`, as its rung recorded it in the proof graph.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> step, rating = lg.rated_hint(grid, ladder="se")
    >>> step.technique, rating == lg.techniques.serate.se_rating(grid, step)
    ('se-hidden-single', True)
    """
    return float(step.proof.graph.get("rating", 0.0))


def _slug(name: str) -> str:
    return "se-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _rung(prod: Producer) -> Technique:
    def find(grid: Grid) -> Iterator[Step]:
        board = Board.from_grid(grid)
        for hint in prod.find(board):
            if not hint.is_worth():
                continue
            hint.producer = prod.name
            if isinstance(hint, StepHint):
                P = hint.step.proof.copy() if not hasattr(hint.step.proof, "frozen") else type(hint.step.proof)(hint.step.proof)
                P.graph.update(se_name=hint.name, rating=hint.difficulty)
                s = hint.step
                yield make_step(s.technique, placements=s.placements, eliminations=s.eliminations,
                                premises=s.premises, proof=P, notation=s.notation)
            else:
                yield hint_step(grid, hint)

    family = "chains" if prod.chaining else "se"
    return Technique(_slug(prod.name), prod.name, family, 0.0, find, default=False, rate=se_rating)


#: The ``se`` ladder: SE's producers in SE's order, each rating its steps as SE does.
SE_LADDER: tuple[Technique, ...] = tuple(_rung(p) for p in producers(max_level=5))
