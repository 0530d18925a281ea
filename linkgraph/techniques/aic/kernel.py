"""The compiled level of the chain search (`linkgraph.techniques.aic.search.Search.advance`).

One level carries every start's bits across one kind of link: per target node the OR of
its sources' rows, minus the starts that reached it before at that parity. In numpy that
was a gather, a segmented OR, a mask and a scatter, some ten calls on arrays of a few
words, whose fixed cost was most of a level in the small nets of the solve path; here it
is one loop over the links. The numpy level it replaced is kept in
tests/techniques/aic/test_kernel.py as its oracle. `grouped_parts` builds a grid's grouped
net (`linkgraph.techniques.aic.net.grouped_net`: its nodes, links, their pairs and what each
node sees) in one pass; the numpy build it replaced (round 10, which also retired round 9's
`packed_pairs`, its links read off packed rows) is kept in the tests as its oracle. numba
compiles them on first use and caches the code beside this file; the search imports this
module on its first level.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["grouped_parts", "level"]


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
def grouped_parts(live, sets, seen, seen_digit, peers, places, group_sets, n, S):  # pragma: no cover (compiled; tested against numpy)
    """The grouped net of a grid in one pass (`linkgraph.techniques.aic.net.grouped_net`, whose
    numpy build is kept in tests/techniques/aic/test_kernel.py as its oracle).

    `live` (C,) is the grid's candidates; the rest are the geometry's tables (`_Tables`: each
    candidate's sets X, the candidates it sees and those of its digit, the cells' peers with
    a False padding column, each intersection's places per digit, the sets holding each
    pattern of them; pads C and S). The nodes are the live candidates, then, by intersection
    and digit, the groups of 2+ live places. Returns (table (N, w): each node's members in
    cell order, -1 pads; strong and weak (N, N) bool; the (v, u) pairs of each, by v then u;
    the (node, candidate) pairs of what each node sees, by node then candidate; sees_all
    (N, C) bool and packed (N, words)). Two nodes inside one set X are weakly linked unless
    they share a member; strongly when their sizes add up to the set's live members."""
    C = live.shape[0]
    w, P = places.shape
    nc = 0
    for c in range(C):
        if live[c]:
            nc += 1
    ng = 0
    for p in range(P):
        m = 0
        for j in range(w):
            t = places[j, p]
            if t < C and live[t]:
                m += 1
        if m >= 2:
            ng += 1
    N = nc + ng
    kc, kg = sets.shape[1], group_sets.shape[1]
    k = max(kc, kg)
    table = np.full((N, w), -1, dtype=np.intp)
    size = np.ones(N, dtype=np.intp)
    node_sets = np.full((N, k), S, dtype=np.intp)
    per_set = np.zeros(S + 1, dtype=np.intp)  # live candidates per set
    i = 0
    for c in range(C):
        if live[c]:
            table[i, 0] = c
            for j in range(kc):
                s = sets[c, j]
                node_sets[i, j] = s
                per_set[s] += 1
            i += 1
    per_set[S] = 0
    buf = np.empty(w, dtype=np.intp)
    for p in range(P):
        pattern = 0
        m = 0
        for j in range(w):
            t = places[j, p]
            if t < C and live[t]:
                pattern |= 1 << j
                buf[m] = t
                m += 1
        if m >= 2:
            mem = np.sort(buf[:m])
            for j in range(m):
                table[i, j] = mem[j]
            size[i] = m
            row = p * (1 << w) + pattern
            for j in range(kg):
                node_sets[i, j] = group_sets[row, j]
            i += 1
    # the nodes inside each set, in node order
    start = np.zeros(S + 2, dtype=np.intp)
    for a in range(N):
        for j in range(k):
            s = node_sets[a, j]
            if s < S:
                start[s + 2] += 1
    for s in range(S):
        start[s + 2] += start[s + 1]
    inside = np.empty(start[S + 1], dtype=np.intp)
    for a in range(N):
        for j in range(k):
            s = node_sets[a, j]
            if s < S:
                inside[start[s + 1]] = a
                start[s + 1] += 1
    # now start[s] .. start[s + 1] are the nodes inside set s
    strong = np.zeros((N, N), dtype=np.bool_)
    weak = np.zeros((N, N), dtype=np.bool_)
    owner = np.full(C, -1, dtype=np.intp)  # the node whose members are marked
    got = np.empty(N, dtype=np.intp)
    sv = np.empty(16, dtype=np.intp)
    su = np.empty(16, dtype=np.intp)
    wv = np.empty(16, dtype=np.intp)
    wu = np.empty(16, dtype=np.intp)
    ns = nw = 0
    for a in range(N):
        for j in range(size[a]):
            owner[table[a, j]] = a
        g = 0
        for j in range(k):
            s = node_sets[a, j]
            if s == S:
                continue
            for e in range(start[s], start[s + 1]):
                b = inside[e]
                if b == a:
                    continue
                apart = True
                for q in range(size[b]):
                    if owner[table[b, q]] == a:
                        apart = False
                        break
                if not apart:
                    continue
                if not weak[a, b]:
                    weak[a, b] = True
                    got[g] = b
                    g += 1
                if size[a] + size[b] == per_set[s]:
                    strong[a, b] = True
        if g:
            us = np.sort(got[:g])
            if nw + g > len(wv):
                wv = _grown(wv, nw + g)
                wu = _grown(wu, nw + g)
            if ns + g > len(sv):
                sv = _grown(sv, ns + g)
                su = _grown(su, ns + g)
            for b in us:
                wv[nw] = a
                wu[nw] = b
                nw += 1
                if strong[a, b]:
                    sv[ns] = a
                    su[ns] = b
                    ns += 1
    # what each node sees: a candidate's live peers; a group's, the candidates of its digit
    # that see its first member and are peers of the others' cells
    D = max(seen.shape[1], seen_digit.shape[1])
    node = np.empty(N * D, dtype=np.intp)
    cand = np.empty(N * D, dtype=np.intp)
    W = (C + 63) >> 6
    sees_all = np.zeros((N, C), dtype=np.bool_)
    packed = np.zeros((N, W), dtype=np.uint64)
    one = np.uint64(1)
    h = 0
    for a in range(N):
        if a < nc:
            c = table[a, 0]
            for j in range(seen.shape[1]):
                t = seen[c, j]
                if t < C and live[t]:
                    node[h] = a
                    cand[h] = t
                    h += 1
        else:
            c = table[a, 0]
            for j in range(seen_digit.shape[1]):
                t = seen_digit[c, j]
                if t < C and live[t]:
                    ok = True
                    for q in range(1, size[a]):
                        if not peers[table[a, q] // n, t // n]:
                            ok = False
                            break
                    if ok:
                        node[h] = a
                        cand[h] = t
                        h += 1
    for e in range(h):
        a, t = node[e], cand[e]
        sees_all[a, t] = True
        packed[a, t >> 6] |= one << np.uint64(t & 63)
    return (table, strong, weak, sv[:ns].copy(), su[:ns].copy(), wv[:nw].copy(), wu[:nw].copy(),
            node[:h].copy(), cand[:h].copy(), sees_all, packed)


@njit(cache=True, nogil=True)
def _grown(a, need):  # pragma: no cover (compiled)
    """`a` copied into an array at least twice as long and at least `need`."""
    out = np.empty(max(need, 2 * len(a)), dtype=a.dtype)
    out[: len(a)] = a
    return out
