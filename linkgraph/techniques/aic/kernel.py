"""The compiled level of the chain search (`linkgraph.techniques.aic.search.Search.advance`).

One level carries every start's bits across one kind of link: per target node the OR of
its sources' rows, minus the starts that reached it before at that parity. In numpy that
was a gather, a segmented OR, a mask and a scatter, some ten calls on arrays of a few
words, whose fixed cost was most of a level in the small nets of the solve path; here it
is one loop over the links. The numpy level it replaced is kept in
tests/techniques/aic/test_kernel.py as its oracle. numba compiles it on first use and
caches the code beside this file; the search imports this module on its first level.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["level"]


@njit(cache=True, nogil=True)
def level(frontier, v, u, unseen):  # pragma: no cover (compiled; tested against numpy)
    """The (nodes, words) bits newly reached over the links ``u[e] -> v[e]`` from `frontier`
    (the starts at each node at the last level; a node with none carries nothing): per
    target the OR of its sources' rows, and-ed with `unseen` (the starts that have not
    reached it at this parity); `unseen` loses them in place. Returns (reached, whether
    any bit is set); `unseen` is left as it was when none is."""
    N, W = frontier.shape
    carries = np.zeros(N, dtype=np.bool_)
    for k in range(N):
        for w in range(W):
            if frontier[k, w]:
                carries[k] = True
                break
    reached = np.zeros((N, W), dtype=np.uint64)
    for e in range(len(v)):
        s = u[e]
        if carries[s]:
            t = v[e]
            for w in range(W):
                reached[t, w] |= frontier[s, w]
    found = False
    for k in range(N):
        for w in range(W):
            x = reached[k, w] & unseen[k, w]
            reached[k, w] = x
            if x:
                found = True
    if found:
        for k in range(N):
            for w in range(W):
                unseen[k, w] ^= reached[k, w]
    return reached, found
