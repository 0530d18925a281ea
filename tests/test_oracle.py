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
