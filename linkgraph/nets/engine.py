"""The bit-parallel propagation engine behind `linkgraph.nets.propagate`.

States are transposed and packed (`linkgraph.bitops`: branch b is bit b % 64 of word
b // 64): for each candidate one row of ``uint64`` words, one bit per branch, so a rule
over a set X is a handful of word-wise operations over all branches at once (64 per word). Row ``L`` (one past the
last candidate) is a padding row that is never ON and always OFF, so ragged
member lists pad to rectangles. Rules and contradictions are those of the
`linkgraph.nets.propagate` docstring; this module only computes them. One round over
every set and candidate is compiled (`linkgraph.nets.kernel`, numba). So is the loop
around the rounds at nesting levels 0 and 1 (failures, compacting the branches still
running into fewer words, nesting, and the words new in each round that the proofs read
back: `linkgraph.nets.kernel.advance_run`, one call per propagation, read back here as a
`Run` and its tails); at levels 2 and 3, where each sub-net is a run of its own, the loop
is Python (`_advance_loop`), which is also the compiled loop's oracle in the tests.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from linkgraph.bitops import pack, pack_columns, popcount_rows, unpack

__all__ = ["advance", "advance_packed"]

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
    """Index tables of one Structure for the bit engine.

    ``mem`` (sets, width): members of each set padded with ``L`` (the padding
    row, never ON, always OFF); ``cs`` (candidates, r): sets of each candidate
    padded with ``S`` (a padding set). `groups` and `patterns` hold the depth-1 and
    depth-2 rules as flat index arrays, `kernel_groups` and `kernel_patterns` the same
    as the compiled round (`linkgraph.nets.kernel`) reads them.
    """

    def __init__(self, st):
        self.L = st.size
        self.S = len(st.sets)
        self._groups, self._patterns = st._groups, st._patterns  # not `st`: no reference cycle
        self.mem = st.mem_pad
        self.cs = st.cs_pad

    @cached_property
    def groups(self):
        gr = self._groups
        ptr, idx = gr["outA_flat"]  # the lists of "outA" end to end, and where each starts
        lens = np.diff(ptr)
        nonempty = np.flatnonzero(lens)
        ps, ks = gr["outB"]  # (pair, candidate) pairs, by pair then candidate
        return nonempty, lens == 0, idx, ptr[:-1].take(nonempty), _targets(ps, ks)

    @cached_property
    def kernel_groups(self) -> tuple:
        """`groups` as `linkgraph.nets.kernel.derive` reads them: (always, nonempty, members,
        starts with one past the end, source pairs, target candidates), in one compiled call
        (`linkgraph.nets.kernel.group_args`; built from `groups`, they are its oracle in
        tests/nets/test_structure.py)."""
        ptr, idx = self._groups["outA_flat"]
        ps, ks = self._groups["outB"]
        return kernels().group_args(np.asarray(ptr, dtype=np.int64), np.asarray(idx, dtype=np.int64),
                                    np.asarray(ps, dtype=np.int64), np.asarray(ks, dtype=np.int64), self.L)

    @cached_property
    def kernel_patterns(self) -> tuple:
        """`patterns` as `linkgraph.nets.kernel.derive` reads them: (members, starts with one
        past the end, columns per pattern, two-base flags, column owners, source columns,
        target candidates), in one compiled call (`linkgraph.nets.kernel.pattern_args`; built
        from `patterns`, they are its oracle in tests/nets/test_structure.py)."""
        pt = self._patterns
        (cc, kk), (cols, ks) = pt["A"], pt["T"]
        return kernels().pattern_args(np.asarray(cc, dtype=np.int64), np.asarray(kk, dtype=np.int64),
                                      np.asarray(pt["owner"], dtype=np.int64), np.asarray(pt["sizes"]),
                                      np.asarray(cols, dtype=np.int64), np.asarray(ks, dtype=np.int64), pt["P"],
                                      self.L)

    @cached_property
    def patterns(self):
        pt = self._patterns
        (cc, kk), owner, T, K = pt["A"], pt["owner"], pt["T"], pt["K"]
        # members of each cover column, column by column, end to end
        lens = np.bincount(cc, minlength=K)
        assert (lens > 0).all()
        idx = kk.astype(np.int64)
        start = np.r_[0, np.cumsum(lens)[:-1]].astype(np.int64) if K else np.zeros(0, np.int64)
        # columns of each pattern, ascending, padded with K (as _pad lays them out)
        P = pt["P"]
        order = np.argsort(owner, kind="stable")
        counts = np.bincount(owner, minlength=P) if K else np.zeros(P, np.int64)
        pcols = np.full((P, max(int(counts.max(initial=0)), 1)), K, dtype=np.int64)
        first = np.r_[0, np.cumsum(counts)[:-1]] if P else np.zeros(0, np.int64)
        ow = owner[order]
        pcols[ow, np.arange(len(order)) - first[ow]] = order
        cols, ks = T
        return idx, start, pcols, pt["sizes"] < 2.5, owner, _targets(cols, ks)


_KERNELS = None


def kernels():
    """The module `linkgraph.nets.kernel`, imported on the first propagation: numba takes a
    fifth of a second and 60 MB to import, which commands that never search a net should
    not pay."""
    global _KERNELS
    if _KERNELS is None:
        from linkgraph.nets import kernel

        _KERNELS = kernel
    return _KERNELS


_NO_INT = np.zeros(0, dtype=np.int64)
_NO_BOOL = np.zeros(0, dtype=bool)
_NO_COLS = np.zeros((0, 1), dtype=np.int64)


def kernel_tables(tb: Tables, depth: int) -> tuple:
    """The locking-pair and pattern arguments of `linkgraph.nets.kernel.derive` at `depth`
    (empty arrays for the rules the depth leaves out)."""
    g_args = (_NO_BOOL, _NO_INT, _NO_INT, np.zeros(1, dtype=np.int64), _NO_INT, _NO_INT)
    if depth >= 1 and len(tb._groups["outA"]):
        g_args = tb.kernel_groups
    p_args = (_NO_INT, np.zeros(1, dtype=np.int64), _NO_COLS, _NO_BOOL, _NO_INT, _NO_INT, _NO_INT)
    if depth >= 2 and tb._patterns["P"]:
        p_args = tb.kernel_patterns
    return g_args + p_args


class Run:
    """Packed result of `advance`: final words, the words new in each round, failures.

    When few branches were left running, `advance` finished them in a smaller
    packed state: ``tail`` is that Run, ``tail_pos[b]`` branch ``b``'s index
    in it (-1: not there) and ``t0`` the rounds done before it.
    """

    def __init__(self, B, ON, OFF, start, news_on, news_off, failed, tail=None, tail_pos=None, t0=0):
        self.B = B
        self.ON, self.OFF = ON, OFF
        self._start = start  # the packed words the run started from, ON and OFF
        self.news_on, self.news_off = news_on, news_off
        self.failed = failed
        self.tail, self.tail_pos, self.t0 = tail, tail_pos, t0

    @cached_property
    def on0(self) -> np.ndarray:
        """(B, L) bool: the literals each branch started with ON."""
        return np.ascontiguousarray(unpack(self._start[0], self.B).T)

    @cached_property
    def off0(self) -> np.ndarray:
        """(B, L) bool: the literals each branch started with OFF."""
        return np.ascontiguousarray(unpack(self._start[1], self.B).T)

    @cached_property
    def _stacks(self):
        """(T, L, W) words new in each round, ON and OFF (None before any round)."""
        both = self._stack2
        return (None, None) if both is None else (both[0], both[1])

    @cached_property
    def _stack2(self):
        """(2, T, L, W) words new in each round, ON then OFF (None before any round)."""
        T = len(self.news_on)
        if not T:
            return None
        return np.stack(self.news_on + self.news_off).reshape(2, T, *self.news_on[0].shape)

    def rounds(self, b):
        """(ron, roff) rows of branch b."""
        r = self.rows_one(int(b))
        return r[0], r[1]

    def _rows(self, b: int) -> np.ndarray:
        """`round_of` for every literal of one branch, ON and OFF as a (2, L) array."""
        return self.rows_many(np.array([b], dtype=np.int64))[0]

    @cached_property
    def _kernel_stack(self) -> np.ndarray:
        """`_stack2`, or an empty (2, 0, L, W) stack before any round (what
        `linkgraph.nets.kernel.first_rounds` reads)."""
        stack = self._stack2
        if stack is None:
            L, W = self._start[0].shape
            return np.zeros((2, 0, L, W), dtype=np.uint64)
        return stack

    def rows_many(self, bs) -> np.ndarray:
        """`_rows` of many branches at once, as an (n, 2, L) array: the first round each
        literal is in the start or the words new in a round (`linkgraph.nets.kernel.first_rounds`),
        then the compacted tail's rounds after ``t0`` for the literals still unset."""
        bs = np.ascontiguousarray(bs, dtype=np.int64)
        start_on, start_off = (np.ascontiguousarray(x, dtype=np.uint64) for x in self._start)
        r = kernels().first_rounds(start_on, start_off, self._kernel_stack, bs)
        if self.tail is not None and len(bs):
            pos = self.tail_pos[bs]
            sel = np.flatnonzero(pos >= 0)
            if len(sel):
                rt = self.tail.rows_many(pos[sel])
                sub = r[sel]
                r[sel] = np.where((sub < 0) & (rt > 0), rt + self.t0, sub)
        return r

    @cached_property
    def _start_words(self) -> tuple[np.ndarray, np.ndarray]:
        return tuple(np.ascontiguousarray(x, dtype=np.uint64) for x in self._start)

    @cached_property
    def chain(self) -> tuple:
        """This run and its chain of compacted tails level by level, as
        `linkgraph.nets.kernel.run_subnet_outer` reads them (a branch's rounds as `rows_one`
        reads them): the start ON words, start OFF words, end ON and OFF words, words new in
        each round (`_kernel_stack`) and branch positions in the next level (none at the last)
        of every level, each kind flattened into one array; the rounds each level did before
        its tail; and a (levels, 6) table of each level's literals, words per literal, rounds
        and where it starts in the words, the stacks and the positions. Flat, whatever the
        number of levels: numba types a tuple by its length, so tuples of per-level arrays
        compiled the kernels again for every new chain length."""
        runs = [self]
        while runs[-1].tail is not None:
            runs.append(runs[-1].tail)
        levels = np.zeros((len(runs), 6), dtype=np.int64)
        words: tuple[list, list, list, list] = ([], [], [], [])
        stacks, tails = [], []
        at = st = tp = 0
        for i, r in enumerate(runs):
            parts = (*r._start_words, np.ascontiguousarray(r.ON, dtype=np.uint64),
                     np.ascontiguousarray(r.OFF, dtype=np.uint64))
            L, W = parts[0].shape
            stack = np.ascontiguousarray(r._kernel_stack, dtype=np.uint64)
            assert all(p.shape == (L, W) for p in parts) and stack.shape[2:] == (L, W)
            tail = np.zeros(0, dtype=np.int64) if r.tail is None else np.asarray(r.tail_pos, dtype=np.int64)
            levels[i] = (L, W, stack.shape[1], at, st, tp)
            for kept, p in zip(words, parts):
                kept.append(p.ravel())
            stacks.append(stack.ravel())
            tails.append(tail)
            at, st, tp = at + L * W, st + stack.size, tp + len(tail)
        return (*(np.concatenate(kept) for kept in words), np.concatenate(stacks), np.concatenate(tails),
                np.array([r.t0 for r in runs], dtype=np.int64), levels)

    def rows_one(self, b: int) -> np.ndarray:
        """`rows_many` of the one branch `b`, as a (2, L) int16 array: each level of the run
        (this one, its tail, the tail's tail) filled in by one call of
        `linkgraph.nets.kernel.rounds_into`, without the arrays of a batch."""
        fill = kernels().rounds_into
        run, offset = self, 0
        out = np.full((2, self._start[0].shape[0]), -1, dtype=np.int16)
        while True:
            start_on, start_off = run._start_words
            fill(out, start_on, start_off, run._kernel_stack, b, offset, run is self)
            if run.tail is None:
                break
            b = int(run.tail_pos[b])
            if b < 0:
                break
            offset += run.t0
            run = run.tail
        out[out == -2] = -1
        return out

    def round_of(self, on: bool, bs, ks) -> np.ndarray:
        """Round of literal (ks[i], on) in branch bs[i] for every i (-1: never, 0: premise)."""
        bs = np.asarray(bs, dtype=np.int64)
        ks = np.asarray(ks, dtype=np.int64)
        init = self.on0 if on else self.off0
        r = np.where(init[bs, ks], 0, -1).astype(np.int64)
        stack = self._stacks[0 if on else 1]
        if stack is not None and len(bs):
            hit = ((stack[:, ks, bs >> 6] >> (bs & 63).astype(np.uint64)) & np.uint64(1)).astype(bool)  # (T, Q)
            seen = hit.any(axis=0) & (r < 0)
            r[seen] = hit[:, seen].argmax(axis=0) + 1
        if self.tail is not None and len(bs):
            pos = self.tail_pos[bs]
            q = np.flatnonzero((r < 0) & (pos >= 0))
            if len(q):
                rt = self.tail.round_of(on, pos[q], ks[q])
                r[q] = np.where(rt > 0, rt + self.t0, -1)
        return r

    def _bools(self, words):
        out = np.ascontiguousarray(unpack(words, self.B).T)  # (B, L), rows contiguous for row gathers
        if self.tail is not None:
            sub = self.tail.on if words is self.ON else self.tail.off
            out[self.tail_pos >= 0] = sub
        return out

    @cached_property
    def on(self):
        return self._bools(self.ON)

    @cached_property
    def off(self):
        return self._bools(self.OFF)


def _compact(st, ON, OFF, live, B, t, *, depth, level, track):
    """Finish the `live` branches in a state of their own, as few words as they need."""
    keep = np.flatnonzero(unpack(live[None, :], B)[0])
    W = -(-len(keep) // 64)
    tail = _advance_loop(st, _select(ON, B, keep, W), _select(OFF, B, keep, W), len(keep), depth=depth, level=level,
                         track=track)
    pos = np.full(B, -1, dtype=np.int64)
    pos[keep] = np.arange(len(keep))
    return tail, pos, keep


def _select(words: np.ndarray, B: int, bs: np.ndarray, W: int) -> np.ndarray:
    """(L, W) words of the branches `bs` of `words` (bit i: branch ``bs[i]``)."""
    return kernels().select_bits(np.ascontiguousarray(words, dtype=np.uint64), np.asarray(bs, dtype=np.int64), W)


def _spread(cols: np.ndarray, ib: np.ndarray, W: int) -> np.ndarray:
    """(L, W) words in which bit j is ``cols[:, ib[j]]`` (`ib` ascending: each column fills
    one run of consecutive bits), built from the few (column, word) pairs those runs touch."""
    L, nb = cols.shape
    cnt = np.bincount(ib, minlength=nb)
    used = np.flatnonzero(cnt)
    s = (np.cumsum(cnt) - cnt)[used]  # each used column's first bit and one past its last
    e = s + cnt[used]
    w0 = s >> 6
    nw = ((e - 1) >> 6) - w0 + 1
    pb = np.repeat(used, nw)
    first = np.repeat(np.cumsum(nw) - nw, nw)
    pw = np.repeat(w0, nw) + np.arange(len(pb)) - first
    lo = np.clip(np.repeat(s, nw) - pw * 64, 0, 64).astype(np.uint64)
    hi = np.clip(np.repeat(e, nw) - pw * 64, 0, 64).astype(np.uint64)
    mask = _below(hi) & ~_below(lo)
    order = np.argsort(pw, kind="stable")
    pb, pw, mask = pb[order], pw[order], mask[order]
    starts = np.flatnonzero(np.r_[True, pw[1:] != pw[:-1]])
    out = np.zeros((L, W), dtype=np.uint64)
    out[:, pw[starts]] = np.bitwise_or.reduceat(np.where(cols[:, pb], mask, np.uint64(0)), starts, axis=1)
    return out


def _below(x: np.ndarray) -> np.ndarray:
    """Words with the bits below `x` set (x in 0..64)."""
    return np.where(x >= 64, _ONES, (np.uint64(1) << np.minimum(x, 63)) - np.uint64(1))


def advance(st, on: np.ndarray, off: np.ndarray, *, depth: int, level: int, track: bool = True) -> Run:
    """Run branches (rows of `on`/`off`) until each fails or stops; return a `Run`.

    Without `track` the per-round words are not kept (sub-nets need only failures).
    Each round works on whole sets: per set, whether >= 1 / >= 2 members are ON
    and >= 1 / >= 2 members are not OFF (the state keeps ON and not-OFF words
    side by side, so both counts are one pass); a candidate turns OFF when one
    of its sets has an ON member (not itself), ON when one of its sets has no
    other member left.
    """
    B = on.shape[0]
    W = max(1, -(-B // 64))
    return _advance(st, pack_columns(on, words=W), pack_columns(off, words=W), B, depth=depth, level=level,
                    track=track)


def advance_packed(st, on_words: np.ndarray, off_words: np.ndarray, B: int, *, depth: int, level: int,
                   track: bool = True) -> Run:
    """`advance` of `B` branches given as packed (candidates, W) ON and OFF words (bit
    ``b & 63`` of word ``b >> 6``: branch b), as `linkgraph.nets.kernel.subnet_starts`
    writes them."""
    return _advance(st, on_words, off_words, B, depth=depth, level=level, track=track)


def _advance(st, on_words: np.ndarray, off_words: np.ndarray, B: int, *, depth: int, level: int, track: bool) -> Run:
    """`advance` from packed (L, W) words of the branches' ON and OFF literals: at level 0
    and 1 the whole loop in one compiled call (`linkgraph.nets.kernel.advance_run`), deeper
    in `_advance_loop`."""
    if level >= 2:
        return _advance_loop(st, on_words, off_words, B, depth=depth, level=level, track=track)
    tb = st.tables
    on_words = np.ascontiguousarray(on_words, dtype=np.uint64)
    off_words = np.ascontiguousarray(off_words, dtype=np.uint64)
    starts, ends, stacks, keeps, t0s, failed = kernels().advance_run(
        on_words, off_words, B, level, _CHUNK, track, tb.mem, tb.cs, *kernel_tables(tb, depth))
    L = on_words.shape[0]
    run = None  # the segments as the loop's Runs, the last one first: each the tail of the one before
    for i in range(len(ends) - 1, -1, -1):
        Z, stack = ends[i], stacks[i]
        W = Z.shape[1] // 2
        n = len(keeps[i])
        if i == 0:
            start = (on_words, off_words)
        else:
            start = (starts[i][:L, :W], ~starts[i][:L, W:])
        tail, pos, t0 = None, None, 0
        if run is not None:
            tail, t0 = run, t0s[i + 1] - t0s[i]
            pos = np.full(n, -1, dtype=np.int64)
            pos[keeps[i + 1]] = np.arange(len(keeps[i + 1]))
        T = stack.shape[1]
        seg = Run(n, Z[:L, :W], ~Z[:L, W:], start, list(stack[0]), list(stack[1]),
                  failed if i == 0 else None, tail, pos, t0)
        if T:
            seg.__dict__["_stack2"] = stack  # the words of each round, already stacked
        run = seg
    return run


def _advance_loop(st, on_words: np.ndarray, off_words: np.ndarray, B: int, *, depth: int, level: int,
                  track: bool) -> Run:
    """`_advance` as a Python loop around the compiled round (`set_summary`, `derive`): the
    branches still running packed into fewer words as others stop (`_compact`), nesting
    through `_nest`. Levels 2 and 3 run here; at levels 0 and 1 it is the oracle of
    `linkgraph.nets.kernel.advance_run` (tests/nets/test_kernel.py)."""
    L, W = on_words.shape
    tb = st.tables
    S = tb.S
    Z = np.zeros((L + 1, 2 * W), dtype=np.uint64)  # [ON | not OFF]; row L pads: never ON, always OFF
    Z[:L, :W] = on_words
    Z[:L, W:] = ~off_words
    ON, NOT = Z[:L, :W], Z[:L, W:]
    alive = pack_columns(np.ones((B, 1), dtype=bool), words=W)[0]
    done = np.zeros(W, dtype=np.uint64)
    failed = np.full(B, -1, dtype=np.int32)
    news_on: list = []
    news_off: list = []
    G = np.zeros((S + 1, 2 * W), dtype=np.uint64)  # per set: [any ON | at most one not OFF]; row S: padding
    mem, cs = tb.mem, tb.cs
    kargs = kernel_tables(tb, depth)
    set_summary, derive = kernels().set_summary, kernels().derive
    live = alive.copy()
    zero = bytes(8 * W)  # word-row tests through bytes: much cheaper than .any() on W words
    check = W >= 2
    t = 0
    while L and live.tobytes() != zero:
        t += 1
        # contradictions: two ON in a set, a set all OFF, a candidate ON and OFF
        bad = set_summary(Z, mem, W, G)
        newly = bad & alive
        if newly.tobytes() != zero:
            failed[unpack(newly[None, :], B)[0]] = t - 1
            alive &= ~bad
            live = alive & ~done
            if live.tobytes() == zero:
                break
            check = W >= 2
        if check:
            check = False
            n_live = int(popcount_rows(live))
            if 2 * (-(-n_live // 64)) <= W:
                tail, pos, keep = _compact(st, ON, ~NOT, live, B, t, depth=depth, level=level, track=track)
                failed[keep] = np.where(tail.failed >= 0, tail.failed + (t - 1), failed[keep])
                return Run(B, ON, ~NOT, (on_words, off_words), news_on, news_off, failed, tail, pos, t - 1)
        new_on = np.empty((L, W), dtype=np.uint64)
        new_off = np.empty((L, W), dtype=np.uint64)
        changed = derive(Z, G, cs, W, live, *kargs, new_on, new_off)
        stopped = live & ~changed
        if stopped.tobytes() != zero:
            if level >= 1:
                revived = _nest(st, ON, NOT, new_off, stopped, B, W, depth=depth, level=level)
                done |= stopped & ~revived
            else:
                done |= stopped
            live = alive & ~done
            check = W >= 2
        if track:
            news_on.append(new_on)
            news_off.append(new_off)
    return Run(B, ON, ~NOT, (on_words, off_words), news_on, news_off, failed)


def _nest(st, ON, NOT, new_off, stopped, B, W, *, depth: int, level: int):
    """Sub-nets: each open candidate of each stopped branch tried ON; failures turn OFF this
    round. At level 1 (sub-nets without nesting) in one compiled call
    (`linkgraph.nets.kernel.nest_failures`), deeper in `_nest_words`."""
    if level == 1:
        tb = st.tables
        words = kernels().nest_failures(ON, NOT, stopped, B, _CHUNK, tb.mem, tb.cs, *kernel_tables(tb, depth))
    else:
        words = _nest_words(st, ON, NOT, stopped, B, W, depth=depth, level=level)
    if words is None:
        return np.zeros(W, dtype=np.uint64)
    NOT &= ~words
    new_off |= words
    return np.bitwise_or.reduce(words, axis=0)


def _nest_words(st, ON, NOT, stopped, B, W, *, depth: int, level: int):
    """(L, W) words of the open candidates whose sub-net fails, bit b of row k for candidate k
    of stopped branch b (None for none): the sub-branches laid out by branch, then candidate,
    spread from the branches' words, `_CHUNK` at a time (the oracle of `nest_failures` at level 1)."""
    bs = np.flatnonzero(unpack(stopped[None, :], B)[0])
    on_t = unpack(ON, B)[:, bs]  # (L, nb) snapshot
    off_t = unpack(~NOT, B)[:, bs]
    ib, ks = np.nonzero((~(on_t | off_t)).T)  # by branch, then candidate
    add = np.zeros((B, ON.shape[0]), dtype=bool)
    for start in range(0, len(ib), _CHUNK):
        i, k = ib[start : start + _CHUNK], ks[start : start + _CHUNK]
        n = len(i)
        Wn = -(-n // 64)
        j = np.arange(n)
        son = _spread(on_t, i, Wn)  # sub-branch j: branch i[j]'s state with candidate k[j] ON
        np.bitwise_or.at(son, (k, j >> 6), np.uint64(1) << (j & 63).astype(np.uint64))
        soff = _spread(off_t, i, Wn)
        if level == 1:  # sub-nets without nesting: the whole run compiled, only its failures kept
            tb = st.tables
            failed = kernels().failures(son, soff, n, tb.mem, tb.cs, *kernel_tables(tb, depth))
        else:
            failed = _advance(st, son, soff, n, depth=depth, level=level - 1, track=False).failed
        hit = failed >= 0
        add[bs[i[hit]], k[hit]] = True
    if not add.any():
        return None
    return pack_columns(add, words=W)
