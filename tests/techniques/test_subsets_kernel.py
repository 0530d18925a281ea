"""The subsets' and basic fish's compiled search (`techniques.kernel.closed_spilling`) against the
numpy search it replaced on those rungs' paths (`closed_subsets` then `spilling`,
kept here as the oracle), with the inputs each rung gives it, on narrowings of classic puzzles and of
every variant geometry (16x16 included), for sizes 2 to 4. Also the tables those rungs read on
most grids: `base.house_places` (compiled, against the numpy product it replaced) and
`base.DigitView` (its ints cut from one conversion, against the row-by-row conversion)."""

from __future__ import annotations

import numpy as np
import pytest

from linkgraph.bitops import bitcount
from linkgraph.techniques import fish, kernel, subsets
from linkgraph.techniques.base import house_places
from linkgraph.techniques.subsets import LEFT_OUT, combination_table
from tests.narrowings import narrowings

def closed_subsets(masks: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, combinations, unions) of each `size` positions of `masks` (rows, positions; those
    left out hold `LEFT_OUT`) whose masks OR to `size` bits: rows in order, then combinations
    in order."""
    table = combination_table(masks.shape[1], size)
    union = masks[:, table[:, 0]]
    for j in range(1, size):
        union |= masks[:, table[:, j]]
    rows, combos = np.nonzero(bitcount(union) == size)
    return rows, combos, union[rows, combos]


def spilling(union: np.ndarray, outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """Which closed subsets eliminate: the live candidates of the sets the union covers (`outer`,
    per row a count per bit) outnumber those of the subset's own sets (`inner`, the total), all
    of which they hold."""
    covered = (union[:, None] >> np.arange(outer.shape[1])) & 1
    return (covered * outer).sum(axis=1) > inner


POSITIONS = list(narrowings(seed=31, top95=8, rounds=6, start=True))


def inputs(grid, kind: str, size: int):
    """(masks, table, outer, inner) as the rung gives them: one tuple per call."""
    g = grid.geometry
    n = g.size
    table = combination_table(n, size)
    if kind == "naked":
        house_masks = subsets._masks(grid)[g.house_cells]
        counts = bitcount(house_masks)
        masks = np.where((counts >= 2) & (counts <= size), house_masks, LEFT_OUT)
        return [(masks, table, bitcount(house_places(grid)), counts)]
    if kind == "hidden":
        places = house_places(grid)
        counts = bitcount(places)
        masks = np.where((counts >= 2) & (counts <= size), places, LEFT_OUT)
        return [(masks, table, grid.counts[g.house_cells], counts)]
    places = house_places(grid)
    weights = 1 << np.arange(n, dtype=np.int64)
    solved_at = (weights * (grid.counts == 1)[g.house_cells]).sum(axis=1)
    out = []
    for base, cover in fish._lines(g):
        if len(base) < size:
            continue
        masks = places[base]
        counts = bitcount(masks)
        usable = (masks & solved_at[base, None] == 0) & (counts >= 2) & (counts <= size)
        out.append((np.where(usable, masks, LEFT_OUT).T, combination_table(len(base), size),
                    bitcount(places[cover]).T, counts.T))
    return out


def numpy_search(masks, size, table, outer, inner):
    r, t, union = closed_subsets(masks, size)
    keep = spilling(union, outer[r], inner[r[:, None], table[t]].sum(axis=1))
    return r[keep], t[keep], union[keep]


@pytest.mark.parametrize("kind", ["naked", "hidden", "fish"])
@pytest.mark.parametrize("size", [2, 3, 4])
def test_the_compiled_search_is_the_numpy_one(kind, size):
    found = 0
    for grid in POSITIONS:
        for masks, table, outer, inner in inputs(grid, kind, size):
            want = numpy_search(masks, size, table, outer, inner)
            got = kernel.closed_spilling(masks, size, table, outer, inner)
            for a, b in zip(got, want):
                assert np.array_equal(a, b) and a.dtype == np.int64
            found += len(want[0])
    assert found > 0


def test_the_geometries_are_covered():
    assert {grid.size for grid in POSITIONS} >= {4, 6, 9, 16}


def test_a_planted_fault_fails_the_oracle(monkeypatch):
    """Keeping subsets that eliminate nothing (covered == own) must show."""
    real = kernel.closed_spilling

    def faulty(masks, size, table, outer, inner):
        return real(masks, size, table, outer + (np.arange(outer.shape[1]) == 0), inner)

    with pytest.raises(AssertionError):
        for grid in POSITIONS:
            for masks, table, outer, inner in inputs(grid, "naked", 2):
                want = numpy_search(masks, 2, table, outer, inner)
                for a, b in zip(faulty(masks, 2, table, outer, inner), want):
                    assert np.array_equal(a, b)


def house_places_numpy(grid) -> np.ndarray:
    """The former `base._house_places`."""
    g = grid.geometry
    weights = np.int64(1) << np.arange(g.size, dtype=np.int64)
    return np.tensordot(weights, grid.cands[g.house_cells].astype(np.int64), axes=([0], [1]))


def test_house_places_are_the_numpy_ones():
    from linkgraph.techniques.base import _house_places

    for grid in POSITIONS:
        got, want = _house_places(grid), house_places_numpy(grid)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
        assert not got.flags.writeable
    # a planted fault: one house's last cell left out
    g = POSITIONS[0].geometry
    short = kernel.house_places(POSITIONS[0].cands, np.ascontiguousarray(g.house_cells[:, :-1]))
    assert not np.array_equal(short, house_places_numpy(POSITIONS[0]))


def test_digit_view_is_the_row_by_row_conversion():
    from linkgraph.techniques.base import DigitView

    for grid in POSITIONS:
        cands = grid.cands
        one = cands & (cands.sum(axis=1) == 1)[:, None]
        packed = np.packbits(np.concatenate([cands.T, one.T, grid.placed[None]]), axis=1, bitorder="little")
        want = [int.from_bytes(row.tobytes(), "little") for row in packed]
        view = DigitView(grid)
        n = grid.size
        assert view.cols == want[:n] and view.solved == want[n:2 * n] and view.placed == want[2 * n]
        assert view.cols[0] == sum(1 << c for c in np.flatnonzero(cands[:, 0]).tolist())  # by hand
