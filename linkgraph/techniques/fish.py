"""Basic fish of size 2 to 4: X-Wing, Swordfish, Jellyfish, in both orientations.

For one digit, k rows (the base) hold its places in only k columns (the
cover): the k truths of the base fill those columns, so the digit leaves the
cover columns' other cells. The same with rows and columns swapped. Base and
cover are the house-digit sets.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np

from linkgraph.grid import Grid
from linkgraph.steps import Step
from linkgraph.techniques.base import bits, pattern_step

__all__ = ["basic_fish"]

NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


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
    rows = [h for h, house in enumerate(g.houses) if house.kind == "row"]
    cols = [h for h, house in enumerate(g.houses) if house.kind == "col"]
    cands = grid.cands
    solved = grid.counts == 1
    weights = 1 << np.arange(n, dtype=np.int64)
    for base_kind, base_houses, cover_houses in (("row", rows, cols), ("col", cols, rows)):
        if not base_houses:
            continue
        lines = g.house_cells[base_houses]  # (lines, n) cells
        C = cands[lines]  # (lines, n positions, n digits)
        masks = np.tensordot(weights, C.astype(np.int64), axes=([0], [1]))  # (lines, digits)
        counts = C.sum(axis=1)
        has_solved = (C & solved[lines][:, :, None]).any(axis=1)
        usable = (~has_solved) & (counts >= 2) & (counts <= size)
        for d in range(n):
            # place masks: bit j = position j along the line (column index for rows)
            place = {base_houses[i]: int(masks[i, d]) for i in np.flatnonzero(usable[:, d]).tolist()}
            for combo in combinations(sorted(place), size):
                union = 0
                for h in combo:
                    union |= place[h]
                if union.bit_count() != size:
                    continue
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
