"""The ALS table of a grid: its almost-locked sets and every relation between two of them.

The ALS rungs (`linkgraph.techniques.als.xz`: ALS-XZ, ALS-XY-wing, death
blossom; `linkgraph.techniques.als.chains`: ALS chains) read their sets and
links off one `AlsTable` per grid, built by `als_table`.

ALSs have 1 to `DEFAULT_ALS_MAX_SIZE` (4) cells, the link graph's default
(see `linkgraph.graph.als` for why); pass ``max_size`` for larger sets. They are
those of `linkgraph.graph.als.als_cells` (the one enumeration: numpy, all houses
at once), smallest first, then by cells. `AlsTable` then
computes, once per grid, every relation between two ALSs with bitwise
operations on masks packed in 64-bit words (no BLAS call, which is slow under
thread contention). Per digit and set, its places and the cells seeing all of
them are cell masks, each an OR (AND) over the set's cells of that cell's own
(peer) mask. Turned over, per digit and cell, the sets whose places that cell
sees all of are a mask over sets: the restricted commons of set i are the
AND of those masks over i's places, and the digits z with a live z seeing
every z of i and of j the OR over the live z that see i. Python bit masks of
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

from linkgraph.graph.als import DEFAULT_ALS_MAX_SIZE, als_cells, cell_bits
from linkgraph.bitops import bits, nonzero2, pack, to_ints, unpack
from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als

__all__ = ["ALS_MAX_SIZE", "AlsSet", "AlsTable", "als_table"]

#: Largest ALS (in cells) these techniques use by default.
ALS_MAX_SIZE = DEFAULT_ALS_MAX_SIZE

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@lru_cache(maxsize=8)
def _cell_words(geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, packed, as (words, cells + 1): its peers and itself; column number_of_cells pads
    (every cell; none)."""
    own = pack(np.eye(geometry.number_of_cells, dtype=bool), pad=False)
    peers, own = np.ascontiguousarray(geometry.peer_words.T), np.ascontiguousarray(own.T)
    peers.setflags(write=False)
    own.setflags(write=False)
    return peers, own


def _gather(rows: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``rows[:, index]`` of a 2-d array, C-contiguous (numpy leaves that fancy index strided)."""
    width = rows.shape[1]
    return rows.reshape(-1)[np.arange(len(rows)).reshape((-1,) + (1,) * index.ndim) * width + index]


def _digit_matrix(words: np.ndarray, N: int) -> np.ndarray:
    """Words (R, digits, N, words over sets) as int64 (R, N, N): bit d of [r, i, j] is bit j
    of words[r, d, i] (`linkgraph.techniques.als.kernel.digit_matrix`, imported on the first
    table: numba is slow to import)."""
    from linkgraph.techniques.als.kernel import digit_matrix  # noqa: PLC0415

    return digit_matrix(np.ascontiguousarray(words, dtype=np.uint64), N)


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
    digit d (axis 0), ``places`` and ``seeall`` are packed cell masks.
    ``sight`` is three index arrays (digit d, set i, cell c), sorted: the
    live candidates c#d outside set i that see every d of it.
    """

    __slots__ = ("_sets", "cells", "digit_cells", "grid", "has", "overlap", "places", "restricted", "seeall",
                 "selfsee", "sight", "zsee")

    def __init__(self, grid: Grid, max_size: int):
        self.grid = grid
        geo = grid.geometry
        n, ncells = geo.size, geo.number_of_cells
        cands = grid.cands
        self.digit_cells = tuple(cell_bits(cands))
        self.cells = cellrows = als_cells(grid, max_size=max_size)
        N, K = cellrows.shape
        wj = (N + 63) // 64  # words over sets
        # word-major layouts inside, (..., words, sets), so that no operand broadcasts along the last axis
        slots = np.ascontiguousarray(cellrows.T)  # (K, N): the k-th cell of each set
        ext = np.zeros((n, ncells + 1), dtype=bool)
        ext[:, :ncells] = cands.T
        hold = _gather(ext, slots)  # (n, K, N): the set's k-th cell holds d
        has = hold.any(axis=1)  # (n, N)
        self.has = has.T
        hasw = np.where(has, _ONES, np.uint64(0))[:, None]  # (n, 1, N): all ones where the set holds d
        skip = (hold.astype(np.uint64) - np.uint64(1))[:, None]  # (n, 1, K, N): all ones where the cell lacks d
        # packed over cells: per digit and set, its places and the cells seeing all of them
        peerw, ownw = _cell_words(geo)  # (words, cells + 1)
        digw = pack(cands.T)  # (n, words)
        places = np.bitwise_or.reduce(_gather(ownw, slots), axis=1)[None] & digw[:, :, None]  # (n, words, N)
        seeall = np.bitwise_and.reduce(_gather(peerw, slots)[None] | skip, axis=2) & hasw
        self.places = np.ascontiguousarray(places.transpose(0, 2, 1))  # (n, N, words)
        self.seeall = seeall = np.ascontiguousarray(seeall.transpose(0, 2, 1))
        # the live candidates seeing every place of a digit: from the few nonzero words
        live = (seeall & digw[:, None]).reshape(-1)
        nonzero = np.flatnonzero(live)
        w, bit = nonzero2(unpack(live[nonzero][:, None], 64))  # (flatnonzero is slow on uint8)
        word = nonzero[w]
        W = seeall.shape[-1]
        self.sight = d, i, x = word // (N * W), word // W % N, word % W * 64 + bit
        first = np.flatnonzero(np.concatenate(([True], (d[1:] != d[:-1]) | (i[1:] != i[:-1])))) if len(d) else d
        self.selfsee = np.zeros(N, dtype=np.int64)
        np.add.at(self.selfsee, i[first], 1 << d[first])
        # packed over sets: per digit and cell, the sets whose seeall holds it; per cell, the sets holding it
        sees = unpack(seeall, ncells)
        seen_by = np.zeros((n, ncells + 1, wj), dtype=np.uint64)  # row ncells pads: none
        seen_by[:, :ncells] = pack(sees.transpose(0, 2, 1))
        inc = np.zeros((ncells + 1, N), dtype=bool)
        inc[slots, np.arange(N)] = True
        inc[ncells] = False
        overlap = np.bitwise_or.reduce(_gather(np.ascontiguousarray(pack(inc).T), slots), axis=1)  # (wj, N)
        self.overlap = unpack(overlap.T, N)
        # restricted: sets j whose seeall holds every place of i (AND over i's cells holding d), apart from i
        rows = _gather(np.ascontiguousarray(seen_by.transpose(0, 2, 1)).reshape(n * wj, ncells + 1), slots)
        restricted = np.bitwise_and.reduce(rows.reshape(n, wj, K, N) | skip, axis=2) & hasw & ~overlap[None]
        restricted = np.ascontiguousarray(restricted.transpose(0, 2, 1))  # (n, N, wj)
        # zsee: sets j seeing a live d that sees every d of i: OR over those cells of the sets seeing them
        zsee = np.zeros_like(restricted)
        if len(d):
            zsee[d[first], i[first]] = np.bitwise_or.reduceat(seen_by[d, x], first, axis=0)
        self.restricted, self.zsee = _digit_matrix(np.stack([restricted, zsee]), N)
        # a set with a digit no other set holds is not paired with itself on it
        lone = (self.has.sum(axis=0) < 2).astype(np.int64) @ (1 << np.arange(n, dtype=np.int64))
        self.zsee[np.arange(N), np.arange(N)] &= ~lone
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
