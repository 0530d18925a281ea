"""The compiled builds of the ALS table (`linkgraph.techniques.als.table`) and of the ALS
chains' layered net (`linkgraph.techniques.als.net`).

`table_build` computes, from a grid's candidates and its ALSs' cells, every relation the
table holds (per digit and set its places and the cells seeing all of them, the live
candidates seeing them, which sets share a cell, the restricted common digits and the
digits z of every two sets) in one pass over packed bit masks. In numpy that was some
sixty calls per grid (gathers, reductions, packing and unpacking, a compiled digit
matrix), most of a table's build; the numpy build is kept in
tests/techniques/als/test_table_kernel.py as its oracle.

`als_net_parts` lays out the ALS nodes, the layered net's sorted strong and weak links and
its packed sight tables (what each start and end turns OFF, which starts share a target
with each end) in one pass; the numpy `als_net` it replaced (some seventy calls per grid)
is kept in tests/techniques/als/test_net_kernel.py as its oracle.

`blossom_any` says whether a grid has a death blossom to look at (a stem whose every digit
has a petal, and a live z outside the stem seeing all z of one petal per stem digit) before
the death-blossom rung makes its numpy tables; that rung's numpy test (``hit.any()``) is
kept in tests/techniques/als/test_xz.py as its oracle. `xy_wing_any` and `xz_any` do the same
for the ALS-XY-wing and ALS-XZ rungs (their numpy triples and pairs are the oracles there).

numba compiles them on first use and caches the code beside this file; the table and the
net import this module on their first build.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["als_net_parts", "blossom_any", "table_build", "xy_wing_any", "xz_any"]


@njit(cache=True, nogil=True)
def table_build(cands, cellrows, peer_words):  # pragma: no cover (compiled; tested against numpy)
    """Everything an ALS table holds beyond its sets, from the grid's (cells, digits) candidates,
    the sets' cells (N, K) padded with the number of cells, and each cell's peers packed
    (cells + 1, words; the padding row holds every cell).

    Returns ``(has, places, seeall, sight_d, sight_i, sight_x, selfsee, overlap, restricted,
    restricted_words, zsee)``: per set and digit whether the set holds it (N, n); per digit and set its places
    and the cells that see all of them, packed (n, N, words); the live candidates x#d outside
    set i that see every d of it, as three arrays sorted by (d, i, x); per set the digits it
    has such a candidate of; whether two sets share a cell (N, N); and per two sets the
    digits (bits) restricted common to them (cells apart, every place of one on the digit
    sees every place of the other), also packed per digit and set as the sets j it is
    restricted common with (n, N, words over sets), and those with a live candidate outside set i that sees
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
    restricted_words = np.zeros((n, N, wj), dtype=np.uint64)
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
                if w == wj - 1 and N & 63:
                    y &= (one << np.uint64(N & 63)) - one  # no bit past the last set
                restricted_words[d, i, w] = y
                while y:
                    j = w * 64 + trailing_zeros(y)
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
    return has, places, seeall, sight_d, sight_i, sight_x, selfsee, overlap, restricted, restricted_words, zsee


@njit(cache=True, nogil=True)
def _grown(a):  # pragma: no cover (compiled)
    """`a` (one axis) twice as long, the first part copied."""
    out = np.empty(2 * len(a), dtype=a.dtype)
    out[: len(a)] = a
    return out


@njit(cache=True, nogil=True)
def _sorted_pairs(v, u, N):  # pragma: no cover (compiled)
    """(v, u) sorted by v, then u (each v in [0, N)): counted into runs by v, each run then
    sorted by insertion (a node has a few dozen links at most)."""
    E = len(v)
    start = np.zeros(N + 1, dtype=np.int64)
    for i in range(E):
        start[v[i] + 1] += 1
    for x in range(N):
        start[x + 1] += start[x]
    fill = start[:N].copy()
    out_v = np.empty(E, dtype=np.int64)
    out_u = np.empty(E, dtype=np.int64)
    for i in range(E):
        at = fill[v[i]]
        out_v[at] = v[i]
        out_u[at] = u[i]
        fill[v[i]] += 1
    for x in range(N):
        for i in range(start[x] + 1, start[x + 1]):
            y = out_u[i]
            j = i - 1
            while j >= start[x] and out_u[j] > y:
                out_u[j + 1] = out_u[j]
                j -= 1
            out_u[j + 1] = y
    return out_v, out_u


@njit(cache=True, nogil=True)
def _set_bit(words, row, bit):  # pragma: no cover (compiled)
    words[row, bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)


@njit(cache=True, nogil=True)
def als_net_parts(cands, set_cells, selfsee, seeall, restricted_words, gcells, gdigit, node_of, single,
                  strong_v, strong_u, weak_v, weak_u, sees, sight_node, sight_cand, house_of, house_words, M):
    # pragma: no cover (compiled; tested against numpy)
    """The arrays of the layered ALS net (`linkgraph.techniques.als.net.als_net`).

    From the grid's candidates, the ALS table (each set's cells padded with the number of
    cells, `selfsee`, `seeall` packed (digits, sets, words), the restricted commons packed
    (digits, sets, words over sets)), the grouped
    net's M nodes (the groups' cells (groups, width), -1 padded, and digits; each
    candidate's node; each node's one candidate or C; its strong and weak links (v, u);
    what each node turns OFF, packed, and its sight as (node, candidate) pairs) and
    the houses (each cell's houses, a padding row of all True; each house's cells packed).

    Returns ``(ai, ad, mem_tab, strong_v, strong_u, weak_v, weak_u, start_sees, end_sees,
    hits, twin)``, `ai` and `ad` empty when no ALS node exists: per ALS node its set and
    digit (by set, then digit) and its places (K, width) as candidates, -1 elsewhere; the
    layered net's strong and weak links, each sorted by v then u; per start (M + K) the
    candidates its +literal turns OFF by a weak link and per end (2M + K) those it turns
    OFF, packed; per end the starts with a candidate seeing both, packed; per start of
    one candidate the copy-two node of that candidate, else -1.
    """
    ncells, n = cands.shape
    S, width = set_cells.shape
    W = seeall.shape[2]
    C = ncells * n
    # the ALS nodes: per set of 2+ cells with 2+ digits that some live candidate outside sees
    per_set = np.zeros(S, dtype=np.int64)  # each set's number of ALS nodes: 0 or its seen digits
    for i in range(S):
        size = 0
        for k in range(width):
            if set_cells[i, k] < ncells:
                size += 1
        seen_digits = 0
        for d in range(n):
            if (selfsee[i] >> d) & 1:
                seen_digits += 1
        if size >= 2 and seen_digits >= 2:
            per_set[i] = seen_digits
    K = per_set.sum()
    ai = np.empty(K, dtype=np.int64)
    ad = np.empty(K, dtype=np.int64)
    a = 0
    for i in range(S):
        if per_set[i]:
            for d in range(n):
                if (selfsee[i] >> d) & 1:
                    ai[a] = i
                    ad[a] = d
                    a += 1
    N = 2 * M + K
    B = M + K
    mem_tab = np.full((K, width), -1, dtype=np.int64)
    places = np.zeros(K, dtype=np.int64)
    for a in range(K):
        for k in range(width):
            c = set_cells[ai[a], k]
            if c < ncells and cands[c, ad[a]]:
                mem_tab[a, k] = c * n + ad[a]
                places[a] += 1
    # ALS node -> the live candidates of its digit seeing every place (ea, ec), by node then cell
    sight_cells = np.zeros((K, ncells), dtype=np.bool_)
    count = 0
    for a in range(K):
        d = ad[a]
        for w in range(W):
            y = seeall[d, ai[a], w]
            while y:
                c = w * 64 + trailing_zeros(y)
                y &= y - np.uint64(1)
                if c < ncells:
                    sight_cells[a, c] = True
                    if cands[c, d]:
                        count += 1
    ea = np.empty(count, dtype=np.int64)
    ec = np.empty(count, dtype=np.int64)
    t = 0
    for a in range(K):
        for c in range(ncells):
            if sight_cells[a, c] and cands[c, ad[a]]:
                ea[t] = a
                ec[t] = c * n + ad[a]
                t += 1
    # group nodes whose members all lie in an ALS node's sight, on its digit (by node, then group)
    G, gw = gcells.shape
    nc = M - G
    seen_group = np.zeros((K, G), dtype=np.bool_)
    count = 0
    for a in range(K):
        for gi in range(G):
            if gdigit[gi] == ad[a]:
                ok = True
                for j in range(gw):
                    c = gcells[gi, j]
                    if c >= 0 and not sight_cells[a, c]:
                        ok = False
                        break
                if ok:
                    seen_group[a, gi] = True
                    count += 1
    ga = np.empty(count, dtype=np.int64)
    gr = np.empty(count, dtype=np.int64)
    t = 0
    for a in range(K):
        for gi in range(G):
            if seen_group[a, gi]:
                ga[t] = a
                gr[t] = gi + nc
                t += 1
    E = len(ea)
    la = np.concatenate((ea, ga))
    lr = np.empty(E + len(ga), dtype=np.int64)
    for t in range(E):
        lr[t] = node_of[ec[t]]
    lr[E:] = gr
    # ALS -- ALS on a restricted common digit, both sets with a node on it
    node_id = np.full((S, n), -1, dtype=np.int64)
    for a in range(K):
        node_id[ai[a], ad[a]] = a
    # per ALS node (p, d), the sets q restricted common with p on d that have a node on d (in
    # any order: the links are sorted below)
    SW = restricted_words.shape[2]
    with_node = np.zeros((n, SW), dtype=np.uint64)
    for a in range(K):
        with_node[ad[a], ai[a] >> 6] |= np.uint64(1) << np.uint64(ai[a] & 63)
    rv = np.empty(64, dtype=np.int64)
    ru = np.empty(64, dtype=np.int64)
    t = 0
    for a in range(K):
        p, d = ai[a], ad[a]
        for w in range(SW):
            y = restricted_words[d, p, w] & with_node[d, w]
            while y:
                q = w * 64 + trailing_zeros(y)
                y &= y - np.uint64(1)
                if t == len(rv):
                    rv = _grown(rv)
                    ru = _grown(ru)
                rv[t] = a
                ru[t] = node_id[q, d]
                t += 1
    rv, ru = rv[:t], ru[:t]
    # two digits of one ALS (its nodes are consecutive)
    count = 0
    lo = 0
    while lo < K:
        hi = lo
        while hi < K and ai[hi] == ai[lo]:
            hi += 1
        count += (hi - lo) * (hi - lo - 1)
        lo = hi
    sv = np.empty(count, dtype=np.int64)
    su = np.empty(count, dtype=np.int64)
    t = 0
    lo = 0
    while lo < K:
        hi = lo
        while hi < K and ai[hi] == ai[lo]:
            hi += 1
        for x in range(lo, hi):
            for y in range(lo, hi):
                if x != y:
                    sv[t] = x
                    su[t] = y
                    t += 1
        lo = hi
    # the layered links, [v, u] meaning u -> v
    s_v = np.concatenate((strong_v, strong_v + B, sv + M))
    s_u = np.concatenate((strong_u, strong_u + B, su + M))
    out_sv, out_su = _sorted_pairs(s_v, s_u, N)
    w_v = np.concatenate((weak_v, weak_v + B, la + M, la + M, lr + B, rv + M))
    w_u = np.concatenate((weak_u, weak_u + B, lr, lr + B, la + M, ru + M))
    out_wv, out_wu = _sorted_pairs(w_v, w_u, N)
    # what an ALS start's +literal turns OFF: the live candidates of its digit, not places, in a
    # house holding every place; a lone place's own cell's other live candidates
    CW = sees.shape[1]
    start_sees = np.zeros((M + K, CW), dtype=np.uint64)
    start_sees[:M] = sees
    H = house_of.shape[1]
    for a in range(K):
        d = ad[a]
        first = ncells  # a place's cell: only its houses can hold every place
        for k in range(width):
            if mem_tab[a, k] >= 0:
                first = set_cells[ai[a], k]
                break
        for h in range(H):
            if not house_of[first, h]:
                continue
            common = True
            for k in range(width):
                c = set_cells[ai[a], k] if mem_tab[a, k] >= 0 else ncells
                if not house_of[c, h]:
                    common = False
                    break
            if not common:
                continue
            for w in range(house_words.shape[1]):
                y = house_words[h, w]
                while y:
                    c = w * 64 + trailing_zeros(y)
                    y &= y - np.uint64(1)
                    if c < ncells and cands[c, d]:
                        place = False
                        for k in range(width):
                            if mem_tab[a, k] == c * n + d:
                                place = True
                        if not place:
                            _set_bit(start_sees, M + a, c * n + d)
    for a in range(K):
        if places[a] == 1:
            cell = ncells
            for k in range(width):
                if mem_tab[a, k] >= 0:
                    cell = min(cell, set_cells[ai[a], k])
            for d in range(n):
                if d != ad[a] and cands[cell, d]:
                    _set_bit(start_sees, M + a, cell * n + d)
    # per end b, the starts with a candidate seeing both: by candidate, the starts seeing it
    SW = (M + K + 63) // 64
    by_cand = np.zeros((C, SW), dtype=np.uint64)
    for t in range(len(sight_node)):
        _set_bit(by_cand, sight_cand[t], sight_node[t])
    for a in range(K):
        for w in range(CW):
            y = start_sees[M + a, w]
            while y:
                x = w * 64 + trailing_zeros(y)
                y &= y - np.uint64(1)
                _set_bit(by_cand, x, M + a)
    hits = np.zeros((N, SW), dtype=np.uint64)
    for t in range(E):
        for w in range(SW):
            hits[ea[t] + M, w] |= by_cand[ec[t], w]
    for t in range(len(sight_node)):
        for w in range(SW):
            hits[sight_node[t] + B, w] |= by_cand[sight_cand[t], w]
    end_sees = np.zeros((N, CW), dtype=np.uint64)
    for t in range(E):
        _set_bit(end_sees, M + ea[t], ec[t])
    end_sees[B:] = sees
    # per start of one candidate (a candidate node, or an ALS node with one place) its copy-two node
    twin = np.full(M + K, -1, dtype=np.int64)
    for v in range(M + K):
        if v < M:
            k = single[v]
        elif places[v - M] == 1:
            k = -1
            for j in range(width):
                k = max(k, mem_tab[v - M, j])
        else:
            k = C
        o = node_of[k]
        if o >= 0:
            twin[v] = o + M + K
    return ai, ad, mem_tab, out_sv, out_su, out_wv, out_wu, start_sees, end_sees, hits, twin


@njit(cache=True, nogil=True)
def blossom_any(sd, si, sc, cands, seeall, stem_max):  # pragma: no cover (compiled; tested against numpy)
    """Whether some stem cell has a death blossom to look at: `sd`, `si`, `sc` are the ALS
    table's `sight` (digit d, set i, cell c: live c#d outside set i seeing every d of it, so
    c holds d); a stem c with 2 to `stem_max` digits needs such a petal i for each of its
    digits d, and some z it does not hold whose live places include one seeing every z of
    some petal of each d (`seeall` (digits, sets, words): the cells seeing all z of a set,
    packed). True at the first such stem and z."""
    ncells, n = cands.shape
    W = seeall.shape[2]
    pops = np.zeros(ncells, dtype=np.int64)
    for c in range(ncells):
        for z in range(n):
            if cands[c, z]:
                pops[c] += 1
    # per (stem, d): the OR over its petals of the cells seeing all z, for every z
    slot = np.full((ncells, n), -1, dtype=np.int64)
    m = 0
    for k in range(len(sc)):
        c, d = sc[k], sd[k]
        if 2 <= pops[c] <= stem_max and slot[c, d] < 0:
            slot[c, d] = m
            m += 1
    reach = np.zeros((m, n, W), dtype=np.uint64)
    for k in range(len(sc)):
        r = slot[sc[k], sd[k]]
        if r >= 0:
            i = si[k]
            for z in range(n):
                for w in range(W):
                    reach[r, z, w] |= seeall[z, i, w]
    live = np.zeros((n, W), dtype=np.uint64)  # per digit, its live cells
    for c in range(ncells):
        for z in range(n):
            if cands[c, z]:
                live[z, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    for c in range(ncells):
        if pops[c] < 2 or pops[c] > stem_max:
            continue
        covered = True
        for d in range(n):
            if cands[c, d] and slot[c, d] < 0:
                covered = False
                break
        if not covered:
            continue
        for z in range(n):
            if cands[c, z]:
                continue
            for w in range(W):
                t = live[z, w]
                for d in range(n):
                    if cands[c, d]:
                        t &= reach[slot[c, d], z, w]
                if t:
                    return True
    return False


@njit(cache=True, nogil=True)
def xy_wing_any(R, Z, O):  # pragma: no cover (compiled; tested against numpy)
    """Whether the ALS table has an ALS-XY-wing triple to look at: sets A < C both restricted
    common with a set B (`R` (sets, sets): the restricted common digits, bit masks), sharing
    no cell (`O`: overlap), with a digit z in `Z` (A, C) restricted with B on neither side,
    and not one single restricted digit x both ways. True at the first such triple."""
    N = len(R)
    near = np.empty(N, dtype=np.int64)  # the sets restricted common with b, ascending
    for b in range(N):
        m = 0
        for a in range(N):
            if R[b, a] != 0:
                near[m] = a
                m += 1
        for i in range(m):
            a = near[i]
            ra = R[b, a]
            for j in range(i + 1, m):
                c = near[j]
                rc = R[b, c]
                if Z[a, c] == 0 or O[a, c]:
                    continue
                if Z[a, c] & ~ra & ~rc and not (ra == rc and (ra & (ra - 1)) == 0):
                    return True
    return False


@njit(cache=True, nogil=True)
def xz_any(R, Z, own):  # pragma: no cover (compiled; tested against numpy)
    """Whether the ALS table has an ALS-XZ pair to look at: sets i < j restricted common
    (`R`, bit masks) either on one digit x with a digit z of `Z` (i, j) besides it, or on two
    or more digits with a target in sight: a z of `Z` among the first two, a digit outside
    them that either set sees from outside (`own`: per set, those digits), or a third
    restricted digit. True at the first such pair."""
    N = len(R)
    for i in range(N):
        for j in range(i + 1, N):
            r = R[i, j]
            if r == 0:
                continue
            z = Z[i, j]
            low = r & -r
            rest = r ^ low
            if rest == 0:
                if z & ~r:
                    return True
                continue
            pair = low | (rest & -rest)
            if (z & pair) or (own[i] & ~pair) or (own[j] & ~pair) or (r ^ pair):
                return True
    return False
