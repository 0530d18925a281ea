"""Basic fish of size 2 to 4: X-Wing, Swordfish, Jellyfish, in both orientations.

For one digit, k rows (the base) hold its places in only k columns (the
cover): the k truths of the base fill those columns, so the digit leaves the
cover columns' other cells. The same with rows and columns swapped. Base and
cover are the house-digit sets. The places of every k base lines of every
digit are ORed at once with numpy; only the fish that close are worked out.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from linkgraph.bitops import bitcount
from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.bitops import bits
from linkgraph.techniques.base import house_places, pattern_step
from linkgraph.techniques.subsets import LEFT_OUT, combination_table

__all__ = ["basic_fish"]

NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


@lru_cache(maxsize=8)
def _lines(g) -> tuple[tuple[list[int], list[int]], ...]:
    """(base lines, cover lines): rows and columns, then columns and rows."""
    rows = [h for h, house in enumerate(g.houses) if house.kind == "row"]
    cols = [h for h, house in enumerate(g.houses) if house.kind == "col"]
    return (rows, cols), (cols, rows)


def _kernel():
    """`linkgraph.techniques.kernel` (numba: imported on first use, not with linkgraph)."""
    from linkgraph.techniques import kernel  # noqa: PLC0415

    return kernel


def basic_fish(grid: Grid, size: int) -> Iterator[Step]:
    """Yield basic fish with `size` base lines (2, 3 or 4), rows first, then columns.

    Examples
    --------
    >>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    >>> [s.technique for s in lg.techniques.fish.basic_fish(grid, 2)][:0]
    []
    """
    g = grid.geometry
    n = g.size
    cands = grid.cands
    places = house_places(grid)  # (houses, digits) place masks: bit j = the house's j-th cell
    weights = 1 << np.arange(n, dtype=np.int64)
    solved_at = (weights * (grid.counts == 1)[g.house_cells]).sum(axis=1)  # (houses,)
    for base_houses, cover_houses in _lines(g):
        if len(base_houses) < size:
            continue
        masks = places[base_houses]  # (lines, digits): bit j = column j for a row, row j for a column
        counts = bitcount(masks)
        usable = (masks & solved_at[base_houses, None] == 0) & (counts >= 2) & (counts <= size)
        # per digit, every `size` base lines whose places take `size` positions
        # whose cover lines hold more places than the base lines (all of which they hold)
        table = combination_table(len(base_houses), size)
        d, t, union = _kernel().closed_spilling(np.where(usable, masks, LEFT_OUT).T, size, table,
                                                bitcount(places[cover_houses]).T, counts.T)
        for d, t, union in zip(d.tolist(), t.tolist(), union.tolist()):
            combo = [base_houses[i] for i in table[t].tolist()]
            cover = [cover_houses[j] for j in bits(union)]
            base_cells = {int(c) for h in combo for c in g.house_cells[h]}
            elims = [
                int(c) * n + d
                for h in cover
                for c in g.house_cells[h]
                if cands[c, d] and int(c) not in base_cells
            ]
            if not elims:
                continue
            yield pattern_step(
                NAMES[size],
                g,
                base=[g.number_of_cells + h * n + d for h in combo],
                cover=[g.number_of_cells + h * n + d for h in cover],
                eliminations=elims,
            )
