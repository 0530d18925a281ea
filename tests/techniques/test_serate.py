"""``--ladder se``: Sudoku Explainer's path and rating.

Expected ratings come from Sudoku Explainer's and Sukaku Explainer's rules
(chain length bonus, wing ratings by the largest cell, strong-linked fish), not
from this code; the correlation test reads the SE ratings of the Sudoku
Exchange sample.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from tests.conftest import assert_sound

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.io import corpus_path, read_puzzles, read_solutions
from linkgraph.techniques import resolve_ladder, wings
from linkgraph.techniques.serate import SE_LADDER, se_rating

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
from rating_study import spearman  # noqa: E402


def _grid(cells: dict[str, str]) -> lg.Grid:
    """A candidate grid: every cell 1-9 but the named ones."""
    tokens = ["123456789"] * 81
    for name, digits in cells.items():
        c = lg.Cell.parse(name)
        tokens[c.row * 9 + c.col] = digits
    return lg.Grid.parse(" ".join(tokens))


def _chain(technique: str, literals: int, conclusions: int = 1) -> lg.Step:
    """A chain step whose proof holds `literals` chain literals, its premise and its conclusions
    (proof nodes as the chain rungs build them: the premise ON and OFF, the chain's other
    literals, one node per elimination)."""
    P = nx.DiGraph(kind="chain")
    P.add_nodes_from(range(literals + 1), role=lg.Role.INNER)
    P.add_nodes_from([0, 1], role=lg.Role.PREMISE)
    P.add_nodes_from(range(literals + 1, literals + 1 + conclusions), role=lg.Role.CONCLUSION)
    return lg.make_step(technique, eliminations=[lg.Candidate.parse("r1c1#1")], proof=P)


def test_the_se_ladder_stands_alone():
    assert resolve_ladder("se") is SE_LADDER and resolve_ladder(["se"]) is SE_LADDER
    with pytest.raises(lg.UnknownTechniqueError, match="'se' is a whole ladder"):
        resolve_ladder("se,x-wing")
    assert all(t.rate is se_rating for t in SE_LADDER)
    # batch and compare columns name the techniques of the steps, not the se ladder's own rungs
    names = [n for t in SE_LADDER for n in t.yields]
    assert {"x-chain", "xy-chain", "aic", "vwxyz-wing"} <= set(names) and "se-chains" not in names


@pytest.mark.parametrize("technique,literals,expected", [
    # SE's chain length: +0.1 past 4, 6, 8, 12, 16, 24 literals
    ("aic", 4, 7.0), ("aic", 6, 7.1), ("xy-chain", 8, 7.2), ("aic", 10, 7.3), ("aic", 13, 7.4),
    # X-chains of 2, 3 and 4 strong links are SE's turbot and strong-linked fish; longer, forcing X-chains
    ("x-chain", 4, 4.2), ("x-chain", 6, 5.5), ("x-chain", 8, 5.9), ("x-chain", 10, 6.9),
    ("forcing-chain-cell", 20, 8.5), ("forcing-net-contradiction", 30, 9.1), ("forcing-net-nested", 3, 9.5),
])
def test_chain_ratings_follow_se(technique, literals, expected):
    assert se_rating(lg.Grid.parse(lg.samples.EULER_01), _chain(technique, literals)) == expected


@pytest.mark.parametrize("conclusions", [1, 2, 3])
def test_a_chain_is_as_long_for_every_elimination(conclusions):
    # SE rates a chain by its own literals, however many candidates see both ends: an X-chain of
    # three strong links is a strong-linked fish (5.5), an AIC of 8 literals 7.2
    grid = lg.Grid.parse(lg.samples.EULER_01)
    assert se_rating(grid, _chain("x-chain", 6, conclusions)) == 5.5
    assert se_rating(grid, _chain("aic", 8, conclusions)) == 7.2


def test_nested_nets_count_their_sub_nets_once():
    # SE adds each distinct nested chain's complexity: 3 outer literals + a 10-node sub-net shown on
    # two edges (counted once) = 13 literals, bonus 0.4 (past 4, 6, 8 and 12)
    sub = nx.DiGraph()
    sub.add_nodes_from(range(10))
    P = nx.DiGraph(kind="net")
    P.add_edge(0, 1, proof=sub)
    P.add_edge(1, 2, proof=sub)
    P.add_edge(2, 3)
    P.add_node(4, role=lg.Role.CONCLUSION)
    step = lg.make_step("forcing-net-nested", eliminations=[lg.Candidate.parse("r1c1#1")], proof=P)
    assert se_rating(lg.Grid.parse(lg.samples.EULER_01), step) == 9.9


@pytest.mark.parametrize("find,cells,eliminated,expected", [
    # WXYZ-wing, largest cell of three digits: 5.5 + 0.1
    (wings.wxyz_wings, {"r1c1": "123", "r1c5": "14", "r2c2": "24", "r3c3": "34"}, ["r1c2#4", "r1c3#4"], 5.6),
    # the same with a pivot of four digits: 5.5
    (wings.wxyz_wings, {"r1c1": "1234", "r1c5": "14", "r2c2": "24", "r3c3": "34"}, ["r1c2#4", "r1c3#4"], 5.5),
    # VWXYZ-wing, largest four: 6.2 + 0.1 * ((5 - 3) - |3 - 4|)
    (wings.vwxyz_wings, {"r1c1": "1234", "r1c5": "15", "r1c6": "25", "r2c2": "35", "r3c3": "45"},
     ["r1c2#5", "r1c3#5"], 6.3),
    # UVWXYZ-wing, largest five: 6.6 + 0.1 * ((6 - 4) - |4 - 5|)
    (wings.uvwxyz_wings, {"r1c1": "12345", "r1c5": "16", "r1c6": "26", "r1c7": "36", "r2c2": "46", "r3c3": "56"},
     ["r1c2#6", "r1c3#6"], 6.7),
])
def test_wing_ratings_follow_sukaku(find, cells, eliminated, expected):
    grid = _grid(cells)
    steps = list(find(grid))
    assert sorted(str(c) for s in steps for c in s.eliminations) == eliminated
    assert {se_rating(grid, s) for s in steps} == {expected}


def test_big_wings_in_the_se_ladder_need_a_pivot():
    # r1c5{15} r1c6{15} in row 1, r2c2{23} r3c3{34} r2c1{245} in box 1: 1-4 restricted, 5 free, so
    # 5 leaves r1c1-r1c3 (row 1, box 1) and r2c4-r2c6 (box 2, row 2); a bent quintuple, but no cell of it sees all the others (Sukaku's wings
    # grow from a pivot), so the se ladder's VWXYZ-wing does not take it
    grid = _grid({"r1c5": "15", "r1c6": "15", "r2c2": "23", "r3c3": "34", "r2c1": "245"})
    steps = list(wings.vwxyz_wings(grid))
    assert sorted(str(c) for s in steps for c in s.eliminations) == ["r1c1#5", "r1c2#5", "r1c3#5", "r2c4#5", "r2c5#5", "r2c6#5"]
    assert not list(wings.vwxyz_wings(grid, pivot=True))
    pivoted = _grid({"r1c1": "1234", "r1c5": "15", "r1c6": "25", "r2c2": "35", "r3c3": "45"})
    assert list(wings.vwxyz_wings(pivoted, pivot=True)) == list(wings.vwxyz_wings(pivoted))


def _sample(every: int):
    lines = list(read_puzzles(corpus_path("diabolical_sample")))
    sols = read_solutions(corpus_path("diabolical_sample", solutions=True))
    return [(lines[i], np.array([int(ch) for ch in sols[i]])) for i in range(0, len(lines), every)]


def test_se_ladder_follows_the_se_ratings_of_the_diabolical_sample():
    # every 4th line of the shipped Sudoku Exchange sample (rated by Sukaku Explainer): the se
    # ladder's puzzle rating follows SE closely; every step is sound
    se, ours = [], []
    for line, solution in _sample(4):
        grid = line.grid()
        result = lg.solve(grid, ladder="se")
        assert result.solved
        assert_sound(result.steps, solution, grid.geometry)
        assert result.rating == max(result.ratings) and len(result.ratings) == len(result.steps)
        se.append(line.rating)
        ours.append(result.rating)
    assert len(se) == 250
    assert spearman(se, ours) >= 0.85


def test_cli_solve_prints_se_ratings(capsys):
    line, _ = _sample(1)[0]
    puzzle = line.grid().to_puzzle()
    result = lg.solve(line.grid(), ladder="se")
    assert main(["solve", "--ladder", "se", "--format", "json", puzzle]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rating"] == result.rating and [s["rating"] for s in out["steps"]] == list(result.ratings)
    assert main(["solve", "--ladder", "se", puzzle]) == 0
    text = capsys.readouterr().out
    assert text.rstrip().endswith(f"rating {result.rating:.1f}")
    step, rating = lg.rated_hint(line.grid(), ladder="se")
    assert main(["solve", "--ladder", "se", "--hint", puzzle]) == 0
    assert capsys.readouterr().out.startswith(f"{rating:4.1f}  {step.technique}:")
    assert main(["solve", "--ladder", "se,x-wing", puzzle]) == 2
