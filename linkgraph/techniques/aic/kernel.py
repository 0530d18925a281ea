"""The compiled level of the chain search (`linkgraph.techniques.aic.search.Search.advance`).

One level carries every start's bits across one kind of link: per target node the OR of
its sources' rows, minus the starts that reached it before at that parity. In numpy that
was a gather, a segmented OR, a mask and a scatter, some ten calls on arrays of a few
words, whose fixed cost was most of a level in the small nets of the solve path; here it
is one loop over the links. The numpy level it replaced is kept in
tests/techniques/aic/test_kernel.py as its oracle. `packed_pairs` reads a grouped net's
links off its packed rows (`linkgraph.techniques.aic.net.grouped_net`) instead of finding
them in the (nodes, nodes) bool matrices; ``nonzero`` on those matrices is kept in the tests
as its oracle. numba compiles them on first use and caches the code beside this file; the
search imports this module on its first level.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["level", "packed_pairs"]


@njit(cache=True, nogil=True)
def level(frontier, v, u, unseen):  # pragma: no cover (compiled; tested against numpy)
    """The (nodes, words) bits newly reached over the links ``u[e] -> v[e]`` from `frontier`
    (the starts at each node at the last level; a node with none carries nothing): per
    target the OR of its sources' rows, and-ed with `unseen` (the starts that have not
    reached it at this parity); `unseen` loses them in place. Returns (reached, whether
    any bit is set); `unseen` is left as it was when none is."""
    N, W = frontier.shape
    carries = np.zeros(N, dtype=np.bool_)
    for k in range(N):
        for w in range(W):
            if frontier[k, w]:
                carries[k] = True
                break
    reached = np.zeros((N, W), dtype=np.uint64)
    for e in range(len(v)):
        s = u[e]
        if carries[s]:
            t = v[e]
            for w in range(W):
                reached[t, w] |= frontier[s, w]
    found = False
    for k in range(N):
        for w in range(W):
            x = reached[k, w] & unseen[k, w]
            reached[k, w] = x
            if x:
                found = True
    if found:
        for k in range(N):
            for w in range(W):
                unseen[k, w] ^= reached[k, w]
    return reached, found


@njit(cache=True, nogil=True)
def packed_pairs(rows, N):  # pragma: no cover (compiled; tested against numpy)
    """The (row v, column u) of every set bit of `rows` ((N, words) uint64, bit u of row v:
    bit u % 64 of word u // 64), columns below N only, by row then column: ``np.nonzero`` of
    the unpacked (N, N) matrix, read off the words (a net's rows hold a few per cent)."""
    R, W = rows.shape
    one = np.uint64(1)
    n = 0
    for v in range(R):
        for w in range(W):
            x = rows[v, w]
            while x:
                if w * 64 + trailing_zeros(x) < N:
                    n += 1
                x &= x - one
    vs = np.empty(n, dtype=np.intp)
    us = np.empty(n, dtype=np.intp)
    k = 0
    for v in range(R):
        for w in range(W):
            x = rows[v, w]
            while x:
                u = w * 64 + trailing_zeros(x)
                x &= x - one
                if u < N:
                    vs[k] = v
                    us[k] = u
                    k += 1
    return vs, us
