"""The ALS table of a grid: its almost-locked sets and every relation between two of them.

The ALS rungs (`linkgraph.techniques.alsets`: ALS-XZ, ALS-XY-wing, death
blossom; `linkgraph.techniques.alschains`: ALS chains) read their sets and
links off one `AlsTable` per grid, built by `als_table`.

ALSs have 1 to `DEFAULT_ALS_MAX_SIZE` (4) cells, the link graph's default
(see `linkgraph.als` for why); pass ``max_size`` for larger sets. They are
found in numpy, for all houses at once, over every combination of k cells of
a house (a cell with more than ``max_size + 1`` candidates never belongs to
one), smallest first, then by cells. `AlsTable` then computes, once per grid,
every relation between two ALSs with bitwise operations on cell masks packed
in 64-bit words (no BLAS call, which is slow under thread contention):
restricted commons, shared cells, and per digit z whether some live z sees
every z of both sets. Python bit masks of a set are made on first use. The
last table is kept, so the three finders run on one grid (as the solver
does) build it once.

Examples
--------
>>> grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
>>> table = lg.techniques.alstable.als_table(grid)
>>> table is lg.techniques.alstable.als_table(grid)  # the last table is kept
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from linkgraph.als import DEFAULT_ALS_MAX_SIZE, cell_bits
from linkgraph.errors import OptionError
from linkgraph.geometry import Geometry
from linkgraph.grid import Grid
from linkgraph.model import Als
from linkgraph.techniques.base import bits

__all__ = ["ALS_MAX_SIZE", "AlsSet", "AlsTable", "als_table"]

#: Largest ALS (in cells) these techniques use by default.
ALS_MAX_SIZE = DEFAULT_ALS_MAX_SIZE


@lru_cache(maxsize=8)
def _combos(size: int, max_size: int) -> tuple[np.ndarray, ...]:
    """Per k in 1..max_size: every increasing k-tuple of positions 0..size-1, one row each."""
    return tuple(np.array(list(combinations(range(size), k)), dtype=np.intp).reshape(-1, k)
                 for k in range(1, min(max_size, size) + 1))


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits per element of a non-negative int64 array (numpy 1.x has no bitwise_count)."""
    x = x.astype(np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


@lru_cache(maxsize=8)
def _peer_rows(geometry: Geometry) -> np.ndarray:
    """Peers as bool rows, plus one all-True row for padding (index number_of_cells)."""
    rows = np.ones((geometry.number_of_cells + 1, geometry.number_of_cells), dtype=bool)
    rows[:-1] = geometry.peers
    rows.setflags(write=False)
    return rows


def _pack(x: np.ndarray) -> np.ndarray:
    """Bool array (..., width) as little-endian uint64 words (..., words)."""
    b = np.packbits(x, axis=-1, bitorder="little")
    nbytes = b.shape[-1]
    nwords = (nbytes + 7) // 8
    out = np.zeros(b.shape[:-1] + (nwords * 8,), dtype=np.uint8)
    out[..., :nbytes] = b
    return out.view("<u8")


def _meets(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Bool matrix: row i of `a` and row j of `b` share a bit (packed words; leading axes broadcast)."""
    out = (a[..., :, None, 0] & b[..., None, :, 0]) != 0
    for w in range(1, a.shape[-1]):
        out |= (a[..., :, None, w] & b[..., None, :, w]) != 0
    return out


def _int(row: np.ndarray) -> int:
    return int.from_bytes(row.tobytes(), "little")


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
    """

    __slots__ = ("_sets", "cells", "digit_cells", "grid", "has", "overlap", "places", "restricted", "seeall",
                 "selfsee", "zsee")

    def __init__(self, grid: Grid, max_size: int):
        self.grid = grid
        geo = grid.geometry
        n, ncells = geo.size, geo.number_of_cells
        cands = grid.cands
        self.digit_cells = tuple(cell_bits(cands))
        masks = cands.astype(np.int64) @ (1 << np.arange(n, dtype=np.int64))
        pops = cands.sum(axis=1)
        free = (pops >= 2) & (pops <= max_size + 1)
        found = []
        for k, combos in enumerate(_combos(n, max_size), 1):
            cells = geo.house_cells[:, combos]  # (houses, combos, k)
            union = np.bitwise_or.reduce(masks[cells], axis=-1)
            ok = free[cells].all(axis=-1) & (_popcount(union) == k + 1)
            chosen = np.sort(cells[ok], axis=-1)
            # a set in a box and a line comes twice: keep one (by a key, ordered by cells)
            key = chosen @ ((ncells + 1) ** np.arange(k - 1, -1, -1, dtype=np.int64))
            chosen = chosen[np.unique(key, return_index=True)[1]]
            pad = np.full((len(chosen), max_size), ncells, dtype=np.intp)
            pad[:, :k] = chosen
            found.append(pad)
        cellrows = np.concatenate(found) if found else np.zeros((0, max_size), dtype=np.intp)
        N = len(cellrows)
        self.cells = cellrows
        cellmat = np.zeros((N, ncells + 1), dtype=bool)
        cellmat[np.arange(N)[:, None], cellrows] = True
        cellmat = cellmat[:, :ncells]
        ext = np.zeros((ncells + 1, n), dtype=bool)
        ext[:ncells] = cands
        hold = ext[cellrows]  # (N, K, n)
        P = cellmat[:, None, :] & cands.T[None, :, :]  # (N, n, cells)
        S = np.logical_and.reduce(_peer_rows(geo)[cellrows][:, :, None, :] | ~hold[..., None], axis=1)
        self.has = hold.any(axis=1)  # (N, n)
        S &= self.has[..., None]
        L = S & cands.T[None, :, :]
        self.places = _pack(P.transpose(1, 0, 2))  # (n, N, words)
        self.seeall = _pack(S.transpose(1, 0, 2))
        cw = _pack(cellmat)
        self.overlap = _meets(cw, cw)
        live = _pack(L.transpose(1, 0, 2))
        restricted = np.zeros((N, N), dtype=np.int64)
        zsee = np.zeros((N, N), dtype=np.int64)
        for d in range(n):
            idx = np.flatnonzero(self.has[:, d])
            if len(idx) < 2:
                continue
            where = np.ix_(idx, idx)
            P_d, S_d = self.places[d, idx], self.seeall[d, idx]
            # restricted: every place of i sees every place of j, no shared cell
            restricted[where] |= (~_meets(P_d, ~S_d) & ~self.overlap[where]).astype(np.int64) << d
            # a live d outside both sees every d of i and of j
            zsee[where] |= _meets(live[d, idx], S_d).astype(np.int64) << d
        self.restricted, self.zsee = restricted, zsee
        # per set: the digits d with a live d outside it that sees every d of it
        self.selfsee = (live.any(axis=-1).T.astype(np.int64) << np.arange(n, dtype=np.int64)).sum(axis=1)
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
            places = tuple(_int(row) for row in self.places[:, i])
            seeall = tuple(_int(row) for row in self.seeall[:, i])
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
    >>> table = lg.techniques.alsets.als_table(grid)
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
