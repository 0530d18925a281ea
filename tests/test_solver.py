"""The solver: the GNPX position, soundness of the basic ladder on the corpora, variants."""

from __future__ import annotations

import gc
import json
import weakref

import numpy as np
import pytest

import linkgraph as lg
from linkgraph import geometry as geo
from linkgraph import solver
from linkgraph.cli.main import main
from linkgraph.oracle import solve_unique

# the 20 cells the GNPX text shows after the basic techniques (issue 2, from the seed)
GNPX_POSITION = (
    "r2c4 128, r2c6 28, r2c8 12, r3c5 12, r3c8 12, r4c4 37, r4c8 37, r5c4 137, r5c5 17, r5c7 78, "
    "r5c9 38, r6c4 28, r6c6 28, r7c2 28, r7c5 27, r7c8 37, r7c9 38, r8c2 28, r8c4 27, r8c7 78"
)


def test_gnpx_basic_position_from_the_cli(capsys):
    code = main(["solve", lg.samples.GNPX_FORCECHAIN, "--ladder", "basic", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["solved"] is False
    tokens = out["candidates"].split()
    open_cells = {f"r{i // 9 + 1}c{i % 9 + 1} {t}" for i, t in enumerate(tokens) if len(t) > 1}
    assert open_cells == set(GNPX_POSITION.split(", "))
    assert out["grid"].count(".") == 20
    for step in out["steps"]:
        assert set(step) >= {"technique", "placements", "eliminations", "notation", "rating"}


@pytest.mark.parametrize(
    "name, limit, every",
    [("top95", None, 1), ("euler96", None, 1), ("top1465", 150, 10), ("unbiased1000", 100, 10),
     ("diabolical_sample", 100, 10), ("hardest_1905_sample", 50, 10)],
)
def test_basic_ladder_is_sound(corpus, sound, name, limit, every):
    for grid, solution in corpus(name, limit=limit, every=every):
        result = lg.solve(grid, ladder="basic")
        sound(result.steps, solution, grid.geometry)
        if result.solved:
            assert np.array_equal(result.final.values, solution)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["top95", "top1465", "euler96", "unbiased1000", "diabolical_sample"])
def test_basic_ladder_is_sound_everywhere(corpus, sound, name):
    for grid, solution in corpus(name):
        sound(lg.solve(grid, ladder="basic").steps, solution, grid.geometry)


def test_euler96_all_solved_by_the_basic_ladder(corpus):
    # Project Euler 96's fifty grids are all solvable by these techniques (the problem's premise
    # is that they are "easy"); every one must come out equal to the oracle's solution.
    pairs = corpus("euler96")
    assert len(pairs) == 50
    assert all(lg.solve(g, ladder="basic").solved for g, _ in pairs)


VARIANTS = [
    (geo.classic(4), ".2.3.........14."),
    (geo.classic(6), ".3.45....2...21...5......53.....2.4."),
    (geo.sudoku_x(), "....9....1.....7...7.25........2....94........3....4.....6....13.1.8..6.7.....3.."),
    (geo.windoku(), "....2.7...2.47..6.5...............................43.5....4......92..8..8.....9.."),
    # Jigsaw: the map swaps same-digit cells between neighbouring boxes of a top95 solution
    (
        geo.jigsaw("112223333111222233111122333445556666444455666444555566777888899777888999777889999"),
        ".1....8....2.58...9.8...3.6.2..37......5.....3.69......8..4.........1.....4....9.",
    ),
    (
        geo.classic(16),
        "......8G.6.........5.C.E....3...6.9.....B.DE57F.C....9A.3..71..E2...D..5.....E46.7.4.....A3.9B.C."
        "F..9.C...G.7....GC...E6....A3..4169..2A...5..G.....8.F....B.1.5...8...3D..FC..2..E....9.16.8...5.3"
        "...7...B6.9.A7.....6.4.8.DC....A...4..F......F..2.....3.1B...",
    ),
]


@pytest.mark.parametrize("g, puzzle", VARIANTS, ids=lambda v: getattr(v, "name", None))
def test_variant_puzzles_solve(g, puzzle):
    grid = lg.Grid.parse(puzzle, geometry=g)
    solution = solve_unique(grid)
    result = lg.solve(grid, ladder="basic")
    assert result.solved
    assert np.array_equal(result.final.values, solution)
    # each solution obeys every house of the geometry, diagonals and windows included
    for cells in g.house_cells:
        assert sorted(solution[cells]) == list(range(1, g.size + 1))


def test_unknown_technique_is_an_error(capsys):
    assert main(["solve", "--ladder", "x-wnig"]) == 2
    err = capsys.readouterr().err
    assert "x-wnig" in err and "x-wing" in err


def test_several_solutions_is_reported(capsys):
    assert main(["solve", "." * 81]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "several solutions" in captured.err


def test_hint_is_the_first_step(capsys):
    grid = lg.Grid.parse(lg.samples.EULER_01)
    assert str(lg.hint(grid, ladder="basic")) == str(lg.solve(grid, ladder="basic").steps[0])
    assert main(["solve", lg.samples.EULER_01, "--hint"]) == 0
    assert capsys.readouterr().out.count("\n") == 1


@pytest.mark.parametrize("name,limit,every", [("top95", None, 1), ("top1465", 100, 14), ("unbiased1000", 100, 10)])
def test_prepare_reaches_the_step_by_step_fixpoint(corpus, name, limit, every):
    # prepare applies whole rounds at once; the one-step-at-a-time path is the reference
    for grid, _ in corpus(name, limit=limit, every=every):
        fast = lg.prepare(grid)
        slow = lg.solve(grid, ladder="basic").final
        assert np.array_equal(fast.cands, slow.cands), grid.to_puzzle(solved=True)


# ---- the garbage collector during a solve -------------------------------------------------
class _Cycle:
    """An object in a reference cycle with itself: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_solve_pauses_the_collector_and_gives_it_back():
    seen = []
    result = lg.solve(lg.Grid.parse(lg.samples.EULER_01), progress=lambda step: seen.append(gc.isenabled()))
    assert result.solved and seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    try:
        lg.solve(lg.Grid.parse(lg.samples.EULER_01), max_steps=3)
        assert not gc.isenabled()  # found disabled: left disabled
    finally:
        gc.enable()


def test_a_time_out_gives_the_collector_back():
    result = lg.solve(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), time_limit=0.05)
    assert result.stopped in ("time-limit", None)
    assert gc.isenabled()


def test_cycles_left_by_a_step_are_freed_between_steps():
    """A step (here its progress callback) leaves more cyclic garbage than the young limit:
    a collection of the young generations frees it before the walk is over."""
    collections = []
    refs = []

    def record(phase, info):
        if phase == "stop":
            collections.append(info["generation"])

    def progress(step):
        if not refs:
            cycles = [_Cycle() for _ in range(solver.YOUNG_LIMIT + 5000)]
            refs.append(weakref.ref(cycles[0]))
            del cycles
        else:
            refs.append(refs[0]() is None)

    gc.callbacks.append(record)
    try:
        lg.solve(lg.Grid.parse(lg.samples.EULER_01), progress=progress)
    finally:
        gc.callbacks.remove(record)
    assert 1 in collections and 2 not in collections  # the young generations only
    assert refs[-1] is True  # freed while the walk went on
