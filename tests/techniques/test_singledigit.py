"""Single-digit patterns: hand-checked cases, oracle soundness, symmetry."""

from __future__ import annotations

import pytest

import linkgraph as lg
from linkgraph.techniques import singledigit
from tests.techniques.patterncases import check_case, check_sound, prepared, read_cases

FINDERS = {
    "skyscraper": singledigit.skyscrapers,
    "2-string-kite": singledigit.two_string_kites,
    "turbot-fish": singledigit.turbot_fish,
    "empty-rectangle": singledigit.empty_rectangles,
}


@pytest.mark.parametrize("tech,text,expected", read_cases("singledigit"))
def test_case(tech, text, expected):
    check_case(FINDERS[tech], tech, text, expected)


def test_chain_proof_shape():
    tech, text, _ = read_cases("singledigit")[0]
    step = next(FINDERS[tech](lg.Grid.parse(text)))
    P = step.proof
    assert P.graph["kind"] == "chain"
    assert [str(p) for p in step.premises] == ["+r1c1#1", "-r1c1#1"] or len(step.premises) == 2
    roles = {P.nodes[v]["role"] for v in P}
    assert roles == {"premise", "inner", "conclusion"}
    for u, v, data in P.edges(data=True):
        assert data["kind"] in ("weak", "strong") and data["via"]
    for lit in P:
        if P.nodes[lit]["role"] == "conclusion":
            assert P.in_degree(lit) == 2


@pytest.fixture(scope="module")
def top95(corpus):
    return prepared(corpus("top95", limit=30))


@pytest.mark.parametrize("tech", sorted(FINDERS))
def test_sound_on_top95(tech, top95):
    found = sum(check_sound(list(FINDERS[tech](grid)), sol, grid) for grid, sol in top95)
    assert found > 0
