"""Screens (techniques/screens.py) against their rungs, and solve paths with and without them.

A screen may let a rung run that then finds nothing, but must never rule out a rung that
would find a step that makes progress. The rungs themselves are the oracle: on random
narrowings of random sound positions of every geometry, whenever a rung found nothing
in the first grid and its screen says no for the second, the rung must find nothing in
the second either. And whole solve paths must not change when the solver uses screens.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import linkgraph as lg
from linkgraph import solver
from linkgraph.io import corpus_path, read_puzzles
from linkgraph.oracle import solve_unique
from linkgraph.techniques import LADDER, TECHNIQUES
from linkgraph.techniques.base import changes, makes_progress
from linkgraph.techniques.singledigit import conjugates
from tests.test_solver import VARIANTS

SCREENED = [t for t in LADDER if t.screen is not None]


def _finds(tech, grid) -> bool:
    return any(makes_progress(grid, s) for s in tech.find(grid))


def _sound_position(grid, solution, rng, share):
    """`grid` less a random `share` of its candidates that are not the solution's."""
    n = grid.size
    live = grid.live.copy()
    ks = [int(k) for k in np.flatnonzero(live) if solution[k // n] != k % n + 1]
    for k in rng.sample(ks, int(len(ks) * share)):
        live[k] = False
    return lg.Grid(grid.geometry, live, grid.givens, grid.placed)


def _narrowings(grid, solution, rng):
    """A few narrowings of `grid`: one to three candidates of one digit, or of any digits."""
    n = grid.size
    ks = [int(k) for k in np.flatnonzero(grid.live) if solution[k // n] != k % n + 1]
    out = []
    for _ in range(6):
        if not ks:
            break
        d = rng.choice(ks) % n
        same = [k for k in ks if k % n == d]
        pick = rng.sample(same, min(len(same), rng.randint(1, 3)))
        if rng.random() < 0.3:
            pick = rng.sample(ks, min(len(ks), rng.randint(1, 4)))
        live = grid.live.copy()
        live[pick] = False
        out.append(lg.Grid(grid.geometry, live, grid.givens, grid.placed))
    return out


CLASSIC = [p.puzzle for p in read_puzzles(corpus_path("top1465"), limit=400)][::50]


@pytest.mark.parametrize(
    "g, puzzle",
    [(lg.geometry.classic(), p) for p in CLASSIC] + [v for v in VARIANTS if v[0].size <= 9],
    ids=lambda v: getattr(v, "name", None) or "top1465",
)
def test_a_screen_never_rules_out_a_step(g, puzzle):
    grid = lg.Grid.parse(puzzle, geometry=g)
    solution = solve_unique(grid)
    rng = random.Random(puzzle)
    said_no = 0
    for share in (0.3, 0.5, 0.65):
        before = _sound_position(grid, solution, rng, share)
        missed = [t for t in SCREENED if not _finds(t, before)]
        for after in _narrowings(before, solution, rng):
            change = changes(before, after)
            assert change is not None
            for tech in missed:
                ok = bool(change.cells) and tech.screen(after, change)
                if not ok:
                    said_no += 1
                    assert not _finds(tech, after), f"{tech.name}: screened out a step"
    assert said_no > 0


def test_screens_let_new_steps_through():
    """Across the narrowings above some rungs do fire after a miss, and their screens said yes
    (the test above would pass with screens that always say yes: this one would not pass with
    screens that always say no)."""
    fired = {}
    for puzzle in CLASSIC[:4]:
        grid = lg.Grid.parse(puzzle)
        solution = solve_unique(grid)
        rng = random.Random(puzzle)
        for share in (0.3, 0.5):
            before = _sound_position(grid, solution, rng, share)
            missed = [t for t in SCREENED if not _finds(t, before)]
            for after in _narrowings(before, solution, rng):
                change = changes(before, after)
                for tech in missed:
                    if _finds(tech, after):
                        assert tech.screen(after, change), tech.name
                        fired[tech.name] = fired.get(tech.name, 0) + 1
    assert len(fired) >= 3, fired


def test_the_skyscraper_screen_by_hand():
    """Digit 1 by hand: rows 1 and 5 hold it only in c1 and c5, c1 and c6; column 1 only in
    r1 and r5. A skyscraper on the shared column c1 with tops r1c5 and r5c6: r2c6 sees both
    (box 2 and column 6) and loses the 1."""
    grid = lg.Grid.empty()
    keep = {"r1c1", "r1c5", "r5c1", "r5c6", "r2c6"}
    cut = [lg.Candidate(lg.Cell(r, c), 1) for r in range(9) for c in range(9)
           if f"r{r + 1}c{c + 1}" not in keep and (r in (0, 4) or c == 0)]
    grid = grid.eliminate(cut)
    sky = TECHNIQUES["skyscraper"]
    assert [sorted(map(str, s.eliminations)) for s in sky.find(grid)][0][:1] == ["r2c6#1"]
    before = grid.eliminate([lg.Candidate.parse("r1c5#1")])  # no skyscraper: r1 holds 1 once
    assert not _finds(sky, before)
    change = changes(before, before.eliminate([lg.Candidate.parse("r9c9#2")]))
    assert change.digits == frozenset({2})
    assert not sky.screen(before, change)  # digit 1 did not change: nothing new
    assert sky.screen(grid, lg.techniques.base.Change(frozenset({1}), 1))


def test_changes_of_a_solved_cell():
    grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    after = grid.eliminate([lg.Candidate.parse("r2c4#1")])
    change = changes(grid, after)
    assert change.digits == {1}
    assert change.cells == 1 << 12  # r2c4 is cell 9 + 3
    assert changes(grid, grid) == lg.techniques.base.Change(frozenset(), 0)
    assert changes(grid, lg.Grid.parse(lg.samples.EULER_01)) is None  # not a narrowing
    assert changes(grid, lg.Grid.empty(lg.geometry.sudoku_x())) is None  # another geometry


def _old_conjugate_table(grid):
    """The conjugate table as it was first written, with numpy (the oracle of the bit-mask one)."""
    g = grid.geometry
    n = g.size
    nc = g.number_of_cells
    members = g.set_members[nc:].reshape(len(g.houses), n, -1)
    on = grid.live[members]
    out = [{} for _ in range(n)]
    for h, d in np.argwhere(on.sum(axis=2) == 2).tolist():
        a, b = (members[h, d][on[h, d]] // n).tolist()
        out[d].setdefault((a, b), set()).add(g.houses[h].kind)
    return out


@pytest.mark.parametrize("g, puzzle", VARIANTS, ids=lambda v: getattr(v, "name", None))
def test_conjugates_match_the_numpy_table(g, puzzle):
    grid = lg.Grid.parse(puzzle, geometry=g)
    solution = solve_unique(grid)
    rng = random.Random(1)
    for share in (0.0, 0.4, 0.7):
        pos = _sound_position(grid, solution, rng, share)
        old = _old_conjugate_table(pos)
        new = [conjugates(pos, d) for d in range(g.size)]
        assert [list(t.items()) for t in new] == [list(t.items()) for t in old]


def _path(result):
    return [(s.technique, sorted(map(str, s.placements)), sorted(map(str, s.eliminations)), s.notation)
            for s in result.steps]


HARD = [p.puzzle for p in read_puzzles(corpus_path("hardest_1905_sample"), limit=3)]


@pytest.mark.parametrize(
    "g, puzzle",
    [(lg.geometry.classic(), p) for p in CLASSIC[:5] + HARD[:1]] + list(VARIANTS),
    ids=lambda v: getattr(v, "name", None) or "classic",
)
def test_solve_paths_do_not_change_with_screens(g, puzzle, monkeypatch):
    grid = lg.Grid.parse(puzzle, geometry=g)
    ladder = "basic" if g.size > 9 else None
    screened = lg.solve(grid, ladder=ladder)
    real = solver._next_step
    monkeypatch.setattr(solver, "_next_step", lambda grid, techniques, misses=None: real(grid, techniques, None))
    plain = lg.solve(grid, ladder=ladder)
    assert _path(screened) == _path(plain)
    assert screened.ratings == plain.ratings and screened.solved == plain.solved


CHAIN_RUNGS = ["x-chain", "xy-chain", "aic", "grouped-aic"]


def _positions(grid, ladder=None):
    """Every position of `grid`'s solve path (solved without screens), in order."""
    result = lg.solve(grid, ladder=ladder)
    out = [grid]
    for step in result.steps:
        out.append(out[-1].apply(step))
    return out


@pytest.mark.parametrize(
    "g, puzzle",
    [(lg.geometry.classic(), p) for p in HARD[:2] + CLASSIC[1:3]] + [v for v in VARIANTS if v[0].size <= 9],
    ids=lambda v: getattr(v, "name", None) or "classic",
)
def test_chain_screens_along_solve_paths(g, puzzle):
    """The chain rungs' screens on every position of a solve path (hardest puzzles included) and
    the position one or two steps later: where the rung found nothing and its screen says no for
    the later position, the rung finds nothing there either."""
    positions = _positions(lg.Grid.parse(puzzle, geometry=g))
    said_no = 0
    for name in CHAIN_RUNGS:
        tech = TECHNIQUES[name]
        finds = [_finds(tech, p) for p in positions]
        for i, before in enumerate(positions):
            if finds[i]:
                continue
            for j in (i + 1, i + 2):
                if j >= len(positions):
                    break
                change = changes(before, positions[j])
                if change.cells and not tech.screen(positions[j], change):
                    said_no += 1
                    assert not finds[j], f"{name}: screened out a step at position {j}"
    assert said_no > 0


def test_grouped_screen_sees_a_shrunken_group_in_a_window():
    """By hand, Windoku, digit 1: window w1 (r2-4 c2-4) keeps 1 only in r2c2, r2c3 and r4c4.
    When r2c1 loses its 1, the group of b1 and r2 shrinks to r2c2 r2c3, which lies in w1: a new
    strong link (group = r4c4) in a window that lost nothing. Box 1 and row 2, which did lose a
    place, still hold 1 in three segments each, so only the shrunken group's houses show it."""
    g = lg.geometry.windoku()
    grid = lg.Grid.empty(g)
    keep = {"r2c2", "r2c3", "r4c4"}
    w1 = [lg.Cell(r, c) for r in range(1, 4) for c in range(1, 4)]
    grid = grid.eliminate([lg.Candidate(c, 1) for c in w1 if str(c) not in keep])
    after = grid.eliminate([lg.Candidate.parse("r2c1#1")])
    change = changes(grid, after)
    from linkgraph.techniques.aic.net import grouped_net

    net = grouped_net(after)
    names = [str(net.node(i)) for i in range(len(net.members))]
    assert net.strong[names.index("r2c23#1"), names.index("r4c4#1")]  # the new strong link, as the rung's net has it
    assert TECHNIQUES["grouped-aic"].screen(after, change)
    assert not TECHNIQUES["aic"].screen(after, change)  # no set lost a member down to two
