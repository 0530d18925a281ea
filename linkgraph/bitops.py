"""Bit packing and bit counting on numpy arrays: the one bit-packing API of the package.

Bit order
---------
Booleans are packed into ``uint64`` words one way everywhere: **bit j of a row is bit
``j % 64`` of word ``j // 64``** (little-endian: `np.packbits` with ``bitorder="little"``,
the bytes read as little-endian ``uint64``, `WORD`, the native type on x86 and ARM). So bit j of a row is the
Python expression ``int(words[j >> 6]) >> (j & 63) & 1``, and a row of words read as
one Python int (`to_int`) has bit j set for column j.

>>> rows = np.array([[True, False, True], [False, True, False]])
>>> words = lg.bitops.pack(rows)
>>> words.tolist()  # row 0: bits 0 and 2; row 1: bit 1
[[5], [2]]
>>> lg.bitops.unpack(words, 3).tolist() == rows.tolist()
True
>>> lg.bitops.bit_column(words, 2).tolist(), lg.bitops.to_int(words[0])
([True, False], 5)

Packing: `pack` (rows of bools, with an optional padding row of all ones or all
zeros), `pack_columns` (the same for the columns, without a transposed copy),
`pack_pairs` (bits given as (row, column) index pairs), `identity` (bit i of row i);
reading: `unpack` (the first n bits of each row), `bit_column` (one bit of each row),
`to_int` and `to_ints` (rows as Python ints). Counting: `bitcount` counts the set bits
of each element (``np.bitwise_count`` on numpy 2, a byte table before), `popcount_rows`
those of each row of words, `popcount_table` holds the counts of every n-bit number,
``nonzero2`` is a faster ``np.nonzero`` for 2-d arrays, `bits` lists the set bits of a
Python int.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = [
    "WORD", "bit_column", "bitcount", "bits", "identity", "nonzero2", "number_of_words", "pack", "pack_columns",
    "pack_pairs", "popcount_rows", "popcount_table", "sparse_nonzero", "to_int", "to_ints", "unpack",
]

#: The word type of every packed array: little-endian uint64 (the native uint64 on x86 and ARM).
WORD = np.dtype("<u8")

_WEIGHTS = (np.uint8(1) << np.arange(8, dtype=np.uint8))[None, :, None]  # bit i of a byte: weight 2**i


def number_of_words(bits: int) -> int:
    """Words holding `bits` bits: ``ceil(bits / 64)``.

    >>> lg.bitops.number_of_words(64), lg.bitops.number_of_words(65)
    (1, 2)
    """
    return (bits + 63) >> 6


def pack(rows: np.ndarray, *, words: int | None = None, pad: bool | None = None) -> np.ndarray:
    """Bool `rows` ``(R, K)`` packed into words ``(R, words)`` (bit j of a row: column j).

    `words` defaults to `number_of_words` ``(K)``; with `pad` (True or False) a last row of
    all ones or all zeros is added, for index arrays padded with ``R``. Arrays of more
    dimensions pack along their last axis, ``(..., K)`` to ``(..., words)`` (the padding
    row goes along the first).

    >>> w = lg.bitops.pack(np.array([[True, False, True]]), pad=True)
    >>> w.shape, lg.bitops.unpack(w, 3).tolist()
    ((2, 1), [[True, False, True], [True, True, True]])
    """
    R, K = rows.shape[0], rows.shape[-1]
    W = number_of_words(K) if words is None else words
    out = np.zeros((R + (pad is not None),) + rows.shape[1:-1] + (W * 8,), dtype=np.uint8)
    out[:R, ..., : (K + 7) >> 3] = np.packbits(np.ascontiguousarray(rows), axis=-1, bitorder="little")  # (strided: slow)
    if pad:
        out[R] = 255
    return out.view(WORD)


def pack_columns(a: np.ndarray, *, words: int | None = None, pad: bool | None = None) -> np.ndarray:
    """``pack(a.T, words=words, pad=pad)``, faster for a wide `a` (no transposed copy of `a`).

    >>> a = np.array([[True, False], [False, False], [True, True]])
    >>> bool((lg.bitops.pack_columns(a, pad=True) == lg.bitops.pack(a.T, pad=True)).all())
    True
    """
    K, R = a.shape
    nb = (number_of_words(K) if words is None else words) * 8
    b = np.zeros((nb * 8, R), dtype=np.uint8)
    b[:K] = a
    out = np.zeros((R + (pad is not None), nb), dtype=np.uint8)
    out[:R] = (b.reshape(nb, 8, R) * _WEIGHTS).sum(axis=1, dtype=np.uint8).T
    if pad:
        out[R] = 255
    return out.view(WORD)


def pack_pairs(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int], *, words: int | None = None) -> np.ndarray:
    """Words ``(R, words)`` for `shape` ``(R, K)``, with bit ``cols[i]`` of row ``rows[i]`` set
    for every i and no other: ``pack`` of the bools set at those pairs.

    >>> lg.bitops.pack_pairs(np.array([0, 1, 1]), np.array([0, 0, 65]), (2, 70)).tolist()
    [[1, 0], [1, 2]]
    """
    R, K = shape
    W = number_of_words(K) if words is None else words
    bools = np.zeros((R, W * 64), dtype=bool)
    bools[rows, cols] = True
    return np.packbits(bools, axis=1, bitorder="little").view(WORD)


@lru_cache(maxsize=64)
def identity(n: int) -> np.ndarray:
    """``pack(np.eye(n, dtype=bool), words=max(1, number_of_words(n)))``: bit i of row i alone;
    read-only (cached).

    >>> lg.bitops.identity(3).tolist()
    [[1], [2], [4]]
    """
    out = np.zeros((n, max(1, number_of_words(n))), dtype=WORD)
    i = np.arange(n)
    out[i, i >> 6] = np.left_shift(np.uint64(1), (i & 63).astype(np.uint64))
    out.setflags(write=False)
    return out


def unpack(words: np.ndarray, count: int) -> np.ndarray:
    """The first `count` bits of each row of `words` (``(..., words)``), as bool ``(..., count)``.

    >>> lg.bitops.unpack(np.array([[5], [2]], dtype=np.uint64), 3).tolist()
    [[True, False, True], [False, True, False]]
    """
    b = np.ascontiguousarray(words, dtype=WORD).view(np.uint8)
    return np.unpackbits(b, axis=-1, count=count, bitorder="little").view(bool)


def bit_column(words: np.ndarray, j: int) -> np.ndarray:
    """Bit `j` of each row of `words` ``(R, words)``, as bool ``(R,)``: column j of the packed rows.

    >>> lg.bitops.bit_column(np.array([[5], [2]], dtype=np.uint64), 0).tolist()
    [True, False]
    """
    return (words[:, j >> 6] >> np.uint64(j & 63)) & np.uint64(1) == 1


def to_int(row: np.ndarray) -> int:
    """One row, of bools or of packed words, as a Python int: bit j set for column j.

    >>> lg.bitops.to_int(np.array([True, False, True])), lg.bitops.to_int(np.array([5, 1], dtype=np.uint64))
    (5, 18446744073709551621)
    """
    if row.dtype == WORD:
        return int.from_bytes(row.tobytes(), "little")
    if row.dtype == bool:
        return int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")
    return int.from_bytes(row.astype(WORD).tobytes(), "little")


def to_ints(words: np.ndarray) -> list[int]:
    """Each row of `words` ``(R, words)`` as a Python int (`to_int` of each, from one copy).

    >>> lg.bitops.to_ints(np.array([[5, 1], [0, 2]], dtype=np.uint64))
    [18446744073709551621, 36893488147419103232]
    """
    data = np.ascontiguousarray(words, dtype=WORD).tobytes()
    step = words.shape[-1] * 8
    return [int.from_bytes(data[i : i + step], "little") for i in range(0, len(data), step)]


def popcount_rows(words: np.ndarray) -> np.ndarray:
    """Set bits of each row of `words` (summed over the last axis), int64.

    >>> lg.bitops.popcount_rows(np.array([[5, 1], [0, 2]], dtype=np.uint64)).tolist()
    [3, 1]
    """
    return bitcount(words).sum(axis=-1, dtype=np.int64)


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


def sparse_nonzero(a: np.ndarray) -> tuple[np.ndarray, ...]:
    """`np.nonzero` of a bool array, the same indices in the same order, faster when the
    array is large and mostly False: its bytes are read eight at a time as words, and only
    the few nonzero words are looked at byte by byte (a (200, 2, 200) array with 0.3 % set:
    about 150 -> 30 us). Small arrays go to `np.nonzero` directly.

    >>> a = np.zeros((3, 2, 700), dtype=bool)
    >>> a[0, 1, 5] = a[2, 0, 699] = a[2, 1, 0] = True
    >>> [x.tolist() for x in lg.bitops.sparse_nonzero(a)]
    [[0, 2, 2], [1, 0, 1], [5, 699, 0]]
    >>> all((x == y).all() for x, y in zip(lg.bitops.sparse_nonzero(a), np.nonzero(a)))
    True
    """
    if a.size < 4096 or a.dtype != bool:
        return np.nonzero(a)
    flat = np.ascontiguousarray(a).reshape(-1)
    n8 = flat.size & ~7
    words = np.flatnonzero(flat[:n8].view(np.uint64))
    r, c = np.nonzero(flat[:n8].reshape(-1, 8)[words])
    lin = words[r] * 8 + c
    if n8 < flat.size:
        lin = np.concatenate([lin, np.flatnonzero(flat[n8:]) + n8])
    return np.unravel_index(lin, a.shape)


def bits(mask: int) -> list[int]:
    """Positions of the set bits of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
