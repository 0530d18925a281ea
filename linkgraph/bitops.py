"""Bit counting on numpy arrays, shared by the chain compiler and the techniques.

``bitcount`` counts the set bits of each element (``np.bitwise_count`` on numpy 2,
a byte table before), ``popcount_table`` holds the counts of every n-bit number,
``nonzero2`` is a faster ``np.nonzero`` for 2-d arrays.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["bitcount", "bits", "nonzero2", "popcount_table"]


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def bitcount(a: np.ndarray) -> np.ndarray:
    """Set bits of each element of a non-negative integer array (``np.bitwise_count`` on numpy 2).

    >>> lg.bitops.bitcount(np.array([0, 7, 256])).tolist()
    [0, 3, 1]
    """
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(a)
    return _bitcount_bytes(a)


def _bitcount_bytes(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return _BYTE_BITS[a.view(np.uint8).reshape(*a.shape, a.itemsize)].sum(axis=-1)


@lru_cache(maxsize=8)
def popcount_table(n: int) -> np.ndarray:
    """Set bits of every n-bit number, int64, read-only.

    >>> lg.bitops.popcount_table(3).tolist()
    [0, 1, 1, 2, 1, 2, 2, 3]
    """
    table = bitcount(np.arange(1 << n, dtype=np.int64)).astype(np.int64)
    table.setflags(write=False)
    return table


def nonzero2(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.nonzero` of a C-contiguous 2-d array, through the faster flat form.

    >>> [x.tolist() for x in lg.bitops.nonzero2(np.array([[0, 1], [1, 1]]))]
    [[0, 1, 1], [1, 0, 1]]
    """
    flat = np.flatnonzero(m)
    return flat // m.shape[1], flat % m.shape[1]


def bits(mask: int) -> list[int]:
    """Positions of the set bits of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
