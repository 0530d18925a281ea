"""The compiled breadth-first levels of the forcing-chain search (`linkgraph.chains.bfs`), and
its contradiction scan and its test for cell and house results
(`linkgraph.chains.search.ChainSearch`).

`levels` advances every premise at once over the literal digraph, premises packed 64 to a
word as in `linkgraph.chains.bfs`, and writes each literal's distance from each premise
as it is first reached: per level, a push along the out-edges of the literals the last
level reached, and one write per newly reached (literal, premise) pair, instead of numpy's
gathers, reductions and bit-sliced level planes. The numpy levels it replaced, and the
compiled pull over every in-edge per level that came before the push, are kept in
tests/chains/test_bfs.py as its oracles. `contradictions` finds each premise's shortest contradiction from the distance
table in one pass over its rows (the numpy sums, argmins and segment sums it replaced are
kept in tests/chains/test_bfs.py as its oracle). numba compiles them on first use and
caches the code beside this file.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["contradictions", "levels", "set_reaches"]


@njit(cache=True, nogil=True)
def levels(L, premises, ptr, out, dist):  # pragma: no cover (compiled; tested against numpy)
    """Fill `dist` (literals, premises) int16, already INF but 0 at each premise, with the
    level each literal is first reached at from each premise; return the largest level.

    Out-edges come grouped by source: literal ``s``'s successors are ``out[ptr[s] : ptr[s +
    1]]``. Each level pushes the frontier words of the literals reached at the last level
    (a list: a premise reaches a few per cent of the table) along their out-edges, then keeps,
    for each literal touched, the bits not seen before, so a level costs the frontier's edges,
    not every edge of the graph.
    """
    P = len(premises)
    W = (P + 63) // 64
    front = np.zeros((L, W), dtype=np.uint64)
    seen = np.zeros((L, W), dtype=np.uint64)
    acc = np.zeros((L, W), dtype=np.uint64)
    active = np.empty(L, dtype=np.int64)  # the literals reached at the last level
    touched = np.empty(L, dtype=np.int64)  # the literals their out-edges reach, each once
    mark = np.zeros(L, dtype=np.bool_)
    na = 0
    for p in range(P):
        k = premises[p]
        bit = np.uint64(1) << np.uint64(p & 63)
        front[k, p >> 6] |= bit
        seen[k, p >> 6] |= bit
        if not mark[k]:
            mark[k] = True
            active[na] = k
            na += 1
    for i in range(na):
        mark[active[i]] = False
    level = 0
    while na:
        level += 1
        nt = 0
        for i in range(na):
            s = active[i]
            for q in range(ptr[s], ptr[s + 1]):
                d = out[q]
                if not mark[d]:
                    mark[d] = True
                    touched[nt] = d
                    nt += 1
                for w in range(W):
                    acc[d, w] |= front[s, w]
        for i in range(na):
            s = active[i]
            for w in range(W):
                front[s, w] = 0
        na = 0
        for i in range(nt):
            d = touched[i]
            mark[d] = False
            hit = False
            for w in range(W):
                x = acc[d, w] & ~seen[d, w]
                acc[d, w] = 0
                if x:
                    hit = True
                    front[d, w] = x
                    seen[d, w] |= x
                    while x:
                        dist[d, w * 64 + trailing_zeros(x)] = level
                        x &= x - np.uint64(1)
            if hit:
                active[na] = d
                na += 1
    return level - 1


@njit(cache=True, nogil=True)
def contradictions(dist, nodes, starts, sizes, sets, best, how):  # pragma: no cover (compiled; tested against numpy)
    """Each premise's shortest contradiction, from `dist` (2 * nodes literals, premises) int16.

    Writes `best` (premises,) int64, the links of the shortest contradiction (``2 * INF``
    for none), and `how` (premises,) int64: node ``k`` when reaching both ``+k`` and ``-k``
    is the shortest (the first such node), ``-(s + 1)`` when emptying set X ``s`` is
    shorter still. The candidate sets are ``sets[i]``, whose live members' nodes are
    ``nodes[starts[i] : starts[i] + sizes[i]]``, in the order they are preferred in; a set
    counts only when the premise reaches every member OFF (its links: the sum of their
    distances), and replaces a node only when strictly shorter.
    """
    L2, P = dist.shape
    inf = 0x3FFF
    for p in range(P):
        best[p] = 2 * inf
        how[p] = 0
    for k in range(L2 // 2):
        for p in range(P):
            v = np.int64(dist[2 * k, p]) + np.int64(dist[2 * k + 1, p])
            if v < best[p]:
                best[p] = v
                how[p] = k
    if not len(sets):
        return
    big = np.int64(1) << np.int64(40)
    low = np.full(P, big, dtype=np.int64)
    pick = np.full(P, -1, dtype=np.int64)
    acc = np.zeros(P, dtype=np.int64)
    for i in range(len(sets)):
        acc[:] = 0
        for j in range(starts[i], starts[i] + sizes[i]):
            row = 2 * nodes[j] + 1
            for p in range(P):
                d = dist[row, p]
                if d >= inf:
                    acc[p] = big
                elif acc[p] < big:
                    acc[p] += d
        for p in range(P):
            if acc[p] < low[p]:
                low[p] = acc[p]
                pick[p] = i
    for p in range(P):
        if pick[p] >= 0 and low[p] < best[p]:
            best[p] = low[p]
            how[p] = -(sets[pick[p]] + 1)


@njit(cache=True, nogil=True)
def set_reaches(dist, targets, tprem, flat, starts, sizes):  # pragma: no cover (compiled; tested against numpy)
    """Whether some premise set reaches some target from every member: True at the first
    set i and target literal ``targets[t]`` (a row of `dist`, (literals, premises) int16)
    such that every member ``flat[starts[i] : starts[i] + sizes[i]]`` reaches it and none
    of them is its premise ``tprem[t]``; False when there is none. A member that does not
    reach the target ends that set's test at once, so a position without a result costs
    about one look per (target, set).
    """
    inf = 0x3FFF
    for t in range(len(targets)):
        row = dist[targets[t]]
        own = tprem[t]
        for i in range(len(starts)):
            ok = True
            for j in range(starts[i], starts[i] + sizes[i]):
                q = flat[j]
                if q == own or row[q] >= inf:
                    ok = False
                    break
            if ok:
                return True
    return False
