"""SE's basic rules and rating arithmetic, checked against facts stated outside this code:
SE's documentation of its search order (``Permutations``: binary numbers in increasing
order), the issue's statement of the length bonus and producer ratings, and hand-made
positions whose deductions follow from the rules' definitions."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.check.checker import check_step
from linkgraph.techniques.se import rules
from linkgraph.techniques.se.board import Board
from linkgraph.techniques.se.chaining import Chaining
from linkgraph.techniques.se.hints import length_bonus
from linkgraph.techniques.se.proof import hint_step
from linkgraph.techniques.se.solver import producers

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_tuples_come_in_increasing_bit_order():
    # SE's Permutations documentation, 5 bits with 3 ones: 00111, 01011, 01101, 01110, 10011, ...
    expected = ["00111", "01011", "01101", "01110", "10011", "10101", "10110", "11001", "11010", "11100"]
    got = [format(sum(1 << i for i in t), "05b") for t in rules.colex(3, 5)]
    assert got == expected


@pytest.mark.parametrize("complexity,bonus", [
    (6, 0.0), (7, 0.1), (8, 0.1), (9, 0.2), (10, 0.2), (11, 0.3), (14, 0.3), (15, 0.4), (18, 0.4), (19, 0.5),
    (26, 0.5), (27, 0.6), (34, 0.6), (35, 0.7), (50, 0.7), (51, 0.8), (66, 0.8), (67, 0.9),
])
def test_length_bonus_thresholds(complexity, bonus):
    # L = complexity - 2; +0.1 for each of 4, 6, 8, 12, 16, 24, 32, 48, 64 that L exceeds
    assert round(length_bonus(complexity), 1) == bonus


def test_a_level_three_step_of_complexity_825_rates_11_6():
    # the measured example: 10.0 + 1.6
    assert round(Chaining(multiple=True, dynamic=True, level=3).base_difficulty() + length_bonus(825), 1) == 11.6


def test_producer_order_and_base_ratings():
    names = [p.name for p in producers()]
    chain_part = names[names.index("Aligned Pair Exclusion") + 1:]
    assert chain_part == [
        "Forcing Chains & Cycles", "Aligned Triplet Exclusion", "Nishio Forcing Chains", "Multiple Forcing Chains",
        "Dynamic Forcing Chains", "Dynamic Forcing Chains (+)", "Dynamic Forcing Chains (+ Forcing Chains)",
        "Dynamic Forcing Chains (+ Multiple Forcing Chains)", "Dynamic Forcing Chains (+ Dynamic Forcing Chains)",
        "Dynamic Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
    ]
    bases = [Chaining(nishio=True, dynamic=True), Chaining(multiple=True), Chaining(multiple=True, dynamic=True)]
    bases += [Chaining(multiple=True, dynamic=True, level=n) for n in range(1, 6)]
    assert [c.base_difficulty() for c in bases] == [7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0]


def _board(tokens: dict[str, str], base: str = "123456789") -> tuple[lg.Grid, Board]:
    cells = [base] * 81
    for name, digits in tokens.items():
        c = lg.Cell.parse(name)
        cells[c.row * 9 + c.col] = digits
    grid = lg.Grid.parse(" ".join(cells))
    return grid, Board.from_grid(grid)


def test_last_empty_cell_of_a_region_rates_1_0():
    puzzle = "." + SOLVED[1:]
    board = Board.from_grid(lg.Grid.parse(puzzle))
    hint = next(rules.hidden_singles(board))
    assert (hint.cell, hint.value, hint.difficulty) == (0, 5, 1.0)


def test_hidden_single_in_a_block_rates_1_2_after_the_full_houses():
    # r1c1 and r2c2 empty: in block 1 (two empty cells) 5 has one place, since row 2 holds a 5
    # elsewhere: 1.2; columns 1 and 2 and rows 1 and 2 have one empty cell each: 1.0, and SE
    # looks for those first (columns before rows), then for hidden singles (blocks first)
    puzzle = "." + SOLVED[1:10] + "." + SOLVED[11:]
    hints = [(h.cell, h.value, h.difficulty) for h in rules.hidden_singles(Board.from_grid(lg.Grid.parse(puzzle)))]
    assert hints == [(0, 5, 1.0), (10, 7, 1.0), (0, 5, 1.0), (10, 7, 1.0), (0, 5, 1.2), (10, 7, 1.2)]


def test_naked_pair_rates_3_0_and_removes_its_digits_from_the_row():
    grid, board = _board({"r5c1": "12", "r5c4": "12"})
    hint = next(h for h in rules.naked_sets(board, 2) if h.difficulty == 3.0 and 40 in h.removable)
    row5 = {c: m for c, m in hint.removable.items() if c // 9 == 4}
    assert set(row5) == {37, 38, 40, 41, 42, 43, 44} and set(row5.values()) == {0b110}
    check_step(grid, hint_step(grid, hint))


def test_x_wing_rates_3_2():
    # digit 7 only in r2c3, r2c6, r8c3, r8c6 of rows 2 and 8: 7 leaves columns 3 and 6 elsewhere
    cells = {f"r2c{c}": "12345689" for c in range(1, 10) if c not in (3, 6)}
    cells.update({f"r8c{c}": "12345689" for c in range(1, 10) if c not in (3, 6)})
    grid, board = _board(cells)
    hint = next(rules.fish(board, 2))
    assert hint.difficulty == 3.2 and hint.name == "X-Wing"
    assert sorted(hint.eliminations()) == sorted((r * 9 + c, 7) for r in range(9) if r not in (1, 7) for c in (2, 5))
    check_step(grid, hint_step(grid, hint))


def test_xy_wing_rates_4_2():
    # pivot r1c1{12}, wings r1c5{13} and r3c2{23}: 3 leaves the cells seeing both wings
    grid, board = _board({"r1c1": "12", "r1c5": "13", "r3c2": "23"})
    hint = next(rules.xy_wings(board))
    assert hint.difficulty == 4.2
    assert sorted(hint.eliminations()) == [(1, 3), (2, 3), (21, 3), (22, 3), (23, 3)]
    check_step(grid, hint_step(grid, hint))


def test_aligned_pair_exclusion_rates_6_2():
    # r1c1{12} and r1c2{12} see the bivalue cells r2c1{12}... a pair of base cells r1c4, r1c5 with
    # common excluders r2c5{34}... : built so that (3,4) and (4,3) are excluded
    grid, board = _board({"r1c4": "34", "r1c5": "345", "r2c6": "34", "r3c6": "35", "r2c4": "45"})
    hints = list(rules.aligned_exclusions(board, 2))
    assert hints and {h.difficulty for h in hints} == {6.2}
    for h in hints[:3]:
        check_step(grid, hint_step(grid, h))
