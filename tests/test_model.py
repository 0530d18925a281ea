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


def test_wide_group_and_als_names_read_back():
    # on grids over 9 wide the compact forms would be ambiguous (r9c1011: columns 10, 11 or 1, 0, 1, 1)
    als = lg.Als(tuple(lg.Cell(8, c) for c in (8, 9, 10, 12)), (7, 8, 12, 14, 15))
    assert str(als) == "r9c9,r9c10,r9c11,r9c13{7,8,12,14,15}"
    assert lg.Als.parse(str(als)) == als
    group = lg.Group((lg.Cell(9, 10), lg.Cell(9, 11)), 5)
    assert str(group) == "r10c11,r10c12#5" and lg.Group.parse(str(group)) == group
    assert lg.Literal.parse("-r10c11,r10c12#5") == lg.Literal(group, on=False)
    # 9x9 names keep their compact form
    assert str(lg.Als(tuple(lg.Cell(r, 3) for r in (1, 3, 5, 7)), (1, 2, 3, 7))) == "r2468c4{1237}"
    with pytest.raises(lg.NotationError):
        lg.Als.parse("r9c0,r9c10{1,2,3}")


def test_nodes_pickled_in_one_process_are_found_in_another(across_seeds):
    # Group and Als hashes mix in a string, so they differ between processes with different
    # hash seeds (Dask workers, spawned processes): a pickle must not carry the sender's hash
    import pickle

    found, distinct, data = across_seeds(
        "import linkgraph as lg\n"
        "g = lg.Group((lg.Cell(1, 7), lg.Cell(1, 6)), 1)\n"
        "a = lg.Als((lg.Cell(3, 3), lg.Cell(1, 3)), (7, 1, 2))\n"
        "c = lg.Candidate(lg.Cell(1, 7), 1)\n"
        "keys = [g, a, c, lg.Literal(g, on=False), lg.Literal(a), lg.Literal(c, on=False)]\n")
    assert (found, distinct) == (6, 6)
    # in one process, a round trip is equal and hashes equal
    for key in pickle.loads(data):
        assert pickle.loads(pickle.dumps(key)) == key and hash(pickle.loads(pickle.dumps(key))) == hash(key)
