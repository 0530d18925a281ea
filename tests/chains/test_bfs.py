"""The compiled breadth-first levels (linkgraph/chains/kernel.py) against the numpy levels.

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
from linkgraph.chains.bfs import INF, bfs
from linkgraph.chains.search import chain_search
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
    got = bfs(LG, S.premises, S.pred_src, LG.dst[S.pred_eid])
    assert np.array_equal(got[0], want[0]) and got[1] == want[1]
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

    class _G:
        number_of_literals = L

    want = bfs_numpy(L, premises, src, dst)
    got = bfs(_G, premises, src, dst)
    assert np.array_equal(got[0], want[0]) and got[1] == want[1]
