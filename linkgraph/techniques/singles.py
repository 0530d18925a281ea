"""Singles: full house, hidden single, naked single.

They place digits in the cells not yet placed (`Grid.placed`): a cell that
lost all but one digit to eliminations still needs its single stated. They
run on every step of a solve, so each is one compiled pass over the grid
(`linkgraph.techniques.kernel`).
"""

from __future__ import annotations

from collections.abc import Iterator


from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import pattern_step

__all__ = ["full_houses", "hidden_singles", "naked_singles"]


def _kernel():
    """`linkgraph.techniques.kernel` (numba: imported on first use, not with linkgraph)."""
    from linkgraph.techniques import kernel  # noqa: PLC0415

    return kernel


def _house_singles(grid: Grid) -> Iterator[tuple[int, int]]:
    """(set, candidate) for every house-digit set with one live member, in an open cell."""
    g = grid.geometry
    sets, ks = _kernel().house_singles(grid.live, grid.placed, g.set_members[g.number_of_cells :], g.size)
    for i, k in zip(sets.tolist(), ks.tolist()):
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
    n = g.size
    seen: set[int] = set()
    houses, ks = _kernel().full_houses(grid.cands, grid.placed, g.house_cells)
    for h, k in zip(houses.tolist(), ks.tolist()):
        if k not in seen:
            seen.add(k)
            yield pattern_step("full-house", g, base=[g.number_of_cells + h * n + k % n], placements=[k])


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
    for k in _kernel().naked_singles(grid.cands, grid.placed).tolist():
        yield pattern_step("naked-single", g, base=[k // g.size], placements=[k])
