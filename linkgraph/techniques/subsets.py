"""Naked and hidden subsets of size 2 to 4 in every house.

Naked: k open cells of a house hold only k digits between them, so those
digits leave the house's other cells (base: the k cell sets; cover: the k
house-digit sets). Hidden: k digits of a house have only k cells between
them, so those cells lose their other digits (base: the k house-digit sets;
cover: the k cell sets).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import bits, pattern_step

__all__ = ["hidden_subsets", "naked_subsets"]

NAMES = {
    ("naked", 2): "naked-pair", ("naked", 3): "naked-triple", ("naked", 4): "naked-quad",
    ("hidden", 2): "hidden-pair", ("hidden", 3): "hidden-triple", ("hidden", 4): "hidden-quad",
}


def _masks(grid: Grid) -> list[int]:
    weights = 1 << np.arange(grid.size, dtype=np.int64)
    return [int(x) for x in (grid.cands.astype(np.int64) @ weights)]


def naked_subsets(grid: Grid, size: int) -> Iterator[Step]:
    """Yield naked subsets of `size` cells (2, 3 or 4).

    Examples
    --------
    >>> grid = lg.Grid.parse("37 37 1245689 1245689 1245689 1245689 1245689 1245689 1245689 " + "123456789 " * 72)
    >>> step = next(lg.techniques.subsets.naked_subsets(grid, 2))
    >>> step.technique, step.proof.graph["base"], len(step.eliminations)
    ('naked-pair', ['r1c1', 'r1c2'], 12)
    """
    g = grid.geometry
    n = g.size
    masks = _masks(grid)
    for h in range(len(g.houses)):
        cells = [int(c) for c in g.house_cells[h]]
        open_cells = [c for c in cells if 2 <= masks[c].bit_count() <= size]
        for combo in combinations(open_cells, size):
            union = 0
            for c in combo:
                union |= masks[c]
            if union.bit_count() != size:
                continue
            others = [c for c in cells if c not in combo]
            elims = [c * n + d for c in others for d in bits(masks[c] & union)]
            if not elims:
                continue
            base = list(combo)
            cover = [g.number_of_cells + h * n + d for d in bits(union)]
            yield pattern_step(NAMES["naked", size], g, base=base, cover=cover, eliminations=elims)


def hidden_subsets(grid: Grid, size: int) -> Iterator[Step]:
    """Yield hidden subsets of `size` digits (2, 3 or 4)."""
    g = grid.geometry
    n = g.size
    masks = _masks(grid)
    C = grid.cands[g.house_cells]  # (houses, positions, digits)
    weights = 1 << np.arange(n, dtype=np.int64)
    places = np.tensordot(weights, C.astype(np.int64), axes=([0], [1]))  # (houses, digits)
    counts = C.sum(axis=1)
    usable = (counts >= 2) & (counts <= size)
    for h in np.flatnonzero(usable.sum(axis=1) >= size).tolist():
        cells = [int(c) for c in g.house_cells[h]]
        place = [int(x) for x in places[h]]
        digits = np.flatnonzero(usable[h]).tolist()
        for combo in combinations(digits, size):
            union = 0
            for d in combo:
                union |= place[d]
            if union.bit_count() != size:
                continue
            chosen = 0
            for d in combo:
                chosen |= 1 << d
            elims = [cells[i] * n + d for i in bits(union) for d in bits(masks[cells[i]] & ~chosen)]
            if not elims:
                continue
            base = [g.number_of_cells + h * n + d for d in combo]
            cover = [cells[i] for i in bits(union)]
            yield pattern_step(NAMES["hidden", size], g, base=base, cover=cover, eliminations=elims)
