"""The bit engine's word layouts: packing helpers against the plain bool-matrix ones."""

from __future__ import annotations

import numpy as np
import pytest

from linkgraph.bitops import pack_columns, unpack
from linkgraph.nets.engine import _select, _spread


@pytest.mark.parametrize("B, n", [(1, 1), (64, 10), (65, 64), (200, 65), (3000, 777)])
def test_select_keeps_the_chosen_branches(B, n):
    rng = np.random.default_rng(B)
    rows = rng.random((B, 37)) < 0.4
    W = -(-B // 64)
    words = pack_columns(rows, words=W)
    bs = np.sort(rng.choice(B, n, replace=False))
    W2 = -(-n // 64)
    assert np.array_equal(_select(words, B, bs, W2), pack_columns(rows[bs], words=W2))
    assert np.array_equal(unpack(_select(words, B, bs, W2), n), rows[bs].T)


@pytest.mark.parametrize("nb, seed", [(1, 0), (3, 1), (24, 2), (70, 3)])
def test_spread_repeats_each_column_over_its_run_of_bits(nb, seed):
    rng = np.random.default_rng(seed)
    cols = rng.random((41, nb)) < 0.5
    ib = np.sort(rng.integers(0, nb, size=rng.integers(1, 300)))
    ib = ib[ib >= ib[0]]
    W = -(-len(ib) // 64)
    assert np.array_equal(_spread(cols, ib, W), pack_columns(cols[:, ib].T, words=W))
    part = ib[5:]  # a chunk that starts inside a column's run
    if len(part):
        W = -(-len(part) // 64)
        assert np.array_equal(_spread(cols, part, W), pack_columns(cols[:, part].T, words=W))
