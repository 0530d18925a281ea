"""The compiled breadth-first levels (linkgraph/chains/kernel.py) against the numpy levels, and
the compiled contradiction scan against the numpy one.

`bfs_numpy` is the chain search's breadth-first search as it was written with numpy
(gathers and ``reduceat`` per level, levels kept bit-sliced and decoded at the end): the
oracle of STYLE.md §11. `linkgraph.chains.bfs.bfs` must give the same distance table and
depth on the compiled graphs of real positions of every geometry, and on random digraphs.
"""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import unpack
from linkgraph.chains.bfs import INF, bfs, segment_sums
from linkgraph.chains.search import BIG, chain_search
from linkgraph.io import corpus_path, read_puzzles
from tests.test_solver import VARIANTS


def bfs_numpy(L: int, premises: np.ndarray, pred_src: np.ndarray, pred_dst: np.ndarray) -> tuple[np.ndarray, int]:
    """Distances ``(literals, premises)`` int16 (INF where unreached), all premises at once,
    and the largest distance reached.

    Premises are bits of uint64 words: row ``k`` of the frontier holds, for
    literal ``k``, which premises reached it at the last level. Each level
    gathers the frontier rows of every edge's source and ORs them into the
    edge's destination (edges sorted by destination, one ``reduceat``). Rows
    are kept only for literals with an in-edge (plus one zero row for the
    rest), and distances are kept bit-sliced (plane ``j`` holds bit ``j`` of
    the level each bit was first reached at), unpacked once at the end.
    """
    P = len(premises)
    W = max(1, (P + 63) // 64)
    dist = np.full((L, P), INF, dtype=np.int16)
    if not P:
        return dist, 0
    pi = np.arange(P)
    pbits = np.left_shift(np.uint64(1), (pi & 63).astype(np.uint64))
    dist[premises, pi] = 0
    if not len(pred_src):
        return dist, 0
    first = np.ones(len(pred_dst), dtype=bool)
    np.not_equal(pred_dst[1:], pred_dst[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    dsts = pred_dst[starts]
    D = len(dsts)
    row = np.full(L, D, dtype=np.int64)  # compact row of each literal; D: the zero row
    row[dsts] = np.arange(D)
    front = np.zeros((L, W), dtype=np.uint64)  # level 0: the premises themselves
    front[premises, pi >> 6] = pbits
    red = np.bitwise_or.reduceat(front.take(pred_src, axis=0), starts, axis=0)  # (D, W)
    seen = np.zeros((D, W), dtype=np.uint64)
    pr = row[premises]
    inner = pr < D
    seen[pr[inner], (pi >> 6)[inner]] = pbits[inner]  # one premise per literal
    src = row[pred_src]
    buf = np.zeros((D + 1, W), dtype=np.uint64)
    new = buf[:D]
    unseen = ~seen
    planes: list[np.ndarray] = []
    level = 0
    while True:
        level += 1
        np.bitwise_and(red, unseen, out=new)
        if not new.any():
            break
        unseen ^= new
        while level >> len(planes):
            planes.append(np.zeros((D, W), dtype=np.uint64))
        for j, plane in enumerate(planes):
            if level >> j & 1:
                plane |= new
        red = np.bitwise_or.reduceat(buf.take(src, axis=0), starts, axis=0)
    if len(planes) < 8:
        # decode: unpack each plane to bytes (one per premise) weighted by its bit; INF where
        # never reached
        code = np.zeros((D, P), dtype=np.uint8)
        for j, plane in enumerate(planes):
            bits = unpack(plane, P).view(np.uint8)
            if j:
                np.multiply(bits, np.uint8(1 << j), out=bits)
            code += bits
        d = code.astype(np.int16)
        unreached = unpack(unseen, P).view(np.uint8)
        d += np.multiply(unreached, np.int16(INF), dtype=np.int16)
        dist[dsts] = d
        return dist, level - 1
    # decode: each byte of a plane spreads to 8 int16 lanes (one per premise) by table
    one, unreached = _LANES
    d = unreached.take(unseen.view(np.uint8), axis=0)  # INF where never reached: (D, 8W, 2)
    for j, plane in enumerate(planes):
        bits = one.take(plane.view(np.uint8), axis=0)
        if j:
            bits <<= np.uint64(j)
        d |= bits
    dist[dsts] = d.view(np.int16).reshape(D, -1)[:, :P]
    return dist, level - 1


def _lanes() -> tuple[np.ndarray, np.ndarray]:
    lanes = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.uint16)  # byte -> its 8 bits
    out = lanes.view(np.uint64), (lanes * np.uint16(INF)).view(np.uint64)
    for x in out:
        x.setflags(write=False)
    return out


_LANES = _lanes()  # (256, 2) uint64 each: a byte's bits as int16 lanes of 1, and of INF


def _grids():
    for p in list(read_puzzles(corpus_path("top1465"), limit=200))[::40]:
        grid = lg.prepare(p.grid())
        if not grid.is_solved():
            yield grid
    for g, puzzle in VARIANTS:
        if g.size <= 9:
            yield lg.Grid.parse(puzzle, geometry=g)


@pytest.mark.parametrize("grid", list(_grids()), ids=lambda grid: grid.geometry.name)
def test_distances_are_those_of_the_numpy_levels(grid):
    S = chain_search(grid)
    LG = S.graph
    want = bfs_numpy(LG.number_of_literals, S.premises, S.pred_src, LG.dst[S.pred_eid])
    got = bfs(LG.number_of_literals, S.premises, LG.src, LG.dst)
    assert np.array_equal(got[0], want[0]) and got[1] == want[1]
    assert np.array_equal(S.dist, want[0]) and S.depth == want[1]
    assert np.array_equal(unpack(got[2], len(S.premises)), want[0] < INF)
    assert (got[0] < INF).sum() > len(S.premises)  # the premises reach more than themselves


@pytest.mark.parametrize("seed", range(6))
def test_random_digraphs(seed):
    """Random sparse digraphs, some premises without in-edges, up to 200 premises (4 words)."""
    rng = np.random.default_rng(seed)
    L = int(rng.integers(5, 400))
    E = int(rng.integers(0, 4 * L))
    src, dst = rng.integers(0, L, E), rng.integers(0, L, E)
    order = np.lexsort((src, dst))
    src, dst = src[order], dst[order]
    premises = np.sort(rng.choice(L, size=min(L, int(rng.integers(1, 200))), replace=False))

    want = bfs_numpy(L, premises, src, dst)
    by_src = np.lexsort((dst, src))
    got = bfs(L, premises, src[by_src], dst[by_src])
    assert np.array_equal(got[0], want[0]) and got[1] == want[1]


def _hardest_searches():
    """Chain searches of positions along the solve paths of two hardest-sample puzzles."""
    lines = list(read_puzzles(corpus_path("hardest_1905_sample"), limit=40))[::20]
    for line in lines:
        grid = lg.Grid.parse(line.puzzle)
        for i, step in enumerate(lg.solve(grid).steps):
            if i % 15 == 7 and not grid.is_solved():
                yield chain_search(grid)
            grid = grid.apply(step)


HARDEST = list(_hardest_searches())


def test_hardest_positions_are_those_of_the_numpy_levels():
    """Positions where the ladder reaches the chain rungs, in the puzzles the search is timed on."""
    assert len(HARDEST) >= 6
    for S in HARDEST:
        LG = S.graph
        want = bfs_numpy(LG.number_of_literals, S.premises, S.pred_src, LG.dst[S.pred_eid])
        assert np.array_equal(S.dist, want[0]) and S.depth == want[1]


@pytest.mark.parametrize("fault", ["reversed-edges", "pointers-by-destination", "targets-shifted"])
def test_planted_level_faults_fail_the_oracle(fault):
    """The push reads each source's successors from `ptr` and `out`: wrong ones must show."""
    from linkgraph.chains import kernel

    with pytest.raises(AssertionError):
        for S in HARDEST:
            LG = S.graph
            L = LG.number_of_literals
            src, dst = LG.src.astype(np.int64), LG.dst.astype(np.int64)
            if fault == "reversed-edges":
                order = np.lexsort((src, dst))
                src, dst = dst[order], src[order]
            ptr = np.zeros(L + 1, dtype=np.int64)
            np.cumsum(np.bincount(dst if fault == "pointers-by-destination" else src, minlength=L), out=ptr[1:])
            if fault == "targets-shifted":
                dst = (dst + 2) % L
            dist = np.full((L, len(S.premises)), INF, dtype=np.int16)
            dist[S.premises, np.arange(len(S.premises))] = 0
            seen = np.zeros((L, (len(S.premises) + 63) // 64), dtype=np.uint64)
            depth = kernel.levels(L, np.ascontiguousarray(S.premises, dtype=np.int64), ptr, dst, dist, seen)
            want = bfs_numpy(L, S.premises, S.pred_src, LG.dst[S.pred_eid])
            assert np.array_equal(dist, want[0]) and depth == want[1]


def contradictions_numpy(S):
    """(contra_len, contra_how) of a `ChainSearch` as `ChainSearch._contradictions` computed them
    with numpy before the compiled scan (`linkgraph.chains.kernel.contradictions`): node pairs by
    sum and first argmin, then the sets X of 3+ live members in (size, set) order, their OFF
    distances capped and summed by segment, a set kept when strictly shorter."""
    LG, dist = S.graph, S.dist
    P = len(S.premises)
    pr = np.arange(P)
    if len(dist):
        both = dist[0::2] + dist[1::2]
        how = both.argmin(axis=0)
        best = both[how, pr].astype(np.int64)
    else:
        how = np.zeros(P, dtype=np.int64)
        best = np.full(P, 2 * INF, dtype=np.int64)
    g = S.geometry
    sm = g.set_members
    lsm = LG.grid.live[sm]
    cnt = lsm.sum(axis=1)
    sets = np.flatnonzero(cnt >= 3)
    sets = sets[np.argsort(cnt[sets], kind="stable")]
    lsm = lsm[sets]
    nodes = LG.cand_node[sm[sets][lsm]]
    starts = np.r_[0, np.cumsum(cnt[sets])[:-1]]
    if len(sets) and nodes.min() < 0:
        ok = np.minimum.reduceat(nodes, starts) >= 0
        nodes = nodes[np.repeat(ok, cnt[sets])]
        sets = sets[ok]
        starts = np.r_[0, np.cumsum(cnt[sets])[:-1]]
    if len(sets) and P:
        n = g.size
        if n * S.depth < 1 << 11 and n << 11 < 1 << 15:
            cap = 1 << 11
            off, dt = np.minimum(dist[1::2], np.int16(cap)), None
        else:
            cap = BIG
            off, dt = np.where(dist[1::2] < INF, dist[1::2], np.int32(BIG)), np.int64
        tot = segment_sums(off, nodes, starts, cnt[sets], dt)
        j = tot.argmin(axis=0)
        t = tot[j, pr].astype(np.int64)
        better = (t < best) & (t < cap)
        best = np.where(better, t, best)
        how = np.where(better, -(sets[j] + 1), how)
    return np.where(best < INF, best, BIG), how.astype(np.int64)


def _contradiction_grids():
    """Positions along a hardest and two top1465 solves, their narrowings that drop solution
    candidates too (contradictions everywhere), and every geometry's start, 16x16 included."""
    rng = np.random.default_rng(5)
    puzzles = [p.puzzle for p in read_puzzles(corpus_path("hardest_1905_sample"), limit=1)]
    puzzles += [p.puzzle for p in read_puzzles(corpus_path("top1465"), limit=300)][::150]
    for puzzle in puzzles:
        grid = lg.Grid.parse(puzzle)
        for step in lg.solve(grid).steps[::9]:
            grid = grid.apply(step)
            if grid.is_solved():
                break
            yield grid
            live = grid.live.copy()
            live[rng.choice(np.flatnonzero(live), size=4, replace=False)] = False
            yield lg.Grid(grid.geometry, live, grid.givens, grid.placed)
    for g, puzzle in VARIANTS:
        yield lg.Grid.parse(puzzle, geometry=g)


CONTRADICTION_GRIDS = list(_contradiction_grids())


def _same_contradictions(S) -> set:
    """Assert `S`'s contradictions are numpy's (`contra_how` where there is one, 0 elsewhere:
    numpy's argmin there is a node reached on one side only, which nothing reads); their kinds."""
    want_len, want_how = contradictions_numpy(S)
    assert S.contra_len.dtype == want_len.dtype and np.array_equal(S.contra_len, want_len)
    found = S.contra_len < BIG
    assert S.contra_how.dtype == want_how.dtype and np.array_equal(S.contra_how[found], want_how[found])
    assert not S.contra_how[~found].any()
    return {"node" if h >= 0 else "set" for h in S.contra_how[found].tolist()}


def test_contradictions_are_those_of_numpy():
    kinds = set()
    for grid in CONTRADICTION_GRIDS:
        kinds |= _same_contradictions(chain_search(grid))
        kinds.add(grid.geometry.size)
    assert {"node", "set", 16} <= kinds
    for S in HARDEST:
        _same_contradictions(S)


@pytest.mark.parametrize("fault", ["seen-shifted", "dead-members-live", "off-rows-on"])
def test_planted_contradiction_faults_fail_the_oracle(monkeypatch, fault):
    """The scan reads which premises reach what from `seen`, the sets' live members from `live`,
    and the OFF rows of the members: wrong ones must show."""
    from linkgraph.chains import kernel, search

    def faulty(dist, seen, sm, live, cand_node, best, how):
        if fault == "seen-shifted":
            seen = np.ascontiguousarray(np.roll(seen, 1, axis=1)) if seen.shape[1] > 1 else seen >> np.uint64(1)
        elif fault == "dead-members-live":
            live = np.ones_like(live)
            cand_node = np.where(cand_node >= 0, cand_node, 0)
        else:  # a set's members read ON: its rows one literal early
            dist, seen = dist[np.r_[1:len(dist), 0]], seen[np.r_[1:len(seen), 0]]
        return kernel.contradictions(dist, seen, sm, live, cand_node, best, how)

    class Faulty:
        contradictions = staticmethod(faulty)

    monkeypatch.setattr(search, "_kernel", lambda: Faulty)
    with pytest.raises(AssertionError):
        for grid in CONTRADICTION_GRIDS:
            _same_contradictions(chain_search(grid))
