"""The compiled round of the bit engine (`linkgraph.nets.engine`): numba loops over packed words.

One round of a propagation reads every set X and every candidate once. In numpy that is
some thirty calls per round on small arrays, whose fixed cost is most of a search after
the basic ladder (about 150 live candidates, a few hundred branches: a handful of 64-bit
words per row). Here the round is two compiled loops over the same packed layout:

- `set_summary`: per set, whether one / two of its members are ON and whether one / two
  are not OFF, written as the engine's per-set rows ``G`` (``[any ON | at most one not
  OFF]``), and the branches that fail (two ON in a set, a set all OFF, a candidate ON and
  OFF);
- `derive`: per candidate, OFF when one of its sets has another member ON (and, with
  ``depth >= 1``, when a locking pair or, ``depth >= 2``, a subset or fish pattern rules
  it out), ON when one of its sets has no other member left; only for live branches and
  literals still open. It writes the round's new ON and OFF words, applies them to the
  state and returns which branches changed.

The rules are those of `linkgraph.nets.propagate`. The loop around the rounds (failures,
compaction, nesting, the words new in each round) is compiled as well at nesting levels 0
and 1 (`advance_run`: a whole propagation in one call, its segments read back as the
engine's Runs and their tails); the engine's Python loop, `_advance_loop`, runs the deeper
levels and is its oracle in tests/nets/test_kernel.py. The numpy round
these loops replace is kept in tests/nets/test_kernel.py as their oracle: both give the
same words on random states of real structures at every depth.

The structure's depth-2 subset and fish patterns are enumerated here too (`patterns`: the
sheets of bases and covers, their pairs and triples, the cover columns), once per grid
for the ``++`` rungs; the Python enumeration it replaced is the oracle in
tests/nets/test_structure.py. And the sub-nets of a nested search's stopped branches at
level 1 are laid out and run in one call (`nest_failures`: the engine's numpy layout,
`linkgraph.nets.engine._nest_words`, is its oracle in tests/nets/test_kernel.py). The
depth-1 locking pairs of a structure are found in one call too (`group_pairs`, whose
oracles, the Python form it replaced and a matrix form, are in tests/nets/test_structure.py).

numba compiles these functions on first use and caches the machine code beside this
file (``cache=True``), so a process after the first loads them in a fraction of a second.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["advance_run", "best_support", "contradiction_options", "derive", "end_rows", "failures",
           "first_rounds", "group_args", "group_pairs", "nest_failures", "nested_best", "nested_exceeds",
           "off_reasons", "pattern_args", "patterns", "rounds_into", "run_subnet_outer", "select_bits",
           "set_summary", "shallow_counts", "strong_sets", "structure_tables", "subnet_best", "subnet_outer",
           "subnet_starts", "supports_exceed", "verity_double", "weak_parents"]


@njit(cache=True, nogil=True)
def set_summary(Z, mem, W, G):  # pragma: no cover (compiled; tests/nets/test_kernel.py checks it)
    """Fill `G` (sets + 1, 2W) from the state `Z` (candidates + 1, 2W) ``[ON | not OFF]`` and
    the members `mem` (sets, width) padded with the padding row; return the failing branches'
    words (W,)."""
    S, width = mem.shape
    L = Z.shape[0] - 1
    W2 = 2 * W
    bad = np.zeros(W, dtype=np.uint64)
    one = np.zeros(W2, dtype=np.uint64)
    two = np.zeros(W2, dtype=np.uint64)
    for s in range(S):
        one[:] = 0
        two[:] = 0
        for c in range(width):
            m = mem[s, c]
            if m >= L:
                break
            for w in range(W2):
                x = Z[m, w]
                two[w] |= one[w] & x
                one[w] |= x
        for w in range(W):
            G[s, w] = one[w]
            G[s, W + w] = ~two[W + w]
            bad[w] |= two[w] | ~one[W + w]
    for w in range(W2):
        G[S, w] = 0
    for k in range(L):
        for w in range(W):
            bad[w] |= Z[k, w] & ~Z[k, W + w]
    return bad


@njit(cache=True, nogil=True)
def derive(Z, G, cs, W, live, g_cond0, g_nonempty, g_idx, g_start, g_src, g_dst,
           p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst, new_on, new_off):  # pragma: no cover
    """One round's new literals of the live branches into `new_on`, `new_off` (candidates, W),
    applied to `Z`; returns the words of the branches that changed.

    `cs` (candidates, r): each candidate's sets (padding: the row of `G` that is all 0).
    Locking pairs (depth >= 1; none: empty arrays): `g_cond0` (pairs,) True for a pair whose
    A lies inside B (it always locks), `g_nonempty` the others with their members of A
    outside B in `g_idx` from `g_start`; (`g_src`, `g_dst`) the (pair, candidate of B outside
    A) pairs. Patterns (depth 2): the cover columns' base members `p_idx` from `p_start`,
    each pattern's columns `p_cols` (padded with the column count), `p_small` (two bases),
    each column's pattern `p_owner`, (`p_src`, `p_dst`) the (column, target) pairs.
    """
    L = Z.shape[0] - 1
    r = cs.shape[1]
    acc_off = np.zeros((L, W), dtype=np.uint64)
    one_left = np.zeros((L, W), dtype=np.uint64)
    for k in range(L):
        for w in range(W):
            a_on = np.uint64(0)
            a_one = np.uint64(0)
            for j in range(r):
                s = cs[k, j]
                a_on |= G[s, w]
                a_one |= G[s, W + w]
            acc_off[k, w] = a_on & ~Z[k, w]
            one_left[k, w] = a_one
    P = len(g_cond0)
    if P:
        cond = np.zeros(W, dtype=np.uint64)
        conds = np.zeros((P, W), dtype=np.uint64)
        for p in range(P):
            if g_cond0[p]:
                for w in range(W):
                    conds[p, w] = ~np.uint64(0)
        for i in range(len(g_nonempty)):
            for w in range(W):
                cond[w] = ~np.uint64(0)
            for q in range(g_start[i], g_start[i + 1]):
                m = g_idx[q]
                for w in range(W):
                    cond[w] &= ~Z[m, W + w]  # the member is OFF
            for w in range(W):
                conds[g_nonempty[i], w] = cond[w]
        for q in range(len(g_src)):
            p = g_src[q]
            k = g_dst[q]
            for w in range(W):
                acc_off[k, w] |= conds[p, w]
    K = len(p_owner)
    if K:
        touched = np.zeros((K + 1, W), dtype=np.uint64)
        for col in range(K):
            for q in range(p_start[col], p_start[col + 1]):
                m = p_idx[q]
                for w in range(W):
                    touched[col, w] |= Z[m, W + w]  # a base member not OFF in this cover
        npat, ncols = p_cols.shape
        ok = np.zeros((npat, W), dtype=np.uint64)
        for p in range(npat):
            for w in range(W):
                c1 = np.uint64(0)
                c2 = np.uint64(0)
                c3 = np.uint64(0)
                c4 = np.uint64(0)
                for j in range(ncols):
                    x = touched[p_cols[p, j], w]
                    c4 |= c3 & x
                    c3 |= c2 & x
                    c2 |= c1 & x
                    c1 |= x
                ok[p, w] = ~c3 if p_small[p] else ~c4
        for q in range(len(p_src)):
            col = p_src[q]
            k = p_dst[q]
            p = p_owner[col]
            for w in range(W):
                acc_off[k, w] |= ok[p, w] & touched[col, w]
    changed = np.zeros(W, dtype=np.uint64)
    for k in range(L):
        for w in range(W):
            free = Z[k, W + w] & live[w]
            off = acc_off[k, w] & free
            on = one_left[k, w] & free & ~Z[k, w]
            new_off[k, w] = off
            new_on[k, w] = on
            changed[w] |= off | on
            Z[k, w] |= on
            Z[k, W + w] &= ~off
    return changed


# ---- reading a run back (linkgraph.nets.engine.Run, linkgraph.nets.proof) ---------------

@njit(cache=True, nogil=True)
def first_rounds(start_on, start_off, stack, bs):  # pragma: no cover
    """(len(bs), 2, candidates) int64: the round each literal of branch ``bs[i]`` was derived
    in, ON then OFF: 0 for the start (`start_on`, `start_off`: (candidates, W) words), t for
    the first of the words new in round t (`stack`: (2, T, candidates, W)), -1 for never."""
    L = start_on.shape[0]
    T = stack.shape[1]
    out = np.full((len(bs), 2, L), -1, dtype=np.int64)
    for i in range(len(bs)):
        b = bs[i]
        w = b >> 6
        bit = np.uint64(b & 63)
        one = np.uint64(1)
        for k in range(L):
            if (start_on[k, w] >> bit) & one:
                out[i, 0, k] = 0
            if (start_off[k, w] >> bit) & one:
                out[i, 1, k] = 0
        for f in range(2):
            for t in range(T):
                for k in range(L):
                    if out[i, f, k] < 0 and (stack[f, t, k, w] >> bit) & one:
                        out[i, f, k] = t + 1
    return out


@njit(cache=True, nogil=True)
def rounds_into(out, start_on, start_off, stack, b, offset, top):  # pragma: no cover
    """Fill the (2, candidates) int16 rounds `out` of branch `b` from one level of a run
    (`first_rounds` of one branch): where `out` is -1, t + `offset` for the first of the
    words new in round t (`stack`: (2, T, candidates, W)); for the start words 0 at the
    top level (`top`), and below it -2, which keeps the levels further down from filling
    the literal (a compacted tail's start is no derivation; the caller reads -2 as -1)."""
    L = start_on.shape[0]
    T = stack.shape[1]
    w = b >> 6
    bit = np.uint64(b & 63)
    one = np.uint64(1)
    mark = 0 if top else -2
    for k in range(L):
        if out[0, k] == -1 and (start_on[k, w] >> bit) & one:
            out[0, k] = mark
        if out[1, k] == -1 and (start_off[k, w] >> bit) & one:
            out[1, k] = mark
    for f in range(2):
        for t in range(T):
            for k in range(L):
                if out[f, k] == -1 and (stack[f, t, k, w] >> bit) & one:
                    out[f, k] = t + 1 + offset


@njit(cache=True, nogil=True)
def weak_parents(ron, roff, sees):  # pragma: no cover
    """Per branch (rows of int16 `ron`, `roff`) and OFF literal of round > 0, the least
    (round, index) ON literal among those it sees (`sees`: (candidates, d) ascending, padded
    with the candidate count) derived before it; -1 elsewhere."""
    n, L = roff.shape
    d = sees.shape[1]
    out = np.full((n, L), -1, dtype=np.int64)
    for i in range(n):
        for k in range(L):
            t = roff[i, k]
            if t <= 0:
                continue
            best_r = 32767
            for j in range(d):
                m = sees[k, j]
                if m >= L:
                    break
                r = ron[i, m]
                if 0 <= r < t and r < best_r:
                    best_r = r
                    out[i, k] = m
    return out


@njit(cache=True, nogil=True)
def strong_sets(ron, roff, others, base, real, sets):  # pragma: no cover
    """Per branch (rows of int16 `ron`, `roff`) and ON literal of round > 0, the set among its
    own (`sets`: (candidates, r)) whose other members (`others`: (candidates, r, w), padded
    with the candidate count) were all OFF before it: the least ``base + (last OFF + 1) <<
    20`` (`base`: fewest members, then lowest set); -1 when none (`real`: not a padding set)."""
    n, L = ron.shape
    r_, w_ = others.shape[1], others.shape[2]
    out = np.full((n, L), -1, dtype=np.int64)
    for i in range(n):
        for k in range(L):
            t = ron[i, k]
            if t <= 0:
                continue
            best = np.int64(0x7FFFFFFFFFFFFFFF)
            for s in range(r_):
                if not real[k, s]:
                    continue
                last = 0
                ok = True
                for q in range(w_):
                    m = others[k, s, q]
                    v = roff[i, m] if m < L else 0
                    if not 0 <= v < t:
                        ok = False
                        break
                    if v > last:
                        last = v
                if ok:
                    score = base[k, s] + (np.int64(last) + 1) * (1 << 20)
                    if score < best:
                        best = score
                        out[i, k] = sets[k, s]
    return out


@njit(cache=True, nogil=True)
def select_bits(words, bs, W):  # pragma: no cover
    """(rows, W) words whose bit i is bit ``bs[i]`` of the same row of `words` (rows, any):
    the branches `bs` of a packed state, packed again from bit 0."""
    R = words.shape[0]
    out = np.zeros((R, W), dtype=np.uint64)
    one = np.uint64(1)
    for i in range(len(bs)):
        b = bs[i]
        w = b >> 6
        bit = np.uint64(b & 63)
        dw = i >> 6
        dbit = np.uint64(i & 63)
        for k in range(R):
            out[k, dw] |= ((words[k, w] >> bit) & one) << dbit
    return out


# ---- the contradictions of one branch and their supports (linkgraph.nets.proof) ----------

@njit(cache=True, nogil=True)
def contradiction_options(ron, roff, c, mem, cs, max_options):  # pragma: no cover
    """The contradictions of a branch that failed in round `c` (`ron`, `roff`: its rounds,
    int16; `mem`: members of each set, padded with the candidate count; `cs`: sets of each
    candidate, padded with the set count), as `linkgraph.nets.proof.BranchProof` lists
    them: kind (0 both, 1 empty set, 2 two ON in a set), set (-1 for both), and literal
    keys (``2k + 1`` for +k, ``2k`` for -k) from ``ptr[i]`` to ``ptr[i + 1]``; ordered by
    key count, kind, set, then as found; at most `max_options`."""
    L = ron.shape[0]
    S, width = mem.shape
    r_ = cs.shape[1]
    n_max = L + 2 * S
    kinds = np.empty(n_max, dtype=np.int64)
    sets = np.empty(n_max, dtype=np.int64)
    ptr = np.zeros(n_max + 1, dtype=np.int64)
    keys = np.empty(2 * L + S * width + 2 * S, dtype=np.int64)
    n = 0
    q = 0
    for k in range(L):  # a literal both ON and OFF
        if (ron[k] == c or roff[k] == c) and 0 <= ron[k] <= c and 0 <= roff[k] <= c:
            kinds[n] = 0
            sets[n] = -1
            keys[q] = 2 * k + 1
            keys[q + 1] = 2 * k
            q += 2
            n += 1
            ptr[n] = q
    touched_off = np.zeros(S, dtype=np.bool_)
    touched_on = np.zeros(S, dtype=np.bool_)
    for k in range(L):
        for s in range(r_):
            j = cs[k, s]
            if j >= S:
                break
            if roff[k] == c:
                touched_off[j] = True
            if ron[k] == c:
                touched_on[j] = True
    for j in range(S):  # a set all OFF
        if not touched_off[j]:
            continue
        ok = True
        for i in range(width):
            m = mem[j, i]
            if m >= L:
                break
            if not 0 <= roff[m] <= c:
                ok = False
                break
        if ok:
            kinds[n] = 1
            sets[n] = j
            for i in range(width):
                m = mem[j, i]
                if m >= L:
                    break
                keys[q] = 2 * m
                q += 1
            n += 1
            ptr[n] = q
    for j in range(S):  # two ON in a set: the two earliest (round, index)
        if not touched_on[j]:
            continue
        a = -1
        b = -1
        for i in range(width):
            m = mem[j, i]
            if m >= L:
                break
            if not 0 <= ron[m] <= c:
                continue
            if a < 0 or ron[m] < ron[a]:
                b = a
                a = m
            elif b < 0 or ron[m] < ron[b]:
                b = m
        if b >= 0:
            kinds[n] = 2
            sets[n] = j
            keys[q] = 2 * a + 1
            keys[q + 1] = 2 * b + 1
            q += 2
            n += 1
            ptr[n] = q
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        order[i] = (((ptr[i + 1] - ptr[i]) * 4 + kinds[i]) * (S + 2) + sets[i] + 1) * (n + 1) + i
    order = np.argsort(order)[:max_options]
    m_ = len(order)
    o_kinds = np.empty(m_, dtype=np.int64)
    o_sets = np.empty(m_, dtype=np.int64)
    o_ptr = np.zeros(m_ + 1, dtype=np.int64)
    size = 0
    for i in range(m_):
        size += ptr[order[i] + 1] - ptr[order[i]]
    o_keys = np.empty(size, dtype=np.int64)
    q = 0
    for i in range(m_):
        x = order[i]
        o_kinds[i] = kinds[x]
        o_sets[i] = sets[x]
        for p in range(ptr[x], ptr[x + 1]):
            o_keys[q] = keys[p]
            q += 1
        o_ptr[i + 1] = q
    return o_kinds, o_sets, o_ptr, o_keys


@njit(cache=True, nogil=True, inline="always")
def _visit(f, mark, stamp, out, n, stack, top):  # pragma: no cover
    """Key `f` seen by `_support`: unless marked already, mark it, write it to `out` and push it;
    the new (count, stack top)."""
    if mark[f] != stamp:
        mark[f] = stamp
        out[n] = f
        n += 1
        stack[top] = f
        top += 1
    return n, top


@njit(cache=True, nogil=True)
def _support(start, ron, roff, strong, weak, mem, limit, mark, stamp, out, leaves=False):  # pragma: no cover
    """The literal keys (``2k + 1`` for +k, ``2k`` for -k) a depth-0 branch needs for the
    keys `start`, written to `out`, and their number: the keys themselves and, through their
    reasons, for an ON literal of round > 0 the other members of its set `strong[k]` OFF,
    for an OFF one of round > 0 its weak parent ``+weak[k]``; round 0 (or never) is a
    leaf. -1 once more than `limit` (when `limit` >= 0); -2 at a literal without such a
    reason (not of depth 0), unless `leaves`: then an OFF literal without a weak parent (at
    depth 0 with nesting, one only a sub-net explains) is a leaf too. `mark` holds `stamp`
    for the keys seen."""
    L = ron.shape[0]
    width = mem.shape[1]
    stack = np.empty(2 * L, dtype=np.int64)
    top = 0
    n = 0
    for i in range(len(start)):
        n, top = _visit(start[i], mark, stamp, out, n, stack, top)
    if 0 <= limit < n:
        return -1
    while top > 0:
        top -= 1
        e = stack[top]
        k = e >> 1
        if e & 1:
            if ron[k] <= 0:
                continue
            j = strong[k]
            if j < 0:
                return -2
            for i in range(width):
                m = mem[j, i]
                if m >= L:
                    break
                if m != k:
                    n, top = _visit(2 * m, mark, stamp, out, n, stack, top)
        else:
            if roff[k] <= 0:
                continue
            j = weak[k]
            if j < 0:
                if leaves:
                    continue
                return -2
            n, top = _visit(2 * j + 1, mark, stamp, out, n, stack, top)
        if 0 <= limit < n:
            return -1
    return n


@njit(cache=True, nogil=True)
def best_support(kinds, sets, ptr, keys, ron, roff, strong, weak, mem):  # pragma: no cover
    """The contradiction option (as `contradiction_options` gives them) with the smallest
    depth-0 support, ties to the lower kind, then set, then the first: (its index, the keys
    of its support). Index -1 for no option, -2 when a support meets a literal whose reason
    is not of depth 0 (see `_support`)."""
    L = ron.shape[0]
    mark = np.zeros(2 * L, dtype=np.int64)
    out = np.empty(2 * L, dtype=np.int64)
    best_out = np.empty(0, dtype=np.int64)
    best = -1
    best_n = -1
    for i in range(len(kinds)):
        n = _support(keys[ptr[i] : ptr[i + 1]], ron, roff, strong, weak, mem, best_n, mark, i + 1, out)
        if n == -2:
            return -2, best_out
        if n < 0:
            continue
        if best < 0 or n < best_n or (n == best_n and (kinds[i] < kinds[best]
                                                       or (kinds[i] == kinds[best] and sets[i] < sets[best]))):
            best = i
            best_n = n
            best_out = out[:n].copy()
    return best, best_out


@njit(cache=True, nogil=True)
def supports_exceed(ptr, keys, ron, roff, strong, weak, mem, limit):  # pragma: no cover
    """1 if the depth-0 support of every option (`ptr`, `keys` as `contradiction_options`
    gives them) has more than `limit` keys, else 0; -2 as in `_support`."""
    L = ron.shape[0]
    mark = np.zeros(2 * L, dtype=np.int64)
    out = np.empty(2 * L, dtype=np.int64)
    for i in range(len(ptr) - 1):
        n = _support(keys[ptr[i] : ptr[i + 1]], ron, roff, strong, weak, mem, limit, mark, i + 1, out)
        if n == -2:
            return -2
        if n >= 0:
            return 0
    return 1


@njit(cache=True, nogil=True)
def shallow_counts(ptr, keys, ron, roff, strong, weak, mem):  # pragma: no cover
    """Per option (`ptr`, `keys` as `contradiction_options` gives them), the number of keys
    of its depth-0 support with every OFF literal that has no weak parent taken as a leaf
    (`_support` with `leaves`): with nesting, the support short of what the sub-nets add, a
    lower bound on the whole one. -2 for all when an ON literal has no strong set."""
    L = ron.shape[0]
    mark = np.zeros(2 * L, dtype=np.int64)
    out = np.empty(2 * L, dtype=np.int64)
    counts = np.empty(len(ptr) - 1, dtype=np.int64)
    for i in range(len(ptr) - 1):
        n = _support(keys[ptr[i] : ptr[i + 1]], ron, roff, strong, weak, mem, -1, mark, i + 1, out, True)
        if n == -2:
            counts[:] = -2
            return counts
        counts[i] = n
    return counts


@njit(cache=True, nogil=True)
def off_reasons(roff, weak, cs, gt_ptr, gt_pair, go_ptr, go_val, pt_ptr, pt_pat, p_bases, bptr, bk, bcov):  # pragma: no cover
    """Per OFF literal of round > 0 without a weak parent (``weak[k] < 0``), which rule of
    depth 1 or 2 explains it, as `linkgraph.nets.proof.BranchProof`'s group and pattern
    reasons choose: (kind, index) rows, kind 1 a locking pair (index the pair), 2 a subset or
    fish pattern (index the pattern), 3 neither (only a sub-net explains it), 0 elsewhere.

    The pair: among the pairs targeting ``k`` (`gt_ptr`, `gt_pair`, ascending) whose members
    outside the target set (`go_ptr`, `go_val`) are all OFF in rounds ``0 .. t - 1`` (``t``
    the round of ``-k``), the fewest such members, then the earliest last one, then the
    lowest pair. Else the pattern: the first targeting ``k`` (`pt_ptr`, `pt_pat`, ascending)
    whose base members (`p_bases` rows of base indices into `bptr`, `bk`, `bcov`, -1
    padded) not OFF before ``t`` touch at most as many covers as it has bases, one of
    them a set of ``k`` (`cs`, padded with a value no cover has)."""
    L = roff.shape[0]
    kind = np.zeros(L, dtype=np.int8)
    index = np.full(L, -1, dtype=np.int64)
    seen = np.empty(4, dtype=np.int64)
    for k in range(L):
        t = roff[k]
        if t <= 0 or weak[k] >= 0:
            continue
        best = -1
        best_n = 0
        best_r = 0
        for q in range(gt_ptr[k], gt_ptr[k + 1]):
            p = gt_pair[q]
            ok = True
            r = -1
            for x in range(go_ptr[p], go_ptr[p + 1]):
                y = roff[go_val[x]]
                if y < 0 or y >= t:
                    ok = False
                    break
                if y > r:
                    r = y
            if not ok:
                continue
            n = go_ptr[p + 1] - go_ptr[p]
            if best < 0 or n < best_n or (n == best_n and r < best_r):
                best = p
                best_n = n
                best_r = r
        if best >= 0:
            kind[k] = 1
            index[k] = best
            continue
        kind[k] = 3
        for q in range(pt_ptr[k], pt_ptr[k + 1]):
            p = pt_pat[q]
            size = 3 if p_bases[p, 2] >= 0 else 2
            n = 0
            ok = True
            for i in range(3):
                b = p_bases[p, i]
                if b < 0 or not ok:
                    continue
                for x in range(bptr[b], bptr[b + 1]):
                    c = bcov[x]
                    y = roff[bk[x]]
                    if 0 <= y < t:
                        continue
                    new = True
                    for j in range(n):
                        if seen[j] == c:
                            new = False
                            break
                    if new:
                        if n == size:
                            ok = False
                            break
                        seen[n] = c
                        n += 1
            if not ok:
                continue
            hit = False
            for j in range(n):
                for i in range(cs.shape[1]):
                    if cs[k, i] == seen[j]:
                        hit = True
            if hit:
                kind[k] = 2
                index[k] = p
                break
    return kind, index


@njit(cache=True, nogil=True)
def _nested_support(start, ron, roff, strong, weak, mem, limit, empties, rows, failed, starts_on, starts_off, ends_on,
                    ends_off, stacks, tail_pos, t0s, levels, sees, others, base, real, cs, max_options, state, nptr, nlen, buf,
                    fill, mark, stamp, out, outk):  # pragma: no cover
    """The support of the literal keys `start` (``2k + 1`` for +k, ``2k`` for -k) in a failed
    branch of depth 0 at nesting level 1, walked as `_support` walks it, except that an OFF
    literal of round > 0 without a weak parent is explained by its sub-net: once the walk has
    nothing else to follow, such literals are taken one at a time (first seen, first taken),
    and the premises of the sub-net's best contradiction other than ``+k``
    (`run_subnet_outer` on branch ``rows[k]`` of the batch run given level by level, failing
    at round ``failed[rows[k]]``) are its parents; with none, its reason is an empty set,
    which counts as one key more with `empties` (as `BranchProof.support`'s `limit` counts
    it) and as no node without. The keys are written to `out` (their marks `stamp` in
    `mark`), the literals with an empty reason to `outk`; returns (the count, the number
    of those literals, the number of literal keys), the count -1 once past `limit` (when >= 0): a walk past it makes no
    more sub-nets. A sub-net made is kept for the next walks: ``state[k]`` 1, its premises'
    sort codes (``2m`` for +m, ``2m + 1`` for -m) at ``buf[nptr[k] : nptr[k] + nlen[k]]``,
    ``fill[0]`` the first free place of `buf`. The count is -2 when a sub-net has no best
    contradiction (the caller's walks decide), -3 when `buf` is full (the caller gives a
    larger one and calls again: the sub-nets made are kept)."""
    L = ron.shape[0]
    width = mem.shape[1]
    stack = np.empty(2 * L, dtype=np.int64)
    queue = np.empty(L, dtype=np.int64)
    top = 0
    n = 0
    nk = 0
    extra = 0  # the empty reasons counted (with `empties`)
    head = 0
    tail = 0
    for x in range(len(start)):
        n, top = _visit(start[x], mark, stamp, out, n, stack, top)
    while limit < 0 or n + extra <= limit:
        if top == 0:
            if head == tail:
                break
            k = queue[head]
            head += 1
            if state[k] == 0:
                b = rows[k]
                if b < 0 or failed[b] < 0:
                    return -2, nk, n
                res = run_subnet_outer(starts_on, starts_off, ends_on, ends_off, stacks, tail_pos, t0s, levels, b,
                                       np.int64(failed[b]), k,
                                       sees, others, base, real, cs, mem, max_options)
                if res[7] < 0:
                    return -2, nk, n
                outer = res[9]
                at = fill[0]
                if at + len(outer) > len(buf):
                    return -3, nk, n
                buf[at : at + len(outer)] = outer
                nptr[k] = at
                nlen[k] = len(outer)
                fill[0] = at + len(outer)
                state[k] = 1
            if nlen[k] == 0:
                outk[nk] = k
                nk += 1
                if empties:
                    extra += 1
            for x in range(nptr[k], nptr[k] + nlen[k]):
                c = buf[x]
                n, top = _visit(c - 1 if c & 1 else c + 1, mark, stamp, out, n, stack, top)  # sort code -> key
            continue
        top -= 1
        e = stack[top]
        k = e >> 1
        if e & 1:
            if ron[k] <= 0:
                continue
            j = strong[k]
            if j < 0:
                return -2, nk, n
            for x in range(width):
                m = mem[j, x]
                if m >= L:
                    break
                if m != k:
                    n, top = _visit(2 * m, mark, stamp, out, n, stack, top)
        else:
            if roff[k] <= 0:
                continue
            j = weak[k]
            if j < 0:
                queue[tail] = k
                tail += 1
                continue
            n, top = _visit(2 * j + 1, mark, stamp, out, n, stack, top)
    if 0 <= limit < n + extra:
        return -1, nk, n
    return n + extra, nk, n


@njit(cache=True, nogil=True)
def nested_exceeds(ptr, keys, counts, ron, roff, strong, weak, mem, limit, rows, failed, starts_on, starts_off,
                   ends_on, ends_off, stacks, tail_pos, t0s, levels, sees, others, base, real, cs, max_options, state, nptr,
                   nlen, buf, fill):  # pragma: no cover
    """`BranchProof.contradiction_exceeds` of a failed branch of depth 0 at nesting level 1:
    1 if the support of every contradiction option (`ptr`, `keys` as `contradiction_options`
    gives them) has more than `limit` literals, else 0 (-2, -3 as `_nested_support` gives
    them). An option whose count short of its sub-nets (`counts`, `shallow_counts`) is past
    the limit is past it whole; the others are walked by `_nested_support`."""
    L = ron.shape[0]
    mark = np.zeros(2 * L, dtype=np.int64)
    out = np.empty(2 * L, dtype=np.int64)
    outk = np.empty(L, dtype=np.int64)
    for i in range(len(ptr) - 1):
        if counts[i] > limit:
            continue
        n, _, _ = _nested_support(keys[ptr[i] : ptr[i + 1]], ron, roff, strong, weak, mem, limit, False, rows, failed,
                               starts_on, starts_off, ends_on, ends_off, stacks, tail_pos, t0s, levels, sees, others, base,
                               real, cs, max_options, state, nptr, nlen, buf, fill, mark, i + 1, out, outk)
        if n < -1:
            return n
        if n >= 0:
            return 0
    return 1


@njit(cache=True, nogil=True)
def nested_best(kinds, sets, ptr, keys, counts, ron, roff, strong, weak, mem, rows, failed, starts_on, starts_off,
                ends_on, ends_off, stacks, tail_pos, t0s, levels, sees, others, base, real, cs, max_options, state, nptr, nlen,
                buf, fill):  # pragma: no cover
    """`BranchProof.best_contradiction` of a failed branch of depth 0 at nesting level 1: the
    option with the fewest support keys (`_nested_support` with `empties`), ties to the
    lower kind, then set, then the first; an option whose count short of its sub-nets
    (`counts`) is past the best so far is not walked. Returns (its index, its support's
    literal keys, the literals among them whose sub-net leaves an empty reason); the index
    -1 for no option, -2 or -3 as `_nested_support` gives them."""
    L = ron.shape[0]
    mark = np.zeros(2 * L, dtype=np.int64)
    out = np.empty(2 * L, dtype=np.int64)
    outk = np.empty(L, dtype=np.int64)
    best_out = np.empty(0, dtype=np.int64)
    best_k = np.empty(0, dtype=np.int64)
    best = -1
    best_n = -1
    for i in range(len(kinds)):
        if best >= 0 and counts[i] > best_n:
            continue
        n, nk, nlit = _nested_support(keys[ptr[i] : ptr[i + 1]], ron, roff, strong, weak, mem, best_n, True, rows, failed,
                                starts_on, starts_off, ends_on, ends_off, stacks, tail_pos, t0s, levels, sees, others, base,
                                real, cs, max_options, state, nptr, nlen, buf, fill, mark, i + 1, out, outk)
        if n < -1:
            return n, best_out, best_k
        if n < 0:
            continue
        if best < 0 or n < best_n or (n == best_n and (kinds[i] < kinds[best]
                                                       or (kinds[i] == kinds[best] and sets[i] < sets[best]))):
            best = i
            best_n = n
            best_out = out[:nlit].copy()
            best_k = outk[:nk].copy()
    return best, best_out, best_k


# ---- a whole run that only reports failures (the sub-nets of linkgraph.nets.engine._nest) ----

@njit(cache=True, nogil=True)
def _popcount(x):  # pragma: no cover
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(cache=True, nogil=True)
def failures(on_words, off_words, B, mem, cs, g_cond0, g_nonempty, g_idx, g_start, g_src, g_dst,
             p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst):  # pragma: no cover
    """The round before which each of the `B` branches (packed (candidates, W) `on_words`,
    `off_words`) fails, -1 for none: the rounds of `linkgraph.nets.engine._advance` without
    nesting, whole in one call and nothing else kept (no words per round). As there, the
    branches still running are packed into fewer words when they fit in half as many (the
    result does not depend on it: each branch is one bit, read on its own)."""
    L, W = on_words.shape
    S = mem.shape[0]
    Z = np.zeros((L + 1, 2 * W), dtype=np.uint64)  # [ON | not OFF]; row L: never ON, always OFF
    for k in range(L):
        for w in range(W):
            Z[k, w] = on_words[k, w]
            Z[k, W + w] = ~off_words[k, w]
    G = np.zeros((S + 1, 2 * W), dtype=np.uint64)
    orig = np.arange(B)  # bit i of the current words is branch orig[i]
    n = B
    alive = np.zeros(W, dtype=np.uint64)
    for i in range(B):
        alive[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    done = np.zeros(W, dtype=np.uint64)
    live = alive.copy()
    failed = np.full(B, -1, dtype=np.int32)
    check = W >= 2
    t = 0
    while L:
        any_live = False
        for w in range(W):
            if live[w]:
                any_live = True
                break
        if not any_live:
            break
        t += 1
        bad = set_summary(Z, mem, W, G)
        hit = False
        for w in range(W):
            newly = bad[w] & alive[w]
            if newly:
                hit = True
                for i in range(64):
                    if (newly >> np.uint64(i)) & np.uint64(1):
                        failed[orig[w * 64 + i]] = t - 1
            alive[w] &= ~bad[w]
        if hit:
            any_live = False
            for w in range(W):
                live[w] = alive[w] & ~done[w]
                if live[w]:
                    any_live = True
            if not any_live:
                break
            check = W >= 2
        if check:
            check = False
            n_live = 0
            for w in range(W):
                n_live += _popcount(live[w])
            if 2 * ((n_live + 63) // 64) <= W:  # pack the running branches into fewer words
                keep = np.empty(n_live, dtype=np.int64)
                q = 0
                for i in range(n):
                    if (live[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
                        keep[q] = i
                        q += 1
                W2 = max(1, (n_live + 63) // 64)
                Z2 = np.zeros((L + 1, 2 * W2), dtype=np.uint64)
                Z2[:, :W2] = select_bits(Z[:, :W], keep, W2)
                Z2[:L, W2:] = select_bits(Z[:L, W:], keep, W2)
                for k in range(L):  # bits past the branches: not OFF, as a fresh state has them
                    for w in range(W2):
                        lo = w * 64
                        if lo + 64 > n_live:
                            m = np.uint64(0) if n_live <= lo else ~((np.uint64(1) << np.uint64(n_live - lo)) - np.uint64(1))
                            Z2[k, W2 + w] |= m
                Z = Z2
                orig = orig[keep]
                n = n_live
                W = W2
                G = np.zeros((S + 1, 2 * W), dtype=np.uint64)
                alive = np.zeros(W, dtype=np.uint64)
                for i in range(n):
                    alive[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
                done = np.zeros(W, dtype=np.uint64)
                live = alive.copy()
                check = W >= 2
                set_summary(Z, mem, W, G)  # the sets' rows of the packed state (its failures are known)
        new_on = np.empty((L, W), dtype=np.uint64)
        new_off = np.empty((L, W), dtype=np.uint64)
        changed = derive(Z, G, cs, W, live, g_cond0, g_nonempty, g_idx, g_start, g_src, g_dst,
                         p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst, new_on, new_off)
        for w in range(W):
            stopped = live[w] & ~changed[w]
            if stopped:
                done[w] |= stopped
                check = W >= 2
            live[w] = alive[w] & ~done[w]
    return failed


@njit(cache=True, nogil=True)
def subnet_best(ron, roff, c, sees, others, base, real, cs, mem, max_options):  # pragma: no cover
    """One depth-0 branch without nesting explained in one call (a sub-net made alone): its
    reason rows (`weak_parents`, `strong_sets`), its contradiction options
    (`contradiction_options`) and the best one with its support (`best_support`)."""
    L = ron.shape[0]
    ron2 = ron.reshape(1, L)
    roff2 = roff.reshape(1, L)
    weak = weak_parents(ron2, roff2, sees)[0]
    strong = strong_sets(ron2, roff2, others, base, real, cs)[0]
    kinds, sets, ptr, keys = contradiction_options(ron, roff, c, mem, cs, max_options)
    i, sup = best_support(kinds, sets, ptr, keys, ron, roff, strong, weak, mem)
    return weak, strong, kinds, sets, ptr, keys, i, sup


# ---- the depth-2 patterns of a structure (linkgraph.nets.structure.Structure._build_patterns) ----

@njit(cache=True, nogil=True)
def _add_base(j, L, mem, cands, n, table, offset, by_cell, bset, bptr, bk, bcov, usable):  # pragma: no cover
    """Append base set `j` to the flat base table: each member ``k`` of ``mem[j]`` with its
    cover ``table[offset + i]``, ``i`` the member's cell (`by_cell`) or digit, where that is a
    set (not -1). The base is usable (its index appended to `usable`) with two or more covered members."""
    got = 0
    for i in range(mem.shape[1]):
        k = mem[j, i]
        if k >= L:
            break
        c = table[offset + (cands[k] // n if by_cell else cands[k] % n)]
        if c >= 0:
            bk.append(k)
            bcov.append(c)
            got += 1
    bset.append(j)
    bptr.append(len(bk))
    if got >= 2:
        usable.append(len(bset) - 1)


@njit(cache=True, nogil=True)
def _end_sheet(family, fam, sptr, uptr, bset, usable):  # pragma: no cover
    """Close a sheet of `family` (0 subset, 1 fish): where its bases and usable bases end."""
    fam.append(family)
    sptr.append(len(bset))
    uptr.append(len(usable))


@njit(cache=True, nogil=True)
def patterns(n, ncells, house_cells, base_lines, cover_lines, gl, mem, cands):  # pragma: no cover
    """The subset and fish patterns of one structure, as `Structure._build_patterns` lists
    them (the Python enumeration it replaced is the oracle in tests/nets/test_structure.py).

    Sheets, in order: per house its naked sheet (bases the house's cell sets, a member's
    cover its house-digit set) and hidden sheet (bases its house-digit sets, covers the
    cells); then per digit a fish sheet from `base_lines[0]` (bases) to `cover_lines[0]`
    (covers), then from `base_lines[1]` to `cover_lines[1]`. In each sheet the bases with
    two or more covered members are usable; a pattern is two of them touching 2 to 4
    covers, or three touching 3 to 5 (all pairs of the sheet first, then the triples).
    `gl` maps a global set to its local index (-1: not a set of the structure), `mem` is
    the padded member table (padding ``L``) and `cands` the global candidate of each local one.

    Returns (sheet family 0 subset / 1 fish, base sets, base member pointers, base members,
    their covers, pattern sheets, pattern bases (P, 3) padded with -1, cover pointers,
    covers ascending, A columns, A members (sorted by column then member), column owners,
    T columns, T members, pattern sizes).
    """
    L = cands.shape[0]
    S = mem.shape[0]
    H = house_cells.shape[0]
    fam = [0]
    fam.pop()
    sptr = [0]  # bases of each sheet
    bset = [0]
    bset.pop()
    bptr = [0]
    bk = [0]
    bk.pop()
    bcov = [0]
    bcov.pop()
    usable = [0]
    usable.pop()
    uptr = [0]
    for h in range(H):
        for side in range(2):
            for x in range(n):
                if side == 0:  # naked: a cell of the house; its members covered by (house, digit)
                    j = gl[house_cells[h, x]]
                    if j >= 0:
                        _add_base(j, L, mem, cands, n, gl, ncells + h * n, False, bset, bptr, bk, bcov, usable)
                else:  # hidden: a digit of the house; its members covered by their cells
                    j = gl[ncells + h * n + x]
                    if j >= 0:
                        _add_base(j, L, mem, cands, n, gl, 0, True, bset, bptr, bk, bcov, usable)
            _end_sheet(0, fam, sptr, uptr, bset, usable)
    cover_of_cell = np.full(ncells, -1, dtype=np.int64)
    for side in range(2):
        for d in range(n):
            cover_of_cell[:] = -1
            for h in cover_lines[side]:
                s = gl[ncells + h * n + d]
                if s >= 0:
                    for c in house_cells[h]:
                        cover_of_cell[c] = s
            for h in base_lines[side]:
                j = gl[ncells + h * n + d]
                if j >= 0:
                    _add_base(j, L, mem, cands, n, cover_of_cell, 0, True, bset, bptr, bk, bcov, usable)
            _end_sheet(1, fam, sptr, uptr, bset, usable)
    # the patterns of each sheet: covers as bits of the sheet's covers in ascending order
    rank = np.full(S, -1, dtype=np.int64)
    psheet = [0]
    psheet.pop()
    pb = [0]
    pb.pop()
    pmask = [np.uint64(0)]
    pmask.pop()
    pcov_of = [0]  # where each pattern's sheet covers start in `scov`
    pcov_of.pop()
    scov = [0]
    scov.pop()
    for s in range(len(fam)):
        u0, u1 = uptr[s], uptr[s + 1]
        nu = u1 - u0
        first = len(scov)
        seen = np.zeros(S, dtype=np.bool_)
        for ui in range(u0, u1):
            b = usable[ui]
            for e in range(bptr[b], bptr[b + 1]):
                seen[bcov[e]] = True
        for c in range(S):
            if seen[c]:
                rank[c] = len(scov) - first
                scov.append(c)
        masks = np.zeros(nu, dtype=np.uint64)
        for i in range(nu):
            b = usable[u0 + i]
            for e in range(bptr[b], bptr[b + 1]):
                masks[i] |= np.uint64(1) << np.uint64(rank[bcov[e]])
        for i in range(nu):
            for j in range(i + 1, nu):
                m = masks[i] | masks[j]
                c = _popcount(m)
                if 2 <= c <= 4:
                    psheet.append(s)
                    pb.append(usable[u0 + i])
                    pb.append(usable[u0 + j])
                    pb.append(-1)
                    pmask.append(m)
                    pcov_of.append(first)
        for i in range(nu):
            for j in range(i + 1, nu):
                mij = masks[i] | masks[j]
                if _popcount(mij) > 5:
                    continue
                for q in range(j + 1, nu):
                    m = mij | masks[q]
                    c = _popcount(m)
                    if 3 <= c <= 5:
                        psheet.append(s)
                        pb.append(usable[u0 + i])
                        pb.append(usable[u0 + j])
                        pb.append(usable[u0 + q])
                        pmask.append(m)
                        pcov_of.append(first)
    # per pattern: its cover columns, A (base member -> column) and T (cover members outside the bases)
    P = len(psheet)
    bases = np.array(pb, dtype=np.int64).reshape(P, 3)
    cptr = np.zeros(P + 1, dtype=np.int64)
    covs = [0]
    covs.pop()
    owner = [0]
    owner.pop()
    akey = [0]
    akey.pop()
    tc = [0]
    tc.pop()
    tk = [0]
    tk.pop()
    sizes = np.zeros(P, dtype=np.float32)
    stamp = np.zeros(L + 1, dtype=np.int64)
    col = 0
    for p in range(P):
        m = pmask[p]
        first = pcov_of[p]
        i = 0
        while m:
            if m & np.uint64(1):
                c = scov[first + i]
                rank[c] = col + len(covs) - cptr[p]
                covs.append(c)
                owner.append(p)
            m >>= np.uint64(1)
            i += 1
        cptr[p + 1] = len(covs)
        nb = 2 if bases[p, 2] < 0 else 3
        sizes[p] = nb
        for t in range(nb):
            b = bases[p, t]
            for e in range(bptr[b], bptr[b + 1]):
                k = bk[e]
                stamp[k] = p + 1
                akey.append(rank[bcov[e]] * (L + 1) + k)
        for e in range(cptr[p], cptr[p + 1]):
            c = covs[e]
            for i in range(mem.shape[1]):
                k = mem[c, i]
                if k >= L:
                    break
                if stamp[k] != p + 1:
                    tc.append(col)
                    tk.append(k)
            col += 1
    keys = np.sort(np.array(akey, dtype=np.int64)) if len(akey) else np.zeros(0, dtype=np.int64)
    return (np.array(fam, dtype=np.int64), np.array(bset, dtype=np.int64), np.array(bptr, dtype=np.int64),
            np.array(bk, dtype=np.int64), np.array(bcov, dtype=np.int64), np.array(psheet, dtype=np.int64),
            bases, cptr, np.array(covs, dtype=np.int64), keys // (L + 1), keys % (L + 1),
            np.array(owner, dtype=np.int32), np.array(tc, dtype=np.int64), np.array(tk, dtype=np.int64), sizes)


# ---- the sub-nets of the stopped branches, level 1 (linkgraph.nets.engine._nest) ----

@njit(cache=True, nogil=True)
def _fill(words, k, lo, hi):  # pragma: no cover
    """Set bits ``lo`` to ``hi - 1`` of row `k` of `words`."""
    while lo < hi:
        w = lo >> 6
        top = min(hi, (w + 1) << 6)
        n = top - lo
        m = ~np.uint64(0) if n == 64 else ((np.uint64(1) << np.uint64(n)) - np.uint64(1))
        words[k, w] |= m << np.uint64(lo & 63)
        lo = top


@njit(cache=True, nogil=True)
def nest_failures(ON, NOT, stopped, B, chunk, mem, cs, g_cond0, g_nonempty, g_idx, g_start, g_src, g_dst,
                  p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst):  # pragma: no cover
    """The literals the sub-nets of one level turn OFF: each open candidate of each
    `stopped` branch (bits of `stopped`, `B` branches in the (L, W) words `ON` / `NOT`
    (not OFF)) tried ON, with the branch's literals, in a run without nesting (`failures`,
    `chunk` sub-branches at a time: by branch, then candidate, as the engine's numpy
    `_nest_words` lays them out); returns (L, W) words, bit b of row k set when candidate
    k's sub-net in branch b fails."""
    L, W = ON.shape
    nb = 0
    for w in range(W):
        nb += _popcount(stopped[w])
    bs = np.empty(nb, dtype=np.int64)
    q = 0
    for b in range(B):
        if (stopped[b >> 6] >> np.uint64(b & 63)) & np.uint64(1):
            bs[q] = b
            q += 1
    # the (branch, candidate) pairs: by branch, then candidate
    n_all = 0
    for i in range(nb):
        w, s = bs[i] >> 6, np.uint64(bs[i] & 63)
        for k in range(L):
            if not ((ON[k, w] >> s) & np.uint64(1)) and ((NOT[k, w] >> s) & np.uint64(1)):
                n_all += 1
    pb = np.empty(n_all, dtype=np.int64)  # index into bs
    pk = np.empty(n_all, dtype=np.int64)
    q = 0
    for i in range(nb):
        w, s = bs[i] >> 6, np.uint64(bs[i] & 63)
        for k in range(L):
            if not ((ON[k, w] >> s) & np.uint64(1)) and ((NOT[k, w] >> s) & np.uint64(1)):
                pb[q] = i
                pk[q] = k
                q += 1
    add = np.zeros((L, W), dtype=np.uint64)
    for start in range(0, n_all, chunk):
        end = min(start + chunk, n_all)
        n = end - start
        Wn = (n + 63) >> 6
        son = np.zeros((L, Wn), dtype=np.uint64)
        soff = np.zeros((L, Wn), dtype=np.uint64)
        j0 = 0
        while j0 < n:  # each branch's sub-branches are one run of bits: its literals spread over it
            i = pb[start + j0]
            j1 = j0 + 1
            while j1 < n and pb[start + j1] == i:
                j1 += 1
            w, s = bs[i] >> 6, np.uint64(bs[i] & 63)
            for k in range(L):
                if (ON[k, w] >> s) & np.uint64(1):
                    _fill(son, k, j0, j1)
                if not ((NOT[k, w] >> s) & np.uint64(1)):
                    _fill(soff, k, j0, j1)
            j0 = j1
        for j in range(n):
            son[pk[start + j], j >> 6] |= np.uint64(1) << np.uint64(j & 63)
        failed = failures(son, soff, n, mem, cs, g_cond0, g_nonempty, g_idx, g_start, g_src, g_dst,
                          p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst)
        for j in range(n):
            if failed[j] >= 0:
                b = bs[pb[start + j]]
                add[pk[start + j], b >> 6] |= np.uint64(1) << np.uint64(b & 63)
    return add


@njit(cache=True, nogil=True)
def subnet_outer(ron, roff, c, k, sees, others, base, real, cs, mem, max_options):  # pragma: no cover
    """`subnet_best` of the sub-net of ``-k`` (its branch assumes ``+k``), and the premises of
    its best contradiction's support other than ``+k``: the support's literals of round 0,
    as sort codes ``2m`` for +m and ``2m + 1`` for -m, ascending (by candidate, ON first);
    empty when there is no best option (the caller reads the option itself then)."""
    weak, strong, kinds, sets, ptr, keys, i, sup = subnet_best(ron, roff, c, sees, others, base, real, cs, mem,
                                                               max_options)
    codes = np.empty(len(sup), dtype=np.int64)
    n = 0
    if i >= 0:
        me = 2 * k + 1
        for e in sup:
            m = e >> 1
            if e != me and (ron[m] if e & 1 else roff[m]) == 0:
                codes[n] = 2 * m + (0 if e & 1 else 1)
                n += 1
    return weak, strong, kinds, sets, ptr, keys, i, sup, np.sort(codes[:n])


@njit(cache=True, nogil=True)
def run_subnet_outer(starts_on, starts_off, ends_on, ends_off, stacks, tail_pos, t0s, levels, b, c, k, sees, others, base,
                     real, cs, mem, max_options):  # pragma: no cover
    """`subnet_outer` of the sub-net of ``-k`` that is branch `b` of a Run, its rounds read in
    the same call: the run and its chain of compacted tails given level by level, as
    `linkgraph.nets.engine.Run.chain` packs them (each level's start words, end words, words
    new in each round and branch positions in its tail, flat, found through `levels`; each
    level's rounds before its tail, `t0s`), read as `rounds_into` and
    `linkgraph.nets.engine.Run.rows_one` read them; `c` is its failing round. Returns the
    sub-net's (2, candidates) int16 rounds, then `subnet_outer`'s answer."""
    L = levels[0, 0]
    out = np.full((2, L), -1, dtype=np.int16)
    offset = 0
    one = np.uint64(1)
    for lv in range(levels.shape[0]):
        W = levels[lv, 1]
        T = levels[lv, 2]
        at = levels[lv, 3]
        start_on = starts_on[at : at + L * W].reshape((L, W))
        start_off = starts_off[at : at + L * W].reshape((L, W))
        stack = stacks[levels[lv, 4] : levels[lv, 4] + 2 * T * L * W].reshape((2, T, L, W))
        w = b >> 6
        bit = np.uint64(b & 63)
        mark = 0 if lv == 0 else -2
        for m in range(L):
            if out[0, m] == -1 and (start_on[m, w] >> bit) & one:
                out[0, m] = mark
            if out[1, m] == -1 and (start_off[m, w] >> bit) & one:
                out[1, m] = mark
        # a literal new in some round of this level is in its end words: only those are looked
        # for round by round (a sub-net sets few literals before it fails)
        end_on = ends_on[at : at + L * W].reshape((L, W))
        end_off = ends_off[at : at + L * W].reshape((L, W))
        for m in range(L):
            if out[0, m] == -1 and (end_on[m, w] >> bit) & one:
                for t in range(T):
                    if (stack[0, t, m, w] >> bit) & one:
                        out[0, m] = t + 1 + offset
                        break
            if out[1, m] == -1 and (end_off[m, w] >> bit) & one:
                for t in range(T):
                    if (stack[1, t, m, w] >> bit) & one:
                        out[1, m] = t + 1 + offset
                        break
        if lv + 1 == levels.shape[0]:
            break
        b = tail_pos[levels[lv, 5] + b]
        if b < 0:
            break
        offset += t0s[lv]
    for f in range(2):
        for m in range(L):
            if out[f, m] == -2:
                out[f, m] = -1
    ron = out[0]
    roff = out[1]
    weak, strong, kinds, sets, ptr, keys, i, sup, outer = subnet_outer(ron, roff, c, k, sees, others, base, real, cs,
                                                                       mem, max_options)
    return out, weak, strong, kinds, sets, ptr, keys, i, sup, outer


@njit(cache=True, nogil=True)
def subnet_starts(ron, roff, weak):  # pragma: no cover
    """The start words of the sub-nets of nested branches (rows of int16 `ron`, `roff`, and
    of `weak`, their weak parents), packed as `linkgraph.nets.engine.advance` packs its rows:
    per branch and per OFF literal ``-k`` of round t > 0 without a weak parent, by branch then
    k, one sub-net that assumes ``+k`` with the branch's literals of the rounds before t.
    Returns the (candidates, W) ON and OFF words, each sub-net's k and its branch's row."""
    G, L = ron.shape
    n = 0
    for g in range(G):
        for k in range(L):
            if roff[g, k] > 0 and weak[g, k] < 0:
                n += 1
    W = max(1, (n + 63) >> 6)
    on = np.zeros((L, W), dtype=np.uint64)
    off = np.zeros((L, W), dtype=np.uint64)
    ks = np.empty(n, dtype=np.int64)
    gs = np.empty(n, dtype=np.int64)
    i = 0
    for g in range(G):
        for k in range(L):
            t = roff[g, k]
            if t <= 0 or weak[g, k] >= 0:
                continue
            w = i >> 6
            bit = np.uint64(1) << np.uint64(i & 63)
            for m in range(L):
                r = ron[g, m]
                if 0 <= r < t:
                    on[m, w] |= bit
                r = roff[g, m]
                if 0 <= r < t:
                    off[m, w] |= bit
            on[k, w] |= bit
            ks[i] = k
            gs[i] = g
            i += 1
    return on, off, ks, gs


# ---- the depth-1 locking pairs of a structure (linkgraph.nets.structure.Structure._build_groups) ----

@njit(cache=True, nogil=True)
def group_pairs(sets, mem, L, n, ncells, partners, glob_to_local):  # pragma: no cover
    """The pairs (A, B) of house sets of one digit, in houses sharing 2 or more cells
    (`partners`: per house, the houses it meets so, padded with -1, in the order of
    `Geometry.intersections`), with 2 or more members in common and a member of B outside
    A: by digit (in the order the digits' first house sets come in `sets`, the local sets'
    global indices), then A, then B (ascending local set). `mem` holds each local set's
    members ascending, padded with `L`; `glob_to_local` maps a global set to its local one
    (-1: none). Returns ``(a, b, inter_ptr, inter, out_a_ptr, out_a, out_b_pair,
    out_b)``: per pair its sets, its members in A and B, and in A only (flat, from the
    pointers), and the (pair, member of B only) pairs, by pair then member."""
    S, width = mem.shape
    H = partners.shape[0]
    # the digits in the order their first house sets come, and each digit's sets ascending
    first = np.full(n, S, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    for j in range(S):
        g = sets[j]
        if g >= ncells:
            d = (g - ncells) % n
            if first[d] == S:
                first[d] = j
            count[d] += 1
    digits = np.argsort(first, kind="mergesort")
    ra = [0]
    ra.pop()
    rb = [0]
    rb.pop()
    iptr = [0]
    ival = [0]
    ival.pop()
    optr = [0]
    oval = [0]
    oval.pop()
    pb = [0]
    pb.pop()
    kb = [0]
    kb.pop()
    bs = np.empty(partners.shape[1], dtype=np.int64)
    for di in range(n):
        d = digits[di]
        if first[d] == S:
            break
        for a in range(first[d], S):
            ga = sets[a]
            if ga < ncells or (ga - ncells) % n != d:
                continue
            h = (ga - ncells) // n
            nb = 0
            for q in range(partners.shape[1]):
                h2 = partners[h, q]
                if h2 < 0:
                    break
                b = glob_to_local[ncells + h2 * n + d]
                if b >= 0:
                    bs[nb] = b
                    nb += 1
            bs[:nb].sort()
            for q in range(nb):
                b = bs[q]
                # both, A only and B only by a merge of the two ascending member rows
                i = 0
                j = 0
                shared = 0
                b_only = 0
                while i < width or j < width:
                    x = mem[a, i] if i < width else L
                    y = mem[b, j] if j < width else L
                    if x >= L and y >= L:
                        break
                    if x == y:
                        shared += 1
                        i += 1
                        j += 1
                    elif x < y:
                        i += 1
                    else:
                        b_only += 1
                        j += 1
                if shared < 2 or b_only == 0:
                    continue
                p = len(ra)
                ra.append(a)
                rb.append(b)
                i = 0
                j = 0
                while i < width or j < width:
                    x = mem[a, i] if i < width else L
                    y = mem[b, j] if j < width else L
                    if x >= L and y >= L:
                        break
                    if x == y:
                        ival.append(x)
                        i += 1
                        j += 1
                    elif x < y:
                        oval.append(x)
                        i += 1
                    else:
                        pb.append(p)
                        kb.append(y)
                        j += 1
                iptr.append(len(ival))
                optr.append(len(oval))
    return (np.array(ra, dtype=np.int64), np.array(rb, dtype=np.int64), np.array(iptr, dtype=np.int64),
            np.array(ival, dtype=np.int64), np.array(optr, dtype=np.int64), np.array(oval, dtype=np.int64),
            np.array(pb, dtype=np.int64), np.array(kb, dtype=np.int64))


# ---- a whole propagation at level 0 or 1 (linkgraph.nets.engine._advance) ----

@njit(cache=True, nogil=True)
def advance_run(on_words, off_words, B, level, chunk, track, mem, cs, g_cond0, g_nonempty, g_idx, g_start, g_src,
                g_dst, p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst):  # pragma: no cover
    """The rounds of `linkgraph.nets.engine._advance_loop` for `B` branches (packed
    (candidates, W) `on_words`, `off_words`) at nesting `level` 0 or 1, whole in one call.

    As there, the branches still running are packed into fewer words once they fit in half
    as many, and at level 1 the sub-nets of the branches that stop in a round run as
    `nest_failures` (`chunk` sub-branches at a time), their failures OFF in that round. The
    run comes back in segments, one per packing, as the loop's Runs and their tails: per
    segment its state when it starts and when it ends (candidates + 1, 2W) ``[ON | not
    OFF]``, the words new in each of its rounds (2, T, candidates, W), ON then OFF (T = 0
    without `track`), the bits of the previous segment it keeps and the rounds done before
    it; and the round before which each branch fails (-1: none)."""
    L, W = on_words.shape
    S = mem.shape[0]
    Z = np.zeros((L + 1, 2 * W), dtype=np.uint64)  # row L: never ON, always OFF
    for k in range(L):
        for w in range(W):
            Z[k, w] = on_words[k, w]
            Z[k, W + w] = ~off_words[k, w]
    starts = [Z.copy()]
    ends = [Z]
    ends.pop()
    stacks = [np.zeros((2, 0, L, W), dtype=np.uint64)]
    stacks.pop()
    keeps = [np.arange(B)]
    t0s = [0]
    news = [np.zeros((1, 1), dtype=np.uint64)]
    news.pop()
    G = np.zeros((S + 1, 2 * W), dtype=np.uint64)
    orig = np.arange(B)  # bit i of the current words is branch orig[i]
    n = B
    alive = np.zeros(W, dtype=np.uint64)
    for i in range(B):
        alive[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    done = np.zeros(W, dtype=np.uint64)
    live = alive.copy()
    failed = np.full(B, -1, dtype=np.int32)
    check = W >= 2
    t = 0
    while L:
        any_live = False
        for w in range(W):
            if live[w]:
                any_live = True
                break
        if not any_live:
            break
        t += 1
        bad = set_summary(Z, mem, W, G)
        hit = False
        for w in range(W):
            newly = bad[w] & alive[w]
            if newly:
                hit = True
                for i in range(64):
                    if (newly >> np.uint64(i)) & np.uint64(1):
                        failed[orig[w * 64 + i]] = t - 1
            alive[w] &= ~bad[w]
        if hit:
            any_live = False
            for w in range(W):
                live[w] = alive[w] & ~done[w]
                if live[w]:
                    any_live = True
            if not any_live:
                break
            check = W >= 2
        if check:
            check = False
            n_live = 0
            for w in range(W):
                n_live += _popcount(live[w])
            if 2 * ((n_live + 63) // 64) <= W:  # pack the running branches into fewer words
                keep = np.empty(n_live, dtype=np.int64)
                q = 0
                for i in range(n):
                    if (live[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
                        keep[q] = i
                        q += 1
                W2 = max(1, (n_live + 63) // 64)
                Z2 = np.zeros((L + 1, 2 * W2), dtype=np.uint64)
                Z2[:, :W2] = select_bits(Z[:, :W], keep, W2)
                Z2[:L, W2:] = select_bits(Z[:L, W:], keep, W2)
                for k in range(L):  # bits past the branches: not OFF, as a fresh state has them
                    for w in range(W2):
                        lo = w * 64
                        if lo + 64 > n_live:
                            m = np.uint64(0) if n_live <= lo else ~((np.uint64(1) << np.uint64(n_live - lo)) - np.uint64(1))
                            Z2[k, W2 + w] |= m
                # the segment ends here; the next starts from the packed state
                ends.append(Z)
                stacks.append(_stacked(news, L, W))
                news = [np.zeros((1, 1), dtype=np.uint64)]
                news.pop()
                starts.append(Z2.copy())
                keeps.append(keep)
                t0s.append(t - 1)
                Z = Z2
                orig = orig[keep]
                n = n_live
                W = W2
                G = np.zeros((S + 1, 2 * W), dtype=np.uint64)
                alive = np.zeros(W, dtype=np.uint64)
                for i in range(n):
                    alive[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
                done = np.zeros(W, dtype=np.uint64)
                live = alive.copy()
                check = W >= 2
                set_summary(Z, mem, W, G)  # the sets' rows of the packed state (its failures are known)
        new_on = np.empty((L, W), dtype=np.uint64)
        new_off = np.empty((L, W), dtype=np.uint64)
        changed = derive(Z, G, cs, W, live, g_cond0, g_nonempty, g_idx, g_start, g_src, g_dst,
                         p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst, new_on, new_off)
        stopped = np.zeros(W, dtype=np.uint64)
        any_stopped = False
        for w in range(W):
            stopped[w] = live[w] & ~changed[w]
            if stopped[w]:
                any_stopped = True
        if any_stopped:
            if level >= 1:
                words = nest_failures(Z[:L, :W], Z[:L, W:], stopped, n, chunk, mem, cs, g_cond0, g_nonempty, g_idx,
                                      g_start, g_src, g_dst, p_idx, p_start, p_cols, p_small, p_owner, p_src, p_dst)
                revived = np.zeros(W, dtype=np.uint64)
                for k in range(L):
                    for w in range(W):
                        x = words[k, w]
                        if x:
                            Z[k, W + w] &= ~x
                            new_off[k, w] |= x
                            revived[w] |= x
                for w in range(W):
                    done[w] |= stopped[w] & ~revived[w]
            else:
                for w in range(W):
                    done[w] |= stopped[w]
            for w in range(W):
                live[w] = alive[w] & ~done[w]
            check = W >= 2
        if track:
            news.append(new_on)
            news.append(new_off)
    ends.append(Z)
    stacks.append(_stacked(news, L, W))
    return starts, ends, stacks, keeps, t0s, failed


@njit(cache=True, nogil=True)
def _stacked(news, L, W):  # pragma: no cover
    """The (L, W) words of `news` (ON, OFF, ON, OFF, ...) as a (2, T, L, W) stack."""
    T = len(news) // 2
    stack = np.empty((2, T, L, W), dtype=np.uint64)
    for i in range(T):
        stack[0, i] = news[2 * i]
        stack[1, i] = news[2 * i + 1]
    return stack


# ---- the verity and double conclusions of a search (linkgraph.nets.search) -------------------

@njit(cache=True, nogil=True)
def end_rows(on_words, off_words, orig, write, out):  # pragma: no cover
    """Write each branch's end state, transposed, into `out` (branches, 2, ceil(L / 64)): bit
    ``k`` of ``out[orig[i], 0]`` (ON) and ``out[orig[i], 1]`` (OFF) from bit ``i`` of row
    ``k`` of one level's end words `on_words` and `off_words` (candidates, W), for each
    ``i`` with ``write[i]``; 64 candidates by 64 branches at a time (`_transpose64`)."""
    L, W = on_words.shape
    n = len(orig)
    A = np.empty(64, dtype=np.uint64)
    for f in range(2):
        words = on_words if f == 0 else off_words
        for w in range(W):
            base = w * 64
            if base >= n:
                break
            for kb in range(out.shape[2]):
                k0 = kb * 64
                for r in range(64):
                    A[r] = words[k0 + r, w] if k0 + r < L else np.uint64(0)
                _transpose64(A)
                for c in range(min(64, n - base)):
                    if write[base + c]:
                        out[orig[base + c], f, kb] = A[c]


@njit(cache=True, nogil=True)
def _transpose64(A):  # pragma: no cover
    """Transpose the 64 x 64 bit matrix `A` in place: bit j of ``A[i]`` moves to bit i of ``A[j]``
    (blocks of 32, 16, ..., 1 swapped across the diagonal)."""
    j = 32
    m = np.uint64(0x00000000FFFFFFFF)
    while j:
        sj = np.uint64(j)
        for k in range(64):
            if k & j == 0:
                t = ((A[k] >> sj) ^ A[k | j]) & m
                A[k] ^= t << sj
                A[k | j] ^= t
        j >>= 1
        m ^= m << np.uint64(j)


@njit(cache=True, nogil=True)
def verity_double(rows, ok, mem, L, verity, double):  # pragma: no cover
    """The verity and double conclusions of a search from its branches' end states `rows`
    (`end_rows`; the branch of ``+k`` is ``k`` and, with `double`, that of ``-k`` is
    ``L + k``) and `ok` (branches,), the branches that did not fail: for `verity`, each
    (flag, set, literal) whose literal (candidate ``y``, ON for flag 0, OFF for 1) every
    member's ON branch of a set with 2 or more members reaches, none of them failed, by
    flag, then set, then candidate; for `double`, each (candidate ``k``, flag, ``y``) that
    both branches of ``k`` reach, neither failed, by ``k``, flag, ``y``. As the numpy search
    (`linkgraph.nets.search._candidates`) lists them, in the same order."""
    S, width = mem.shape
    Lw = rows.shape[2]
    one = np.uint64(1)
    vf = []
    vs = []
    vy = []
    acc = np.zeros(Lw, dtype=np.uint64)
    if verity:
        good = np.zeros(S, dtype=np.bool_)
        for s in range(S):
            n = 0
            fine = True
            for c in range(width):
                m = mem[s, c]
                if m >= L:
                    break
                n += 1
                if not ok[m]:
                    fine = False
            good[s] = fine and n >= 2
        for f in range(2):
            for s in range(S):
                if not good[s]:
                    continue
                for q in range(Lw):
                    acc[q] = ~np.uint64(0)
                for c in range(width):
                    m = mem[s, c]
                    if m >= L:
                        break
                    for q in range(Lw):
                        acc[q] &= rows[m, f, q]
                for q in range(Lw):
                    x = acc[q]
                    while x:
                        low = x & (~x + one)
                        y = q * 64 + _bit_index(low)
                        if y < L:
                            vf.append(f)
                            vs.append(s)
                            vy.append(y)
                        x ^= low
    dk = []
    df = []
    dy = []
    if double:
        for k in range(L):
            if not (ok[k] and ok[L + k]):
                continue
            for f in range(2):
                for q in range(Lw):
                    x = rows[k, f, q] & rows[L + k, f, q]
                    while x:
                        low = x & (~x + one)
                        y = q * 64 + _bit_index(low)
                        if y < L:
                            dk.append(k)
                            df.append(f)
                            dy.append(y)
                        x ^= low
    v = np.empty((3, len(vf)), dtype=np.int64)
    for i in range(len(vf)):
        v[0, i] = vf[i]
        v[1, i] = vs[i]
        v[2, i] = vy[i]
    d = np.empty((3, len(dk)), dtype=np.int64)
    for i in range(len(dk)):
        d[0, i] = dk[i]
        d[1, i] = df[i]
        d[2, i] = dy[i]
    return v, d


@njit(cache=True, nogil=True)
def _bit_index(low):  # pragma: no cover
    """The index of the one bit set in `low`."""
    i = 0
    if low >> np.uint64(32):
        i += 32
        low >>= np.uint64(32)
    if low >> np.uint64(16):
        i += 16
        low >>= np.uint64(16)
    if low >> np.uint64(8):
        i += 8
        low >>= np.uint64(8)
    if low >> np.uint64(4):
        i += 4
        low >>= np.uint64(4)
    if low >> np.uint64(2):
        i += 2
        low >>= np.uint64(2)
    if low >> np.uint64(1):
        i += 1
    return i


# ---- a structure's candidates and sets (linkgraph.nets.structure.Structure) ------------------

@njit(cache=True, nogil=True)
def structure_tables(live, sm, cst, n_sets):  # pragma: no cover
    """The tables `linkgraph.nets.structure.Structure` keeps of a grid, in one call: from the
    live candidates `live` (candidates,), the members of every set X `sm` (sets, n) and each
    candidate's sets `cst` (candidates, r) padded with `n_sets`, returns (the kept candidates:
    live and in a set with another live one, ascending; each candidate's local index, -1
    for none; the sets holding a kept candidate, ascending; their kept members' local
    indices ascending, padded with the number kept to the widest; each kept candidate's
    local sets ascending, padded with the number of sets)."""
    N = live.shape[0]
    S_all, n = sm.shape
    count = np.zeros(S_all, dtype=np.int64)
    for s in range(S_all):
        for i in range(n):
            if live[sm[s, i]]:
                count[s] += 1
    keep = np.zeros(N, dtype=np.bool_)
    for s in range(S_all):
        if count[s] >= 2:
            for i in range(n):
                keep[sm[s, i]] = True
    L = 0
    for k in range(N):
        keep[k] = keep[k] and live[k]
        if keep[k]:
            L += 1
    cands = np.empty(L, dtype=np.int32)
    local = np.full(N, -1, dtype=np.int32)
    q = 0
    for k in range(N):
        if keep[k]:
            cands[q] = k
            local[k] = q
            q += 1
    set_local = np.full(S_all + 1, -1, dtype=np.int64)
    nset = 0
    width = 1
    for s in range(S_all):
        m = 0
        for i in range(n):
            if keep[sm[s, i]]:
                m += 1
        if m:
            set_local[s] = nset
            nset += 1
            width = max(width, m)
    sets = np.empty(nset, dtype=np.int32)
    mem = np.full((nset, width), L, dtype=np.int64)
    for s in range(S_all):
        j = set_local[s]
        if j < 0:
            continue
        sets[j] = s
        m = 0
        for i in range(n):
            x = sm[s, i]
            if keep[x]:
                v = local[x]
                p = m  # insertion: the members ascending
                while p > 0 and mem[j, p - 1] > v:
                    mem[j, p] = mem[j, p - 1]
                    p -= 1
                mem[j, p] = v
                m += 1
    set_local[S_all] = nset
    for s in range(S_all):
        if set_local[s] < 0:
            set_local[s] = nset
    r = cst.shape[1]
    cs = np.empty((L, r), dtype=np.int64)
    for q in range(L):
        for i in range(r):
            v = set_local[cst[cands[q], i]]
            p = i
            while p > 0 and cs[q, p - 1] > v:
                cs[q, p] = cs[q, p - 1]
                p -= 1
            cs[q, p] = v
    return cands, local, sets, mem, cs


# ---- the locking-pair and pattern arguments of `derive` (linkgraph.nets.engine.Tables) -------

@njit(cache=True, nogil=True)
def _by_target(src, dst, L):  # pragma: no cover
    """(src, dst) pairs stably sorted by `dst` (candidates below `L`): a counting sort."""
    count = np.zeros(L + 1, dtype=np.int64)
    for q in range(len(dst)):
        count[dst[q] + 1] += 1
    for k in range(L):
        count[k + 1] += count[k]
    s = np.empty(len(src), dtype=np.int64)
    d = np.empty(len(dst), dtype=np.int64)
    for q in range(len(dst)):
        i = count[dst[q]]
        count[dst[q]] += 1
        s[i] = src[q]
        d[i] = dst[q]
    return s, d


@njit(cache=True, nogil=True)
def group_args(optr, oval, pb, kb, L):  # pragma: no cover
    """`linkgraph.nets.engine.Tables.kernel_groups` from a structure's locking pairs as
    `group_pairs` gives them: per pair whether A lies inside B, the pairs with members of A
    outside B, those members end to end with where each pair's start (and one past the
    last), and the (pair, candidate of B outside A) pairs stably sorted by candidate."""
    P = len(optr) - 1
    always = np.zeros(P, dtype=np.bool_)
    n = 0
    for p in range(P):
        if optr[p + 1] == optr[p]:
            always[p] = True
        else:
            n += 1
    nonempty = np.empty(n, dtype=np.int64)
    ends = np.empty(n + 1, dtype=np.int64)
    q = 0
    for p in range(P):
        if not always[p]:
            nonempty[q] = p
            ends[q] = optr[p]
            q += 1
    ends[n] = len(oval)
    idx = np.empty(len(oval), dtype=np.int64)
    for i in range(len(oval)):
        idx[i] = oval[i]
    src, dst = _by_target(pb, kb, L)
    return always, nonempty, idx, ends, src, dst


@njit(cache=True, nogil=True)
def pattern_args(a_cols, a_rows, owner, sizes, t_cols, t_ks, P, L):  # pragma: no cover
    """`linkgraph.nets.engine.Tables.kernel_patterns` from a structure's patterns as `patterns`
    gives them: the cover columns' base members end to end (the A rows, sorted by column)
    with where each column starts (and one past the last), each pattern's columns ascending
    padded with the column count, the two-base flags, the column owners, and the (column,
    target) pairs stably sorted by target."""
    K = len(owner)
    ends = np.zeros(K + 1, dtype=np.int64)
    for q in range(len(a_cols)):
        ends[a_cols[q] + 1] += 1
    for c in range(K):
        ends[c + 1] += ends[c]
    idx = np.empty(len(a_rows), dtype=np.int64)
    for q in range(len(a_rows)):
        idx[q] = a_rows[q]
    counts = np.zeros(P, dtype=np.int64)
    for c in range(K):
        counts[owner[c]] += 1
    width = 1
    for p in range(P):
        width = max(width, counts[p])
    pcols = np.full((P, width), K, dtype=np.int64)
    fill = np.zeros(P, dtype=np.int64)
    own = np.empty(K, dtype=np.int64)
    for c in range(K):  # columns ascending: each pattern's in order
        p = owner[c]
        pcols[p, fill[p]] = c
        fill[p] += 1
        own[c] = p
    small = np.empty(P, dtype=np.bool_)
    for p in range(P):
        small[p] = sizes[p] < 2.5
    src, dst = _by_target(t_cols, t_ks, L)
    return idx, ends, pcols, small, own, src, dst
