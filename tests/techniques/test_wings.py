"""Wings: hand-checked cases, oracle soundness, symmetry."""

from __future__ import annotations

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
