"""X-chains, XY-chains and AICs: a hand-checked case, oracle soundness, shortest first, laziness."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.techniques.aic import search as aic
from tests.techniques.patterncases import check_sound, conclusions, expected_list, prepared, read_cases, transpose

FINDERS = {
    "x-chain": aic.x_chains,
    "xy-chain": aic.xy_chains,
    "aic": lambda grid: aic.aics(grid, groups=False),
    "grouped-aic": aic.aics,
}


def test_x_chain_holds_the_skyscraper():
    # a skyscraper is an X-chain of four nodes: the X-chains find its hand-checked eliminations
    tech, text, expected = read_cases("singledigit")[0]
    assert tech == "skyscraper"
    for grid in (lg.Grid.parse(text), transpose(lg.Grid.parse(text))):
        steps = list(aic.x_chains(grid))
        assert steps and all(s.technique == "x-chain" for s in steps)
    found = set(conclusions(aic.x_chains(lg.Grid.parse(text))))
    assert set(expected_list(expected)) <= found


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=12))


@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_and_shortest_first(tech, top95):
    found = 0
    for grid, sol in top95:
        steps = list(FINDERS[tech](grid))
        found += check_sound(steps, sol, grid)
        lengths = [s.proof.graph["length"] for s in steps]
        assert lengths == sorted(lengths), f"{tech}: chains not shortest first"
        for s in steps:  # the stated length is the chain's number of nodes
            assert s.proof.graph["chain"].count("=") + s.proof.graph["chain"].count("-") + 1 == s.proof.graph["length"]
    assert found > 0


def test_steps_built_only_as_consumed(monkeypatch, top95):
    # the solver takes the first step that makes progress: the rest must not be built
    built = []
    real = aic.chain_step

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(aic, "chain_step", counting)
    grid = next(g for g, _ in top95 if len(list(aic.aics(g))) > 1)
    built.clear()
    first = next(aic.aics(grid))
    assert len(built) == 1 and first.technique == "grouped-aic"


def test_a_chain_candidate_seeing_both_ends_is_eliminated():
    # top95 #4 after the basic ladder: some AICs pass through a candidate that sees both of their
    # ends; it is OFF whichever end is ON, so it is eliminated too (the solution keeps it out),
    # and the proof still replays (no cycle through the chain's own -t)
    text = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
    grid = lg.prepare(lg.Grid.parse(text))
    solution = lg.oracle.solve_unique(lg.Grid.parse(text))
    on_chain = 0
    for step in aic.aics(grid, groups=False):
        lg.check.checker.check_step(grid, step)
        chain = step.proof.graph["chain"].replace("=", "-").split("-")
        for c in step.eliminations:
            assert solution[grid.geometry.cell_index(c.cell)] != c.digit, (step, c)
            on_chain += str(c) in chain
    assert on_chain
