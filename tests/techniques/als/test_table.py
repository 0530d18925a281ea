"""The ALS table against a plain reference: the same sets and relations, built from bool arrays."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import pack
from linkgraph.techniques.als.table import AlsTable
from tests.techniques.patterncases import prepared
from tests.graph.test_links import VARIANTS, variant_positions


def reference(grid: lg.Grid, max_size: int) -> dict[str, np.ndarray]:
    """The table's arrays the plain way: sets by house and combination, bool (sets, digits, cells)
    places and seeall, then per digit and pair of sets the restricted and zsee tests."""
    geo = grid.geometry
    n, ncells = geo.size, geo.number_of_cells
    cands = grid.cands
    found = set()
    for cells in geo.house_cells:
        free = [int(c) for c in cells if 2 <= cands[c].sum() <= max_size + 1]
        for k in range(1, max_size + 1):
            for combo in combinations(free, k):
                if cands[list(combo)].any(axis=0).sum() == k + 1:
                    found.add(tuple(sorted(combo)))
    sets = sorted(found, key=lambda cells: (len(cells), cells))
    N = len(sets)
    rows = np.full((N, max_size), ncells, dtype=np.intp)
    for i, cells in enumerate(sets):
        rows[i, :len(cells)] = cells
    cellmat = np.zeros((N, ncells), dtype=bool)
    for i, cells in enumerate(sets):
        cellmat[i, list(cells)] = True
    has = (cellmat[:, :, None] & cands[None]).any(axis=1)  # (N, n)
    P = cellmat[:, None, :] & cands.T[None]  # (N, n, cells): places
    # seeall: the cells that are peers of every place (none for a digit the set lacks)
    S = np.ones((N, n, ncells), dtype=bool)
    for i in range(N):
        for d in range(n):
            for c in np.flatnonzero(P[i, d]):
                S[i, d] &= geo.peers[c]
    S &= has[:, :, None]
    L = S & cands.T[None]
    overlap = (cellmat[:, None, :] & cellmat[None, :, :]).any(axis=2)
    restricted = np.zeros((N, N), dtype=np.int64)
    zsee = np.zeros((N, N), dtype=np.int64)
    for d in range(n):
        idx = np.flatnonzero(has[:, d])
        if len(idx) < 2:
            continue
        pair = np.ix_(idx, idx)
        # every place of i sees every place of j, no shared cell; a live d seeing every d of both
        apart = ~(P[idx, None, d] & ~S[None, idx, d]).any(axis=2) & ~overlap[pair]
        restricted[pair] |= apart.astype(np.int64) << d
        zsee[pair] |= (L[idx, None, d] & S[None, idx, d]).any(axis=2).astype(np.int64) << d
    selfsee = (L.any(axis=2).astype(np.int64) << np.arange(n)).sum(axis=1)
    sight = np.nonzero(L.transpose(1, 0, 2))  # (digit, set, cell), sorted
    return {"sight": sight, "cells": rows, "has": has, "places": pack(P.transpose(1, 0, 2)), "seeall": pack(S.transpose(1, 0, 2)),
            "overlap": overlap, "restricted": restricted, "zsee": zsee, "selfsee": selfsee}


def assert_matches(grid: lg.Grid, max_size: int = 4) -> None:
    table = AlsTable(grid, max_size)
    for name, want in reference(grid, max_size).items():
        got = getattr(table, name)
        if name == "sight":
            assert len(got) == 3 and all(np.array_equal(a, b) for a, b in zip(got, want)), name
            continue
        assert got.shape == want.shape and got.dtype == want.dtype, name
        assert np.array_equal(got, want), name
    assert table.digit_cells == tuple(lg.graph.als.cell_bits(grid.cands))


@pytest.mark.parametrize("max_size", [1, 2, 4, 5])
def test_table_matches_reference_on_top95(corpus, max_size):
    for grid, _ in prepared(corpus("top95", limit=4)):
        assert_matches(grid, max_size)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_table_matches_reference_on_variants(name):
    for grid, _ in variant_positions(name, 3):
        assert_matches(grid)


def test_table_matches_reference_on_16x16():
    # random candidates (no solution needed: the table reads candidates only), cells of 1 to 5
    geo = lg.geometry.classic(16)
    rng = np.random.default_rng(16)
    cands = np.zeros((geo.number_of_cells, 16), dtype=bool)
    for c in range(geo.number_of_cells):
        cands[c, rng.choice(16, size=rng.integers(1, 6), replace=False)] = True
    grid = lg.Grid(geo, cands, placed=np.zeros(geo.number_of_cells, dtype=bool))
    assert_matches(grid, 3)


def test_table_of_an_empty_board():
    table = AlsTable(lg.Grid.empty(lg.geometry.classic(9)), 4)
    assert len(table) == 0 and table.restricted.shape == (0, 0) and table.places.shape == (9, 0, 2)
