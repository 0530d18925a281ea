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
table, looking only at the premises the levels marked as reaching a node's two literals or
a set's OFF members (the numpy sums, argmins and segment sums it replaced, and the compiled
scan of every (literal, premise) pair that came before, are kept in tests/chains/test_bfs.py
as its oracles). `sets_prove` says whether any cell or house premise set proves anything,
from each premise's reach turned into one packed row (the per-target count it replaced,
`set_reaches`, is kept in tests/chains/test_chains.py as its oracle). numba compiles them on
first use and caches the code beside this file.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["contradictions", "levels", "sets_prove"]


@njit(cache=True, nogil=True)
def levels(L, premises, ptr, out, dist, seen):  # pragma: no cover (compiled; tested against numpy)
    """Fill `dist` (literals, premises) int16, already INF but 0 at each premise, with the
    level each literal is first reached at from each premise, and `seen` (literals, words)
    uint64, zeros, with the premises reaching each literal, packed (bit p of word p // 64:
    ``dist < INF``); return the largest level.

    Out-edges come grouped by source: literal ``s``'s successors are ``out[ptr[s] : ptr[s +
    1]]``. Each level pushes the frontier words of the literals reached at the last level
    (a list: a premise reaches a few per cent of the table) along their out-edges, then keeps,
    for each literal touched, the bits not seen before, so a level costs the frontier's edges,
    not every edge of the graph.
    """
    P = len(premises)
    W = (P + 63) // 64
    front = np.zeros((L, W), dtype=np.uint64)
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
def contradictions(dist, seen, sm, live, cand_node, best, how):  # pragma: no cover (compiled; tested against numpy)
    """Each premise's shortest contradiction, from `dist` (2 * nodes literals, premises) int16
    and `seen` (the same literals, words) uint64, the premises reaching each literal, packed.

    Writes `best` (premises,) int64, the links of the shortest contradiction (``2 * INF``
    for none), and `how` (premises,) int64: node ``k`` when reaching both ``+k`` and ``-k``
    is the shortest (the first such node), ``-(s + 1)`` when emptying set X ``s`` is
    shorter still (0 for a premise without a contradiction). The sets X are the rows of
    `sm` (sets, members) candidate indices; one counts when it has 3+ live members (`live`),
    each with a node (`cand_node`), and the premise reaches every one OFF (its links: the
    sum of their distances). Sets are preferred by size, then set index, and replace a
    node only when strictly shorter. Only the premises `seen` at both literals of a node,
    or at every member's OFF literal, are looked at: a premise reaches a few per cent of
    the literals.
    """
    L2, P = dist.shape
    W = seen.shape[1]
    inf = 0x3FFF
    one = np.uint64(1)
    for p in range(P):
        best[p] = 2 * inf
        how[p] = 0
    for k in range(L2 // 2):
        a = 2 * k
        for w in range(W):
            x = seen[a, w] & seen[a + 1, w]
            while x:
                p = w * 64 + trailing_zeros(x)
                x &= x - one
                v = np.int64(dist[a, p]) + np.int64(dist[a + 1, p])
                if v < best[p]:
                    best[p] = v
                    how[p] = k
    S, n = sm.shape
    size = np.zeros(S, dtype=np.int64)
    for s in range(S):
        c = 0
        for j in range(n):
            m = sm[s, j]
            if live[m]:
                if cand_node[m] < 0:  # a member without a node: not a contradiction here
                    c = 0
                    break
                c += 1
        size[s] = c
    big = np.int64(1) << np.int64(40)
    low = np.full(P, big, dtype=np.int64)
    pick = np.full(P, -1, dtype=np.int64)
    rows = np.empty(n, dtype=np.int64)
    both = np.empty(W, dtype=np.uint64)
    for z in range(3, n + 1):
        for s in range(S):
            if size[s] != z:
                continue
            r = 0
            for j in range(n):
                m = sm[s, j]
                if live[m]:
                    rows[r] = 2 * cand_node[m] + 1
                    r += 1
            for w in range(W):
                both[w] = seen[rows[0], w]
                for i in range(1, r):
                    both[w] &= seen[rows[i], w]
            for w in range(W):
                x = both[w]
                while x:
                    p = w * 64 + trailing_zeros(x)
                    x &= x - one
                    t = np.int64(0)
                    for i in range(r):
                        t += dist[rows[i], p]
                    if t < low[p]:
                        low[p] = t
                        pick[p] = s
    for p in range(P):
        if pick[p] >= 0 and low[p] < best[p]:
            best[p] = low[p]
            how[p] = -(pick[p] + 1)


@njit(cache=True, nogil=True)
def sets_prove(seen, premises, premise_of, sm, live, ncells, cells, houses):  # pragma: no cover (compiled; tested against numpy)
    """Whether some premise set proves some premise literal: True when some set's members all
    reach one literal ``premises[q]`` or ``premises[q] + 1`` (ON or OFF of premise q) that is
    not a member's own; False when none does.

    `seen` (literals, words) uint64 holds the premises reaching each literal, packed (bit p of
    word p // 64); `premises` the ON literal of each premise, `premise_of` each candidate's
    premise (-1 for none), `sm` the sets X' candidates (`Geometry.set_members`: the `ncells`
    cell sets first), `live` the live candidates. The premise sets are those of
    `linkgraph.chains.search.ChainSearch`: with `cells`, a cell's premises (one at least);
    with `houses`, a house-digit set of 2+ live members, every one a premise.

    The table is turned on its side first: each premise's reached literals as one packed row
    (a few per cent of the table's bits are set). A set then proves something exactly when
    the AND of its members' rows, masked to the premise literals and with its members' own
    literals cleared, is not empty: a few words per member, where counting the members that
    reach each target one by one (`set_reaches`, which this replaced: tests/chains/
    test_chains.py keeps it as the oracle) read every premise reaching every target.
    """
    L, W = seen.shape
    P = len(premises)
    WL = (L + 63) >> 6
    one = np.uint64(1)
    reach = np.zeros((W * 64, WL), dtype=np.uint64)  # the literals each premise reaches, packed (a row per bit)
    for t in range(L):
        tw = t >> 6
        tb = one << np.uint64(t & 63)
        for w in range(W):
            x = seen[t, w]
            while x:
                reach[w * 64 + trailing_zeros(x), tw] |= tb
                x &= x - one
    target = np.zeros(WL, dtype=np.uint64)  # the premise literals
    for q in range(P):
        for lit in (premises[q], premises[q] + 1):
            target[lit >> 6] |= one << np.uint64(lit & 63)
    S, n = sm.shape
    members = np.empty(n, dtype=np.int64)
    acc = np.empty(WL, dtype=np.uint64)
    for s in range(S):
        cell = s < ncells
        if (cell and not cells) or (not cell and not houses):
            continue
        r = 0
        whole = True
        for j in range(n):
            k = sm[s, j]
            if cell:
                if premise_of[k] >= 0:
                    members[r] = premise_of[k]
                    r += 1
            elif live[k]:
                if premise_of[k] < 0:
                    whole = False  # a live member that is no premise: not a premise set
                    break
                members[r] = premise_of[k]
                r += 1
        if not whole or r < (1 if cell else 2):
            continue
        for w in range(WL):
            acc[w] = target[w]
        for i in range(r):
            q = members[i]
            for w in range(WL):
                acc[w] &= reach[q, w]
        for i in range(r):  # a member's own literals are not the set's conclusions
            lit = premises[members[i]]
            acc[lit >> 6] &= ~(one << np.uint64(lit & 63))
            acc[(lit + 1) >> 6] &= ~(one << np.uint64((lit + 1) & 63))
        for w in range(WL):
            if acc[w]:
                return True
    return False
