"""The batched breadth-first kernel of the forcing-chain search (`linkgraph.chains.search`).

`bfs` runs every premise at once (DESIGN.md §3) over a compiled graph
(`linkgraph.graph.compiled.LiteralGraph`, edges as flat int arrays): premises are
packed 64 to a machine word, and each level ORs the frontier words of every
edge's source into its destination, so one pass advances them all. It
returns each literal's distance from each premise as an int16 table
``(literals, premises)``, `INF` where a premise never reaches the literal,
and the largest distance reached. `segment_sums` adds up rows of such
tables over segments of premises (the premise sets of a cell or a house, the
members of a set X), the sums that `ChainSearch` ranks its results by.

Examples
--------
>>> grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
>>> S = lg.chains.chain_search(grid)  # its distances come from `bfs`
>>> S.dist.dtype, S.dist.shape == (S.graph.number_of_literals, len(S.premises))
(dtype('int16'), True)
>>> int(S.dist[S.premises, np.arange(len(S.premises))].max())  # a premise is 0 links from itself
0
>>> from linkgraph.chains.bfs import segment_sums
>>> rows = np.array([[1, 2], [10, 20], [100, 200]])
>>> segment_sums(rows, np.array([0, 2, 1]), np.array([0, 2]), np.array([2, 1]))
array([[101, 202],
       [ 10,  20]])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from linkgraph.bitops import unpack

if TYPE_CHECKING:
    from linkgraph.graph.compiled import LiteralGraph

__all__ = ["INF", "bfs", "segment_sums"]

#: Distance of a literal a premise never reaches (int16).
INF = 0x3FFF


def segment_sums(rows: np.ndarray, flat: np.ndarray, starts: np.ndarray, sizes: np.ndarray, dtype=None) -> np.ndarray:
    """Sums of ``rows[flat[starts[i] : starts[i] + sizes[i]]]`` for each segment ``i`` (sizes >= 1),
    accumulated in `dtype` (the rows' own by default).

    Segments are taken longest first, so the j-th members of all segments that
    have one are added with one slice (``np.add.reduceat`` over rows is far slower).
    """
    order = np.argsort(-sizes, kind="stable")
    first = starts[order]
    acc = rows.take(flat[first], axis=0)
    if dtype is not None:
        acc = acc.astype(dtype)
    sz = sizes[order]
    for j in range(1, int(sz[0]) if len(sz) else 0):
        k = int(np.count_nonzero(sz > j))
        acc[:k] += rows.take(flat[first[:k] + j], axis=0)
    out = np.empty_like(acc)
    out[order] = acc
    return out


def bfs(LG: LiteralGraph, premises: np.ndarray, pred_src: np.ndarray, pred_dst: np.ndarray) -> tuple[np.ndarray, int]:
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
    L = LG.number_of_literals
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
