"""The compiled part of the colouring tables (`linkgraph.techniques.coloring.medusa.Colors`).

`color_tables` works out, for every colour class of the clusters, what it sees among the
live candidates, its own members, whether it sees one of them, the first set X it
empties (3D Medusa) and, per cluster, the uncoloured candidates seeing both colours, in
one pass over the packed sight of each class's members. In numpy those were some twenty
calls per grid (a reduction over packed words, unpacking, scatters, a column packing and
a set-by-set OR), run on most steps of a long solve by the three rungs that share the
tables; the numpy form is kept in tests/techniques/coloring/test_kernel.py as its oracle.
numba compiles it on first use and caches the code beside this file; `medusa` imports
this module on its first table. Imports only numpy and numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["color_tables"]


@njit(cache=True, nogil=True)
def color_tables(nodes, starts, L, at, sees_words, members, n, medusa):  # pragma: no cover (compiled)
    """``(seen, mine, twice, emptied, elim)`` of the colour classes.

    `nodes` holds the coloured candidates class by class (class q from ``starts[q]``),
    `L` the live candidates (column j is ``L[j]``), `at` each node's column, `sees_words`
    each candidate's sight packed over candidates, `members` each set X's members as
    columns (a dead one: ``len(L)``), `n` the number of digits. Without `medusa` a class
    sees only candidates of its own digit (one digit per cluster) and empties no set.

    seen (classes, live) and mine (classes, live) bool: what each class sees and holds;
    twice (classes,) bool: a class seeing one of its own; emptied (classes,) int64: the
    first set X with live members all seen by the class or held by its partner colour
    (-1: none); elim (clusters, live) bool: the candidates seeing both colours of a
    cluster and in neither.
    """
    Q = len(starts)
    nl = len(L)
    seen = np.zeros((Q, nl), dtype=np.bool_)
    mine = np.zeros((Q, nl), dtype=np.bool_)
    twice = np.zeros(Q, dtype=np.bool_)
    emptied = np.full(Q, -1, dtype=np.int64)
    for q in range(Q):
        stop = starts[q + 1] if q + 1 < Q else len(nodes)
        digit = nodes[starts[q]] % n
        for t in range(starts[q], stop):
            k = nodes[t]
            mine[q, at[t]] = True
            for j in range(nl):
                x = L[j]
                if (sees_words[k, x >> 6] >> np.uint64(x & 63)) & np.uint64(1):
                    if medusa or x % n == digit:
                        seen[q, j] = True
    for q in range(Q):
        for t in range(starts[q], starts[q + 1] if q + 1 < Q else len(nodes)):
            if seen[q, at[t]]:
                twice[q] = True
                break
    if medusa:
        S, width = members.shape
        for q in range(Q):
            partner = q ^ 1
            for s in range(S):
                occupied = False
                all_off = True
                for w in range(width):
                    j = members[s, w]
                    if j >= nl:
                        continue
                    occupied = True
                    if not (seen[q, j] or mine[partner, j]):
                        all_off = False
                        break
                if occupied and all_off:
                    emptied[q] = s
                    break
    elim = np.zeros((Q // 2, nl), dtype=np.bool_)
    for c in range(Q // 2):
        for j in range(nl):
            elim[c, j] = seen[2 * c, j] and seen[2 * c + 1, j] and not (mine[2 * c, j] or mine[2 * c + 1, j])
    return seen, mine, twice, emptied, elim
