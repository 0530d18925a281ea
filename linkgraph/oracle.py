"""The truth oracle: count a grid's solutions by search and return the unique one.

A proper puzzle has exactly one solution; every placement linkgraph makes must
be a solution digit and no elimination may remove one. This module finds the
solutions by depth-first search with naked- and hidden-single propagation over
the geometry's houses (so it works for every variant), branching on the cell
with the fewest digits. It shares no code with the reasoning engine.

Cell states are Python ints used as bitsets (bit ``d - 1`` for digit d), which
keeps the inner loops in fast integer arithmetic.
"""

from __future__ import annotations

import numpy as np

from linkgraph.errors import InvalidPuzzleError
from linkgraph.grid import Grid

__all__ = ["count_solutions", "solutions", "solve_unique"]


def _structure(grid: Grid) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], int]:
    g = grid.geometry
    peers = [tuple(int(p) for p in row) for row in g.peer_lists]
    houses = [tuple(int(c) for c in cells) for cells in g.house_cells]
    return peers, houses, (1 << g.size) - 1


def _propagate(masks: list[int], todo: list[int], peers, houses, full: int) -> bool:
    """Apply naked and hidden singles in place; False on a contradiction."""
    while True:
        while todo:
            c = todo.pop()
            m = masks[c]
            for p in peers[c]:
                pm = masks[p]
                if pm & m:
                    pm &= ~m
                    if not pm:
                        return False
                    masks[p] = pm
                    if not pm & (pm - 1):
                        todo.append(p)
        for h in houses:
            once = twice = 0
            for c in h:
                m = masks[c]
                twice |= once & m
                once |= m
            if once != full:
                return False
            singles = once & ~twice
            if singles:
                for c in h:
                    m = masks[c]
                    s = m & singles
                    if s:
                        if s & (s - 1):
                            return False
                        if m != s:
                            masks[c] = s
                            todo.append(c)
        if not todo:
            return True


def _search(masks: list[int], todo: list[int], peers, houses, full: int, limit: int, found: list) -> None:
    if not _propagate(masks, todo, peers, houses, full):
        return
    best, best_count = -1, 99
    for c, m in enumerate(masks):
        if m & (m - 1):
            k = m.bit_count()
            if k < best_count:
                best, best_count = c, k
                if k == 2:
                    break
    if best < 0:
        found.append(masks)
        return
    m = masks[best]
    while m and len(found) < limit:
        bit = m & -m
        m ^= bit
        new = masks.copy()
        new[best] = bit
        _search(new, [best], peers, houses, full, limit, found)


def solutions(grid: Grid, *, limit: int = 2) -> list[np.ndarray]:
    """Up to `limit` solutions of `grid`, each an array of one value per cell.

    The search starts from the grid's live candidates, so it also answers for
    a position after eliminations.

    >>> sols = lg.oracle.solutions(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> len(sols), "".join(map(str, sols[0][:9]))
    (1, '152647389')
    """
    peers, houses, full = _structure(grid)
    weights = 1 << np.arange(grid.size, dtype=np.int64)
    masks = [int(x) for x in (grid.cands.astype(np.int64) @ weights)]
    if any(m == 0 for m in masks):
        return []
    todo = [c for c, m in enumerate(masks) if not m & (m - 1)]
    found: list[list[int]] = []
    _search(masks, todo, peers, houses, full, limit, found)
    return [np.array([m.bit_length() for m in sol], dtype=np.int64) for sol in found]


def count_solutions(grid: Grid, *, limit: int = 2) -> int:
    """Number of solutions, counted up to `limit` (so 2 means "two or more")."""
    return len(solutions(grid, limit=limit))


def solve_unique(grid: Grid) -> np.ndarray:
    """The unique solution as one value per cell.

    Raises InvalidPuzzleError when the grid has no solution or more than one.
    """
    sols = solutions(grid, limit=2)
    if not sols:
        raise InvalidPuzzleError("the puzzle has no solution")
    if len(sols) > 1:
        raise InvalidPuzzleError("the puzzle has more than one solution")
    return sols[0]
