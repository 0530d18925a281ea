"""The batched breadth-first kernel of the forcing-chain search (`linkgraph.chains.search`).

`bfs` runs every premise at once (DESIGN.md §3) over a compiled graph
(`linkgraph.graph.compiled.LiteralGraph`, edges as flat int arrays): premises are
packed 64 to a machine word, and each level ORs the frontier words of the
literals the last level reached into their successors, so one pass advances
them all. It
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

import numpy as np

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


def bfs(L: int, premises: np.ndarray, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """Distances ``(literals, premises)`` int16 (INF where unreached), all premises at once,
    the largest distance reached, and which premises reach each literal, packed ``(literals,
    words)`` uint64 (bit p of word p // 64), over `L` literals and the edges ``src[e] ->
    dst[e]`` sorted by source (`LiteralGraph` keeps its edges so).

    Premises are bits of uint64 words: row ``k`` of the frontier holds, for
    literal ``k``, which premises reached it at the last level. Each level ORs
    the frontier rows of the literals the last level reached into their
    successors and keeps the bits not seen before; each new bit's distance is
    written as it is found (`linkgraph.chains.kernel.levels`, compiled).
    """
    P = len(premises)
    dist = np.full((L, P), INF, dtype=np.int16)
    seen = np.zeros((L, (P + 63) // 64), dtype=np.uint64)
    if not P:
        return dist, 0, seen
    premises = np.ascontiguousarray(premises, dtype=np.int64)
    dist[premises, np.arange(P)] = 0
    ptr = np.zeros(L + 1, dtype=np.int64)
    if len(src):
        np.cumsum(np.bincount(src, minlength=L), out=ptr[1:])
    depth = _kernel().levels(L, premises, ptr, np.ascontiguousarray(dst, dtype=np.int64), dist, seen)
    return dist, int(depth), seen


_KERNEL = None


def _kernel():
    """`linkgraph.chains.kernel`, imported on the first search (numba is slow to import)."""
    global _KERNEL
    if _KERNEL is None:
        from linkgraph.chains import kernel

        _KERNEL = kernel
    return _KERNEL
