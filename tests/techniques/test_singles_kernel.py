"""The singles' compiled passes (`techniques.kernel.full_houses`, `house_singles`, `naked_singles`)
against the numpy code they replaced, kept here as their oracle, on every grid along solve paths
(classic and every variant geometry) and on narrowings that leave singles in several houses."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.oracle import solve_unique
from linkgraph.techniques import singles
from linkgraph.techniques.base import pattern_step
from tests.test_solver import VARIANTS


def house_singles_numpy(grid):
    """The former `_house_singles`."""
    g = grid.geometry
    live = grid.live
    members = g.set_members[g.number_of_cells :]
    alive = live[members]
    ones = np.flatnonzero(alive.sum(axis=1) == 1)
    ks = members[ones, alive[ones].argmax(axis=1)]
    open_cand = np.repeat(~grid.placed, g.size)
    for i, k in zip(ones.tolist(), ks.tolist()):
        if open_cand[k]:
            yield g.number_of_cells + i, k


def full_houses_numpy(grid):
    """The former `full_houses`."""
    g = grid.geometry
    open_cells = ~grid.placed
    values = grid.values
    seen: set[int] = set()
    for h in np.flatnonzero(open_cells[g.house_cells].sum(axis=1) == 1).tolist():
        cells = g.house_cells[h]
        idx = np.flatnonzero(open_cells[cells])
        cell = int(cells[idx[0]])
        solved = {int(v) for v, p in zip(values[cells], grid.placed[cells]) if p}
        missing = [d for d in range(1, g.size + 1) if d not in solved]
        if len(missing) != 1:
            continue
        k = cell * g.size + missing[0] - 1
        if k in seen or not grid.live[k]:
            continue
        seen.add(k)
        s = g.number_of_cells + h * g.size + missing[0] - 1
        yield pattern_step("full-house", g, base=[s], placements=[k])


def naked_singles_numpy(grid):
    """The former `naked_singles`."""
    g = grid.geometry
    solo = grid.live & np.repeat((grid.counts == 1) & ~grid.placed, g.size)
    for k in np.flatnonzero(solo):
        yield pattern_step("naked-single", g, base=[int(k) // g.size], placements=[int(k)])


def positions():
    """Every grid along the solve path of a few classic puzzles and of every variant; and each
    puzzle's solution with a few cells opened again (full houses, in rows, columns and boxes)."""
    rng = np.random.default_rng(23)
    cases = [(lg.geometry.classic(), text) for text in (lg.samples.EULER_01, lg.samples.GNPX_FORCECHAIN)]
    cases += [(lg.geometry.classic(), line.puzzle) for line in read_puzzles(corpus_path("top95"), limit=3)]
    cases += [v[:2] for v in VARIANTS]
    for g, text in cases:
        grid = lg.Grid.parse(text, geometry=g)
        for step in lg.solve(grid).steps:
            yield grid
            grid = grid.apply(step)
        solution = [int(v) for v in solve_unique(lg.Grid.parse(text, geometry=g))]
        for _ in range(4):
            values = list(solution)
            for c in rng.choice(g.number_of_cells, size=g.size, replace=False).tolist():
                values[c] = 0
            yield lg.Grid.from_values(values, geometry=g)


POSITIONS = list(positions())


def test_hidden_singles_are_the_numpy_ones():
    found = 0
    for grid in POSITIONS:
        want = list(house_singles_numpy(grid))
        assert list(singles._house_singles(grid)) == want
        found += len(want)
    assert found > 0


@pytest.mark.parametrize("name", ["full_houses", "naked_singles"])
def test_the_singles_are_the_numpy_ones(name):
    oracle = {"full_houses": full_houses_numpy, "naked_singles": naked_singles_numpy}[name]
    found = 0
    for grid in POSITIONS:
        want = [(str(s), s.proof.graph["base"]) for s in oracle(grid)]
        got = [(str(s), s.proof.graph["base"]) for s in getattr(singles, name)(grid)]
        assert got == want
        found += len(want)
    assert found > 0
