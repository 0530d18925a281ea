"""The basic rungs on hand-built positions whose answer is worked out by hand here."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.techniques import TECHNIQUES

ALL = "123456789"


def grid_from(cells: dict[str, str], default: str = ALL) -> lg.Grid:
    """A candidate grid: every cell `default` except the listed ones ('r1c1': '37')."""
    tokens = [default] * 81
    for name, digits in cells.items():
        cell = lg.Cell.parse(name)
        tokens[cell.row * 9 + cell.col] = digits
    return lg.Grid.parse(" ".join(tokens))


def without(digit: str, names) -> dict[str, str]:
    return {n: ALL.replace(digit, "") for n in names}


def found(technique: str, grid: lg.Grid) -> tuple[set[str], set[str]]:
    places, elims = set(), set()
    for step in TECHNIQUES[technique].find(grid):
        assert step.technique == technique
        places |= {str(c) for c in step.placements}
        elims |= {str(c) for c in step.eliminations}
    return places, elims


def cells(rows, cols) -> list[str]:
    return [f"r{r}c{c}" for r in rows for c in cols]


def test_naked_pair_in_row_and_box():
    grid = grid_from({"r1c1": "37", "r1c2": "37"})
    _, elims = found("naked-pair", grid)
    row = {f"{c}#{d}" for c in cells([1], range(3, 10)) for d in "37"}
    box = {f"{c}#{d}" for c in cells([2, 3], [1, 2, 3]) for d in "37"}
    assert elims == row | box


def test_hidden_pair():
    # digits 1 and 2 of row 1 only in r1c1 and r1c2
    grid = grid_from({c: "3456789" for c in cells([1], range(3, 10))})
    _, elims = found("hidden-pair", grid)
    assert elims == {f"r1c{c}#{d}" for c in (1, 2) for d in "3456789"}


def test_x_wing_rows():
    # digit 5 of rows 2 and 6 only in columns 3 and 7
    others = [c for c in cells([2, 6], range(1, 10)) if c[-1] not in "37"]
    grid = grid_from(without("5", others))
    _, elims = found("x-wing", grid)
    assert elims == {f"r{r}c{c}#5" for r in (1, 3, 4, 5, 7, 8, 9) for c in (3, 7)}


def test_swordfish_columns():
    # digit 8 of columns 1, 5, 9 only in rows 2, 4, 8
    others = [f"r{r}c{c}" for c in (1, 5, 9) for r in range(1, 10) if r not in (2, 4, 8)]
    grid = grid_from(without("8", others))
    _, elims = found("swordfish", grid)
    assert elims == {f"r{r}c{c}#8" for r in (2, 4, 8) for c in range(1, 10) if c not in (1, 5, 9)}


def test_pointing_and_no_claiming():
    # digit 4 of box 1 only in r1c1, r1c2: it leaves the rest of row 1
    grid = grid_from(without("4", ["r1c3", *cells([2, 3], [1, 2, 3])]))
    _, elims = found("locked-pointing", grid)
    assert elims == {f"r1c{c}#4" for c in range(4, 10)}
    assert found("locked-claiming", grid) == (set(), set())


def test_claiming():
    # digit 4 of row 1 only in box 1: it leaves box 1's other rows
    grid = grid_from(without("4", cells([1], range(4, 10))))
    _, elims = found("locked-claiming", grid)
    assert elims == {f"{c}#4" for c in cells([2, 3], [1, 2, 3])}


def test_naked_and_hidden_single_and_full_house():
    grid = grid_from({"r5c5": "6"})
    places, _ = found("naked-single", grid)
    assert places == {"r5c5#6"}
    # digit 9 of column 2 only in r7c2
    grid = grid_from(without("9", [c for c in cells(range(1, 10), [2]) if c != "r7c2"]))
    places, _ = found("hidden-single", grid)
    assert places == {"r7c2#9"}
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    places, _ = found("full-house", lg.Grid.parse("." + solved[1:]))
    assert places == {"r1c1#5"}


@pytest.mark.parametrize("name", sorted(TECHNIQUES))
def test_nothing_on_a_solved_grid(name):
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    assert list(TECHNIQUES[name].find(lg.Grid.parse(solved))) == []


def test_pattern_proofs_state_base_and_cover():
    grid = grid_from({"r1c1": "37", "r1c2": "37"})
    step = next(TECHNIQUES["naked-pair"].find(grid))
    P = step.proof
    assert P.graph["kind"] == "pattern"
    assert sorted(P.graph["base"]) == ["r1c1", "r1c2"]
    assert len(P.graph["cover"]) == 2
    assert {str(n) for n in P.nodes} == {f"-{c}" for c in step.eliminations}
