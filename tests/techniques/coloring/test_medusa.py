"""Simple colouring and 3D Medusa: hand-checked cases, proofs, oracle soundness, symmetry."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.errors import ProofError
from linkgraph.model import Literal, Role
from linkgraph.techniques.coloring import medusa as coloring
from linkgraph.check.checker import check_step
from tests.techniques.patterncases import check_case, check_sound, prepared, read_cases

FINDERS = {"simple-coloring": coloring.simple_coloring, "3d-medusa": coloring.medusa}
CASES = read_cases("coloring")


def _case(tech: str, expected_prefix: str) -> lg.Grid:
    return next(lg.Grid.parse(t) for k, t, e in CASES if k == tech and e.startswith(expected_prefix))


@pytest.mark.parametrize("tech,text,expected", CASES)
def test_case(tech, text, expected):
    grid, steps = check_case(FINDERS[tech], tech, text, expected)
    for step in steps:
        check_step(grid, step)


def test_wrap_proof_refutes_the_wrong_colour():
    grid = _case("simple-coloring", "-r1c1#1")
    (step,) = coloring.simple_coloring(grid)
    P = step.proof
    assert P.graph["kind"] == "coloring" and P.graph["rule"] == "color-wrap" and P.graph["digit"] == 1
    assert sorted(P.graph["colors"][0]) == ["r1c1#1", "r2c2#1", "r4c4#1"]
    root = step.premises[0]
    assert step.premises == (root, ~root) and root.on and str(root.cand) in P.graph["colors"][0]
    # the ON branch reaches two ON 1s in box 1; the OFF branch turns the whole colour OFF
    ons = {str(n) for n in P if n.on}
    assert {"+r1c1#1", "+r2c2#1"} <= ons
    assert {f"-{c}" for c in P.graph["colors"][0]} <= {str(n) for n in P}


def test_trap_proof_has_one_elimination_per_branch():
    grid = _case("simple-coloring", "-r6c1#1")
    (step,) = coloring.simple_coloring(grid)
    target = Literal(lg.Candidate.parse("r6c1#1"), on=False)
    P = step.proof
    assert P.nodes[target]["role"] == Role.CONCLUSION
    sources = sorted(str(u) for u in P.predecessors(target))
    assert sources == ["+r1c1#1", "+r6c6#1"]


def test_checker_rejects_a_claim_beyond_the_proof():
    grid = _case("simple-coloring", "-r6c1#1")
    (step,) = coloring.simple_coloring(grid)
    extra = step.eliminations | {lg.Candidate.parse("r6c2#1")}
    bad = lg.make_step(step.technique, eliminations=extra, premises=step.premises, proof=step.proof)
    with pytest.raises(ProofError):
        check_step(grid, bad)


def test_medusa_rules_are_named():
    rules = sorted(
        step.proof.graph["rule"]
        for tech, text, _ in CASES if tech == "3d-medusa"
        for step in coloring.medusa(lg.Grid.parse(text))
    )
    assert rules == [
        "cell-emptied", "twice-in-cell", "twice-in-unit", "two-colors-elsewhere", "two-colors-in-cell",
        "two-colors-unit-and-cell", "unit-emptied",
    ]


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=20))


@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_on_top95(tech, top95):
    found = sum(check_sound(list(FINDERS[tech](grid)), sol, grid) for grid, sol in top95)
    assert found > 0


@pytest.mark.slow
@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_on_top1465(tech, corpus):
    for grid, sol in prepared(corpus("top1465", every=5)):
        check_sound(list(FINDERS[tech](grid)), sol, grid)
