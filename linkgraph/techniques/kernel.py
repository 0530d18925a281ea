"""Compiled searches of the pattern rungs in `linkgraph.techniques` (imports only numpy and numba).

`finned_screen` is the screen of the finned and sashimi fish (`linkgraph.techniques.finned`):
every (orientation, digit, base lines, fin box) whose bit masks leave room for a fish
with an elimination, in one pass. In numpy it was some forty calls on arrays of a few
hundred words per grid, run on nearly every step of a long solve; the numpy form is kept
in tests/techniques/test_finned_kernel.py as its oracle.

`bent_subsets` is the search of the wings' bent naked subsets (`linkgraph.techniques.wings`):
per pair of houses, the cells' combinations grown cell by cell with their digits and sides,
then the free digits and the eliminations, in one pass. The numpy search it replaced (pools
per digit set, every combination ORed at once, screens over all subsets) is kept in
tests/techniques/test_wings_kernel.py as its oracle.

`full_houses`, `house_singles` and `naked_singles` find the singles (`linkgraph.techniques.
singles`), which run on every step of a solve, in one pass each instead of five to eight
numpy calls; the numpy code is kept in tests/techniques/test_singles_kernel.py as the oracle.

`closed_spilling` is the search of the naked and hidden subsets and of the basic fish
(`linkgraph.techniques.subsets`, `linkgraph.techniques.fish`): every `size` positions of every
house (or digit) ORed, the closed ones kept when they eliminate, in one pass instead of numpy's
gathers over every combination at once (`closed_subsets` and `spilling`, which the tests
keep as its oracle).

`house_places` is `linkgraph.techniques.base.house_places`' table (each house's places of
each digit as bits), which the subsets, fish, intersections and screens read on most grids.

numba compiles them on first use and caches the code beside this file; `finned`, `wings` and
`singles` import this module on their first search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["bent_subsets", "closed_spilling", "finned_screen", "full_houses", "house_places", "house_singles",
           "naked_singles"]


@njit(cache=True, nogil=True)
def _popcount(x):  # pragma: no cover (compiled)
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def _grown(a):  # pragma: no cover (compiled)
    """`a` with twice as many rows, the first ones copied."""
    out = np.empty((2 * a.shape[0],) + a.shape[1:], dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


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
                        out = _grown(out)
                    out[m, 0] = s
                    out[m, 1] = d
                    out[m, 2] = ci
                    out[m, 3] = b
                    out[m, 4] = body & low
                    out[m, 5] = union
                    m += 1
    return places, out[:m]


@njit(cache=True, nogil=True)
def _free_digits(pool, pm, at, size, peers):  # pragma: no cover (compiled)
    """The digits with two places in the subset ``pool[at]`` that do not see each other."""
    free = np.int64(0)
    for a in range(size - 1):
        for b in range(a + 1, size):
            if not peers[pool[at[a]], pool[at[b]]]:
                free |= pm[at[a]] & pm[at[b]]
    return free


@njit(cache=True, nogil=True)
def _eliminates(pool, pm, at, size, digits, cands, peers):  # pragma: no cover (compiled)
    """Whether a live candidate of one of `digits` sees all its digit's places in ``pool[at]``."""
    N, n = cands.shape
    for d in range(n):
        if not (digits >> d) & 1:
            continue
        for t in range(N):
            if not cands[t, d]:
                continue
            sees = True
            for a in range(size):
                if (pm[at[a]] >> d) & 1 and not peers[t, pool[at[a]]]:
                    sees = False
                    break
            if sees:
                return True
    return False


@njit(cache=True, nogil=True)
def bent_subsets(masks, cands, peers, pair_cells, pair_side, size):  # pragma: no cover (compiled)
    """The bent naked subsets of `size` cells with at most one free digit and an elimination.

    `masks` holds each cell's digits as bits, `cands` the (cells, digits) candidates,
    `peers` the (cells, cells) table of cells that see each other; `pair_cells` (pairs,
    width) the cells of every two houses that share cells, ascending, -1 padded, and
    `pair_side` each such cell's side (bit 0: only in the first house, bit 1: only in the
    second).

    Per pair, the combinations of `size` of its cells with 2 to `size` digits (in
    `itertools.combinations` order over the ascending cells) whose digits number exactly
    `size` and that hold a cell of each side are grown cell by cell, a branch cut once its
    digits number more than `size` or it can no longer reach both sides. A subset is kept
    when at most one digit is *free* (has two places that do not see each other) and some
    live candidate of the free digit (of any of its digits when none is free) sees all
    the digit's places in the subset.

    Returns ``(pairs, cells, free, union)``: per subset kept, the pair, its cells (m, size),
    the free digit's bit (0: none) and the subset's digits; by pair, then cells, a subset
    held by several pairs once at each of them.
    """
    P, W = pair_cells.shape
    N, n = cands.shape
    out_pair = np.empty(64, dtype=np.int64)
    out_cells = np.empty((64, size), dtype=np.int64)
    out_free = np.empty(64, dtype=np.int64)
    out_union = np.empty(64, dtype=np.int64)
    m = 0
    pool = np.empty(W, dtype=np.int64)
    pm = np.empty(W, dtype=np.int64)
    side = np.empty(W, dtype=np.int64)
    reach = np.zeros(W + 1, dtype=np.int64)
    at = np.empty(size, dtype=np.int64)
    uni = np.zeros(size + 1, dtype=np.int64)
    sid = np.zeros(size + 1, dtype=np.int64)
    for p in range(P):
        L = 0
        for w in range(W):
            c = pair_cells[p, w]
            if c < 0:
                break
            k = _popcount(masks[c])
            if 2 <= k <= size:
                pool[L] = c
                pm[L] = masks[c]
                side[L] = pair_side[p, w]
                L += 1
        if L < size:
            continue
        reach[L] = 0
        for i in range(L - 1, -1, -1):
            reach[i] = reach[i + 1] | side[i]
        if reach[0] != 3:
            continue
        lvl = 0
        at[0] = 0
        while lvl >= 0:
            i = at[lvl]
            if i > L - (size - lvl):  # too few cells left for this position
                lvl -= 1
                if lvl >= 0:
                    at[lvl] += 1
                continue
            u = uni[lvl] | pm[i]
            if _popcount(u) > size:
                at[lvl] += 1
                continue
            s = sid[lvl] | side[i]
            if lvl < size - 1:
                if (s | reach[i + 1]) == 3:
                    uni[lvl + 1] = u
                    sid[lvl + 1] = s
                    lvl += 1
                    at[lvl] = i + 1
                else:
                    at[lvl] += 1
                continue
            if s == 3 and _popcount(u) == size:
                free = _free_digits(pool, pm, at, size, peers)
                if _popcount(free) <= 1 and _eliminates(pool, pm, at, size, free if free else u, cands, peers):
                    if m == out_pair.shape[0]:
                        out_pair = _grown(out_pair)
                        out_cells = _grown(out_cells)
                        out_free = _grown(out_free)
                        out_union = _grown(out_union)
                    out_pair[m] = p
                    for a in range(size):
                        out_cells[m, a] = pool[at[a]]
                    out_free[m] = free
                    out_union[m] = u
                    m += 1
            at[lvl] += 1
    return out_pair[:m], out_cells[:m], out_free[:m], out_union[:m]


@njit(cache=True, nogil=True)
def full_houses(cands, placed, house_cells):  # pragma: no cover (compiled; tested against numpy)
    """(houses, candidates) of the full houses: each house (in order) with one cell not placed,
    where the placed cells' digits leave exactly one digit, live in that cell."""
    H, width = house_cells.shape
    n = cands.shape[1]
    out_h = np.empty(H, dtype=np.int64)
    out_k = np.empty(H, dtype=np.int64)
    m = 0
    for h in range(H):
        cell = -1
        opened = 0
        used = np.int64(0)
        for j in range(width):
            c = house_cells[h, j]
            if not placed[c]:
                opened += 1
                cell = c
                continue
            digit = -1
            count = 0
            for d in range(n):
                if cands[c, d]:
                    count += 1
                    digit = d
            if count == 1:  # a placed cell's value (one left in a grid without contradiction)
                used |= np.int64(1) << digit
        if opened != 1:
            continue
        missing = -1
        left = 0
        for d in range(n):
            if not (used >> d) & 1:
                left += 1
                missing = d
        if left == 1 and cands[cell, missing]:
            out_h[m] = h
            out_k[m] = cell * n + missing
            m += 1
    return out_h[:m], out_k[:m]


@njit(cache=True, nogil=True)
def house_singles(live, placed, members, n):  # pragma: no cover (compiled; tested against numpy)
    """(sets, candidates) of the hidden singles: each set of `members` (house-digit sets, in
    order) with one live member, in a cell not placed."""
    S, width = members.shape
    out_s = np.empty(S, dtype=np.int64)
    out_k = np.empty(S, dtype=np.int64)
    m = 0
    for s in range(S):
        alive = 0
        k = -1
        for j in range(width):
            if live[members[s, j]]:
                alive += 1
                if alive > 1:
                    break
                k = members[s, j]
        if alive == 1 and not placed[k // n]:
            out_s[m] = s
            out_k[m] = k
            m += 1
    return out_s[:m], out_k[:m]


@njit(cache=True, nogil=True)
def naked_singles(cands, placed):  # pragma: no cover (compiled; tested against numpy)
    """The candidates left alone in a cell not placed, in cell order."""
    N, n = cands.shape
    out = np.empty(N, dtype=np.int64)
    m = 0
    for c in range(N):
        if placed[c]:
            continue
        count = 0
        k = -1
        for d in range(n):
            if cands[c, d]:
                count += 1
                k = c * n + d
        if count == 1:
            out[m] = k
            m += 1
    return out[:m]


@njit(cache=True, nogil=True)
def closed_spilling(masks, size, table, outer, inner):  # pragma: no cover (compiled; tested against numpy)
    """The subsets that close and eliminate, as the numpy search it replaced finds them
    (`closed_subsets` then `spilling`, tests/techniques/test_subsets_kernel.py):
    ``(rows, combinations, unions)`` of each `size` positions (rows of `table`) of each row of
    `masks` (rows, positions; those left out hold a mask of more bits than any subset) whose
    masks OR to `size` bits, kept when the live candidates of the sets the union covers
    (``outer[row, bit]`` summed over its bits) outnumber those of the subset's own
    (``inner[row, position]`` summed over its positions); rows in order, then combinations in
    order."""
    R = masks.shape[0]
    T = table.shape[0]
    nb = outer.shape[1]
    out_r = np.empty(R * T, dtype=np.int64)
    out_t = np.empty(R * T, dtype=np.int64)
    out_u = np.empty(R * T, dtype=np.int64)
    m = 0
    for r in range(R):
        for t in range(T):
            u = np.int64(0)
            for j in range(size):
                u |= masks[r, table[t, j]]
            if _popcount(u) != size:
                continue
            have = 0
            for j in range(size):
                have += inner[r, table[t, j]]
            covered = 0
            for b in range(nb):
                if u >> b & 1:
                    covered += outer[r, b]
            if covered > have:
                out_r[m] = r
                out_t[m] = t
                out_u[m] = u
                m += 1
    return out_r[:m], out_t[:m], out_u[:m]


@njit(cache=True, nogil=True)
def house_places(cands, house_cells):  # pragma: no cover (compiled; tested against numpy)
    """(houses, digits) int64: bit j set when the digit is live in the house's j-th cell, for
    `cands` (cells, digits) and `house_cells` (houses, cells)."""
    H, w = house_cells.shape
    n = cands.shape[1]
    out = np.zeros((H, n), dtype=np.int64)
    for h in range(H):
        for j in range(w):
            c = house_cells[h, j]
            bit = np.int64(1) << j
            for d in range(n):
                if cands[c, d]:
                    out[h, d] |= bit
    return out
