"""The compiled round (linkgraph/nets/kernel.py) against the numpy round it replaced.

`_numpy_round` is the engine's round as it was written with numpy (sets laid out column
by column, gathers and word-wise operations over all branches at once): the oracle of
STYLE.md §11. On random packed states of real structures (every geometry, depth 0 to 2,
branch words 1 to 3, some branches not live), both must give the same failing branches,
the same new ON and OFF words, the same changed branches and the same state after the
round. A hand-made case checks the rules themselves on one branch.
"""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.nets.engine import kernel_tables, kernels
from linkgraph.nets.search import structure
from linkgraph.oracle import solve_unique
from tests.test_solver import VARIANTS


def _or_into(dest, values, tgt) -> None:
    src, _, starts, uk = tgt
    if len(src):
        dest[uk] |= np.bitwise_or.reduceat(values[src], starts, axis=0)


def _numpy_round(st, Z, live, depth):
    """(bad, new_on, new_off, changed) of one round, `Z` updated in place: the numpy engine."""
    tb = st.tables
    L, S = st.size, len(st.sets)
    W = Z.shape[1] // 2
    ON, NOT = Z[:L, :W], Z[:L, W:]
    mem = tb.mem
    wd = (mem < L).sum(axis=1)
    order = np.argsort(-wd, kind="stable")
    rank = np.empty(S + 1, dtype=np.int64)
    rank[order] = np.arange(S)
    rank[S] = S
    ms, sw = mem[order], wd[order]
    col_n = [int((sw > c).sum()) for c in range(mem.shape[1])]
    col_idx = np.concatenate([ms[:n, c] for c, n in enumerate(col_n)])
    cs_t = rank[tb.cs].T
    cols, o = [], col_n[0]
    for n in col_n[1:]:
        cols.append((o, n))
        o += n
    two = np.zeros((S, 2 * W), dtype=np.uint64)
    X = np.take(Z, col_idx, axis=0)
    one = X[:S]
    for o, n in cols:
        x = X[o : o + n]
        two[:n] |= one[:n] & x
        one[:n] |= x
    bad = np.bitwise_or.reduce(two[:, :W] | ~one[:, W:], axis=0) | np.bitwise_or.reduce(ON & ~NOT, axis=0)
    G = np.zeros((S + 1, 2 * W), dtype=np.uint64)
    G[:S, :W] = one[:, :W]
    G[:S, W:] = ~two[:, W:]
    acc = np.bitwise_or.reduce(np.take(G, cs_t, axis=0), axis=0)
    free = NOT & live
    if depth >= 1:
        OFF = ~Z[:, W:]
        acc_off = acc[:, :W] & ~ON
        if len(st._groups["outA"]):
            nonempty, always, idx, start, tgt = tb.groups
            cond = np.zeros((len(always), W), dtype=np.uint64)
            cond[always] = ~np.uint64(0)
            if len(idx):
                cond[nonempty] = np.bitwise_and.reduceat(np.take(OFF, idx, axis=0), start, axis=0)
            _or_into(acc_off, cond, tgt)
        if depth >= 2 and st._patterns["P"]:
            idx, start, pcols, small, owner, tgt = tb.patterns
            touched = np.zeros((len(start) + 1, W), dtype=np.uint64)
            touched[:-1] = np.bitwise_or.reduceat(np.take(Z[:, W:], idx, axis=0), start, axis=0)
            c1 = np.zeros((pcols.shape[0], W), dtype=np.uint64)
            c2, c3, c4 = np.zeros_like(c1), np.zeros_like(c1), np.zeros_like(c1)
            for j in range(pcols.shape[1]):
                x = np.take(touched, pcols[:, j], axis=0)
                c4 |= c3 & x
                c3 |= c2 & x
                c2 |= c1 & x
                c1 |= x
            ok = np.where(small[:, None], ~c3, ~c4)
            _or_into(acc_off, np.take(ok, owner, axis=0) & touched[:-1], tgt)
        new_off = acc_off & free
        new_on = acc[:, W:] & free & ~ON
    else:
        free &= ~ON
        new_off = acc[:, :W] & free
        new_on = acc[:, W:] & free
    changed = np.bitwise_or.reduce(new_off | new_on, axis=0)
    ON |= new_on
    NOT &= ~new_off
    return bad, new_on, new_off, changed


def _kernel_round(st, Z, live, depth):
    set_summary, derive = kernels().set_summary, kernels().derive
    tb = st.tables
    L, W = st.size, Z.shape[1] // 2
    G = np.zeros((len(st.sets) + 1, 2 * W), dtype=np.uint64)
    bad = set_summary(Z, tb.mem, W, G)
    new_on = np.empty((L, W), dtype=np.uint64)
    new_off = np.empty((L, W), dtype=np.uint64)
    changed = derive(Z, G, tb.cs, W, live, *kernel_tables(tb, depth), new_on, new_off)
    return bad, new_on, new_off, changed


def _grids():
    for p in list(read_puzzles(corpus_path("top1465"), limit=200))[::50]:
        grid = p.grid()
        yield grid
        yield lg.prepare(grid)
    for g, puzzle in VARIANTS:
        if g.size <= 9:
            yield lg.prepare(lg.Grid.parse(puzzle, geometry=g))


@pytest.mark.parametrize("grid", list(_grids()), ids=lambda grid: grid.geometry.name)
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_the_compiled_round_is_the_numpy_round(grid, depth):
    st = structure(grid, depth)
    L = st.size
    rng = np.random.default_rng(L * 3 + depth)
    for W in (1, 3):
        for density in (0.02, 0.1, 0.3):
            Z = np.zeros((L + 1, 2 * W), dtype=np.uint64)
            on = rng.random((L, 64 * W)) < density / 4
            off = rng.random((L, 64 * W)) < density
            Z[:L, :W] = np.packbits(on, axis=1, bitorder="little").view(np.uint64)
            Z[:L, W:] = ~np.packbits(off, axis=1, bitorder="little").view(np.uint64)
            live = np.packbits(rng.random(64 * W) < 0.8, bitorder="little").view(np.uint64).copy()
            Zn, Zk = Z.copy(), Z.copy()
            want = _numpy_round(st, Zn, live, depth)
            got = _kernel_round(st, Zk, live, depth)
            for w, g, name in zip(want, got, ("bad", "new_on", "new_off", "changed")):
                assert np.array_equal(w, g), (name, W, density)
            assert np.array_equal(Zn, Zk)


def test_one_round_by_hand():
    """One branch of the GNPX position: +r2c8#1 turns the rest of r2c8 and of r2#1 OFF in the
    first round, and nothing is ON yet; a candidate both ON and OFF fails the branch."""
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    st = structure(grid, 0)
    L = st.size
    k = st.index(lg.Candidate.parse("r2c8#1"))
    Z = np.zeros((L + 1, 2), dtype=np.uint64)
    Z[:L, 1] = 1  # branch 0: nothing OFF
    Z[k, 0] = 1  # +r2c8#1
    live = np.array([1], dtype=np.uint64)
    bad, new_on, new_off, changed = _kernel_round(st, Z, live, 0)
    assert bad[0] & 1 == 0 and changed[0] & 1 == 1  # bits 1..63: branches with every literal OFF
    offs = {str(st.candidate(j)) for j in np.flatnonzero(new_off[:, 0] & 1)}
    g = grid.geometry
    x = g.index(lg.Candidate.parse("r2c8#1"))
    peers = {str(g.candidate(j)) for j in np.flatnonzero(g.sees[x] & grid.live) if st.local[j] >= 0}
    assert offs == peers and "r2c4#1" in offs
    assert not (new_on[:, 0] & 1).any()
    Z[k, 1] = 0  # +r2c8#1 also OFF
    bad, *_ = _kernel_round(st, Z, live, 0)
    assert bad[0] & 1 == 1


def _rows_numpy(run, b):
    """The round of every literal of branch `b`, ON and OFF: the numpy reading of a Run."""
    r = np.where(np.stack([run.on0[b], run.off0[b]]), 0, -1)
    stack = run._stack2
    if stack is not None:
        hit = ((stack[:, :, :, b >> 6] >> np.uint64(b & 63)) & np.uint64(1)).astype(bool)
        r = np.where(hit.any(axis=1) & (r < 0), hit.argmax(axis=1) + 1, r)
    if run.tail is not None:
        pos = int(run.tail_pos[b])
        if pos >= 0:
            rt = _rows_numpy(run.tail, pos)
            r = np.where((r < 0) & (rt > 0), rt + run.t0, r)
    return r


@pytest.mark.parametrize("puzzle, depth, level", [
    (lg.samples.GNPX_FORCECHAIN, 0, 0),
    (lg.samples.GNPX_FORCECHAIN, 2, 0),
    (lg.samples.EASTER_MONSTER, 1, 1),
    (lg.samples.GOLDEN_NUGGET, 0, 1),
])
def test_the_rounds_read_back_are_those_of_the_numpy_reading(puzzle, depth, level):
    from linkgraph.nets.propagate import propagate_singles

    st = structure(lg.prepare(lg.Grid.parse(puzzle)), depth)
    ks = np.tile(np.arange(st.size), 2)
    ons = np.repeat([True, False], st.size)
    run = propagate_singles(st, ks, ons, depth=depth, level=level).run
    assert run.tail is not None  # the branches still running were compacted: the tail is read too
    bs = np.arange(len(ks))
    got = run.rows_many(bs)
    for b in bs.tolist():
        assert np.array_equal(got[b], _rows_numpy(run, b))
        one = run.rows_one(b)  # one branch, level by level (linkgraph.nets.kernel.rounds_into)
        assert one.dtype == np.int16 and np.array_equal(one, _rows_numpy(run, b))
    assert np.array_equal(run._rows(3), _rows_numpy(run, 3))


def test_one_branch_read_through_a_tail_of_a_tail():
    """`Run.rows_one` on a run compacted twice (a start of a tail is no derivation: a literal
    in it keeps the round of the level above, or none)."""
    from linkgraph.nets.propagate import propagate_singles

    for puzzle in (lg.samples.GOLDEN_NUGGET, lg.samples.EASTER_MONSTER, lg.samples.GNPX_FORCECHAIN):
        st = structure(lg.prepare(lg.Grid.parse(puzzle)), 0)
        ks = np.tile(np.arange(st.size), 2)
        ons = np.repeat([True, False], st.size)
        run = propagate_singles(st, ks, ons, depth=0, level=1).run
        deep = [b for b in range(len(ks)) if run.tail is not None and run.tail_pos[b] >= 0
                and run.tail.tail is not None and run.tail.tail_pos[run.tail_pos[b]] >= 0]
        for b in deep:
            assert np.array_equal(run.rows_one(b), _rows_numpy(run, b))
        if deep:
            return
    pytest.fail("no run with a tail of a tail")


def test_a_tails_start_is_no_derivation():
    """Hand-made runs of two candidates and one branch: k0 ON in round 1 at the top; the
    tail (after 2 rounds) starts with k1 ON and its own tail (after 1 more) has k1 ON in
    round 1. The numpy reading gives k1 no round (a start below the top is not a
    derivation, and it hides what the levels below it say)."""
    from linkgraph.nets.engine import Run

    def words(*ks):
        w = np.zeros((2, 1), dtype=np.uint64)
        for k in ks:
            w[k, 0] = 1
        return w

    none = words()
    deepest = Run(1, none, none, (none, none), [words(1)], [none], np.array([-1]))
    tail = Run(1, none, none, (words(1), none), [none], [none], np.array([-1]), deepest, np.array([0]), 1)
    top = Run(1, none, none, (none, none), [words(0), none], [none, none], np.array([-1]), tail,
              np.array([0]), 2)
    expected = np.array([[1, -1], [-1, -1]])
    assert np.array_equal(_rows_numpy(top, 0), expected)
    assert np.array_equal(top.rows_one(0), expected)
    assert np.array_equal(top.rows_many([0])[0], expected)


@pytest.mark.parametrize("puzzle, depth", [
    (lg.samples.GNPX_FORCECHAIN, 0),
    (lg.samples.GOLDEN_NUGGET, 0),
    (lg.samples.EASTER_MONSTER, 1),
    (lg.samples.GOLDEN_NUGGET, 2),
])
def test_a_whole_run_compiled_fails_the_branches_the_engine_fails(puzzle, depth):
    """`linkgraph.nets.kernel.failures` (the sub-nets of a nested search, in one call) against
    `_advance` without tracking: the same failing round for every branch, on every premise
    alone and on random states (some premises with a few more literals OFF, as a sub-net
    starts from its branch's literals), enough branches that both compact."""
    from linkgraph.bitops import pack_columns
    from linkgraph.nets.engine import _advance_loop as _advance

    st = structure(lg.prepare(lg.Grid.parse(puzzle)), depth)
    L = st.size
    rng = np.random.default_rng(7)
    on = np.concatenate([np.eye(L, dtype=bool), np.eye(L, dtype=bool)[rng.permutation(L)]])
    off = np.concatenate([np.zeros((L, L), dtype=bool), rng.random((L, L)) < 0.04])
    off &= ~on
    B = len(on)
    W = -(-B // 64)
    on_w, off_w = pack_columns(on, words=W), pack_columns(off, words=W)
    want = _advance(st, on_w, off_w, B, depth=depth, level=0, track=False).failed
    tb = st.tables
    got = kernels().failures(on_w, off_w, B, tb.mem, tb.cs, *kernel_tables(tb, depth))
    assert (want >= 0).any() and (want < 0).any()
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("puzzle, depth", [
    (lg.samples.GNPX_FORCECHAIN, 0),
    (lg.samples.EASTER_MONSTER, 1),
    (lg.samples.GOLDEN_NUGGET, 2),
])
def test_the_compiled_sub_nets_turn_off_what_the_numpy_layout_does(puzzle, depth):
    """`linkgraph.nets.kernel.nest_failures` (the sub-nets of the stopped branches at level 1,
    laid out and run in one call) against `_nest_words` (the branches' words unpacked, spread
    over their sub-branches in numpy, run by `failures`): the same OFF words, on states after
    one round of every premise ON and OFF (some branches not stopped, some with a few
    candidates more OFF), in chunks small enough that a branch's sub-branches straddle two."""
    from linkgraph.bitops import pack_columns
    from linkgraph.nets import engine

    st = structure(lg.prepare(lg.Grid.parse(puzzle)), depth)
    L = st.size
    rng = np.random.default_rng(11)
    on = np.concatenate([np.eye(L, dtype=bool), np.zeros((L, L), dtype=bool)])
    off = np.concatenate([rng.random((L, L)) < 0.05, np.eye(L, dtype=bool)])
    off &= ~on
    B = len(on)
    W = -(-B // 64)
    Z = np.zeros((L + 1, 2 * W), dtype=np.uint64)
    Z[:L, :W] = pack_columns(on, words=W)
    Z[:L, W:] = ~pack_columns(off, words=W)
    ON, NOT = Z[:L, :W], Z[:L, W:]
    stopped = pack_columns((rng.random((B, 1)) < 0.7), words=W)[0]
    tb = st.tables
    for chunk in (engine._CHUNK, 97):
        got = kernels().nest_failures(ON, NOT, stopped, B, chunk, tb.mem, tb.cs, *kernel_tables(tb, depth))
        old = engine._CHUNK
        engine._CHUNK = chunk
        try:
            want = engine._nest_words(st, ON, NOT, stopped, B, W, depth=depth, level=1)
        finally:
            engine._CHUNK = old
        assert want is not None and want.any()
        assert got.tolist() == want.tolist()
        assert not (got & ~stopped).any()  # only stopped branches gain OFF literals


def _tracked_grids():
    """Positions where the net rungs run: the start after the basic ladder, and a position
    further down a solve path (after a few steps), of shipped puzzles and variant geometries."""
    grids = [lg.Grid.parse(p) for p in (lg.samples.GNPX_FORCECHAIN, lg.samples.GOLDEN_NUGGET,
                                         lg.samples.EASTER_MONSTER)]
    grids += [p.grid() for p in list(read_puzzles(corpus_path("hardest_1905_sample"), limit=60))[::20]]
    for grid in grids:
        grid = lg.prepare(grid)
        yield grid
        # narrower: three candidates false in the solution gone, and the basic ladder again
        # (found without the nets, so that a fault in them fails the test, not its set-up)
        values = solve_unique(grid)
        false = [c for c in grid.candidates() if values[grid.geometry.cell_index(c.cell)] != c.digit]
        narrower = lg.prepare(grid.eliminate(false[::max(1, len(false) // 3)][:3]))
        if not narrower.is_solved():
            yield narrower
    for g, puzzle in VARIANTS:
        if g.size <= 9:
            yield lg.prepare(lg.Grid.parse(puzzle, geometry=g))


@pytest.mark.parametrize("grid", list(_tracked_grids()), ids=lambda grid: grid.geometry.name)
@pytest.mark.parametrize("depth, level", [(0, 0), (1, 0), (2, 0), (0, 1)])
def test_a_whole_tracked_run_compiled_is_the_loops_run(grid, depth, level):
    """`linkgraph.nets.kernel.advance_run` (a propagation at level 0 or 1 in one call, the
    engine's `_advance`) against the Python loop it replaced (`_advance_loop`): every
    premise ON and OFF (at level 1 the first 48, as a nested rung's first chunks), and the
    same Run read back: failures, final states, the round of every literal of every branch
    (batched and one at a time), and the segments (branches and rounds of each tail)."""
    from linkgraph.bitops import pack_columns
    from linkgraph.nets.engine import _advance, _advance_loop

    st = structure(grid, depth)
    L = st.size
    if not L:
        pytest.skip("nothing open")
    ks = np.tile(np.arange(L), 2)
    ons = np.repeat([True, False], L)
    if level:
        ks, ons = ks[:48], ons[:48]
    B = len(ks)
    on = np.zeros((B, L), dtype=bool)
    off = np.zeros((B, L), dtype=bool)
    on[np.flatnonzero(ons), ks[ons]] = True
    off[np.flatnonzero(~ons), ks[~ons]] = True
    W = -(-B // 64)
    args = (st, pack_columns(on, words=W), pack_columns(off, words=W), B)
    got = _advance(*args, depth=depth, level=level, track=True)
    want = _advance_loop(*args, depth=depth, level=level, track=True)
    assert got.failed.tolist() == want.failed.tolist()
    assert np.array_equal(got.on, want.on) and np.array_equal(got.off, want.off)
    bs = np.arange(B)
    assert np.array_equal(got.rows_many(bs), want.rows_many(bs))
    for b in range(0, B, 7):
        assert np.array_equal(got.rows_one(b), want.rows_one(b))
    rng = np.random.default_rng(B)
    qb, qk = rng.integers(0, B, 400), rng.integers(0, L, 400)
    for flag in (True, False):
        assert np.array_equal(got.round_of(flag, qb, qk), want.round_of(flag, qb, qk))
    a, b = got, want
    while a is not None or b is not None:
        assert (a.B, a.t0, len(a.news_on)) == (b.B, b.t0, len(b.news_on))
        assert a.tail_pos is None or np.array_equal(a.tail_pos, b.tail_pos)
        a, b = a.tail, b.tail
