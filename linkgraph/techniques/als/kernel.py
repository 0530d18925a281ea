"""The compiled build of the ALS table (`linkgraph.techniques.als.table`).

`table_build` computes, from a grid's candidates and its ALSs' cells, every relation the
table holds (per digit and set its places and the cells seeing all of them, the live
candidates seeing them, which sets share a cell, the restricted common digits and the
digits z of every two sets) in one pass over packed bit masks. In numpy that was some
sixty calls per grid (gathers, reductions, packing and unpacking, a compiled digit
matrix), most of a table's build; the numpy build is kept in
tests/techniques/als/test_table_kernel.py as its oracle. numba compiles it on first use
and caches the code beside this file; the table imports this module on its first build.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["table_build"]


@njit(cache=True, nogil=True)
def table_build(cands, cellrows, peer_words):  # pragma: no cover (compiled; tested against numpy)
    """Everything an ALS table holds beyond its sets, from the grid's (cells, digits) candidates,
    the sets' cells (N, K) padded with the number of cells, and each cell's peers packed
    (cells + 1, words; the padding row holds every cell).

    Returns ``(has, places, seeall, sight_d, sight_i, sight_x, selfsee, overlap, restricted,
    zsee)``: per set and digit whether the set holds it (N, n); per digit and set its places
    and the cells that see all of them, packed (n, N, words); the live candidates x#d outside
    set i that see every d of it, as three arrays sorted by (d, i, x); per set the digits it
    has such a candidate of; whether two sets share a cell (N, N); and per two sets the
    digits (bits) restricted common to them (cells apart, every place of one on the digit
    sees every place of the other) and those with a live candidate outside set i that sees
    every place of i and of j (on the diagonal only for a digit two sets hold).
    """
    ncells, n = cands.shape
    N, K = cellrows.shape
    W = peer_words.shape[1]
    wj = (N + 63) // 64
    one = np.uint64(1)
    ones = ~np.uint64(0)
    has = np.zeros((N, n), dtype=np.bool_)
    places = np.zeros((n, N, W), dtype=np.uint64)
    seeall = np.zeros((n, N, W), dtype=np.uint64)
    for i in range(N):
        for d in range(n):
            acc = np.full(W, ones, dtype=np.uint64)
            for k in range(K):
                c = cellrows[i, k]
                if c >= ncells or not cands[c, d]:
                    continue
                has[i, d] = True
                places[d, i, c >> 6] |= one << np.uint64(c & 63)
                for w in range(W):
                    acc[w] &= peer_words[c, w]
            if has[i, d]:
                for w in range(W):
                    seeall[d, i, w] = acc[w]
    # the live candidates seeing every place: counted, then listed in (d, i, x) order
    digit_words = np.zeros((n, W), dtype=np.uint64)
    for c in range(ncells):
        for d in range(n):
            if cands[c, d]:
                digit_words[d, c >> 6] |= one << np.uint64(c & 63)
    total = 0
    for d in range(n):
        for i in range(N):
            for w in range(W):
                y = seeall[d, i, w] & digit_words[d, w]
                while y:
                    y &= y - one
                    total += 1
    sight_d = np.empty(total, dtype=np.int64)
    sight_i = np.empty(total, dtype=np.int64)
    sight_x = np.empty(total, dtype=np.int64)
    selfsee = np.zeros(N, dtype=np.int64)
    t = 0
    for d in range(n):
        for i in range(N):
            for w in range(W):
                y = seeall[d, i, w] & digit_words[d, w]
                if y:
                    selfsee[i] |= np.int64(1) << d
                while y:
                    sight_d[t] = d
                    sight_i[t] = i
                    sight_x[t] = w * 64 + trailing_zeros(y)
                    t += 1
                    y &= y - one
    # per digit and cell, the sets whose seeall holds it; per cell, the sets holding it
    seen_by = np.zeros((n, ncells, wj), dtype=np.uint64)
    for d in range(n):
        for j in range(N):
            bit = one << np.uint64(j & 63)
            for w in range(W):
                y = seeall[d, j, w]
                while y:
                    c = w * 64 + trailing_zeros(y)
                    if c < ncells:
                        seen_by[d, c, j >> 6] |= bit
                    y &= y - one
    holding = np.zeros((ncells, wj), dtype=np.uint64)
    for j in range(N):
        for k in range(K):
            c = cellrows[j, k]
            if c < ncells:
                holding[c, j >> 6] |= one << np.uint64(j & 63)
    overlap = np.zeros((N, N), dtype=np.bool_)
    restricted = np.zeros((N, N), dtype=np.int64)
    zsee = np.zeros((N, N), dtype=np.int64)
    near = np.zeros(wj, dtype=np.uint64)
    acc = np.zeros(wj, dtype=np.uint64)
    for i in range(N):
        for w in range(wj):
            near[w] = 0
        for k in range(K):
            c = cellrows[i, k]
            if c < ncells:
                for w in range(wj):
                    near[w] |= holding[c, w]
        for w in range(wj):
            y = near[w]
            while y:
                overlap[i, w * 64 + trailing_zeros(y)] = True
                y &= y - one
        for d in range(n):
            if not has[i, d]:
                continue
            bit = np.int64(1) << d
            for w in range(wj):
                acc[w] = ~near[w]
            for k in range(K):
                c = cellrows[i, k]
                if c < ncells and cands[c, d]:
                    for w in range(wj):
                        acc[w] &= seen_by[d, c, w]
            for w in range(wj):
                y = acc[w]
                while y:
                    j = w * 64 + trailing_zeros(y)
                    if j < N:
                        restricted[i, j] |= bit
                    y &= y - one
    # zsee: per (d, i) of the sight, the OR over its candidates of the sets seeing them
    t = 0
    while t < total:
        d, i = sight_d[t], sight_i[t]
        for w in range(wj):
            acc[w] = 0
        while t < total and sight_d[t] == d and sight_i[t] == i:
            for w in range(wj):
                acc[w] |= seen_by[d, sight_x[t], w]
            t += 1
        bit = np.int64(1) << d
        for w in range(wj):
            y = acc[w]
            while y:
                j = w * 64 + trailing_zeros(y)
                if j < N:
                    zsee[i, j] |= bit
                y &= y - one
    # a set with a digit no other set holds is not paired with itself on it
    lone = np.int64(0)
    for d in range(n):
        held = 0
        for i in range(N):
            if has[i, d]:
                held += 1
        if held < 2:
            lone |= np.int64(1) << d
    for i in range(N):
        zsee[i, i] &= ~lone
    return has, places, seeall, sight_d, sight_i, sight_x, selfsee, overlap, restricted, zsee
