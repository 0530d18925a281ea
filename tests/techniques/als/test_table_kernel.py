"""The ALS table's compiled digit matrix against the numpy form it replaced."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import unpack
from linkgraph.techniques.als.kernel import digit_matrix
from linkgraph.techniques.als.table import AlsTable


def digit_matrix_numpy(words: np.ndarray, N: int) -> np.ndarray:
    """The former `_digit_matrix`: unpack every word, shift each digit's plane, OR them."""
    n = words.shape[-3]
    dt = np.uint16 if n <= 16 else np.uint32 if n <= 32 else np.uint64
    b = unpack(words, N).astype(dt)
    b <<= np.arange(n, dtype=dt)[:, None, None]
    return np.bitwise_or.reduce(b, axis=-3).astype(np.int64)


@pytest.mark.parametrize("n, N", [(9, 123), (9, 64), (4, 5), (16, 200), (6, 1)])
def test_the_compiled_digit_matrix_is_the_numpy_one(n, N):
    """Random words, bits past the N sets included (they must be ignored)."""
    rng = np.random.default_rng(n * 1000 + N)
    words = rng.integers(0, 2**63, size=(2, n, N, (N + 63) // 64), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    want = digit_matrix_numpy(words, N)
    assert want.any()
    assert np.array_equal(digit_matrix(words, N), want)


def test_a_digit_matrix_by_hand():
    """Digit 0 of set 0 holds sets 1 and 2; digit 2 of set 0 holds set 2; digit 1 of set 2 holds
    set 0: [0, 1] = 0b001, [0, 2] = 0b101, [2, 0] = 0b010, the rest 0 (bit 3 names no set)."""
    words = np.zeros((1, 3, 3, 1), dtype=np.uint64)
    words[0, 0, 0, 0] = 0b0110
    words[0, 2, 0, 0] = 0b1100
    words[0, 1, 2, 0] = 0b0001
    want = np.zeros((1, 3, 3), dtype=np.int64)
    want[0, 0, 1], want[0, 0, 2], want[0, 2, 0] = 0b001, 0b101, 0b010
    assert np.array_equal(digit_matrix(words, 3), want)


def test_a_table_on_a_real_position_has_relations():
    table = AlsTable(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)), 4)
    assert table.restricted.any() and table.zsee.any()
