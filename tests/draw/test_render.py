"""Graphviz export: the DOT of each seed example, read back, holds exactly the proof's
literals and links; hostile text cannot inject; files are written by suffix."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time

import networkx as nx
import pytest

import linkgraph as lg
from linkgraph.errors import GraphvizError, OptionError
from linkgraph.model import Literal, Role, SetX
from linkgraph.chains.steps import prove
from linkgraph.draw.graphviz import STYLE, render, step_svg, to_dot

HAVE_DOT = shutil.which("dot") is not None and shutil.which("neato") is not None
needs_dot = pytest.mark.skipif(not HAVE_DOT, reason="Graphviz programs dot/neato not installed")


# ---- a small DOT reader (node and edge statements of the graphviz package's output) ----
_ID = r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z_0-9]*'
_STMT = re.compile(rf"^\s*({_ID})(?:\s*->\s*({_ID}))?\s*(\[.*\])?\s*;?\s*$")


def _unquote(token: str) -> str:
    if token.startswith('"'):
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return token


def read_dot(source: str) -> tuple[set[str], set[tuple[str, str]]]:
    """Node ids and (tail, head) edges declared in a DOT source (attr lines skipped)."""
    nodes, edges = set(), set()
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("digraph", "subgraph", "{", "}", "graph [", "node [", "edge [")):
            continue
        if re.match(r"^(rank|label|style|color|fontcolor|fontsize)\s*=", stripped):
            continue
        m = _STMT.match(line)
        assert m, f"unparsed DOT line: {line!r}"
        a, b = _unquote(m.group(1)), m.group(2)
        if b is None:
            nodes.add(a)
        else:
            edges.add((a, _unquote(b)))
    return nodes, edges


def read_with_dot(source: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The same read by Graphviz itself (dot -Tjson), proving the source parses."""
    out = subprocess.run(["dot", "-Tjson"], input=source.encode(), capture_output=True, check=True).stdout
    data = json.loads(out)
    objs = data.get("objects", [])
    names = {o["_gvid"]: o["name"] for o in objs if "nodes" not in o and "subgraphs" not in o}
    edges = {(names[e["tail"]], names[e["head"]]) for e in data.get("edges", [])}
    return set(names.values()), edges


def proof_sets(step) -> tuple[set[str], set[tuple[str, str]]]:
    P = step.proof
    return {str(n) for n in P.nodes}, {(str(u), str(v)) for u, v in P.edges}


# ---- the seed's examples -------------------------------------------------------------
@pytest.fixture(scope="module")
def position():
    solver = pytest.importorskip("linkgraph.solver")
    return solver.prepare(lg.Grid.parse(lg.samples.GNPX_FORCECHAIN))


SEED = [("cell", "r2c8", "+r6c6#2"), ("cell", "r2c8", "+r2c6#8"), ("cell", "r2c8", "+r6c4#8"),
        ("contradiction", "+r2c4#2", "-r2c4#2")]


def seed_step(search, variant, premise, target):
    where = Literal.parse(premise) if variant == "contradiction" else SetX.parse(premise)
    return prove(search, variant, where, Literal.parse(target))


@pytest.fixture(scope="module")
def seed_steps(position):
    """The seed's three ForceChain_Cell results (premise cell r2c8) and a contradiction."""
    chains = pytest.importorskip("linkgraph.chains.search")
    search = chains.chain_search(position)
    return [seed_step(search, *case) for case in SEED]


def test_seed_cell_results(seed_steps):
    assert [str(s).split(" (")[0] for s in seed_steps] == [
        "forcing-chain-cell: +r6c6#2", "forcing-chain-cell: +r2c6#8", "forcing-chain-cell: +r6c4#8",
        "forcing-chain-contradiction: -r2c4#2",
    ]


@pytest.mark.parametrize("layout", ["flow", "board"])
def test_dot_holds_exactly_the_proof(seed_steps, position, layout):
    for step in seed_steps:
        dot = to_dot(step, layout=layout, grid=position)
        nodes, edges = read_dot(dot.source)
        lits, links = proof_sets(step)
        assert {n for n in nodes if not n.startswith("_")} == lits
        assert {e for e in edges if not e[0].startswith("_")} == links  # _: decoration (ALS outlines)
        if HAVE_DOT:
            gnodes, gedges = read_with_dot(dot.source)
            assert {n for n in gnodes if not n.startswith("_")} == lits
            assert {e for e in gedges if not e[0].startswith("_")} == links


def test_styles_tell_on_off_roles_and_kinds(seed_steps):
    step = seed_steps[0]
    source = to_dot(step).source
    attrs = {}
    for line in source.splitlines():
        m = re.match(r'\s*"([^"]+)" \[(.*)\]$', line)
        if m and "->" not in line:
            attrs[m.group(1)] = m.group(2)
    for lit in step.proof.nodes:
        a = attrs[str(lit)]
        expected = STYLE["literal"]["on" if lit.on else "off"]["shape"]
        assert f"shape={expected}" in a
        role = step.proof.nodes[lit]["role"]
        if role == Role.PREMISE:
            assert "peripheries=2" in a
        if role == Role.CONCLUSION:
            assert "penwidth=3" in a
        assert f"label=\"{lit.cand}\"" in a or f"label={lit.cand}" in a
    for u, v, d in step.proof.edges(data=True):
        line = next(ln for ln in source.splitlines() if f'"{u}" -> "{v}"' in ln)
        assert STYLE["kind"][d["kind"]]["style"] in line
        assert f"via {d['via']}" in line


def _hostile_proof():
    P = nx.DiGraph(kind="chain")
    a, b = Literal.parse("-r2c6#2"), Literal.parse("+r6c6#2")
    P.add_node(a, role="premise")
    P.add_node(b, role="conclusion")
    P.add_edge(a, b, kind="strong", family="house", via='c6#2"]; evil -> x; "')
    return P


HOSTILE = ['"]; evil [label="x"]; z -> "', "a\\", "<b>html</b>", "line\nbreak", "\\N \\G \\l"]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_cannot_inject(text):
    step = lg.make_step(text, eliminations=[lg.Candidate.parse("r6c6#8")], proof=_hostile_proof(),
                        premises=[Literal.parse("-r2c6#2")])
    for layout in ("flow", "board"):
        dot = to_dot(step, layout=layout, title=text)
        nodes, edges = read_dot(dot.source)
        assert {n for n in nodes if not n.startswith("_")} == {"-r2c6#2", "+r6c6#2"}
        assert edges == {("-r2c6#2", "+r6c6#2")}
        if HAVE_DOT:
            gnodes, gedges = read_with_dot(dot.source)
            assert {n for n in gnodes if not n.startswith("_")} == {"-r2c6#2", "+r6c6#2"}
            assert gedges == {("-r2c6#2", "+r6c6#2")}


@needs_dot
def test_hostile_title_is_shown_verbatim():
    text = 'evil"] <b>x</b> \\N'
    out = subprocess.run(["dot", "-Tjson"], input=to_dot(_hostile_proof(), title=text).source.encode(),
                         capture_output=True, check=True).stdout
    assert json.loads(out)["label"] == text.replace("\\", "\\\\")  # graphviz reports the escaped form


@needs_dot
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF")])
@pytest.mark.parametrize("layout", ["flow", "board"])
def test_render_by_suffix(tmp_path, seed_steps, position, suffix, magic, layout):
    out = render(seed_steps[0], tmp_path / f"chain{suffix}", layout=layout, grid=position)
    assert out.read_bytes().startswith(magic)


def test_render_dot_needs_no_program(tmp_path, monkeypatch, seed_steps):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    out = render(seed_steps[0], tmp_path / "chain.dot")
    assert out.read_text().startswith("digraph proof")
    with pytest.raises(GraphvizError, match="'dot' was not found"):
        render(seed_steps[0], tmp_path / "chain.svg")
    with pytest.raises(GraphvizError, match="'neato' was not found"):
        step_svg(seed_steps[0], layout="board")


def test_bad_suffix_and_layout(tmp_path, seed_steps):
    with pytest.raises(OptionError, match="unknown picture format"):
        render(seed_steps[0], tmp_path / "chain.jpg")
    with pytest.raises(OptionError, match="did you mean 'board'"):
        to_dot(seed_steps[0], layout="bord")


@needs_dot
def test_step_svg(seed_steps):
    svg = step_svg(seed_steps[0])
    assert "<svg" in svg and "r6c6#2" in svg


def test_als_becomes_a_cluster(seed_steps, position):
    als_steps = [s for s in seed_steps if any(d.get("family") == "als" for _, _, d in s.proof.edges(data=True))]
    assert als_steps, "no ALS link among the seed's chains"
    for step in als_steps:
        vias = {d["via"] for _, _, d in step.proof.edges(data=True) if d.get("family") == "als"}
        source = to_dot(step).source
        assert "subgraph cluster_als_" in source
        for via in vias:
            assert f'label="ALS {via}"' in source
        board = to_dot(step, layout="board", grid=position).source
        assert "_als_0" in board


def test_group_node_becomes_a_cluster():
    P = nx.DiGraph(kind="chain")
    g_on = Literal.parse("+r2c78#1")
    P.add_node(Literal.parse("-r2c4#1"), role="premise")
    P.add_edge(Literal.parse("-r2c4#1"), g_on, kind="strong", family="group", via="r2#1")
    source = to_dot(P).source
    assert 'subgraph cluster_group_' in source and 'label="group r2c78#1"' in source
    board = to_dot(P, layout="board").source
    assert "_group_" in board
    nodes, edges = read_dot(source)
    assert nodes == {"-r2c4#1", "+r2c78#1"} and edges == {("-r2c4#1", "+r2c78#1")}


# ---- the command ----------------------------------------------------------------------
@needs_dot
def test_render_command(tmp_path, capsys):
    pytest.importorskip("linkgraph.chains.search")
    from linkgraph.cli.main import main

    out = tmp_path / "chain.svg"
    assert main(["render", lg.samples.GNPX_FORCECHAIN, "--chains", "cell", "--prepare", "basic", "-o", str(out)]) == 0
    assert out.read_text().lstrip().startswith("<?xml")
    assert main(["render", lg.samples.GNPX_FORCECHAIN, "--chains", "cell", "--prepare", "basic", "--all",
                 "--layout", "board", "-o", str(tmp_path / "all.svg")]) == 0
    written = sorted(p.name for p in tmp_path.glob("all-*.svg"))
    assert len(written) >= 3
    assert main(["render", lg.samples.GNPX_FORCECHAIN, "--chains", "cell", "--prepare", "basic", "--index", "99",
                 "-o", str(tmp_path / "x.svg")]) == 1
    assert main(["render", lg.samples.GNPX_FORCECHAIN, "--chains", "cell", "-o", str(tmp_path / "x.gif")]) == 2
    capsys.readouterr()


def test_render_command_dot_and_nets(tmp_path):
    pytest.importorskip("linkgraph.nets.search")
    from linkgraph.cli.main import main

    out = tmp_path / "net.dot"
    assert main(["render", lg.samples.GNPX_FORCECHAIN, "--nets", "--prepare", "basic", "-o", str(out)]) == 0
    nodes, edges = read_dot(out.read_text())
    assert edges and all(Literal.parse(n) for n in nodes)


@needs_dot
def test_render_speed(seed_steps, capsys):
    """Rendering one step to SVG costs the dot run plus a few ms of our own (measured, not timed out)."""
    step = seed_steps[0]
    ours, total = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        dot = to_dot(step)
        t1 = time.perf_counter()
        step_svg(step)
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        total.append(t2 - t1)
    ours.sort(), total.sort()
    with capsys.disabled():
        print(f"\nto_dot median {ours[2] * 1000:.2f} ms, step_svg median {total[2] * 1000:.1f} ms")
    assert dot.source
