"""Naked and hidden subsets of size 2 to 4 in every house.

Naked: k open cells of a house hold only k digits between them, so those
digits leave the house's other cells (base: the k cell sets; cover: the k
house-digit sets). Hidden: k digits of a house have only k cells between
them, so those cells lose their other digits (base: the k house-digit sets;
cover: the k cell sets).

Both searches OR the masks of every k positions (cells or digits) of every
house in one compiled pass (`linkgraph.techniques.kernel.closed_spilling`; the numpy
search it replaced is its oracle in tests/techniques/test_subsets_kernel.py), and work out
only the few subsets that close and eliminate.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

import numpy as np

from linkgraph.bitops import bitcount
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.bitops import bits
from linkgraph.techniques.base import house_places, pattern_step

__all__ = ["LEFT_OUT", "combination_table", "hidden_subsets", "naked_subsets"]

NAMES = {
    ("naked", 2): "naked-pair", ("naked", 3): "naked-triple", ("naked", 4): "naked-quad",
    ("hidden", 2): "hidden-pair", ("hidden", 3): "hidden-triple", ("hidden", 4): "hidden-quad",
}

LEFT_OUT = np.int64(0x7FFFFFFF) << 32  # a mask of more bits than any subset holds


def _kernel():
    """`linkgraph.techniques.kernel` (numba: imported on first use, not with linkgraph)."""
    from linkgraph.techniques import kernel  # noqa: PLC0415

    return kernel


def _masks(grid: Grid) -> np.ndarray:
    weights = 1 << np.arange(grid.size, dtype=np.int64)
    return grid.cands.astype(np.int64) @ weights


@lru_cache(maxsize=32)
def combination_table(n: int, size: int) -> np.ndarray:
    """(combinations, size) of `n` positions, in `itertools.combinations` order."""
    return np.array(list(combinations(range(n), size)), dtype=np.intp).reshape(-1, size)


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
    mask_arr = _masks(grid)
    house_masks = mask_arr[g.house_cells]  # (houses, cells)
    counts = bitcount(house_masks)
    table = combination_table(n, size)
    # closed subsets whose union's digits have places outside the subset's cells
    h, t, _ = _kernel().closed_spilling(np.where((counts >= 2) & (counts <= size), house_masks, LEFT_OUT), size,
                                        table, bitcount(house_places(grid)), counts)
    masks = mask_arr.tolist()
    for h, t in zip(h.tolist(), t.tolist()):
        cells = g.house_cells[h].tolist()
        combo = [cells[i] for i in table[t].tolist()]
        union = 0
        for c in combo:
            union |= masks[c]
        others = [c for c in cells if c not in combo]
        elims = [c * n + d for c in others for d in bits(masks[c] & union)]
        if not elims:
            continue
        cover = [g.number_of_cells + h * n + d for d in bits(union)]
        yield pattern_step(NAMES["naked", size], g, base=combo, cover=cover, eliminations=elims)


def hidden_subsets(grid: Grid, size: int) -> Iterator[Step]:
    """Yield hidden subsets of `size` digits (2, 3 or 4)."""
    g = grid.geometry
    n = g.size
    places = house_places(grid)  # (houses, digits)
    counts = bitcount(places)
    table = combination_table(n, size)
    # closed subsets whose union's cells hold digits outside the subset
    h, t, _ = _kernel().closed_spilling(np.where((counts >= 2) & (counts <= size), places, LEFT_OUT), size,
                                        table, grid.counts[g.house_cells], counts)
    masks = _masks(grid).tolist()
    for h, t in zip(h.tolist(), t.tolist()):
        cells = g.house_cells[h].tolist()
        combo = table[t].tolist()
        union = 0
        chosen = 0
        for d in combo:
            union |= int(places[h, d])
            chosen |= 1 << d
        elims = [cells[i] * n + d for i in bits(union) for d in bits(masks[cells[i]] & ~chosen)]
        if not elims:
            continue
        base = [g.number_of_cells + h * n + d for d in combo]
        cover = [cells[i] for i in bits(union)]
        yield pattern_step(NAMES["hidden", size], g, base=base, cover=cover, eliminations=elims)
