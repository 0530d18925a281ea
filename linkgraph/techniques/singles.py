"""Singles: full house, hidden single, naked single.

They place digits in the cells not yet placed (`Grid.placed`): a cell that
lost all but one digit to eliminations still needs its single stated.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import pattern_step

__all__ = ["full_houses", "hidden_singles", "naked_singles"]


def _house_singles(grid: Grid) -> Iterator[tuple[int, int]]:
    """(set, candidate) for every house-digit set with one live member, in an open cell."""
    g = grid.geometry
    live = grid.live
    members = g.set_members[g.number_of_cells :]
    alive = live[members]
    ones = np.flatnonzero(alive.sum(axis=1) == 1)
    ks = members[ones, alive[ones].argmax(axis=1)]
    open_cand = np.repeat(~grid.placed, g.size)
    for i, k in zip(ones.tolist(), ks.tolist()):
        if open_cand[k]:
            yield g.number_of_cells + i, k


def full_houses(grid: Grid) -> Iterator[Step]:
    """Yield a placement for every house with one open cell left.

    Examples
    --------
    >>> from linkgraph.oracle import solve_unique
    >>> solution = "".join(map(str, solve_unique(lg.Grid.parse(lg.samples.EULER_01))))
    >>> grid = lg.Grid.parse("." + solution[1:])
    >>> [str(s) for s in lg.techniques.singles.full_houses(grid)]
    ['full-house: +r1c1#4']
    """
    g = grid.geometry
    open_cells = ~grid.placed
    values = grid.values
    seen: set[int] = set()
    for h in np.flatnonzero(open_cells[g.house_cells].sum(axis=1) == 1).tolist():
        cells = g.house_cells[h]
        idx = np.flatnonzero(open_cells[cells])
        cell = int(cells[idx[0]])
        solved = {int(v) for v, p in zip(values[cells], grid.placed[cells]) if p}
        missing = [d for d in range(1, g.size + 1) if d not in solved]
        if len(missing) != 1:
            continue
        k = cell * g.size + missing[0] - 1
        if k in seen or not grid.live[k]:
            continue
        seen.add(k)
        s = g.number_of_cells + h * g.size + missing[0] - 1
        yield pattern_step("full-house", g, base=[s], placements=[k])


def hidden_singles(grid: Grid) -> Iterator[Step]:
    """Yield a placement for every digit with one place left in a house.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> step = next(lg.techniques.singles.hidden_singles(grid))
    >>> step.technique, len(step.placements)
    ('hidden-single', 1)
    """
    g = grid.geometry
    seen: set[int] = set()
    for s, k in _house_singles(grid):
        if k not in seen:
            seen.add(k)
            yield pattern_step("hidden-single", g, base=[s], placements=[k])


def naked_singles(grid: Grid) -> Iterator[Step]:
    """Yield a placement for every cell with one candidate left not yet placed.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.EULER_01)
    >>> all(s.technique == "naked-single" for s in lg.techniques.singles.naked_singles(grid))
    True
    """
    g = grid.geometry
    solo = grid.live & np.repeat((grid.counts == 1) & ~grid.placed, g.size)
    for k in np.flatnonzero(solo):
        yield pattern_step("naked-single", g, base=[int(k) // g.size], placements=[int(k)])
