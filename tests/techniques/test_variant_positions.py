"""Every pattern technique on random sound positions of every variant geometry.

A position keeps each puzzle's solution and loses a random third of its other
candidates, so it is a valid (if odd) position: whatever a technique proves
there must agree with the solution (from the oracle) and pass the proof
checker, and no technique may raise on it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import linkgraph as lg
from linkgraph import geometry as geo
from linkgraph.oracle import solve_unique
from linkgraph.techniques import LADDER
from tests.test_solver import VARIANTS

PATTERNS = [t for t in LADDER if t.family not in ("forcing-chains", "forcing-nets")]
#: Positions per geometry: the first 3 by default (some 500 to 1500 steps each on 9x9), all
#: 8 with -m slow (the sweep took three minutes).
POSITIONS_PER_GEOMETRY = 8
SAMPLE = 3


def positions(g, puzzle, count, seed):
    grid = lg.Grid.parse(puzzle, geometry=g)
    solution = solve_unique(grid)
    n = g.size
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        live = grid.live.copy()
        ks = np.flatnonzero(live)
        for k in rng.sample(list(ks), len(ks) // 3):
            if solution[k // n] != k % n + 1:
                live[k] = False
        out.append(lg.Grid(g, live, grid.givens))
    return solution, out


@pytest.mark.parametrize("count", [SAMPLE, pytest.param(POSITIONS_PER_GEOMETRY, marks=pytest.mark.slow)],
                         ids=["sample", "full"])
@pytest.mark.parametrize("g, puzzle", [v for v in VARIANTS if v[0].size <= 9], ids=lambda v: getattr(v, "name", None))
def test_patterns_on_random_variant_positions(g, puzzle, count, sound):
    solution, grids = positions(g, puzzle, count, seed=7)
    found = 0
    for grid in grids:
        for tech in PATTERNS:
            for step in tech.find(grid):
                found += 1
                sound([step], solution, g)
                lg.check_step(grid, step)
    assert found > 0


def test_wings_where_places_see_each_other_through_a_diagonal(sound):
    # Sudoku X: three cells can see each other pairwise with no house holding all
    # three; wings there used to raise (min/max of an empty set of cover houses)
    from linkgraph.techniques import wings

    g = geo.sudoku_x()
    puzzle = "....9....1.....7...7.25........2....94........3....4.....6....13.1.8..6.7.....3.."
    solution, grids = positions(g, puzzle, 150, seed=1)
    for grid in grids:
        for find in (wings.xy_wings, wings.xyz_wings, wings.wxyz_wings, wings.w_wings):
            for step in find(grid):
                sound([step], solution, g)
                lg.check_step(grid, step)
