"""Compiled screens of the pattern rungs in `linkgraph.techniques` (imports only numpy and numba).

`finned_screen` is the screen of the finned and sashimi fish (`linkgraph.techniques.finned`):
every (orientation, digit, base lines, fin box) whose bit masks leave room for a fish
with an elimination, in one pass. In numpy it was some forty calls on arrays of a few
hundred words per grid, run on nearly every step of a long solve; the numpy form is kept
in tests/techniques/test_finned_kernel.py as its oracle. numba compiles it on first use
and caches the code beside this file; `finned` imports this module on its first search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["finned_screen"]


@njit(cache=True, nogil=True)
def _popcount(x):  # pragma: no cover (compiled)
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def finned_screen(cands, line_cells, weights, box_masks, stacks, table, size):  # pragma: no cover
    """The finned-fish screen of a grid.

    `cands` is the grid's (cells, digits) candidate table; `line_cells`, `weights`,
    `box_masks` and `stacks` are both orientations' base-line cells, their position bits,
    the positions of each line inside each box and each box's positions on any base line;
    `table` the (combinations, size) base-line indices in combination order.

    Returns ``(places, records)``: places (sides, lines, digits) int64, each base line's
    live places of each digit; records (m, 6) int64, rows (side, digit, combination, box,
    body, union) in that order, for each screen that passes: every base line has 2+
    places and no solved cell, the union of the places spans more than `size`
    positions, some place lies in the box, the body (the places outside the box) leaves
    room in the box's positions within the union for a cover of `size` positions, and a
    live place of the box off the base lines lies in the body or in that room.
    """
    S, L, n = line_cells.shape
    cells, digits = cands.shape
    B = box_masks.shape[2]
    flag = np.int64(1) << n
    low = flag - 1
    places = np.zeros((S, L, digits), dtype=np.int64)
    usable = np.zeros((S, L, digits), dtype=np.bool_)
    out = np.empty((64, 6), dtype=np.int64)
    m = 0
    for s in range(S):
        for l in range(L):
            solved = np.int64(0)
            for j in range(n):
                c = line_cells[s, l, j]
                w = weights[s, l, j]
                k = 0
                for d in range(digits):
                    if cands[c, d]:
                        places[s, l, d] |= w
                        k += 1
                if k == 1:
                    solved |= w
            for d in range(digits):
                p = places[s, l, d]
                usable[s, l, d] = _popcount(p) >= 2 and (p & solved) == 0
    C = table.shape[0]
    inside = np.zeros(L, dtype=np.bool_)
    for s in range(S):
        for d in range(digits):
            for ci in range(C):
                union = np.int64(0)
                ok = True
                for j in range(size):
                    l = table[ci, j]
                    if not usable[s, l, d]:
                        ok = False
                        break
                    union |= places[s, l, d]
                if not ok or _popcount(union) <= size:
                    continue
                for l in range(L):
                    inside[l] = False
                for j in range(size):
                    inside[table[ci, j]] = True
                for b in range(B):
                    body = np.int64(0)
                    hit = False
                    for j in range(size):
                        l = table[ci, j]
                        p = places[s, l, d]
                        box = box_masks[s, l, b]
                        body |= p & ~box
                        if p & box:
                            hit = True
                    if not hit:
                        continue
                    k = size - _popcount(body)
                    add = stacks[s, b] & ~body & union
                    if k < 0 or _popcount(add) < k:
                        continue
                    elims = np.int64(0)
                    for l in range(L):
                        if not inside[l]:
                            elims |= places[s, l, d] & box_masks[s, l, b]
                    if (elims & body) == 0 and not (k >= 1 and (elims & add) != 0):
                        continue
                    if m == out.shape[0]:
                        grown = np.empty((2 * m, 6), dtype=np.int64)
                        grown[:m] = out
                        out = grown
                    out[m, 0] = s
                    out[m, 1] = d
                    out[m, 2] = ci
                    out[m, 3] = b
                    out[m, 4] = body & low
                    out[m, 5] = union
                    m += 1
    return places, out[:m]
