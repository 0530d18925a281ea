"""The compiled build of a grid's literal digraph (`linkgraph.graph.compiler.compile_grid`).

`literal_edges` lays out the candidate nodes, the group nodes and every link of DESIGN.md
§1 (set X, group and ALS links) from the candidate state in one pass, then orders the
edges by (source, destination) and keeps the lowest priority of each pair, as the numpy
build did with some ninety calls on arrays of a few thousand entries (most of a chain
search's time on a top1465 position). That numpy build is kept in tests/graph/
test_compiler_kernel.py as its oracle. Imports only numpy and numba; numba compiles it
on first use and caches the code beside this file.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["literal_edges"]


@njit(cache=True, nogil=True, inline="always")
def _put(buf, m, a, b, p):  # pragma: no cover (compiled)
    """Write the edge (a, b, p) at row `m` of `buf` (the caller made room)."""
    buf[m, 0] = a
    buf[m, 1] = b
    buf[m, 2] = p


@njit(cache=True, nogil=True)
def _grown(buf, m, need):  # pragma: no cover (compiled)
    """A copy of `buf`'s first `m` rows with room for at least `need` rows."""
    out = np.empty((max(need, 2 * buf.shape[0]), 3), dtype=np.int64)
    out[:m] = buf[:m]
    return out


@njit(cache=True, nogil=True)
def literal_edges(live, sm, ncells, cell_sets, house_sets, groups, icand0, rank, house, out0,
                  pairs, shared0, als, cands, peer_words, als_base, famw):  # pragma: no cover (compiled)
    """The nodes and edges of a grid's literal digraph.

    `live` is the flat (candidates,) live table, `sm` the (sets, size) members of every set
    X (cell sets first); `cell_sets`, `house_sets` and `groups` say which families to
    build. The group tables (`icand0` ... `shared0`) are `linkgraph.graph.compiler`'s
    per-geometry `_GroupTables` (padding: the dead slot ``candidates``); `als` the (A, w)
    ALS cells padded with `ncells` (no ALS links when A is 0), `cands` the (cells, size)
    candidate table, `peer_words` the geometry's packed peers with an all-ones padding
    row; an ALS's via code is ``als_base + a``. Priorities are ``family * famw + via``
    with families cell 0, house 1, group 2, ALS 3.

    Returns ``(cands, cand_node, group_index, group_digit, src, dst, prio)``: the
    candidate of each candidate node, the node of each candidate (-1 if none), each
    group node's intersection subset (``i * 2**w + cells as bits``, a row of the tables'
    ``sub_cells`` flattened) and digit
    (0-based) in sort order, then the edges sorted by (source, destination), one per
    pair with its lowest priority.
    """
    K = live.shape[0]
    n = sm.shape[1]
    S = sm.shape[0]
    # ---- candidate nodes: live members of a set with another live member
    cnt = np.zeros(S, dtype=np.int64)
    for s in range(S):
        c = 0
        for j in range(n):
            if live[sm[s, j]]:
                c += 1
        cnt[s] = c
    flag = np.zeros(K + n, dtype=np.bool_)  # the dead slots K.. stay False
    for s in range(S):
        if cnt[s] >= 2:
            for j in range(n):
                k = sm[s, j]
                if live[k]:
                    flag[k] = True
    nc = 0
    for k in range(K):
        if flag[k]:
            nc += 1
    node_cands = np.empty(nc, dtype=np.int64)
    cand_node = np.full(K + n, -1, dtype=np.int64)
    i = 0
    for k in range(K):
        if flag[k]:
            node_cands[i] = k
            cand_node[k] = i
            i += 1
    buf = np.empty((4096, 3), dtype=np.int64)  # grown only where an
    # outer loop may need more room than is left (a buffer reassigned on every write costs a
    # reference count each time: twice the kernel's time)
    m = 0
    # ---- group nodes: digit d in 2+ cells of a box-line intersection
    I = icand0.shape[0] if groups else 0
    w = icand0.shape[1]
    R = rank.shape[0] * rank.shape[1]
    keys = np.empty(I * n, dtype=np.int64)
    found = np.empty((I * n, 4), dtype=np.int64)  # intersection, digit, cells as bits, size
    G = 0
    for i in range(I):
        for d in range(n):
            b = 0
            c = 0
            for j in range(w):
                if flag[icand0[i, j] + d]:
                    b |= 1 << j
                    c += 1
            if c >= 2:
                keys[G] = d * R + rank[i, b]  # sort_key order: digit, then cells (ranks unique)
                found[G, 0] = i
                found[G, 1] = d
                found[G, 2] = b
                found[G, 3] = c
                G += 1
    order = np.argsort(keys[:G])
    gi = np.empty(G, dtype=np.int64)
    gd = np.empty(G, dtype=np.int64)
    gsub = np.empty(G, dtype=np.int64)
    gsize = np.empty(G, dtype=np.int64)
    gid = np.full((I, n), -1, dtype=np.int64)
    for r in range(G):
        u = order[r]
        gi[r] = found[u, 0]
        gd[r] = found[u, 1]
        gsub[r] = found[u, 0] * rank.shape[1] + found[u, 2]
        gsize[r] = found[u, 3]
        gid[found[u, 0], found[u, 1]] = r
    ocnt = np.zeros((G, 2), dtype=np.int64)
    mo = out0.shape[2]
    for g in range(G):
        i = gi[g]
        d = gd[g]
        a = nc + g
        if m + 8 * mo > buf.shape[0]:
            buf = _grown(buf, m, m + 8 * mo)
        for k in range(2):
            via = ncells + house[i, k] * n + d
            p = 2 * famw + via
            c = 0
            for j in range(mo):
                if flag[out0[i, k, j] + d]:
                    c += 1
            ocnt[g, k] = c
            for j in range(mo):
                x = out0[i, k, j] + d
                if flag[x]:
                    o = cand_node[x]
                    _put(buf, m, 2 * a, 2 * o + 1, p)
                    m += 1
                    _put(buf, m, 2 * o, 2 * a + 1, p)
                    m += 1
                    if c == 1:
                        _put(buf, m, 2 * a + 1, 2 * o, p)
                        m += 1
                        _put(buf, m, 2 * o + 1, 2 * a, p)
                        m += 1
    # two groups of one set sharing no candidate
    if G:
        for q in range(pairs.shape[0]):
            i1 = pairs[q, 0]
            i2 = pairs[q, 1]
            k1 = pairs[q, 2]
            if m + 2 * n > buf.shape[0]:
                buf = _grown(buf, m, m + 2 * n)
            for d in range(n):
                ga = gid[i1, d]
                gb = gid[i2, d]
                if ga < 0 or gb < 0:
                    continue
                shared = False
                for j in range(shared0.shape[1]):
                    if flag[shared0[q, j] + d]:
                        shared = True
                        break
                if shared:
                    continue
                p = 2 * famw + ncells + house[i1, k1] * n + d
                _put(buf, m, 2 * (nc + ga), 2 * (nc + gb) + 1, p)
                m += 1
                if ocnt[ga, k1] == gsize[gb]:
                    _put(buf, m, 2 * (nc + ga) + 1, 2 * (nc + gb), p)
                    m += 1
    # ---- set X links: every ordered pair of live members of a kept set, strong when it has two
    members = np.empty(n, dtype=np.int64)
    for s in range(S):
        if cnt[s] < 2:
            continue
        if s < ncells:
            if not cell_sets:
                continue
            p = s
        else:
            if not house_sets:
                continue
            p = famw + s
        c = 0
        for j in range(n):
            k = sm[s, j]
            if live[k]:
                members[c] = cand_node[k]
                c += 1
        if m + 2 * c * c > buf.shape[0]:
            buf = _grown(buf, m, m + 2 * c * c)
        for x in range(c):
            a = members[x]
            for y in range(c):
                if x != y:
                    b = members[y]
                    _put(buf, m, 2 * a, 2 * b + 1, p)
                    m += 1
                    if c == 2:
                        _put(buf, m, 2 * a + 1, 2 * b, p)
                        m += 1
    # ---- ALS links: -a -> +b (b's digit has one place left), -a -> -c (c sees all of its digit)
    A = als.shape[0]
    aw = als.shape[1]
    cnt_d = np.zeros(n, dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    words = peer_words.shape[1]
    seen = np.empty(words, dtype=np.uint64)
    held = np.zeros((n, words), dtype=np.uint64)  # the cells holding each digit, as bits
    if A:
        for c in range(ncells):
            for d in range(n):
                if cands[c, d]:
                    held[d, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    for a in range(A):
        p = 3 * famw + als_base + a
        for d in range(n):
            cnt_d[d] = 0
            pos[d] = 0
        for j in range(aw):
            c = als[a, j]
            if c < ncells:
                for d in range(n):
                    if cands[c, d]:
                        cnt_d[d] += 1
                        pos[d] += c
        if m + n * n > buf.shape[0]:
            buf = _grown(buf, m, m + n * n)
        for x in range(n):
            if cnt_d[x] != 1:
                continue
            for y in range(n):
                if cnt_d[y] == 1 and pos[y] != pos[x]:
                    _put(buf, m, 2 * cand_node[pos[x] * n + x] + 1, 2 * cand_node[pos[y] * n + y], p)
                    m += 1
        for y in range(n):
            if cnt_d[y] == 0:
                continue
            for t in range(words):
                seen[t] = held[y, t]
            for j in range(aw):
                c = als[a, j]
                if c < ncells and cands[c, y]:
                    for t in range(words):
                        seen[t] &= peer_words[c, t]
            for t in range(words):
                bits = seen[t]
                while bits:
                    c = t * 64 + np.int64(trailing_zeros(bits))
                    bits &= bits - np.uint64(1)
                    dc = 2 * cand_node[c * n + y] + 1
                    if m + n > buf.shape[0]:
                        buf = _grown(buf, m, m + n)
                    for x in range(n):
                        if cnt_d[x] == 1 and x != y:
                            _put(buf, m, 2 * cand_node[pos[x] * n + x] + 1, dc, p)
                            m += 1
    # ---- order by (source, destination), the lowest priority of each pair kept
    L = 2 * (nc + G)
    start = np.zeros(L + 1, dtype=np.int64)
    for e in range(m):
        if buf[e, 0] != buf[e, 1]:
            start[buf[e, 0] + 1] += 1
    for v in range(L):
        start[v + 1] += start[v]
    fill = start[:L].copy()
    bd = np.empty(start[L], dtype=np.int64)
    bp = np.empty(start[L], dtype=np.int64)
    for e in range(m):
        a = buf[e, 0]
        if a != buf[e, 1]:
            f = fill[a]
            bd[f] = buf[e, 1]
            bp[f] = buf[e, 2]
            fill[a] = f + 1
    src = np.empty(start[L], dtype=np.int64)
    dst = np.empty(start[L], dtype=np.int64)
    prio = np.empty(start[L], dtype=np.int64)
    E = 0
    for v in range(L):
        lo = start[v]
        hi = start[v + 1]
        for x in range(lo + 1, hi):  # insertion sort of the bucket by (destination, priority)
            kd = bd[x]
            kp = bp[x]
            y = x - 1
            while y >= lo and (bd[y] > kd or (bd[y] == kd and bp[y] > kp)):
                bd[y + 1] = bd[y]
                bp[y + 1] = bp[y]
                y -= 1
            bd[y + 1] = kd
            bp[y + 1] = kp
        for x in range(lo, hi):
            if x == lo or bd[x] != bd[x - 1]:
                src[E] = v
                dst[E] = bd[x]
                prio[E] = bp[x]
                E += 1
    return node_cands, cand_node[:K], gsub, gd, src[:E], dst[:E], prio[:E]
