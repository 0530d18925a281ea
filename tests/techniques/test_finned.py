"""Finned and sashimi fish: hand-checked cases, oracle soundness, symmetry."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.techniques import base, finned
from tests.techniques.patterncases import check_case, check_sound, prepared, read_cases

FINDERS = {
    f"{kind}-{name}": finned.finder(size, kind == "sashimi")
    for size, name in finned.FISH_NAMES.items()
    for kind in ("finned", "sashimi")
}


@pytest.mark.parametrize("tech,text,expected", read_cases("finned"))
def test_case(tech, text, expected):
    check_case(FINDERS[tech], tech, text, expected)


def test_pattern_proof():
    _, text, _ = read_cases("finned")[0]
    (step,) = finned.finned_fish(lg.Grid.parse(text), size=2)
    P = step.proof
    assert P.graph["kind"] == "pattern"
    assert P.graph["base"] == ["r1#5", "r5#5"] and P.graph["cover"] == ["c2#5", "c8#5"]
    assert P.graph["fins"] == ["r1c9#5"] and P.graph["fin_box"] == "b3"


def test_bad_size():
    with pytest.raises(lg.OptionError):
        finned.finned_fish(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN), size=5)


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=30))


@pytest.mark.parametrize("size", [2, 3, 4])
def test_sound_on_top95(size, top95):
    found = sum(check_sound(list(finned.finned_fish(grid, size=size)), sol, grid) for grid, sol in top95)
    assert found > 0


def test_shared_search_survives_an_interruption(monkeypatch):
    # the finned and sashimi rungs share one lazy search per grid; a search cut short
    # (say by a job timeout) must not leave a partial list behind for the next call
    _, text, _ = read_cases("finned")[0]
    grid = lg.Grid.parse(text)
    lg.grid._CACHE.clear()
    expected = [str(s) for s in finned.finned_fish(grid, size=2)]
    assert expected
    lg.grid._CACHE.clear()
    real = finned._records

    def interrupted(grid, size):
        raise TimeoutError("job timeout")
        yield from real(grid, size)

    monkeypatch.setattr(finned, "_records", interrupted)
    with pytest.raises(TimeoutError):
        list(finned.finned_fish(grid, size=2))
    monkeypatch.setattr(finned, "_records", real)
    assert [str(s) for s in finned.finned_fish(grid, size=2)] == expected
    both = [str(s) for s in finned.finder(2, False)(grid)] + [str(s) for s in finned.finder(2, True)(grid)]
    assert sorted(both) == sorted(expected)
