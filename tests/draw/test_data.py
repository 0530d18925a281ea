"""proof_data: every proof of real solves as JSON that names what the board draws."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.draw.data import proof_data
from linkgraph.model import Als, Group

SAMPLE = Path(lg.__file__).parent / "data" / "puzzles" / "diabolical_sample.txt"


def _puzzles(count):
    lines = [ln.split()[0] for ln in SAMPLE.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return lines[:: len(lines) // count][:count]


@pytest.mark.parametrize("puzzle", _puzzles(12) + [lg.samples.GNPX_FORCECHAIN])
def test_every_proof_of_a_solve_becomes_consistent_json(puzzle):
    grid = lg.Grid.parse(puzzle)
    result = lg.solve(grid, ladder="all" if puzzle == lg.samples.GNPX_FORCECHAIN else "default")
    kinds = set()
    for step in result.steps:
        data = proof_data(step.proof, grid)
        json.dumps(data)  # JSON-ready
        ids = {n["id"] for n in data["nodes"]}
        assert ids == {str(n) for n in step.proof.nodes}
        assert all(e["from"] in ids and e["to"] in ids for e in data["edges"])
        assert len(data["edges"]) == step.proof.number_of_edges()
        outlined = {o["text"] for o in data["outlines"]}
        for lit in step.proof.nodes:
            kinds.add(type(lit.cand).__name__)
            if isinstance(lit.cand, (Group, Als)):
                assert str(lit.cand) in outlined
            assert all(grid.has(lg.Candidate.parse(c)) for c in next(n["cands"] for n in data["nodes"] if n["id"] == str(lit)))
        for name in ("base", "cover"):
            for sx in data["sets"][name]:
                assert sx["cands"] and all(grid.has(lg.Candidate.parse(c)) for c in sx["cands"])
        grid = grid.apply(step)
    assert "Candidate" in kinds


def test_group_and_als_nodes_are_outlined_with_their_candidates():
    P = nx.DiGraph(kind="chain")
    group = lg.Literal.parse("+r1c23#7")
    als = lg.Literal.parse("-r2468c4{1237}")
    P.add_edge(group, als, kind="weak", family="group", via="r1#7")
    data = proof_data(P)
    outlines = {o["text"]: o for o in data["outlines"]}
    assert outlines["r1c23#7"]["cands"] == ["r1c2#7", "r1c3#7"]
    assert outlines["r2468c4{1237}"]["kind"] == "als"
    assert len(outlines["r2468c4{1237}"]["cands"]) == 16  # 4 cells x 4 digits
