"""The compiled step of the ALS table (`linkgraph.techniques.als.table`).

`digit_matrix` turns the table's relations, packed per digit as bits over sets, into one
integer per pair of sets whose bit d is the relation on digit d: in numpy that unpacked
every word into a (digits, sets, sets) array, widened, shifted and reduced it, a quarter
of a table's build. The numpy form it replaced is kept in
tests/techniques/als/test_table_kernel.py as its oracle. numba compiles it on first use
and caches the code beside this file; the table imports this module on its first build.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["digit_matrix"]


@njit(cache=True, nogil=True)
def digit_matrix(words, N):  # pragma: no cover (compiled; tested against numpy)
    """(R, N, N) int64 from `words` (R, digits, N, words over sets) uint64: bit d of
    ``[r, i, j]`` is bit j of ``words[r, d, i]``."""
    R, n, _, nw = words.shape
    out = np.zeros((R, N, N), dtype=np.int64)
    one = np.uint64(1)
    for r in range(R):
        for d in range(n):
            bit = np.int64(1) << d
            for i in range(N):
                for w in range(nw):
                    x = words[r, d, i, w]
                    while x:
                        j = w * 64 + trailing_zeros(x)
                        if j < N:
                            out[r, i, j] |= bit
                        x &= x - one  # the lowest set bit off
    return out
