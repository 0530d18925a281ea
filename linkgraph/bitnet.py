"""The bit-parallel propagation engine behind `linkgraph.propagate`.

States are transposed and packed: for each candidate one row of ``uint64``
words, one bit per branch, so a rule over a set X is a handful of word-wise
operations over all branches at once (64 per word). Row ``L`` (one past the
last candidate) is a padding row that is never ON and always OFF, so ragged
member lists pad to rectangles. Rules and contradictions are those of the
`linkgraph.propagate` docstring; this module only computes them.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

__all__ = ["advance"]

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_CHUNK = 8192  # sub-net branches advanced together when nesting


def _pad(lists, fill: int) -> np.ndarray:
    width = max((len(x) for x in lists), default=0)
    out = np.full((len(lists), max(width, 1)), fill, dtype=np.int64)
    for i, x in enumerate(lists):
        out[i, : len(x)] = x
    return out


def _targets(pairs_src, pairs_k):
    """Sort (source row, target candidate) pairs by target for OR-reduction."""
    src = np.asarray(pairs_src, dtype=np.int64)
    k = np.asarray(pairs_k, dtype=np.int64)
    order = np.argsort(k, kind="stable")
    src, k = src[order], k[order]
    if len(k) == 0:
        return src, k, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    return src, k, starts, k[starts]


class Tables:
    """Flattened index tables of one Structure for the bit engine.

    Sets with one member force it ON; otherwise a candidate's ON comes from a
    set whose *other* members are all OFF, and its OFF from an ON peer.
    """

    def __init__(self, st):
        L = self.L = st.size
        self.S = len(st.sets)
        self.st = st
        peers = [np.flatnonzero(st.sees[k]) for k in range(L)]
        self.peer_idx, self.peer_start, self.peer_k = _segments(peers)
        others, owner = [], []
        forced = np.zeros(L, dtype=bool)
        for j, mem in enumerate(st.members):
            if len(mem) == 1:
                forced[mem[0]] = True
                continue
            for k in mem:
                others.append(mem[mem != k])
                owner.append(int(k))
        self.forced = forced
        # segments: one per (candidate, set) pair; then OR over a candidate's pairs
        self.oth_idx, self.oth_start, _ = _segments(others)
        owner = np.asarray(owner, dtype=np.int64)
        order = np.argsort(owner, kind="stable")
        self.pair_order = order
        o = owner[order]
        self.pair_start = np.flatnonzero(np.r_[True, o[1:] != o[:-1]]) if len(o) else np.zeros(0, np.int64)
        self.pair_k = o[self.pair_start] if len(o) else np.zeros(0, np.int64)
        self.mem_idx, self.mem_start, _ = _segments(st.members)

    @cached_property
    def groups(self):
        gr = self.st._groups
        nonempty = [i for i, x in enumerate(gr["outA"]) if len(x)]
        always = np.array([not len(x) for x in gr["outA"]], dtype=bool)
        idx, start, _ = _segments([gr["outA"][i] for i in nonempty])
        ps, ks = np.nonzero(gr["outB"] > 0.5)
        return np.array(nonempty, dtype=np.int64), always, idx, start, _targets(ps, ks)

    @cached_property
    def patterns(self):
        pt = self.st._patterns
        A, owner, T = pt["A"], pt["owner"], pt["T"]
        K = A.shape[1]
        idx, start, _ = _segments([np.flatnonzero(A[:, c] > 0.5) for c in range(K)])
        pcols = _pad([np.flatnonzero(owner == p) for p in range(pt["P"])], K)
        cols, ks = np.nonzero(T > 0.5)
        return idx, start, pcols, pt["sizes"] < 2.5, owner, _targets(cols, ks)


def _segments(lists):
    """Flatten non-empty index lists for reduceat: (flat indices, segment starts, owners)."""
    lens = np.array([len(x) for x in lists], dtype=np.int64)
    assert (lens > 0).all() or not len(lens)
    flat = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists]) if len(lists) else np.zeros(0, np.int64)
    starts = np.r_[0, np.cumsum(lens)[:-1]] if len(lists) else np.zeros(0, np.int64)
    return flat, starts.astype(np.int64), np.arange(len(lists))


def pack(rows_bool: np.ndarray, W: int) -> np.ndarray:
    """(B, L) bool -> (L, W) uint64 with bit b of row k = rows_bool[b, k]."""
    B, L = rows_bool.shape
    t = np.zeros((L, W * 64), dtype=bool)
    t[:, :B] = rows_bool.T
    return np.packbits(t, axis=1, bitorder="little").view(np.uint64).reshape(L, W)


def unpack(words: np.ndarray, B: int) -> np.ndarray:
    """(L, W) uint64 -> (L, B) bool."""
    L = words.shape[0]
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8).reshape(L, -1), axis=1, bitorder="little")[:, :B].astype(bool)


def _or_into(dest, values, tgt) -> None:
    src, _, starts, uk = tgt
    if len(src):
        dest[uk] |= np.bitwise_or.reduceat(values[src], starts, axis=0)


class Run:
    """Packed result of `advance`: final words, the words new in each round, failures."""

    def __init__(self, B, ON, OFF, on0, off0, news_on, news_off, failed):
        self.B = B
        self.ON, self.OFF = ON, OFF
        self.on0, self.off0 = on0, off0
        self.news_on, self.news_off = news_on, news_off
        self.failed = failed

    def _first(self, news, init, b):
        w, bit = divmod(int(b), 64)
        r = np.where(init[b], 0, -1).astype(np.int16)
        if news:
            stack = np.stack([n[:, w] for n in news])  # (T, L)
            hit = ((stack >> np.uint64(bit)) & np.uint64(1)).astype(bool)
            seen = hit.any(axis=0) & (r < 0)
            r[seen] = hit[:, seen].argmax(axis=0) + 1
        return r

    def rounds(self, b):
        """(ron, roff) rows of branch b."""
        return self._first(self.news_on, self.on0, b), self._first(self.news_off, self.off0, b)

    @cached_property
    def on(self):
        return unpack(self.ON, self.B).T

    @cached_property
    def off(self):
        return unpack(self.OFF, self.B).T


def advance(st, on: np.ndarray, off: np.ndarray, *, depth: int, level: int, track: bool = True) -> Run:
    """Run branches (rows of `on`/`off`) until each fails or stops; return a `Run`.

    Without `track` the per-round words are not kept (sub-nets need only failures).
    """
    B, L = on.shape
    tb = st.tables
    W = max(1, -(-B // 64))
    ON = pack(on, W)
    OFF = pack(off, W)
    alive = pack(np.ones((B, 1), dtype=bool), W)[0]
    done = np.zeros(W, dtype=np.uint64)
    failed = np.full(B, -1, dtype=np.int32)
    news_on: list = []
    news_off: list = []
    forced = tb.forced
    take = np.take
    t = 0
    while L and (alive & ~done).any():
        t += 1
        NOT = ~OFF
        # OFF: an ON peer; contradiction: two ON in a set, a set all OFF, ON and OFF
        peer_on = np.zeros((L, W), dtype=np.uint64)
        if len(tb.peer_idx):
            peer_on[tb.peer_k] = np.bitwise_or.reduceat(take(ON, tb.peer_idx, axis=0), tb.peer_start, axis=0)
        bad = np.bitwise_or.reduce(ON & (peer_on | OFF), axis=0)
        if len(tb.mem_idx):
            bad |= np.bitwise_or.reduce(np.bitwise_and.reduceat(take(OFF, tb.mem_idx, axis=0), tb.mem_start, axis=0), axis=0)
        newly = bad & alive
        if newly.any():
            failed[unpack(newly[None, :], B)[0]] = t - 1
            alive &= ~bad
        live = alive & ~done
        if not live.any():
            break
        acc_on = np.zeros((L, W), dtype=np.uint64)
        acc_on[forced] = ~np.uint64(0)
        if len(tb.oth_idx):
            pair_all_off = np.bitwise_and.reduceat(take(OFF, tb.oth_idx, axis=0), tb.oth_start, axis=0)
            acc_on[tb.pair_k] |= np.bitwise_or.reduceat(pair_all_off[tb.pair_order], tb.pair_start, axis=0)
        acc_off = peer_on
        if depth >= 1 and len(st._groups["outA"]):
            nonempty, always, idx, start, tgt = tb.groups
            cond = np.zeros((len(always), W), dtype=np.uint64)
            cond[always] = ~np.uint64(0)
            if len(idx):
                cond[nonempty] = np.bitwise_and.reduceat(take(OFF, idx, axis=0), start, axis=0)
            _or_into(acc_off, cond, tgt)
        if depth >= 2 and st._patterns["P"]:
            idx, start, pcols, small, owner, tgt = tb.patterns
            touched = np.zeros((len(start) + 1, W), dtype=np.uint64)
            touched[:-1] = np.bitwise_or.reduceat(take(NOT, idx, axis=0), start, axis=0)
            c1 = np.zeros((pcols.shape[0], W), dtype=np.uint64)
            c2, c3, c4 = np.zeros_like(c1), np.zeros_like(c1), np.zeros_like(c1)
            for j in range(pcols.shape[1]):
                x = take(touched, pcols[:, j], axis=0)
                c4 |= c3 & x
                c3 |= c2 & x
                c2 |= c1 & x
                c1 |= x
            ok = np.where(small[:, None], ~c3, ~c4)
            colok = take(ok, owner, axis=0) & touched[:-1]
            _or_into(acc_off, colok, tgt)
        new_off = acc_off & NOT & live
        new_on = acc_on & NOT & ~ON & live
        changed = np.bitwise_or.reduce(new_off | new_on, axis=0)
        ON |= new_on
        OFF |= new_off
        stopped = live & ~changed
        if stopped.any() and level >= 1:
            revived = _nest(st, ON, OFF, new_off, stopped, B, W, depth=depth, level=level)
            done |= stopped & ~revived
        else:
            done |= stopped
        if track:
            news_on.append(new_on)
            news_off.append(new_off)
    return Run(B, ON, OFF, on, off, news_on, news_off, failed)


def _nest(st, ON, OFF, new_off, stopped, B, W, *, depth: int, level: int):
    """Sub-nets: each open candidate of each stopped branch tried ON; failures turn OFF this round."""
    bs = np.flatnonzero(unpack(stopped[None, :], B)[0])
    on_b = unpack(ON, B)[:, bs].T  # (nb, L) snapshot
    off_b = unpack(OFF, B)[:, bs].T
    ib, ks = np.nonzero(~on_b & ~off_b)
    add = np.zeros((B, ON.shape[0]), dtype=bool)
    for start in range(0, len(ib), _CHUNK):
        i, k = ib[start : start + _CHUNK], ks[start : start + _CHUNK]
        son, soff = on_b[i].copy(), off_b[i]
        son[np.arange(len(i)), k] = True
        run = advance(st, son, soff, depth=depth, level=level - 1, track=False)
        hit = run.failed >= 0
        add[bs[i[hit]], k[hit]] = True
    if not add.any():
        return np.zeros(W, dtype=np.uint64)
    words = pack(add, W)
    OFF |= words
    new_off |= words
    return np.bitwise_or.reduce(words, axis=0)
