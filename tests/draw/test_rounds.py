"""Nets legible on the board: proof nodes carry their round, the rounds layout draws one
board per round with only that round's links, an ALS gets one outline, and the net
commands skip trivial nets."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.cli.main import main
from linkgraph.draw.dot import proof_rounds, to_dot
from linkgraph.draw.graphviz import render
from linkgraph.io import read_puzzles

from tests.draw.test_render import read_dot

HAVE_NEATO = shutil.which("neato") is not None
PUZZLES = Path(lg.__file__).parent / "data" / "puzzles"


@pytest.fixture(scope="module")
def big_net():
    """The gallery's net: hardest_norvig.txt line 2, r1c8#4 is false (46 literals)."""
    line = next(p for p in read_puzzles(PUZZLES / "hardest_norvig.txt") if p.number == 2)
    grid = lg.prepare(line.grid())
    lit = lg.Literal.parse("-r1c8#4")
    step = next(s for s in lg.forcing_nets(grid) if lit in s.conclusions)
    return grid, step


def test_every_link_goes_forward_in_rounds(big_net):
    """A literal is derived after each literal it is derived from; premises are round 0."""
    _, step = big_net
    P = step.proof
    assert P.number_of_nodes() >= 40
    for u, v in P.edges:
        assert P.nodes[u]["round"] < P.nodes[v]["round"], (u, v)
    for n, d in P.nodes(data=True):
        assert (d["round"] == 0) == (d["role"] == "premise"), n


def test_chain_rounds_are_distances_from_the_premise():
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    step = lg.chains.prove(lg.chains.chain_search(grid), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    P = step.proof
    for premise in step.premises:
        # along a single chain the round is the number of links from its premise
        for target, dist in nx.single_source_shortest_path_length(P, premise).items():
            if P.in_degree(target) <= 1:
                assert P.nodes[target]["round"] == dist


def test_rounds_layout_one_panel_per_round(big_net):
    grid, step = big_net
    P = step.proof
    rounds = proof_rounds(P)
    source = to_dot(step, layout="rounds", grid=grid).source
    titles = re.findall(r'label="round (\d+): ', source)
    assert [int(t) for t in titles] == sorted(set(rounds.values()))
    _, edges = read_dot(source)
    links = {(u, v) for u, v in edges if not u.startswith("_")}
    # panel j shows exactly the links into the literals of its round
    want = set()
    for j, k in enumerate(sorted(set(rounds.values()))):
        for u, v in P.edges:
            if rounds[v] == k:
                want.add((f"p{j}_{u}", f"p{j}_{v}"))
    assert links == want


@pytest.mark.skipif(not HAVE_NEATO, reason="Graphviz neato not installed")
def test_rounds_and_board_render(big_net, tmp_path):
    grid, step = big_net
    for layout in ("rounds", "board"):
        out = render(step, tmp_path / f"net.{layout}.svg", layout=layout, grid=grid)
        assert out.stat().st_size > 10_000


def test_als_is_one_outline():
    """The GNPX chain through ALS r2468c4: one outline of straight segments, no frame per cell;
    the segments of the outline, joined end to end, are one connected piece."""
    grid = lg.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))
    step = lg.chains.prove(lg.chains.chain_search(grid), "cell", lg.SetX.parse("r2c8"), lg.Literal.parse("+r6c6#2"))
    vias = sorted({d["via"] for *_, d in step.proof.edges(data=True) if d["family"] == "als"})
    assert "r2468c4{12378}" in vias or any(v.startswith("r2468c4") for v in vias)
    source = to_dot(step, layout="board", grid=grid).source
    assert "frame-als" not in source and "_als_0_0_" not in source
    i = next(k for k, v in enumerate(vias) if v.startswith("r2468c4"))
    points = dict(re.findall(rf'"?(_als_{i}_\d+[ab])"? \[.*?pos="([-\d.]+,[-\d.]+)!"', source))
    segs = re.findall(rf'"?(_als_{i}_\d+a)"? -> "?(_als_{i}_\d+b)"?', source)
    assert segs
    lines = [tuple(tuple(map(float, points[p].split(","))) for p in pair) for pair in segs]

    def touches(s, t):  # an end of s lies on t (a shared corner, or a joining line meeting a side)
        for x, y in s:
            (x0, y0), (x1, y1) = t
            cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
            inside = min(x0, x1) - 0.2 <= x <= max(x0, x1) + 0.2 and min(y0, y1) - 0.2 <= y <= max(y0, y1) + 0.2
            if abs(cross) < 1.0 and inside:
                return True
        return False

    G = nx.Graph()
    G.add_nodes_from(range(len(lines)))
    G.add_edges_from((i, j) for i in range(len(lines)) for j in range(len(lines))
                     if i != j and (touches(lines[i], lines[j]) or touches(lines[j], lines[i])))
    assert nx.is_connected(G)


def test_nets_command_skips_trivial_nets(capsys):
    puzzle = lg.samples.GNPX_FORCECHAIN
    assert main(["nets", puzzle, "--format", "json"]) == 0
    default = __import__("json").loads(capsys.readouterr().out)["steps"]
    assert default and all(s["support_size"] >= 3 for s in default)
    # unprepared and with no floor, the first net is a single's one or two literals
    assert main(["nets", puzzle, "--prepare", "none", "--min-literals", "0", "--format", "json"]) == 0
    raw = __import__("json").loads(capsys.readouterr().out)["steps"]
    assert raw[0]["support_size"] < 3
    assert main(["nets", puzzle, "--min-literals", "-1"]) == 2


def test_render_nets_prepares_by_default(tmp_path):
    out = tmp_path / "net.dot"
    assert main(["render", lg.samples.GNPX_FORCECHAIN, "--nets", "-o", str(out)]) == 0
    nodes, _ = read_dot(out.read_text())
    assert len(nodes) >= 3
