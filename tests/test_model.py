import pytest

import linkgraph as lg
from linkgraph.model import sort_key


@pytest.mark.parametrize(
    "text",
    ["r2c8", "r1c1", "r9c9"],
)
def test_cell_round_trip(text):
    assert str(lg.Cell.parse(text)) == text


def test_cell_is_zero_based_inside():
    assert lg.Cell.parse("r2c8") == lg.Cell(1, 7)


@pytest.mark.parametrize("text", ["r0c1", "r10c1", "x1c1", "r1c", "r1c1#"])
def test_bad_cells_raise(text):
    with pytest.raises(lg.NotationError):
        lg.Cell.parse(text, size=9)


@pytest.mark.parametrize("text", ["r2c8#x", "r2c8", "r2c8#0", "r2c8#10", "r10c1#3"])
def test_bad_candidates_raise(text):
    with pytest.raises(lg.NotationError) as info:
        lg.Candidate.parse(text, size=9)
    assert repr(text) in str(info.value)


def test_literal_flip_and_text():
    lit = lg.Literal.parse("+r2c8#1")
    assert str(~lit) == "-r2c8#1"
    assert ~~lit == lit
    assert lit.cand == lg.Candidate(lg.Cell(1, 7), 1)


def test_group_and_als_text():
    g = lg.Group.parse("r2c789#1")
    assert len(g.cells) == 3 and str(g) == "r2c789#1"
    a = lg.Als.parse("r2468c4{1237}")
    assert str(a) == "r2468c4{1237}" and a.cells_text == "r2468c4"
    assert str(lg.Literal.parse("-r7c589{2378}")) == "-r7c589{2378}"


def test_house_and_setx_text():
    assert str(lg.House.parse("row2")) == "r2"
    assert lg.House.parse("b5").long_name == "box5"
    assert str(lg.SetX.parse("r2#1")) == "r2#1"
    assert str(lg.SetX.parse("r2c8")) == "r2c8"


def test_sort_key_is_total_over_kinds():
    nodes = [lg.Als.parse("r1c12{123}"), lg.Group.parse("r1c12#1"), lg.Candidate.parse("r9c9#9")]
    assert [type(n) for n in sorted(nodes, key=sort_key)] == [lg.Candidate, lg.Group, lg.Als]


def test_values_are_frozen():
    cell = lg.Cell(0, 0)
    with pytest.raises(AttributeError):
        cell.row = 3  # type: ignore[misc]


def test_public_api_sorted():
    assert list(lg.__all__) == sorted(lg.__all__)
    for name in lg.__all__:
        assert hasattr(lg, name), name
