"""Grids on the way to a solution, for the tests that hold a compiled kernel against the
numpy code it replaced (the oracle): each puzzle, optionally at its start, then after the
basic ladder and again after each of a few rounds that take some false candidates off."""
from __future__ import annotations

import numpy as np

import linkgraph as lg
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.oracle import solve_unique
from tests.test_solver import VARIANTS


def narrowings(seed: int, *, top95: int, rounds: int, start: bool, drop: int | None = None,
               max_size: int | None = None):
    """Yield grids: the seed examples GNPX_FORCECHAIN and EULER_01, the first `top95` lines of
    top95, then every variant geometry of the solver's tests (those of size at most
    `max_size`); each at its start when `start`, after the basic ladder, and after each of up to
    `rounds - 1` narrowings that take `drop` false candidates off at random (default
    ``4 * size // 9 + 2``; fewer where fewer are left), stopping once none is left."""
    rng = np.random.default_rng(seed)
    cases = [(lg.geometry.classic(), text) for text in (lg.samples.GNPX_FORCECHAIN, lg.samples.EULER_01)]
    cases += [(lg.geometry.classic(), line.puzzle) for line in read_puzzles(corpus_path("top95"), limit=top95)]
    cases += [v[:2] for v in VARIANTS if max_size is None or v[0].size <= max_size]
    for g, text in cases:
        grid = lg.Grid.parse(text, geometry=g)
        solution = solve_unique(grid)
        n = g.size
        if start:
            yield grid
        pos = lg.prepare(grid)
        for _ in range(rounds):
            yield pos
            false = [int(k) for k in np.flatnonzero(pos.live) if solution[k // n] != k % n + 1]
            if not false:
                break
            live = pos.live.copy()
            live[rng.choice(false, size=min(len(false), 4 * n // 9 + 2 if drop is None else drop), replace=False)] = False
            pos = lg.Grid(g, live, pos.givens, pos.placed)
