"""The compiled part of the colouring tables (`linkgraph.techniques.coloring.medusa.Colors`).

`clusters` finds the strong links (sets X with two live members; 3D Medusa also takes the
bivalue cells), two-colours their clusters breadth first, in the order the Python
`Clusters` walk took (start nodes ascending, each node's links in set order), and lists
the coloured candidates class by class; it replaced that walk over Python dicts (kept as the
oracle in tests/techniques/coloring/test_kernel.py).

`color_tables` works out, for every colour class of the clusters, what it sees among the
live candidates, its own members, whether it sees one of them, the first set X it
empties (3D Medusa) and, per cluster, the uncoloured candidates seeing both colours, in
one pass over the packed sight of each class's members. In numpy those were some twenty
calls per grid (a reduction over packed words, unpacking, scatters, a column packing and
a set-by-set OR), run on most steps of a long solve by the three rungs that share the
tables; the numpy form is kept in tests/techniques/coloring/test_kernel.py as its oracle.
numba compiles it on first use and caches the code beside this file; `medusa` imports
this module on its first table. Imports only numpy and numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["clusters", "color_tables", "hinge_records", "lock_words", "range_hits", "range_table", "ranged_words"]


@njit(cache=True, nogil=True)
def color_tables(nodes, starts, L, at, sees_words, members, n, medusa):  # pragma: no cover (compiled)
    """``(seen, mine, twice, emptied, elim)`` of the colour classes.

    `nodes` holds the coloured candidates class by class (class q from ``starts[q]``),
    `L` the live candidates (column j is ``L[j]``), `at` each node's column, `sees_words`
    each candidate's sight packed over candidates, `members` each set X's members as
    columns (a dead one: ``len(L)``), `n` the number of digits. Without `medusa` a class
    sees only candidates of its own digit (one digit per cluster) and empties no set.

    seen (classes, live) and mine (classes, live) bool: what each class sees and holds;
    twice (classes,) bool: a class seeing one of its own; emptied (classes,) int64: the
    first set X with live members all seen by the class or held by its partner colour
    (-1: none); elim (clusters, live) bool: the candidates seeing both colours of a
    cluster and in neither.
    """
    Q = len(starts)
    nl = len(L)
    seen = np.zeros((Q, nl), dtype=np.bool_)
    mine = np.zeros((Q, nl), dtype=np.bool_)
    twice = np.zeros(Q, dtype=np.bool_)
    emptied = np.full(Q, -1, dtype=np.int64)
    for q in range(Q):
        stop = starts[q + 1] if q + 1 < Q else len(nodes)
        digit = nodes[starts[q]] % n
        for t in range(starts[q], stop):
            k = nodes[t]
            mine[q, at[t]] = True
            for j in range(nl):
                x = L[j]
                if (sees_words[k, x >> 6] >> np.uint64(x & 63)) & np.uint64(1):
                    if medusa or x % n == digit:
                        seen[q, j] = True
    for q in range(Q):
        for t in range(starts[q], starts[q + 1] if q + 1 < Q else len(nodes)):
            if seen[q, at[t]]:
                twice[q] = True
                break
    if medusa:
        S, width = members.shape
        for q in range(Q):
            partner = q ^ 1
            for s in range(S):
                occupied = False
                all_off = True
                for w in range(width):
                    j = members[s, w]
                    if j >= nl:
                        continue
                    occupied = True
                    if not (seen[q, j] or mine[partner, j]):
                        all_off = False
                        break
                if occupied and all_off:
                    emptied[q] = s
                    break
    elim = np.zeros((Q // 2, nl), dtype=np.bool_)
    for c in range(Q // 2):
        for j in range(nl):
            elim[c, j] = seen[2 * c, j] and seen[2 * c + 1, j] and not (mine[2 * c, j] or mine[2 * c + 1, j])
    return seen, mine, twice, emptied, elim


@njit(cache=True, nogil=True)
def clusters(live, members, ncells, medusa):  # pragma: no cover (compiled; tested against Python)
    """The strong links and two-coloured clusters of a grid.

    `live` is the flat (candidates,) live table, `members` the (sets, size) members of
    every set X (cell sets first, skipped without `medusa`).

    Returns ``(sets, a, b, color, cluster, nodes, klass)``: each strong link's set X and
    its two live members (in member order), by set; per candidate its colour (0 or 1, -1
    if in no link) and its cluster (numbered in the order of their smallest candidate,
    -1 if none); and the coloured candidates by class ``2 * cluster + colour``, then by
    candidate, with their classes.
    """
    S, n = members.shape
    K = live.shape[0]
    sets = np.empty(S, dtype=np.int64)
    pa = np.empty(S, dtype=np.int64)
    pb = np.empty(S, dtype=np.int64)
    P = 0
    deg = np.zeros(K + 1, dtype=np.int64)
    for s in range(0 if medusa else ncells, S):
        c = 0
        a = -1
        b = -1
        for j in range(n):
            k = members[s, j]
            if live[k]:
                c += 1
                if c == 1:
                    a = k
                elif c == 2:
                    b = k
                else:
                    break
        if c == 2:
            sets[P] = s
            pa[P] = a
            pb[P] = b
            P += 1
            deg[a + 1] += 1
            deg[b + 1] += 1
    for k in range(K):
        deg[k + 1] += deg[k]
    fill = deg[:K].copy()
    nbr = np.empty(2 * P, dtype=np.int64)
    for p in range(P):  # each node's links in set order, as the Python walk appended them
        a = pa[p]
        b = pb[p]
        nbr[fill[a]] = b
        fill[a] += 1
        nbr[fill[b]] = a
        fill[b] += 1
    color = np.full(K, -1, dtype=np.int64)
    cluster = np.full(K, -1, dtype=np.int64)
    queue = np.empty(K, dtype=np.int64)
    C = 0
    for start in range(K):
        if deg[start + 1] == deg[start] or color[start] >= 0:
            continue
        color[start] = 0
        cluster[start] = C
        queue[0] = start
        head = 0
        tail = 1
        while head < tail:  # breadth first
            k = queue[head]
            head += 1
            other = 1 - color[k]
            for e in range(deg[k], deg[k + 1]):
                m = nbr[e]
                if color[m] < 0:
                    color[m] = other
                    cluster[m] = C
                    queue[tail] = m
                    tail += 1
        C += 1
    # the coloured candidates by class, then candidate (a counting sort over the classes)
    count = np.zeros(2 * C + 1, dtype=np.int64)
    for k in range(K):
        if color[k] >= 0:
            count[2 * cluster[k] + color[k] + 1] += 1
    for q in range(2 * C):
        count[q + 1] += count[q]
    nodes = np.empty(count[2 * C], dtype=np.int64)
    klass = np.empty(count[2 * C], dtype=np.int64)
    for k in range(K):
        if color[k] >= 0:
            q = 2 * cluster[k] + color[k]
            nodes[count[q]] = k
            klass[count[q]] = q
            count[q] += 1
    return sets[:P], pa[:P], pb[:P], color, cluster, nodes, klass


@njit(cache=True, nogil=True)
def hinge_records(seen, mine, failing, elim, nodes, klass, at, L, touched, seen_bits, seen_m, live, members):  # pragma: no cover
    """The weak hinges of a grid's 3D Medusa `Colors`: records (class w, weak node t, hinge
    end a, set X s), by (w, t), each key's records in the order of their ends, then sets.

    `seen`, `mine` (classes, live columns), `failing` (clusters, 2), `elim` (clusters, live),
    `nodes`, `klass`, `at` and `L` are the `Colors` tables; `touched`, `seen_bits` and
    `seen_m` `linkgraph.techniques.coloring.hinges`' per-geometry tables; `live` the flat
    live table and `members` every set X's members. A class's weak nodes see its other
    colour, not the class, and are neither coloured nor eliminated by plain 3D Medusa; an end
    a of class w with a weak node, and a set X that a sees some but not all live members of,
    make a record with every weak node t of w that sees the members a does not.
    """
    W, nl = seen.shape
    C = failing.shape[0]
    S, n = members.shape
    usable = np.zeros(C, dtype=np.bool_)
    out_m = np.zeros(nl, dtype=np.bool_)  # what plain 3D Medusa gives
    for c in range(C):
        f0 = failing[c, 0]
        f1 = failing[c, 1]
        usable[c] = not (f0 or f1)
        if usable[c]:
            for j in range(nl):
                if elim[c, j]:
                    out_m[j] = True
        elif not (f0 and f1):
            w = 2 * c + (0 if f0 else 1)
            for j in range(nl):
                if mine[w, j]:
                    out_m[j] = True
    # each class's weak nodes, ascending: weak_t[first[w]:first[w + 1]]
    first = np.zeros(W + 1, dtype=np.int64)
    weak_t = np.empty(W * nl, dtype=np.int64)
    q = 0
    for w in range(W):
        if usable[w // 2]:
            o = w ^ 1
            for j in range(nl):
                if seen[o, j] and not seen[w, j] and not mine[w, j] and not mine[o, j] and not out_m[j]:
                    weak_t[q] = j
                    q += 1
        first[w + 1] = q
    live_bits = np.zeros(S + 1, dtype=np.int64)  # the padding set: no member
    for s in range(S):
        b = 0
        for j in range(n):
            if live[members[s, j]]:
                b |= 1 << j
        live_bits[s] = b
    cap = 64
    rec = np.empty((cap, 4), dtype=np.int64)
    R = 0
    for e in range(len(nodes)):
        w = klass[e]
        if first[w + 1] == first[w]:
            continue
        k = nodes[e]
        a = at[e]
        for j in range(touched.shape[1]):
            s = touched[k, j]
            lm = live_bits[s]
            un = lm & ~np.int64(seen_bits[k, j])
            if un == lm or un == 0:
                continue
            for i in range(first[w], first[w + 1]):
                t = weak_t[i]
                if (un & ~np.int64(seen_m[L[t], s])) == 0:
                    if R == cap:
                        cap *= 2
                        grown = np.empty((cap, 4), dtype=np.int64)
                        grown[:R] = rec[:R]
                        rec = grown
                    rec[R, 0] = w
                    rec[R, 1] = t
                    rec[R, 2] = a
                    rec[R, 3] = s
                    R += 1
    rec = rec[:R]
    order = np.argsort(rec[:, 0] * nl + rec[:, 1], kind="mergesort")  # stable: ends, then sets, kept
    return rec[order]


@njit(cache=True, nogil=True)
def _any_live(cells, live, nc, n, d):  # pragma: no cover
    """Whether digit index `d` is live in one of `cells` (padded with `nc` or more)."""
    for c in cells:
        if c < nc and live[c * n + d]:
            return True
    return False


@njit(cache=True, nogil=True)
def range_table(live, box_h, line_h, box, inside, outside, targets, box_cells, n):  # pragma: no cover (compiled)
    """``(box_sets, line_sets, inside, outside, targets, hit)`` of the ranges of `live`.

    `live` is the grid's live candidates (bool, cell * n + digit); `box_h`, `line_h`, `box`,
    `inside`, `outside`, `targets` and `box_cells` are `rangetable._pairs`'s arrays (cells
    padded with the number of cells), `n` the number of digits. A (box, line) pair forms a
    range for digit d when the digit has a live place in the box on the line, one in the box
    off it, one on the line off the box, and at least three in the box. The ranges come by
    box, then digit, then line; the places as candidate indices padded with the number of
    candidates (dead places are padding too), and `hit` (ranges, candidates) bool marks
    each range's targets.
    """
    nc = len(live) // n
    C = nc * n
    P = len(box_h)
    ok = np.zeros((P, n), dtype=np.bool_)
    m = 0
    for p in range(P):
        b = box[p]
        for d in range(n):
            k = 0
            for c in box_cells[b]:
                if c < nc and live[c * n + d]:
                    k += 1
            if k < 3:
                continue
            if _any_live(inside[p], live, nc, n, d) and _any_live(outside[p], live, nc, n, d) \
                    and _any_live(targets[p], live, nc, n, d):
                ok[p, d] = True
                m += 1
    box_sets = np.empty(m, dtype=np.intp)
    line_sets = np.empty(m, dtype=np.intp)
    ins = np.full((m, inside.shape[1]), C, dtype=np.intp)
    outs = np.full((m, outside.shape[1]), C, dtype=np.intp)
    tgts = np.full((m, targets.shape[1]), C, dtype=np.intp)
    hit = np.zeros((m, C), dtype=np.bool_)
    i = 0
    for b in range(len(box_cells)):
        for d in range(n):
            for p in range(P):  # a box's pairs come in line order
                if box[p] != b or not ok[p, d]:
                    continue
                box_sets[i] = nc + box_h[p] * n + d
                line_sets[i] = nc + line_h[p] * n + d
                for j in range(inside.shape[1]):
                    c = inside[p, j]
                    if c < nc and live[c * n + d]:
                        ins[i, j] = c * n + d
                for j in range(outside.shape[1]):
                    c = outside[p, j]
                    if c < nc and live[c * n + d]:
                        outs[i, j] = c * n + d
                for j in range(targets.shape[1]):
                    c = targets[p, j]
                    if c < nc and live[c * n + d]:
                        tgts[i, j] = c * n + d
                        hit[i, c * n + d] = True
                i += 1
    return box_sets, line_sets, ins, outs, tgts, hit


@njit(cache=True, nogil=True)
def lock_words(on, off, inside, outside):  # pragma: no cover (compiled)
    """``(ranges, words)`` uint64: bit p of row i set when premise p locks range i.

    `on` and `off` are ``(candidates + 1, words)`` uint64, bit p of row k set when premise p
    makes candidate k ON (OFF), the last row (padding) all 0 in `on` and all 1 in `off`;
    `inside` and `outside` are the ranges' places on and off the line (padded). A range
    locks when every place off the line is OFF, a place on it is not, and none is ON.
    """
    m = inside.shape[0]
    W = on.shape[1]
    out = np.zeros((m, W), dtype=np.uint64)
    for i in range(m):
        for w in range(W):
            cleared = off[outside[i, 0], w]
            for j in range(1, outside.shape[1]):
                if cleared == 0:
                    break
                cleared &= off[outside[i, j], w]
            if cleared == 0:
                continue
            all_off = off[inside[i, 0], w]
            settled = on[inside[i, 0], w]
            for j in range(1, inside.shape[1]):
                all_off &= off[inside[i, j], w]
                settled |= on[inside[i, j], w]
            for j in range(outside.shape[1]):
                settled |= on[outside[i, j], w]
            out[i, w] = cleared & ~all_off & ~settled
    return out


@njit(cache=True, nogil=True)
def ranged_words(hits, locked):  # pragma: no cover (compiled)
    """``(classes, words)`` uint64: the premises (bits, as in `locked`, ``(ranges, words)``)
    that lock a range hitting each class (`hits`, ``(ranges, classes)`` bool)."""
    Q = hits.shape[1]
    W = locked.shape[1]
    out = np.zeros((Q, W), dtype=np.uint64)
    for i in range(hits.shape[0]):
        some = False
        for w in range(W):
            if locked[i, w]:
                some = True
                break
        if not some:
            continue
        for q in range(Q):
            if hits[i, q]:
                for w in range(W):
                    out[q, w] |= locked[i, w]
    return out


@njit(cache=True, nogil=True)
def range_hits(targets, nodes, klass, Q, C):  # pragma: no cover (compiled)
    """``(ranges, Q)`` bool: the colour classes each range turns a candidate of OFF.

    `targets` are the ranges' targets (candidates padded with `C`), `nodes` and `klass` the
    coloured candidates and their classes (each candidate in one class at most)."""
    class_of = np.full(C + 1, -1, dtype=np.int64)
    for t in range(len(nodes)):
        class_of[nodes[t]] = klass[t]
    m = targets.shape[0]
    hits = np.zeros((m, Q), dtype=np.bool_)
    for i in range(m):
        for j in range(targets.shape[1]):
            q = class_of[targets[i, j]]
            if q >= 0:
                hits[i, q] = True
    return hits
