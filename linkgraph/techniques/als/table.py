"""The ALS table of a grid: its almost-locked sets and every relation between two of them.

The ALS rungs (`linkgraph.techniques.als.xz`: ALS-XZ, ALS-XY-wing, death
blossom; `linkgraph.techniques.als.chains`: ALS chains) read their sets and
links off one `AlsTable` per grid, built by `als_table`.

ALSs have 1 to `DEFAULT_ALS_MAX_SIZE` (4) cells, the link graph's default
(see `linkgraph.graph.als` for why); pass ``max_size`` for larger sets. They are
those of `linkgraph.graph.als.als_cells` (the one enumeration: numpy, all houses
at once), smallest first, then by cells. `AlsTable` then
computes, once per grid, every relation between two ALSs with bitwise
operations on masks packed in 64-bit words, in one compiled call
(`linkgraph.techniques.als.kernel.table_build`). Per digit and set, its places
and the cells seeing all of them are cell masks, each an OR (AND) over the
set's cells of that cell's own (peer) mask. Turned over, per digit and cell,
the sets whose places that cell sees all of are a mask over sets: the
restricted commons of set i are the AND of those masks over i's places, and
the digits z with a live z seeing every z of i and of j the OR over the live z
that see i. Python bit masks of
a set are made on first use. The last table is kept, so the finders run on
one grid (as the solver does) build it once.

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> table = lg.techniques.als.table.als_table(grid)
>>> table is lg.techniques.als.table.als_table(grid)  # the last table is kept
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from linkgraph.graph.als import DEFAULT_ALS_MAX_SIZE, cell_bits
from linkgraph.graph.compiler import grid_als_cells
from linkgraph.bitops import bits, to_ints
from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als

__all__ = ["ALS_MAX_SIZE", "AlsSet", "AlsTable", "als_table"]

#: Largest ALS (in cells) these techniques use by default.
ALS_MAX_SIZE = DEFAULT_ALS_MAX_SIZE

@lru_cache(maxsize=8)
def _peer_words(geometry: Geometry) -> np.ndarray:
    """(cells + 1, words) uint64, C-contiguous: each cell's peers, packed; the padding row holds
    every cell."""
    return np.ascontiguousarray(geometry.peer_words)


@dataclass(frozen=True, slots=True)
class AlsSet:
    """One ALS as bit masks: its cells, its digits, and per digit (index) its places
    and the cells that see all of them (both 0 for a digit it lacks)."""

    cells: tuple[int, ...]
    cellmask: int
    digits: int  # bit d for digit index d
    places: tuple[int, ...]
    seeall: tuple[int, ...]


class AlsTable:
    """The ALSs of a grid (smallest first, then by cells) and their pairwise relations.

    Numpy matrices indexed by set number: ``restricted[i, j]`` is the bit mask
    of the restricted common digits (0 when the sets share a cell);
    ``zsee[i, j]`` the digits z in both sets with a live z outside them that
    sees every z of both; ``overlap[i, j]`` whether they share a cell. Per
    digit d (axis 0), ``places`` and ``seeall`` are packed cell masks, and
    ``restricted_words`` (digits, sets, words) the sets j restricted common
    with set i on d, packed over sets.
    ``sight`` is three index arrays (digit d, set i, cell c), sorted: the
    live candidates c#d outside set i that see every d of it.
    """

    __slots__ = ("_sets", "cells", "digit_cells", "grid", "has", "overlap", "places", "restricted",
                 "restricted_words", "seeall", "selfsee", "sight", "zsee")

    def __init__(self, grid: Grid, max_size: int):
        from linkgraph.techniques.als.kernel import table_build  # noqa: PLC0415 (numba: loaded on first use)

        self.grid = grid
        self.digit_cells = tuple(cell_bits(grid.cands))
        self.cells = grid_als_cells(grid, max_size)  # kept per grid: the chain search's compiled graph reads it too
        (self.has, self.places, self.seeall, d, i, x, self.selfsee, self.overlap, self.restricted,
         self.restricted_words, self.zsee) = table_build(grid.cands, self.cells, _peer_words(grid.geometry))
        self.sight = d, i, x
        self._sets: dict[int, AlsSet] = {}

    def __len__(self) -> int:
        return len(self.cells)

    def set(self, i: int) -> AlsSet:
        """Set `i` as Python bit masks (made on first use)."""
        got = self._sets.get(i)
        if got is None:
            ncells = self.grid.geometry.number_of_cells
            cells = tuple(int(c) for c in self.cells[i] if c < ncells)
            digits = 0
            for d in np.flatnonzero(self.has[i]):
                digits |= 1 << int(d)
            places = tuple(to_ints(self.places[:, i]))
            seeall = tuple(to_ints(self.seeall[:, i]))
            cellmask = 0
            for c in cells:
                cellmask |= 1 << c
            got = self._sets[i] = AlsSet(cells, cellmask, digits, places, seeall)
        return got

    def als(self, i: int) -> Als:
        """The `Als` value of set `i`."""
        g = self.grid.geometry
        s = self.set(i)
        return Als(tuple(g.cell(c) for c in s.cells), tuple(d + 1 for d in bits(s.digits)))


def als_table(grid: Grid, *, max_size: int = ALS_MAX_SIZE) -> AlsTable:
    """Enumerate the ALSs of `grid` and their pairwise relations.

    Parameters
    ----------
    grid : Grid
        The candidate state.
    max_size : int, optional
        Largest ALS in cells (default 4).

    Examples
    --------
    >>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    >>> table = lg.techniques.als.xz.als_table(grid)
    >>> str(table.als(0))  # smallest first, then by cells: the bivalue r2c6
    'r2c6{28}'
    >>> table.restricted.shape == (len(table), len(table))
    True
    """
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
        raise OptionError(f"max_size: expected a whole number of cells >= 1, found {max_size!r}")
    # the three finders run one after another on the same grid: keep the last table
    # (the grid is immutable, and the cache holds it, so its identity is not reused)
    last = _LAST[0]
    if last is not None and last[0] is grid and last[1] == max_size:
        return last[2]
    table = AlsTable(grid, max_size)
    _LAST[0] = (grid, max_size, table)
    return table


_LAST: list[tuple[Grid, int, AlsTable] | None] = [None]
