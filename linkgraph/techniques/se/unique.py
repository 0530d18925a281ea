"""SE's uniqueness producers, served by linkgraph's own uniqueness rules.

SE 1.2.1 runs Unique Loops after the XYZ-Wing and the Bivalue Universal Grave after the
hidden quad. Here the unique-rectangle rules of types 1 to 4 (SE's loops of four cells)
and BUG+1 (SE's BUG type 1) stand in for them, at linkgraph's ratings for those rules
(4.5-4.7, 5.6); SE's longer loops and BUG types 2-4 are not searched.
"""

from __future__ import annotations

from collections.abc import Iterator

from linkgraph.techniques.se.board import Board, candidate
from linkgraph.techniques.se.hints import Hint

__all__ = ["StepHint", "bug_hints", "unique_loop_hints"]


class StepHint(Hint):
    """A hint carrying the linkgraph `Step` (and proof) it was made from."""

    __slots__ = ("step",)

    def __init__(self, name, technique, difficulty, removable, cell=None, value=0, *, step):
        super().__init__(name, technique, difficulty, removable, cell, value)
        self.step = step


def _from_steps(board: Board, names: tuple[str, ...], title: str) -> Iterator[Hint]:
    from linkgraph.techniques.ladder import TECHNIQUES
    grid = board.to_grid()
    for name in names:
        tech = TECHNIQUES[name]
        for step in tech.find(grid):
            removable: dict[int, int] = {}
            for cand in step.eliminations:
                c = cand.cell.row * 9 + cand.cell.col
                removable[c] = removable.get(c, 0) | 1 << cand.digit
            cell = value = None
            if step.placements:
                cand = next(iter(step.placements))
                cell, value = cand.cell.row * 9 + cand.cell.col, cand.digit
                assert candidate(cell, value) == cand
            hint = StepHint(title, name, tech.rating, removable, cell, value or 0, step=step)
            if hint.is_worth():
                yield hint


def unique_loop_hints(board: Board) -> Iterator[Hint]:
    """Unique rectangles of types 1, 2, 4, 3 (SE's Unique Loops of four cells)."""
    return _from_steps(board, ("unique-rectangle-1", "unique-rectangle-2", "unique-rectangle-4",
                               "unique-rectangle-3"), "Unique Rectangle")


def bug_hints(board: Board) -> Iterator[Hint]:
    """BUG+1 (SE's Bivalue Universal Grave type 1)."""
    return _from_steps(board, ("bug+1",), "Bivalue Universal Grave")
