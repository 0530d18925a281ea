"""The finned-fish screen compiled (`techniques.kernel.finned_screen`) against the numpy screen it
replaced, kept here as its oracle, on every geometry's start, after the basic ladder and on random
narrowings toward the solution."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.bitops import bitcount
from linkgraph.techniques import finned
from linkgraph.techniques.base import house_places
from linkgraph.techniques.kernel import finned_screen
from tests.techniques.patterncases import read_cases
from tests.narrowings import narrowings


def screen_numpy(grid, size):
    """The former numpy screen of `finned._records`: its (side, digit, combination, box, body,
    union) rows in the order it met them, and the places of the usable base lines."""
    g = grid.geometry
    n = g.size
    boxes, _ = finned._sides(g)
    base_lines, line_cells, weights, box_masks, stacks, positional = finned._stacked(g)
    if positional:
        live_pos = house_places(grid)[base_lines]
    else:
        live_pos = (grid.cands[line_cells] * weights[..., None]).sum(axis=2)
    solved_pos = (weights * (grid.counts == 1)[line_cells]).sum(axis=2)
    usable = (bitcount(live_pos) >= 2) & (live_pos & solved_pos[..., None] == 0)
    P = np.where(usable, live_pos, 1 << n)
    lines = line_cells.shape[1]
    table = finned._combination_table(lines, size)
    member = np.zeros((len(table), lines), dtype=bool)
    member[np.arange(len(table))[:, None], table] = True
    union = P[:, table[:, 0]]
    for j in range(1, size):
        union |= P[:, table[:, j]]
    si, di, ci = np.nonzero(((union >> n == 0) & (bitcount(union) > size)).transpose(0, 2, 1))
    rows = []
    if not len(si):
        return rows, live_pos
    inside = box_masks[:, :, :, None]
    on_base = (P[:, :, None] & ~inside) | np.where(P[:, :, None] & inside, 1 << n, 0)
    on_base = np.ascontiguousarray(on_base.transpose(0, 3, 1, 2))
    in_box = np.ascontiguousarray((live_pos[:, :, None] & inside).transpose(0, 3, 1, 2))
    s, d, c = si, di, ci
    both = on_base[s, d, table[c, 0]]
    for j in range(1, size):
        both |= on_base[s, d, table[c, j]]
    body = both & ((1 << n) - 1)
    u = union[s, c, d][:, None]
    add = stacks[s] & ~body & u
    k = size - bitcount(body).astype(np.intp)
    f, b = np.nonzero((both > body) & (k >= 0) & (bitcount(add) >= k))
    elims = np.bitwise_or.reduce(np.where(member[c[f]], 0, in_box[s[f], d[f], :, b]), axis=1)
    body, add, k = body[f, b], add[f, b], k[f, b]
    for r in np.flatnonzero((elims & body != 0) | (k >= 1) & (elims & add != 0)).tolist():
        rows.append((int(s[f[r]]), int(d[f[r]]), int(c[f[r]]), int(b[r]), int(body[r]), int(union[s[f[r]], c[f[r]], d[f[r]]])))
    return rows, live_pos


def screen_compiled(grid, size):
    g = grid.geometry
    _, line_cells, weights, box_masks, stacks, _ = finned._stacked(g)
    table = finned._combination_table(line_cells.shape[1], size)
    places, records = finned_screen(grid.cands, line_cells, weights, box_masks, stacks, table, size)
    return [tuple(r) for r in records.tolist()], places


POSITIONS = list(narrowings(seed=20, top95=6, rounds=9, start=True, drop=6, max_size=9))


@pytest.mark.parametrize("size", [2, 3, 4])
def test_the_compiled_screen_is_the_numpy_one(size):
    passed = 0
    for grid in POSITIONS:
        want, want_places = screen_numpy(grid, size)
        got, places = screen_compiled(grid, size)
        assert got == want
        rows = {(s, d) for s, d, *_ in want}
        for s, d in rows:  # the places of the lines that passed are the live places
            assert np.array_equal(places[s, :, d], want_places[s, :, d])
        passed += len(want)
    assert passed > 0


def test_the_screen_by_hand():
    """Digit 5 of the finned X-Wing of tests/cases/finned.tsv (rows 1 and 5, columns 2 and 8,
    fin r1c9 in box 3): the screen passes (rows, digit 4, rows 0 and 4, box 2) with body
    0b010000010 (columns 2 and 8: r1c2, and both places of row 5, which meets no cell of box
    3) and union columns 2, 8, 9."""
    _, text, _ = read_cases("finned")[0]
    grid = lg.Grid.parse(text)
    got, _ = screen_compiled(grid, 2)
    combo = list(map(tuple, finned._combination_table(9, 2).tolist())).index((0, 4))
    assert (0, 4, combo, 2, 0b010000010, 0b110000010) in got
