import numpy as np
import pytest

import linkgraph as lg
from linkgraph import geometry as geo
from linkgraph import oracle


def test_corpus_solutions_match(corpus):
    for grid, sol in corpus("top95", every=5) + corpus("euler96", every=5):
        found = oracle.solutions(grid)
        assert len(found) == 1
        assert (found[0] == sol).all()


def test_several_and_no_solutions():
    grid = lg.Grid.parse(lg.samples.GNPX_FORCECHAIN)
    less = lg.Grid.parse("." + lg.samples.GNPX_FORCECHAIN[1:])
    assert oracle.count_solutions(less) == 1  # r1c1 is implied by its row
    empty = lg.Grid.empty()
    assert oracle.count_solutions(empty) == 2
    with pytest.raises(lg.InvalidPuzzleError, match="more than one solution"):
        oracle.solve_unique(empty)
    broken = grid.eliminate([lg.Candidate.parse("r2c4#8"), lg.Candidate.parse("r2c4#1"), lg.Candidate.parse("r2c4#2")])
    assert oracle.count_solutions(broken) == 0
    with pytest.raises(lg.InvalidPuzzleError, match="no solution"):
        oracle.solve_unique(broken)


def test_variants_have_valid_solutions():
    for g in (geo.classic(4), geo.classic(6), geo.sudoku_x(), geo.windoku()):
        sol = oracle.solutions(lg.Grid.empty(g), limit=1)[0]
        for cells in g.house_cells:
            assert sorted(sol[cells]) == list(range(1, g.size + 1))


# ---- the exact-cover search against the plain search it replaced ----------------------------
#
# The reference below is the oracle as it was: depth-first search with naked and hidden
# singles that branches on the cell with the fewest digits. It is slow on puzzles built
# against it, but simple; the new search must count the same solutions everywhere.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

NORVIG_IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def _reference_count(grid: lg.Grid, limit: int = 2) -> int:
    g = grid.geometry
    peers = [tuple(int(p) for p in row) for row in g.peer_lists]
    houses = [tuple(int(c) for c in cells) for cells in g.house_cells]
    full = (1 << g.size) - 1
    masks = [sum(1 << d for d in np.flatnonzero(row)) for row in grid.cands]
    if 0 in masks:
        return 0
    found = []

    def propagate(masks, todo):
        while True:
            while todo:
                c = todo.pop()
                m = masks[c]
                for p in peers[c]:
                    if masks[p] & m:
                        masks[p] &= ~m
                        if not masks[p]:
                            return False
                        if not masks[p] & (masks[p] - 1):
                            todo.append(p)
            for h in houses:
                once = twice = 0
                for c in h:
                    twice |= once & masks[c]
                    once |= masks[c]
                if once != full:
                    return False
                for c in h:
                    s = masks[c] & once & ~twice
                    if s:
                        if s & (s - 1):
                            return False
                        if masks[c] != s:
                            masks[c] = s
                            todo.append(c)
            if not todo:
                return True

    def search(masks, todo):
        if not propagate(masks, todo):
            return
        open_cells = [c for c, m in enumerate(masks) if m & (m - 1)]
        if not open_cells:
            found.append(masks)
            return
        best = min(open_cells, key=lambda c: masks[c].bit_count())
        m = masks[best]
        while m and len(found) < limit:
            bit = m & -m
            m ^= bit
            new = masks.copy()
            new[best] = bit
            search(new, [best])

    search(masks, [c for c, m in enumerate(masks) if not m & (m - 1)])
    return len(found)


def _transposed(p: str) -> str:
    return "".join(p[c * 9 + r] for r in range(9) for c in range(9))


def _relabelled(p: str, perm: str) -> str:
    return "".join(perm[int(ch) - 1] if ch in "123456789" else ch for ch in p)


@pytest.mark.parametrize("form", ["as given", "transposed", "relabelled", "both"])
def test_norvig_impossible_puzzle_has_no_solution(form):
    p = {"as given": NORVIG_IMPOSSIBLE, "transposed": _transposed(NORVIG_IMPOSSIBLE),
         "relabelled": _relabelled(NORVIG_IMPOSSIBLE, "912345678"),
         "both": _relabelled(_transposed(NORVIG_IMPOSSIBLE), "387294615")}[form]
    grid = lg.Grid.parse(p)
    assert oracle.count_solutions(grid) == 0
    with pytest.raises(lg.InvalidPuzzleError, match="no solution"):
        oracle.solve_unique(grid)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_counts_match_the_plain_search(data, corpus):
    """Puzzles thinned out from corpus solutions: 0, 1 or 2+ solutions, as the reference counts."""
    pairs = corpus("top95", every=19)
    _, solution = pairs[data.draw(st.integers(0, len(pairs) - 1))]
    keep = data.draw(st.lists(st.booleans(), min_size=81, max_size=81))
    values = [int(v) if k else 0 for v, k in zip(solution, keep, strict=True)]
    # a wrong given (or none) makes a puzzle with no solution, or with several
    if data.draw(st.booleans()):
        i = data.draw(st.integers(0, 80))
        values[i] = data.draw(st.integers(0, 9))
    try:
        grid = lg.Grid.from_values(values)
    except lg.InvalidPuzzleError:
        return  # a repeated given: not a grid
    assert oracle.count_solutions(grid, limit=2) == _reference_count(grid, limit=2)


def test_counts_match_the_plain_search_on_positions(corpus):
    """Candidate positions after eliminations (also of solution digits) count as the reference does."""
    rng = np.random.default_rng(7)
    for grid, _ in corpus("top95", every=12):
        live = np.flatnonzero(grid.live & ~np.repeat(grid.placed, 9))
        cut = rng.choice(live, size=min(len(live), 25), replace=False)
        position = grid.with_live(np.where(np.isin(np.arange(729), cut), False, grid.live))
        assert oracle.count_solutions(position) == _reference_count(position)


def test_solutions_of_variants_obey_every_house():
    for g in (geo.classic(4), geo.classic(6), geo.sudoku_x(), geo.windoku(), geo.classic(16)):
        sols = oracle.solutions(lg.Grid.empty(g), limit=3)
        assert len(sols) == 3 and len({s.tobytes() for s in sols}) == 3
        for sol in sols:
            for cells in g.house_cells:
                assert sorted(sol[cells]) == list(range(1, g.size + 1))
