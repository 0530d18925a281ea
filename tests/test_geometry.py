import itertools

import numpy as np
import pytest

import linkgraph as lg
from linkgraph import geometry as geo


def test_classic_set_counts():
    g = geo.classic()
    # 81 cell sets + 27 houses x 9 digits
    assert g.number_of_sets == 81 + 243
    assert g.incidence.shape == (729, 324)
    # every candidate is in its cell set and one row, column and box set
    assert (g.incidence.sum(axis=1) == 4).all()
    assert (g.incidence.sum(axis=0) == 9).all()


@pytest.mark.parametrize("size,box", [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4))])
def test_boxes_tile_the_grid(size, box):
    g = geo.classic(size)
    boxes = [g.house_cells[i] for i, h in enumerate(g.houses) if h.kind == "box"]
    assert len(boxes) == size
    covered = np.sort(np.concatenate(boxes))
    assert (covered == np.arange(size * size)).all()
    for cells in boxes:
        rows = {int(c) // size for c in cells}
        cols = {int(c) % size for c in cells}
        assert (len(rows), len(cols)) == box


def test_peers_brute_force():
    g = geo.classic()
    for a, b in itertools.product(range(81), repeat=2):
        ra, ca, rb, cb = a // 9, a % 9, b // 9, b % 9
        same = ra == rb or ca == cb or (ra // 3, ca // 3) == (rb // 3, cb // 3)
        assert g.peers[a, b] == (same and a != b)
    assert all(len(p) == 20 for p in g.peer_lists)


def test_sudoku_x_and_windoku_houses():
    x = geo.sudoku_x()
    assert x.number_of_sets == 81 + 29 * 9
    centre = 40
    assert len(x.cell_houses[centre]) == 5  # row, col, box, both diagonals
    w = geo.windoku()
    assert w.number_of_sets == 81 + 31 * 9
    assert [str(h) for h in w.houses[-4:]] == ["w1", "w2", "w3", "w4"]
    assert len(w.cell_houses[10]) == 4  # r2c2 lies in window 1


def test_jigsaw_regions_and_errors():
    g = geo.jigsaw("1122" "1122" "3344" "3344")
    assert len(g.houses) == 12
    with pytest.raises(lg.PuzzleFormatError, match="region '1' has 3 cells"):
        geo.jigsaw("1112" "2222" "3344" "3344")


def test_index_conversions_round_trip():
    g = geo.classic(16)
    for k in range(0, g.number_of_candidates, 97):
        assert g.index(g.candidate(k)) == k
    with pytest.raises(lg.NotationError):
        geo.classic().index(lg.Candidate(lg.Cell(9, 0), 1))


def test_setx_round_trip():
    g = geo.classic()
    for s in range(g.number_of_sets):
        assert g.set_index(g.setx(s)) == s
    members = {str(g.candidate(k)) for k in g.set_members[g.set_index(lg.SetX.parse("b5#3"))]}
    assert members == {f"r{r}c{c}#3" for r in (4, 5, 6) for c in (4, 5, 6)}


@pytest.mark.parametrize("g", [geo.classic(), geo.classic(6), geo.sudoku_x(), geo.windoku(),
                               geo.jigsaw("1122" "1122" "3344" "3344")], ids=lambda g: g.name)
def test_intersections_are_every_pair_of_houses_sharing_two_cells_or_more(g):
    want = {}
    for h1 in range(len(g.houses)):
        for h2 in range(h1 + 1, len(g.houses)):
            cells = sorted(set(g.house_cells[h1].tolist()) & set(g.house_cells[h2].tolist()))
            if 2 <= len(cells) < g.size:
                want[h1, h2] = tuple(cells)
    assert dict(g.intersections) == want
    assert [pair for pair, _ in g.intersections] == sorted(want)
    for b, h, cells in g.box_lines():
        assert g.houses[b].kind in ("box", "region", "window") and g.houses[h].kind in ("row", "col", "diag")
        assert want[min(b, h), max(b, h)] == cells
