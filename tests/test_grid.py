import numpy as np
import pytest

import linkgraph as lg
from linkgraph import geometry as geo

SEED = lg.samples.GNPX_FORCECHAIN


def test_parse_puzzle_and_format_back():
    grid = lg.Grid.parse(SEED)
    assert grid.to_puzzle(solved=True).startswith("152647389")  # r1c5=4, r1c7=3 follow from the givens
    assert grid.to_puzzle() == SEED  # the givens, not the singles found at parse time
    assert lg.Grid.parse(grid.to_candidates()) == grid
    assert lg.Grid.parse(grid.to_candidates(pretty=True)) == grid


def test_zero_and_dot_are_empty():
    assert lg.Grid.parse(SEED.replace(".", "0")) == lg.Grid.parse(SEED)


def test_givens_eliminate_from_peers():
    grid = lg.Grid.parse(SEED)
    assert not grid.has(lg.Candidate.parse("r2c2#1"))  # r1c1 = 1
    assert grid.has(lg.Candidate.parse("r2c4#8"))


@pytest.mark.parametrize(
    "text,message",
    [
        (SEED[:-1], "expected 81 cells (or 16, 36, 64, 144, 256, 625), found 80"),
        (SEED[:10] + "x" + SEED[11:], "r2c2 (character 11): unexpected 'x'"),
    ],
)
def test_format_errors(text, message):
    with pytest.raises(lg.PuzzleFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        lg.Grid.parse(text)


def test_repeated_given():
    bad = "11" + SEED[2:]
    with pytest.raises(lg.InvalidPuzzleError, match=r"r1c2: given 1 repeats r1c1"):
        lg.Grid.parse(bad)


def test_candidate_grid_contradiction():
    grid = lg.Grid.parse(SEED)
    toks = grid.tokens()
    toks[1] = "1"  # r1c2 = 1 beside the given r1c1 = 1
    with pytest.raises(lg.InvalidPuzzleError, match="contradicts itself"):
        lg.Grid.parse(" ".join(toks))


def test_malformed_candidate_grid():
    toks = lg.Grid.parse(SEED).tokens()
    with pytest.raises(lg.PuzzleFormatError, match="candidate grid: expected 81 cells, found 80"):
        lg.Grid.parse(" ".join(toks[:-1]))
    toks[5] = "7x"
    with pytest.raises(lg.PuzzleFormatError, match=r"r1c6 \(token 6 '7x'\)"):
        lg.Grid.parse(" ".join(toks))


def test_place_and_eliminate_return_new_grids():
    grid = lg.Grid.parse(SEED)
    cand = lg.Candidate.parse("r2c4#8")
    placed = grid.place([cand])
    assert placed.digits(cand.cell) == (8,)
    assert not placed.has(lg.Candidate.parse("r2c6#8"))
    assert grid.has(lg.Candidate.parse("r2c6#8"))  # the original is unchanged
    with pytest.raises(ValueError):
        grid.cands[0, 0] = False
    less = grid.eliminate([cand])
    assert not less.has(cand) and grid.has(cand)


def test_other_sizes_parse():
    g4 = lg.Grid.parse("1..." "..2." ".3.." "...4")
    assert g4.size == 4
    g16 = lg.Grid.parse("." * 255 + "G")
    assert g16.size == 16 and g16.values[-1] == 16


def test_apply_step():
    grid = lg.Grid.parse(SEED)
    step = lg.make_step("x", placements=[lg.Candidate.parse("r2c4#8")], eliminations=[lg.Candidate.parse("r3c2#4")])
    out = grid.apply(step)
    assert out.digits(lg.Cell(1, 3)) == (8,) and not out.has(lg.Candidate.parse("r3c2#4"))


def test_values_and_solved():
    sol = "152647389"
    grid = lg.Grid.parse(SEED)
    assert "".join(map(str, grid.values[:9])) == sol
    assert not grid.is_solved()
    assert grid.contradiction() is None


def test_candidate_grid_whose_digits_number_a_square_is_read_as_candidates():
    # top1465 #1 after the basic ladder: its 81 tokens hold 225 digits, the cell count of a
    # 15x15 puzzle, and were once read as a compact 15x15 string ("r1c7: given 6 repeats r1c3")
    rows = [
        "4 569 1268 5789 3 15789 259 2567 25679",
        "1237 359 12 6 127 14579 8 2357 234579",
        "23678 3569 268 45789 278 45789 23459 23567 1",
        "1236 346 1246 378 5 13678 23 9 2378",
        "123 8 59 3479 17 13479 6 12357 23457",
        "136 7 59 2 168 134689 345 1358 3458",
        "68 46 468 1 9 2 7 35 35",
        "5 12 3 78 678 678 129 4 29",
        "9 12 7 35 4 35 12 68 68",
    ]
    text = "\n".join(rows)
    assert len("".join(text.split())) == 225
    grid = lg.Grid.parse(text)
    assert grid.size == 9
    assert grid.tokens() == " ".join(rows).split()
    assert lg.Grid.parse(" ".join(rows)) == grid


# ---- one rule broken at a time: contradiction() names it ----------------------------------


def _broken(edit) -> lg.Grid:
    """The empty grid with `edit(cands)` applied to a writable copy of its candidates."""
    cands = lg.Grid.empty().cands.copy()
    edit(cands)
    return lg.Grid(lg.geometry.classic(), cands)


def _solve_as_one(c, cell):
    c[cell] = False
    c[cell, 0] = True


@pytest.mark.parametrize("edit, message", [
    (lambda c: c.__setitem__((10, slice(None)), False), "r2c2: no candidate left"),
    # digit 1 nowhere in column 9: each of its cells keeps 8 digits, rows and boxes keep a 1
    (lambda c: c.__setitem__((slice(8, 81, 9), 0), False), "c9#1: no place left"),
    # r1c1 and r1c2 both solved as 1
    (lambda c: (_solve_as_one(c, 0), _solve_as_one(c, 1)), "r1c2: solved 1 repeats r1c1"),
])
def test_contradiction_names_the_first_broken_rule(edit, message):
    assert _broken(edit).contradiction() == message


def test_contradiction_of_variants_and_of_a_sound_path():
    g = lg.geometry.sudoku_x()
    grid = lg.Grid.empty(g)
    assert grid.contradiction() is None
    cands = grid.cands.copy()
    cands[0] = False
    cands[0, 4] = True  # r1c1 = 5
    cands[10] = False
    cands[10, 4] = True  # r2c2 = 5 on the same diagonal and box
    assert lg.Grid(g, cands).contradiction() is not None
    for step, after in zip(*_path(lg.samples.EULER_01)):
        assert after.contradiction() is None


def _path(puzzle):
    result = lg.solve(lg.Grid.parse(puzzle))
    grids, g = [], result.grid
    for step in result.steps:
        g = g.apply(step)
        grids.append(g)
    return result.steps, grids


def test_apply_is_eliminate_then_place():
    """One copy, the same grid as the two steps (candidates and the cells counted placed),
    also where an elimination empties a placed cell or a placement lands on an eliminated digit."""
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    live = [lg.Candidate.parse(t) for t in ("r2c4#1", "r2c6#2", "r4c4#3", "r2c8#1")]
    solved_cell = next(c for c in range(81) if grid.counts[c] == 1)
    solved = grid.geometry.candidate(solved_cell * 9 + int(grid.values[solved_cell]) - 1)
    for placements, eliminations in [([live[0]], []), ([], [live[1], live[2]]), ([live[0]], [live[1]]),
                                     ([], [solved]), ([live[3]], [live[3], solved])]:
        step = lg.make_step("x", placements=placements, eliminations=eliminations)
        one, two = grid.apply(step), grid.eliminate(eliminations).place(placements)
        assert (one.cands == two.cands).all() and (one.placed == two.placed).all()
        assert (one.givens == two.givens).all()


def test_a_grid_read_back_from_a_pickle_is_equal_here_and_in_another_process(across_seeds):
    # a grid compares its geometry by identity and hashes its geometry's name (a string,
    # seeded per process): a pickle must bring back this process's own geometry, no hash
    import copy
    import pickle

    found, distinct, _ = across_seeds(
        "import linkgraph as lg\n"
        "a = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))\n"
        "b = lg.Grid.parse('.' * 16, geometry=lg.geometry.jigsaw('1122' '1122' '3344' '3344'))\n"
        "keys = [a, b, lg.Grid.empty(lg.geometry.windoku())]\n")
    assert (found, distinct) == (3, 3)
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    for back in (pickle.loads(pickle.dumps(grid)), copy.deepcopy(grid), copy.copy(grid)):
        assert back == grid and hash(back) == hash(grid) and back.geometry is grid.geometry
        assert back.to_puzzle(solved=True) == grid.to_puzzle(solved=True)
