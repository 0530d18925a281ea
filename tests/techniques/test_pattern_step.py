"""`pattern_step`, which fills its proof's dicts directly from the names the geometry keeps
(`Geometry.candidate`, `Geometry.literal`, `Geometry.set_text`) in a graph made by
`linkgraph.steps.proof_graph`, against the networkx-built version it replaced, kept here as
its oracle: every pattern step the basic and default ladders find on narrowings of every
geometry (classic, 4x4, 6x6, 16x16, diagonal, Windoku, jigsaw) is built both ways and
compared: graph attributes in order, nodes in order with their attributes, edges, the
step's fields and notation, and the frozen graph."""

from __future__ import annotations

import itertools
import sys

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.model import Candidate, Literal, Role
from linkgraph.steps import make_step, proof_graph
from linkgraph.techniques import base
from tests.narrowings import narrowings


def pattern_step_networkx(technique, g, *, base, cover=(), placements=(), eliminations=(), **extra):
    """The former `pattern_step`: the graph built through networkx's constructor and `add_node`."""
    places = sorted(Candidate(g.cell(int(k) // g.size), int(k) % g.size + 1) for k in placements)
    elims = sorted(Candidate(g.cell(int(k) // g.size), int(k) % g.size + 1) for k in eliminations)
    P = nx.DiGraph(kind="pattern", base=[str(g.setx(s)) for s in base], cover=[str(g.setx(s)) for s in cover])
    P.graph.update(extra)
    for cand in places:
        P.add_node(Literal(cand, on=True), role=Role.CONCLUSION)
    for cand in elims:
        P.add_node(Literal(cand, on=False), role=Role.CONCLUSION)
    return make_step(technique, placements=places, eliminations=elims, proof=nx.freeze(P))


def assert_same_step(new, old):
    assert (new.technique, new.placements, new.eliminations, new.premises, new.notation) == (
        old.technique, old.placements, old.eliminations, old.premises, old.notation)
    P, Q = new.proof, old.proof
    assert type(P) is type(Q) is nx.DiGraph
    assert list(P.graph.items()) == list(Q.graph.items())
    assert [(n, list(d.items())) for n, d in P.nodes(data=True)] == [(n, list(d.items())) for n, d in Q.nodes(data=True)]
    assert list(P.edges(data=True)) == list(Q.edges(data=True))
    assert P._succ is P._adj and P._pred.keys() == P._succ.keys() == P._node.keys()
    assert nx.is_frozen(P)
    with pytest.raises(nx.NetworkXError):
        P.add_node(0)


PATTERN_RUNGS = {t.name for t in lg.techniques.resolve_ladder("basic")}


def _calls(monkeypatch):
    """Record every `pattern_step` call (arguments, step) of the technique modules."""
    calls = []
    new = base.pattern_step

    def recording(*args, **kwargs):
        step = new(*args, **kwargs)
        calls.append((args, kwargs, step))
        return step

    for name, module in list(sys.modules.items()):
        if name.startswith("linkgraph.techniques") and getattr(module, "pattern_step", None) is new:
            monkeypatch.setattr(module, "pattern_step", recording)
    return calls


def test_every_pattern_step_of_the_ladders_matches_the_networkx_build(monkeypatch):
    calls = _calls(monkeypatch)
    # the rungs that build pattern steps: the basic ladder, finned fish and the wings
    ladder = [t for t in lg.techniques.resolve_ladder("all")
              if t.name in PATTERN_RUNGS or "finned" in t.name or "sashimi" in t.name or t.name.endswith("-wing")]
    geometries = set()
    for grid in narrowings(20, top95=2, rounds=2, start=True):
        geometries.add(grid.geometry.name)
        for tech in ladder:
            for _ in itertools.islice(tech.find(grid), 6):
                pass
    assert len(geometries) >= 7
    kinds = {args[0] for args, _, _ in calls}
    assert {"hidden-single", "naked-single", "full-house"} <= kinds and len(kinds) >= 8
    for args, kwargs, step in calls:
        assert_same_step(step, pattern_step_networkx(*args, **kwargs))


def test_duplicates_and_extra_attributes_match_the_networkx_build():
    g = lg.geometry.classic()
    for kw in ({"base": [100, 3], "cover": [250], "placements": [5, 5, 0], "eliminations": [700, 9, 9]},
               {"base": [], "eliminations": [728], "fins": ["r1c1#1"], "kind": "other"},
               {"base": [323], "placements": []}):
        assert_same_step(base.pattern_step("x-wing", g, **kw), pattern_step_networkx("x-wing", g, **kw))


@pytest.mark.parametrize("g", [lg.geometry.classic(4), lg.geometry.classic(), lg.geometry.classic(16),
                               lg.geometry.windoku()], ids=lambda g: g.name)
def test_the_geometry_names_match_made_values(g):
    n = g.size
    for k in [*range(g.number_of_candidates), -1, -n - 1, g.number_of_candidates, g.number_of_candidates + n]:
        made = Candidate(g.cell(k // n), k % n + 1)
        assert g.candidate(k) == made
        if 0 <= k < n**3:
            assert g.candidate(k) is g.candidate(k) and g.literal(k, True) is g.literal(k, True)
        for on in (True, False):
            assert g.literal(k, on) == Literal(made, on=on)
            assert hash(g.literal(k, on)) == hash(Literal(made, on=on))
    for s in [*range(g.number_of_sets), -1]:
        assert g.set_text(s) == str(g.setx(s))


def test_proof_graph_is_what_the_constructor_makes():
    P, Q = proof_graph(kind="pattern", base=["r1#1"]), nx.DiGraph(kind="pattern", base=["r1#1"])
    assert vars(P) == vars(Q) and list(vars(P)) == list(vars(Q))
    assert P._adj is P._succ and P._pred is not P._succ and P.graph is not Q.graph
    P.add_edge(1, 2, kind="weak")
    Q.add_edge(1, 2, kind="weak")
    assert list(P.edges(data=True)) == list(Q.edges(data=True)) and dict(P.pred) == dict(Q.pred)
    assert proof_graph()._node is not proof_graph()._node
    step = make_step("x", proof=P)
    assert vars(step.proof).keys() == vars(nx.freeze(Q)).keys() and nx.is_frozen(step.proof)
