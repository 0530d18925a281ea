"""Wings: hand-checked cases, oracle soundness, symmetry."""

from __future__ import annotations

import numpy as np
import pytest

import linkgraph as lg
from linkgraph.techniques import wings
from tests.techniques.patterncases import check_case, check_sound, prepared, read_cases

FINDERS = {
    "xy-wing": wings.xy_wings,
    "xyz-wing": wings.xyz_wings,
    "wxyz-wing": wings.wxyz_wings,
    "vwxyz-wing": wings.vwxyz_wings,
    "uvwxyz-wing": wings.uvwxyz_wings,
    "w-wing": wings.w_wings,
}


@pytest.mark.parametrize("tech,text,expected", read_cases("wings"))
def test_case(tech, text, expected):
    check_case(FINDERS[tech], tech, text, expected)


def test_pattern_proof():
    _, text, _ = read_cases("wings")[2]
    step = next(wings.xyz_wings(lg.Grid.parse(text)))
    P = step.proof
    assert P.graph["kind"] == "pattern" and P.graph["z"] == 3
    assert sorted(P.graph["base"]) == ["r2c5", "r5c4", "r5c5"]
    assert P.graph["cover"] == ["r5#1", "c5#2", "c5#3"]
    assert sorted(map(str, step.eliminations)) == ["r4c5#3", "r6c5#3"]


def test_bent_subset_of_the_xy_wing():
    # r1c5{23} r5c1{13} r5c5{12}: 1 and 2 are restricted, 3 (index 2) is the free digit
    grid = lg.Grid.parse(read_cases("wings")[0][1])
    items = list(wings.bent_subsets(grid, size=3))
    assert [(c, z) for c, z, _, _ in items] == [((4, 36, 40), 2)]


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=30))


@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_on_top95(tech, top95):
    found = sum(check_sound(list(FINDERS[tech](grid)), sol, grid) for grid, sol in top95)
    assert found > 0


@pytest.mark.parametrize("size", [3, 4])
def test_bent_search_by_digit_sets_finds_what_the_pair_pools_find(size, top95):
    # the digit-set route (9x9 default) and the pair-pool route (larger grids) are the same search
    for grid, _ in top95:
        masks = wings._masks(grid)
        mask_arr = np.array(masks, dtype=np.int64)
        found = {}
        for by_digits in (True, False):
            pairs, cells = wings._bent_found(grid, size, mask_arr, masks, by_digits=by_digits)
            found[by_digits] = sorted(zip(pairs.tolist(), map(tuple, cells.tolist())))
        assert found[True] == found[False]
