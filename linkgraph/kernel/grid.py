"""The compiled bookkeeping of `linkgraph.grid.Grid` on every step of a solve (numpy and numba only).

`consistent` is `Grid.contradiction`'s common case in one pass (every cell has a candidate,
every digit a place in every house, and no house holds two solved cells with one digit),
instead of six numpy calls over a gathered (houses, cells, digits) table; `applied` is
`Grid.apply`'s new candidate table and placed cells, a step's eliminations made and its
placements placed, instead of a Python loop over the placements and the constructor's checks.
The numpy code they replaced is kept in tests/kernel/test_grid.py as their oracle. numba
compiles them on first use and caches the code beside this file.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["applied", "consistent"]


@njit(cache=True, nogil=True)
def consistent(cands, house_cells):  # pragma: no cover (compiled; tested against numpy)
    """True when every cell of `cands` (cells, digits) has a candidate and, in every house of
    `house_cells` (houses, cells), every digit has a place and at most one solved cell (one
    candidate left) holding it."""
    C, n = cands.shape
    solved = np.zeros(C, dtype=np.bool_)
    for c in range(C):
        k = 0
        for d in range(n):
            if cands[c, d]:
                k += 1
        if k == 0:
            return False
        solved[c] = k == 1
    H, w = house_cells.shape
    for h in range(H):
        for d in range(n):
            places = 0
            ones = 0
            for j in range(w):
                c = house_cells[h, j]
                if cands[c, d]:
                    places += 1
                    if solved[c]:
                        ones += 1
            if places == 0 or ones > 1:
                return False
    return True


@njit(cache=True, nogil=True)
def applied(cands, placed, eliminations, placements, peers):  # pragma: no cover (compiled)
    """The candidate table and placed cells after a step: copies of `cands` (cells, digits) and
    `placed` (cells,) with each candidate index of `eliminations` removed, then each of
    `placements`, in order, placed (its cell keeps only its digit, the digit leaves the cell's
    `peers` row), and a cell counted placed only while it has one candidate."""
    C, n = cands.shape
    new = cands.copy()
    out = placed.copy()
    for k in eliminations:
        new[k // n, k % n] = False
    for k in placements:
        i = k // n
        d = k % n
        for e in range(n):
            new[i, e] = False
        new[i, d] = True
        for c in range(C):
            if peers[i, c]:
                new[c, d] = False
        out[i] = True
    for c in range(C):
        if out[c]:
            k = 0
            for d in range(n):
                if new[c, d]:
                    k += 1
            out[c] = k == 1
    return new, out
