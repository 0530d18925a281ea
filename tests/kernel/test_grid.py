"""The grid's compiled bookkeeping (`linkgraph.kernel.grid`) against the numpy code it replaced,
kept here as its oracle: `Grid.contradiction` and `Grid.apply` on every grid along solve paths
(classic and every variant geometry, 16x16 included), on broken grids (an empty cell, a digit
with no place, a digit solved twice in a house) and on steps that place into each other's
peers, plus planted faults that must fail it."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph import grid as gridmod
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.kernel import grid as kernel
from linkgraph.oracle import solve_unique
from linkgraph.steps import make_step
from tests.test_solver import VARIANTS


def contradiction_numpy(grid: lg.Grid) -> str | None:
    """The former `Grid.contradiction`."""
    g = grid.geometry
    counts = grid.cands.sum(axis=1)
    if counts.all():
        per_house = grid.cands[g.house_cells]
        solved = (counts == 1)[g.house_cells][:, :, None]
        if per_house.any(axis=1).all() and ((per_house & solved).sum(axis=1) <= 1).all():
            return None
    empty = np.flatnonzero(counts == 0)
    if len(empty):
        return f"{g.cell(empty[0])}: no candidate left"
    live_per_set = grid.live[g.set_members].sum(axis=1)
    for s in np.flatnonzero(live_per_set == 0):
        return f"{g.setx(s)}: no place left"
    return gridmod._first_repeat(g, grid.values, what="solved")


def apply_numpy(grid: lg.Grid, step) -> lg.Grid:
    """The former `Grid.apply`."""
    g = grid.geometry
    new = grid.cands.copy()
    flat = new.reshape(-1)
    for cand in step.eliminations:
        flat[g.index(cand)] = False
    placed = grid.placed.copy()
    for cand in step.placements:
        i = g.cell_index(cand.cell)
        new[i] = False
        new[i, cand.digit - 1] = True
        new[g.peer_lists[i], cand.digit - 1] = False
        placed[i] = True
    return lg.Grid(g, new, grid.givens, placed)


def paths():
    """(grid, step) along the solve paths of a few classic puzzles and of every variant."""
    cases = [(lg.geometry.classic(), line.puzzle) for line in read_puzzles(corpus_path("top95"), limit=3)]
    cases += [(lg.geometry.classic(), lg.samples.GNPX_FORCECHAIN)]
    cases += [v[:2] for v in VARIANTS]
    for g, text in cases:
        grid = lg.Grid.parse(text, geometry=g)
        for step in lg.solve(grid).steps:
            yield grid, step
            grid = grid.apply(step)


PATHS = list(paths())


def broken_steps():
    """(grid, step) pairs whose result breaks a rule: wrong placements and eliminations of the
    solution, several placements in one house, placements into peers with one digit."""
    rng = np.random.default_rng(20)
    for g, text in [(lg.geometry.classic(), lg.samples.GNPX_FORCECHAIN)] + [v[:2] for v in VARIANTS]:
        grid = lg.Grid.parse(text, geometry=g)
        solution = solve_unique(grid)
        n = g.size
        live = np.flatnonzero(grid.live & ~np.repeat(grid.placed, n))
        for _ in range(12):
            picks = rng.choice(live, size=min(len(live), int(rng.integers(1, 5))), replace=False)
            cands = [g.candidate(k) for k in picks.tolist()]
            half = len(cands) // 2
            yield grid, make_step("test", placements=cands[:half] or cands, eliminations=cands[half:])
        # every candidate of the solution's first open cell removed: an empty cell
        cell = int(np.flatnonzero(~grid.placed)[0])
        yield grid, make_step("test", eliminations=[g.candidate(cell * n + d) for d in range(n)])
        # a digit's every place in a row removed
        row = g.house_cells[0]
        d = int(solution[row[0]]) - 1
        yield grid, make_step("test", eliminations=[g.candidate(int(c) * n + d) for c in row
                                                      if grid.live[int(c) * n + d] and not grid.placed[int(c)]])


BROKEN = list(broken_steps())


def same_grid(got: lg.Grid, want: lg.Grid) -> None:
    assert type(got) is lg.Grid and got.geometry is want.geometry
    for name in ("cands", "givens", "placed"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
        with pytest.raises(ValueError):
            a.setflags(write=True)  # frozen for good, as the constructor leaves it
    assert got == want and hash(got) == hash(want)


def test_contradiction_is_the_numpy_one():
    found = 0
    for grid, step in PATHS + BROKEN:
        after = apply_numpy(grid, step)
        for x in (grid, after):
            want = contradiction_numpy(x)
            assert x.contradiction() == want
            found += want is not None
    assert found >= 20  # the broken steps break something


def test_apply_is_the_numpy_one():
    for grid, step in PATHS + BROKEN:
        same_grid(grid.apply(step), apply_numpy(grid, step))


def test_covers_the_variants():
    assert {grid.geometry.name for grid, _ in PATHS} >= {v[0].name for v in VARIANTS}
    assert any(grid.size == 16 for grid, _ in PATHS)


@pytest.mark.parametrize("fault", ["consistent-skips-houses", "solved-twice-allowed", "placed-not-rechecked",
                                   "peers-kept", "eliminations-ignored"])
def test_planted_faults_fail_the_oracle(monkeypatch, fault):
    real_consistent, real_applied = kernel.consistent, kernel.applied
    if fault == "consistent-skips-houses":
        monkeypatch.setattr(kernel, "consistent", lambda cands, houses: real_consistent(cands, houses[1:]))
    elif fault == "solved-twice-allowed":
        monkeypatch.setattr(kernel, "consistent", lambda cands, houses: bool(cands.any(axis=1).all()
                                                                             and cands[houses].any(axis=1).all()))
    elif fault == "placed-not-rechecked":
        def applied(cands, placed, elim, place, peers):
            new, out = real_applied(cands, placed, elim, place, peers)
            out = out.copy()
            out[place // cands.shape[1]] = True
            return new, out | placed
        monkeypatch.setattr(kernel, "applied", applied)
    elif fault == "peers-kept":
        monkeypatch.setattr(kernel, "applied", lambda c, p, e, pl, peers: real_applied(c, p, e, pl, np.zeros_like(peers)))
    elif fault == "eliminations-ignored":
        monkeypatch.setattr(kernel, "applied", lambda c, p, e, pl, peers: real_applied(c, p, e[:0], pl, peers))
    with pytest.raises(AssertionError):
        test_contradiction_is_the_numpy_one()
        test_apply_is_the_numpy_one()
