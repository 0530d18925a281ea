"""The ALS table's compiled build (`techniques.als.kernel.table_build`) against the numpy build it
replaced (its gathers and reductions over packed words, and its digit matrix), kept here as the
oracle."""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import nonzero2, pack, unpack
from linkgraph.geometry import Geometry
from linkgraph.graph.als import als_cells, cell_bits
from linkgraph.techniques.als.table import AlsTable
from tests.narrowings import narrowings


def digit_matrix_numpy(words: np.ndarray, N: int) -> np.ndarray:
    """The former `_digit_matrix`: unpack every word, shift each digit's plane, OR them."""
    n = words.shape[-3]
    dt = np.uint16 if n <= 16 else np.uint32 if n <= 32 else np.uint64
    b = unpack(words, N).astype(dt)
    b <<= np.arange(n, dtype=dt)[:, None, None]
    return np.bitwise_or.reduce(b, axis=-3).astype(np.int64)


_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@lru_cache(maxsize=8)
def _cell_words(geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, packed, as (words, cells + 1): its peers and itself; column number_of_cells pads
    (every cell; none)."""
    own = pack(np.eye(geometry.number_of_cells, dtype=bool), pad=False)
    peers, own = np.ascontiguousarray(geometry.peer_words.T), np.ascontiguousarray(own.T)
    peers.setflags(write=False)
    own.setflags(write=False)
    return peers, own


def _gather(rows: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``rows[:, index]`` of a 2-d array, C-contiguous (numpy leaves that fancy index strided)."""
    width = rows.shape[1]
    return rows.reshape(-1)[np.arange(len(rows)).reshape((-1,) + (1,) * index.ndim) * width + index]


def table_numpy(grid, max_size):
    """The former `AlsTable.__init__` (numpy): the table's attributes."""
    out = SimpleNamespace()
    out.grid = grid
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    cands = grid.cands
    out.digit_cells = tuple(cell_bits(cands))
    out.cells = cellrows = als_cells(grid, max_size=max_size)
    N, K = cellrows.shape
    wj = (N + 63) // 64  # words over sets
    # word-major layouts inside, (..., words, sets), so that no operand broadcasts along the last axis
    slots = np.ascontiguousarray(cellrows.T)  # (K, N): the k-th cell of each set
    ext = np.zeros((n, ncells + 1), dtype=bool)
    ext[:, :ncells] = cands.T
    hold = _gather(ext, slots)  # (n, K, N): the set's k-th cell holds d
    has = hold.any(axis=1)  # (n, N)
    out.has = has.T
    hasw = np.where(has, _ONES, np.uint64(0))[:, None]  # (n, 1, N): all ones where the set holds d
    skip = (hold.astype(np.uint64) - np.uint64(1))[:, None]  # (n, 1, K, N): all ones where the cell lacks d
    # packed over cells: per digit and set, its places and the cells seeing all of them
    peerw, ownw = _cell_words(geo)  # (words, cells + 1)
    digw = pack(cands.T)  # (n, words)
    places = np.bitwise_or.reduce(_gather(ownw, slots), axis=1)[None] & digw[:, :, None]  # (n, words, N)
    seeall = np.bitwise_and.reduce(_gather(peerw, slots)[None] | skip, axis=2) & hasw
    out.places = np.ascontiguousarray(places.transpose(0, 2, 1))  # (n, N, words)
    out.seeall = seeall = np.ascontiguousarray(seeall.transpose(0, 2, 1))
    # the live candidates seeing every place of a digit: from the few nonzero words
    live = (seeall & digw[:, None]).reshape(-1)
    nonzero = np.flatnonzero(live)
    w, bit = nonzero2(unpack(live[nonzero][:, None], 64))  # (flatnonzero is slow on uint8)
    word = nonzero[w]
    W = seeall.shape[-1]
    out.sight = d, i, x = word // (N * W), word // W % N, word % W * 64 + bit
    first = np.flatnonzero(np.concatenate(([True], (d[1:] != d[:-1]) | (i[1:] != i[:-1])))) if len(d) else d
    out.selfsee = np.zeros(N, dtype=np.int64)
    np.add.at(out.selfsee, i[first], 1 << d[first])
    # packed over sets: per digit and cell, the sets whose seeall holds it; per cell, the sets holding it
    sees = unpack(seeall, ncells)
    seen_by = np.zeros((n, ncells + 1, wj), dtype=np.uint64)  # row ncells pads: none
    seen_by[:, :ncells] = pack(sees.transpose(0, 2, 1))
    inc = np.zeros((ncells + 1, N), dtype=bool)
    inc[slots, np.arange(N)] = True
    inc[ncells] = False
    overlap = np.bitwise_or.reduce(_gather(np.ascontiguousarray(pack(inc).T), slots), axis=1)  # (wj, N)
    out.overlap = unpack(overlap.T, N)
    # restricted: sets j whose seeall holds every place of i (AND over i's cells holding d), apart from i
    rows = _gather(np.ascontiguousarray(seen_by.transpose(0, 2, 1)).reshape(n * wj, ncells + 1), slots)
    restricted = np.bitwise_and.reduce(rows.reshape(n, wj, K, N) | skip, axis=2) & hasw & ~overlap[None]
    restricted = np.ascontiguousarray(restricted.transpose(0, 2, 1))  # (n, N, wj)
    # zsee: sets j seeing a live d that sees every d of i: OR over those cells of the sets seeing them
    zsee = np.zeros_like(restricted)
    if len(d):
        zsee[d[first], i[first]] = np.bitwise_or.reduceat(seen_by[d, x], first, axis=0)
    out.restricted, out.zsee = digit_matrix_numpy(np.stack([restricted, zsee]), N)
    # a set with a digit no other set holds is not paired with itself on it
    lone = (out.has.sum(axis=0) < 2).astype(np.int64) @ (1 << np.arange(n, dtype=np.int64))
    out.zsee[np.arange(N), np.arange(N)] &= ~lone
    return out



POSITIONS = list(narrowings(seed=22, top95=5, rounds=6, start=True))


@pytest.mark.parametrize("max_size", [2, 4, 5])
def test_the_compiled_build_is_the_numpy_one(max_size):
    relations = 0
    for grid in POSITIONS:
        want = table_numpy(grid, max_size)
        got = AlsTable(grid, max_size)
        assert np.array_equal(got.cells, want.cells)
        assert got.digit_cells == want.digit_cells
        for name in ("has", "places", "seeall", "selfsee", "overlap", "restricted", "zsee"):
            a, b = getattr(got, name), getattr(want, name)
            assert a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b), name
        assert all(np.array_equal(a, b) for a, b in zip(got.sight, want.sight, strict=True))
        N = len(want.cells)  # the packed restricted commons: bit j of [d, i] is bit d of [i, j]
        unpacked = unpack(got.restricted_words, N) if N else np.zeros((grid.size, 0, 0), dtype=bool)
        assert np.array_equal(unpacked, (want.restricted[None] >> np.arange(grid.size)[:, None, None]) & 1 == 1)
        assert got.restricted_words.shape == (grid.size, N, (N + 63) // 64)
        relations += int((want.restricted != 0).sum() + (want.zsee != 0).sum())
    assert relations > 0


@pytest.mark.parametrize("n, N", [(9, 123), (9, 64), (4, 5), (16, 200), (6, 1)])
def test_the_oracles_digit_matrix_by_bits(n, N):
    """The oracle's digit matrix against a bit-by-bit reading of random words (bits past the N
    sets ignored)."""
    rng = np.random.default_rng(n * 1000 + N)
    words = rng.integers(0, 2**63, size=(1, n, N, (N + 63) // 64), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    want = np.zeros((1, N, N), dtype=np.int64)
    for d in range(n):
        for i in range(N):
            for j in range(N):
                if int(words[0, d, i, j // 64]) >> (j % 64) & 1:
                    want[0, i, j] |= 1 << d
    assert np.array_equal(digit_matrix_numpy(words, N), want)


def test_a_table_on_a_real_position_has_relations():
    table = AlsTable(lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)), 4)
    assert table.restricted.any() and table.zsee.any()
