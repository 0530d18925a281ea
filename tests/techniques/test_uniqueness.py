"""Uniqueness techniques (unique rectangles 1-4, BUG+1): hand-checked cases, the checker's
shape rule, oracle soundness on proper puzzles."""

from __future__ import annotations

from functools import partial

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.errors import OptionError, ProofError
from linkgraph.model import Literal, Role
from linkgraph.techniques import uniqueness
from linkgraph.check.checker import check_step
from tests.techniques.patterncases import check_case, check_sound, prepared, read_cases

FINDERS = {f"unique-rectangle-{k}": partial(uniqueness.unique_rectangles, types=(k,)) for k in (1, 2, 3, 4)}
FINDERS["bug+1"] = uniqueness.bug_plus_one
CASES = read_cases("uniqueness")


def _grid(tech: str) -> lg.Grid:
    return next(lg.Grid.parse(t) for k, t, e in CASES if k == tech and e != "none")


@pytest.mark.parametrize("tech,text,expected", CASES)
def test_case(tech, text, expected):
    grid, steps = check_case(FINDERS[tech], tech, text, expected)
    for step in steps:
        check_step(grid, step)
        assert step.proof.graph["assumes"] == "uniqueness" and step.proof.graph["kind"] == "pattern"


def test_bad_types():
    with pytest.raises(OptionError):
        uniqueness.unique_rectangles(lg.Grid.empty(), types=(5,))


def test_not_in_the_default_ladder():
    names = {t.name for t in lg.techniques.resolve_ladder("default")}
    assert not names & set(FINDERS)
    assert set(FINDERS) <= {t.name for t in lg.techniques.resolve_ladder("all")}


def _with(step, *, eliminations=None, placements=None, **attrs):
    P = nx.DiGraph(step.proof)
    P.graph.update(attrs)
    elims = step.eliminations if eliminations is None else eliminations
    places = step.placements if placements is None else placements
    for n in list(P):
        P.remove_node(n)
    for c in elims:
        P.add_node(Literal(c, on=False), role=Role.CONCLUSION)
    for c in places:
        P.add_node(Literal(c, on=True), role=Role.CONCLUSION)
    return lg.make_step(step.technique, eliminations=elims, placements=places, proof=P)


C = lg.Candidate.parse


@pytest.mark.parametrize("tech,change,message", [
    ("unique-rectangle-1", {"eliminations": {C("r2c4#1"), C("r2c4#5")}}, "does not follow"),
    ("unique-rectangle-1", {"cells": ["r1c1", "r1c4", "r2c1", "r3c4"]}, "two rows"),
    ("unique-rectangle-1", {"pair": [1, 5]}, "open cell holding"),
    ("unique-rectangle-1", {"type": 2, "extra": 5}, "two cells holding exactly"),
    ("unique-rectangle-2", {"eliminations": {C("r3c4#7"), C("r3c7#7")}}, "does not follow"),
    ("unique-rectangle-2", {"extra": 5}, "must hold exactly"),
    ("unique-rectangle-3", {"digits": [7, 8, 9]}, "are not 2 digits"),
    ("unique-rectangle-3", {"house": "b2"}, "not other cells"),
    ("unique-rectangle-4", {"digit": 2}, "not confined"),
    ("unique-rectangle-4", {"eliminations": {C("r1c4#1")}}, "does not follow"),
    ("bug+1", {"placements": {C("r4c2#3")}, "digit": 3}, "digit"),
    ("bug+1", {"pattern": "bug+2"}, "unknown uniqueness pattern"),
])
def test_checker_rejects(tech, change, message):
    grid = _grid(tech)
    (step,) = FINDERS[tech](grid)
    check_step(grid, step)
    change = dict(change)
    elims, places = change.pop("eliminations", None), change.pop("placements", None)
    bad = _with(step, eliminations=elims, placements=places, **change)
    with pytest.raises(ProofError, match=message):
        check_step(grid, bad)


def test_checker_rejects_four_boxes():
    text = next(t for k, t, e in CASES if k == "unique-rectangle-1" and e == "none" and "1257" in t)
    grid = lg.Grid.parse(text)
    P = nx.DiGraph(kind="pattern", assumes="uniqueness", pattern="unique-rectangle", type=1,
                   cells=["r1c1", "r1c5", "r5c1", "r5c5"], pair=[1, 2])
    step = lg.make_step("unique-rectangle-1", eliminations=[C("r5c5#1")], proof=P)
    with pytest.raises(ProofError, match="two boxes"):
        check_step(grid, step)


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=20))  # proper puzzles: one solution each


def test_sound_on_top95(top95):
    found = {tech: 0 for tech in FINDERS}
    for grid, sol in top95:
        for tech, find in FINDERS.items():
            found[tech] += check_sound(list(find(grid)), sol, grid)
    assert found["unique-rectangle-1"] + found["unique-rectangle-4"] > 0


@pytest.mark.slow
def test_sound_on_top1465(corpus):
    for grid, sol in prepared(corpus("top1465", every=5)):
        for find in FINDERS.values():
            check_sound(list(find(grid)), sol, grid)
