"""SE 1.2.1's Unique Loops and BUG (`linkgraph.techniques.se.unique`) and their proofs.

The positions are real positions of shipped diabolical puzzles; what each rule must find
there was worked out by hand from the rules' definitions (comments below), and the ratings
are SE's stated ones (loop 4.5, +0.1 for 6 cells; type 3 +0.1 per naked-set digit beyond
one; BUG 5.6 / 5.7 / 5.7 + 0.1 per digit beyond one / 5.7)."""

from __future__ import annotations

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.check.checker import check_step
from linkgraph.errors import ProofError
from linkgraph.steps import make_step
from linkgraph.techniques.se.board import Board
from linkgraph.techniques.se.unique import bug_hints, loop_rating, unique_loop_hints

# every open cell bivalue but r2c2 {1,2,4} and r8c9 {1,4,6}; without their 1s each digit has
# two places in every house, so r2c2#1 or r8c9#1 is true: BUG type 2 on digit 1, and the one
# cell that sees both and holds 1 is r2c9
BUG2 = """
9 47 3 5 1 6 47 8 2
15 124 25 7 8 9 6 3 14
67 8 16 2 3 4 5 17 9
8 3 9 6 5 12 12 4 7
15 12 7 4 9 3 8 26 56
4 6 25 8 7 12 3 9 15
2 17 14 9 6 8 47 5 3
67 9 8 3 24 5 12 17 146
3 5 46 1 24 7 9 26 8
"""

# r2c2 {2,8,9} and r2c8 {7,8,9} are the BUG cells (BUG candidates r2c2#2, r2c8#8). They share
# row 2 and the digit 9, whose only places in row 2 they are: type 4 keeps r2c2 to {2,9} and
# r2c8 to {8,9}. Row 2 also has r2c7 {5,8} and r2c9 {2,5}: with the BUG digits {2,8} standing
# for one cell they make a naked triple {2,5,8}, so r2c1 loses 2 (type 3, 5.7 + 0.2).
BUG34 = """
6 29 3 5 7 8 1 49 24
27 289 1 4 6 3 58 789 25
57 58 4 1 9 2 6 78 3
4 25 8 7 1 9 25 3 6
3 6 7 28 4 5 28 1 9
25 1 9 28 3 6 7 48 45
9 3 5 6 8 1 4 2 7
8 4 6 3 2 7 9 5 1
1 7 2 9 5 4 3 6 8
"""

# rectangle r4c3 r6c3 r6c7 r4c7 on {5,6} in boxes 4 and 6, only r6c3 {4,5,6} has more: type 1
# (4.5). The six cells r4c3 r5c3 r5c4 r6c4 r6c7 r4c7 on {5,6} are a loop too (each row,
# column and box they enter holds two of them at an odd distance), r6c4 {2,5,6} the only one
# with more: a unique loop of 6 cells, type 1, 4.6.
LOOP = """
6 2 8 7 1 4 3 9 5
1 3 7 9 5 2 4 8 6
4 5 9 3 6 8 1 7 2
2 9 56 8 3 57 56 1 4
3 8 56 56 4 1 9 2 7
47 1 456 256 9 57 56 3 8
8 4 3 1 7 6 2 5 9
5 7 1 4 2 9 8 6 3
9 6 2 5 8 35 7 4 1
"""

# rectangle r4c3 r5c3 r5c5 r4c5 on {4,7} (boxes 4 and 5); r5c5 {1,4,7} and r4c5 {4,6,7} have
# the extras 1 and 6. Type 4: 7 has no other place in box 5 nor in column 5, so 4 leaves both
# (4.5). Type 3: {1,6} with r6c6 {1,6} is a naked pair of box 5, so r6c5 loses 1 (4.6).
UR34 = """
4 7 3 1 9 8 5 6 2
5 1 9 6 2 7 8 3 4
2 6 8 5 3 4 9 1 7
3 8 47 2 467 9 1 5 6
16 2 47 34 147 5 46 9 8
16 9 5 8 14 16 2 7 3
9 5 2 4 146 3 7 8 16
8 4 6 7 5 12 3 2 9
7 3 1 9 8 26 46 24 5
"""


def _grid(text: str) -> lg.Grid:
    return lg.Grid.parse(text.strip())


def _summary(hints) -> list[tuple[str, float, str]]:
    return [(h.name, round(h.difficulty, 1), ", ".join(f"{c.cell}<>{c.digit}" for c in sorted(h.step.eliminations)))
            for h in hints]


def test_loop_ratings_are_ses():
    assert [loop_rating(n) for n in (4, 6, 8, 10, 14)] == [4.5, 4.6, 4.7, 5.0, 5.0]


def test_bug_type_2():
    grid = _grid(BUG2)
    hints = list(bug_hints(Board.from_grid(grid)))
    assert _summary(hints) == [("BUG type 2", 5.7, "r2c9<>1")]
    check_step(grid, hints[0].step)


def test_bug_types_4_then_3():
    grid = _grid(BUG34)
    hints = list(bug_hints(Board.from_grid(grid)))
    assert _summary(hints) == [("BUG type 4", 5.7, "r2c2<>8, r2c8<>7"), ("BUG type 3", 5.9, "r2c1<>2")]
    for h in hints:
        check_step(grid, h.step)


def test_rectangle_before_the_longer_loop():
    grid = _grid(LOOP)
    hints = list(unique_loop_hints(Board.from_grid(grid)))
    assert _summary(hints) == [
        ("Unique Rectangle type 1", 4.5, "r6c3<>5, r6c3<>6"),
        ("Unique Loop type 1", 4.6, "r6c4<>5, r6c4<>6"),
    ]
    assert sorted(hints[1].step.proof.graph["cells"]) == sorted(["r4c3", "r5c3", "r5c4", "r6c4", "r6c7", "r4c7"])
    for h in hints:
        check_step(grid, h.step)


def test_rectangle_types_4_and_3():
    grid = _grid(UR34)
    hints = list(unique_loop_hints(Board.from_grid(grid)))
    assert _summary(hints) == [
        ("Unique Rectangle type 4", 4.5, "r4c5<>4, r5c5<>4"),
        ("Unique Rectangle type 3", 4.6, "r6c5<>1"),
    ]
    for h in hints:
        check_step(grid, h.step)


def _forged(step, *, eliminations=None, **graph):
    P = nx.DiGraph(step.proof)
    P.graph.update(graph)
    return make_step(step.technique, eliminations=eliminations if eliminations is not None else step.eliminations,
                     proof=P)


def _cand(text: str) -> lg.model.Candidate:
    return lg.model.Candidate.parse(text)


@pytest.mark.parametrize("text,change,message", [
    (BUG2, {"eliminations": ["r2c9#1", "r2c1#1"]}, "does not follow from BUG type 2"),
    (BUG2, {"bug": ["r2c2#1"]}, "not a BUG"),
    (BUG2, {"type": 1}, "type 1 needs one BUG cell"),
    (BUG34, {"digit": 8}, "not confined"),
    (LOOP, {"cells": ["r4c3", "r5c3", "r5c4", "r6c4", "r6c7"]}, "an even number"),
    (LOOP, {"cells": ["r4c3", "r5c3", "r5c4", "r6c4", "r4c7", "r6c7"]}, "share no house"),
    (LOOP, {"pair": [5, 7]}, "holding [5, 7]"),
    (UR34, {"digit": 4}, "not confined"),
    (UR34, {"eliminations": ["r4c5#4", "r5c5#4", "r5c5#7"]}, "does not follow"),
])
def test_the_checker_rejects_forged_proofs(text, change, message):
    grid = _grid(text)
    board = Board.from_grid(grid)
    step = next(iter(list(unique_loop_hints(board)) + list(bug_hints(board)))).step
    elims = change.pop("eliminations", None)
    forged = _forged(step, eliminations=[_cand(t) for t in elims] if elims else None, **change)
    with pytest.raises(ProofError, match=message.replace("[", r"\[").replace("]", r"\]")):
        check_step(grid, forged)


def test_a_rectangle_across_four_boxes_is_no_loop():
    # same shape as a rectangle but in rows 1 and 4: four boxes, so its pair could not be
    # swapped; the checker must refuse it whatever the grid holds
    grid = _grid(UR34)
    step = next(iter(unique_loop_hints(Board.from_grid(grid)))).step
    forged = _forged(step, cells=["r4c3", "r5c3", "r5c5", "r4c5", "r4c7", "r5c7"])
    with pytest.raises(ProofError):
        check_step(grid, forged)


def test_the_se_ladder_rungs_give_the_steps_with_ses_ratings():
    from linkgraph.techniques.serate import SE_LADDER, se_rating
    rungs = {t.name: t for t in SE_LADDER}
    grid = _grid(BUG2)
    step = next(iter(rungs["se-bivalue-universal-grave"].find(grid)))
    assert (step.technique, se_rating(grid, step), sorted(map(str, step.eliminations))) == ("se-bug-2", 5.7, ["r2c9#1"])
    check_step(grid, step)
    grid = _grid(LOOP)
    steps = list(rungs["se-unique-loop"].find(grid))
    assert [(s.technique, se_rating(grid, s)) for s in steps] == [("se-unique-loop-1", 4.5), ("se-unique-loop-1", 4.6)]


def test_every_hint_on_a_solve_path_keeps_the_solution():
    # all positions of linkgraph's solve paths of 14 diabolical puzzles: every unique loop and
    # BUG hint there must pass the checker and remove no digit of the unique solution
    from linkgraph.oracle import solve_unique
    seen = 0
    lines = [ln.split()[0] for ln in open(_data("diabolical_sample.txt")) if ln.strip() and not ln.startswith("#")]
    for text in lines[:40:3]:
        grid = lg.Grid.parse(text)
        solution = solve_unique(grid)
        g = grid
        for step in (None, *lg.solve(grid).steps):
            if step is not None:
                g = g.apply(step)
            board = Board.from_grid(g)
            for hint in (*unique_loop_hints(board), *bug_hints(board)):
                seen += 1
                check_step(g, hint.step)
                for cand in hint.step.eliminations:
                    assert solution[g.geometry.cell_index(cand.cell)] != cand.digit, (text, hint)
    assert seen > 20


def _data(name: str) -> str:
    from pathlib import Path
    return str(Path(lg.__file__).parent / "data" / "puzzles" / name)


# rectangle r4c8 r6c8 r6c4 r4c4 on {1,2}; r6c4 and r4c4 hold {1,2,5,9}. Leave r4c4 out: 1 and
# 2 have only r5c4 and r6c4 left in box 5 (and in column 4). Were r4c4 1 or 2, r6c4 would
# keep 5 or 9 and the other of 1, 2 would go to r5c4; were r4c4 5 or 9, {1,2} is a hidden
# pair in r5c4, r6c4. Either way r5c4 is 1 or 2: it loses 9 (type 3 with a hidden pair, 4.5).
UR_HIDDEN = """
1 2 3 4 7 6 9 5 8
457 457 6 8 2 9 1 3 7
47 4789 789 3 1 5 2 47 6
2457 4579 12579 1259 8 37 6 12 1239
3 6 1279 129 9 7 5 8 4
8 59 1259 1259 6 4 7 12 1239
9 1 4 7 3 2 8 6 5
2567 3578 2578 56 45 1 34 9 237
2567 357 257 569 459 8 34 1247 1237
"""


def test_rectangle_type_3_with_a_hidden_pair():
    grid = _grid(UR_HIDDEN)
    hidden = [h for h in unique_loop_hints(Board.from_grid(grid)) if h.step.proof.graph.get("set") == "hidden"]
    assert {(h.name, round(h.difficulty, 1), h.step.proof.graph["house"]) for h in hidden} >= {
        ("Unique Rectangle type 3", 4.5, "b5"), ("Unique Rectangle type 3", 4.5, "c4")}
    step = next(h.step for h in hidden if h.step.proof.graph["house"] == "b5")
    assert sorted(map(str, step.eliminations)) == ["r5c4#9"]
    check_step(grid, step)
    with pytest.raises(ProofError, match="not a hidden set"):
        check_step(grid, _forged(step, digits=[1, 2, 9]))
    with pytest.raises(ProofError, match="not one of the two cells"):
        check_step(grid, _forged(step, outside="r5c4"))
