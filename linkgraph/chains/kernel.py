"""The compiled breadth-first levels of the forcing-chain search (`linkgraph.chains.bfs`).

`levels` advances every premise at once over the literal digraph, premises packed 64 to a
word as in `linkgraph.chains.bfs`, and writes each literal's distance from each premise
as it is first reached: one loop over the in-edges per level, and one write per newly
reached (literal, premise) pair, instead of numpy's gathers, reductions and bit-sliced
level planes. The numpy levels it replaced are kept in tests/chains/test_bfs.py as its
oracle. numba compiles it on first use and caches the code beside this file.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["levels"]


@njit(cache=True, nogil=True)
def levels(L, premises, pred_src, starts, dsts, dist):  # pragma: no cover (compiled; tested against numpy)
    """Fill `dist` (literals, premises) int16, already INF but 0 at each premise, with the
    level each literal is first reached at from each premise; return the largest level.

    In-edges come grouped by destination: ``dsts[i]``'s sources are ``pred_src[starts[i] :
    starts[i + 1]]`` (`starts` has one entry past the last group).
    """
    P = len(premises)
    W = (P + 63) // 64
    front = np.zeros((L, W), dtype=np.uint64)
    seen = np.zeros((L, W), dtype=np.uint64)
    for p in range(P):
        bit = np.uint64(1) << np.uint64(p & 63)
        front[premises[p], p >> 6] |= bit
        seen[premises[p], p >> 6] |= bit
    D = len(dsts)
    new = np.zeros((D, W), dtype=np.uint64)
    level = 0
    while True:
        level += 1
        any_new = False
        for i in range(D):
            d = dsts[i]
            for w in range(W):
                acc = np.uint64(0)
                for q in range(starts[i], starts[i + 1]):
                    acc |= front[pred_src[q], w]
                acc &= ~seen[d, w]
                new[i, w] = acc
                if acc:
                    any_new = True
        if not any_new:
            return level - 1
        front[:, :] = 0
        for i in range(D):
            d = dsts[i]
            for w in range(W):
                x = new[i, w]
                if x:
                    front[d, w] = x
                    seen[d, w] |= x
                    while x:
                        dist[d, w * 64 + trailing_zeros(x)] = level
                        x &= x - np.uint64(1)
